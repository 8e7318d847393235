"""Expert against an outside reference: OpenSpiel's Python ISMCTS, on paired deals; prints numbers.

    nice -n 19 .venv/bin/python bench/ismcts_reference.py [--sims 100 300 1000] [--pairs 60 40 12] [--jobs 2]

OpenSpiel (``pip install '.[openspiel]'``) plays California Jack through
``calijack/openspiel_game.py``. The reference is OpenSpiel's Python ISMCTS
(``open_spiel.python.algorithms.ismcts``: information-set Monte Carlo tree search, Cowling,
Powley and Whitehouse 2011) with random rollouts and :data:`calijack.openspiel_game.UCT_C`,
every random choice seeded (``ismcts_bot``): its tree and its rollouts draw from seeded
``np.random.RandomState``s and its guesses at the hidden cards from a seeded sampler, through
the game's ``resample_from_infostate`` (the engine's own guesses, ``players.worlds``).

Pair ``i`` deals ``Deal.random(random.Random(f"ismcts/{seed}/{i}"), dealer=i % 2)`` and plays
it twice, Expert in seat 0 then in seat 1, ISMCTS in the other. The unit is the pair: Expert's
match points minus ISMCTS's, averaged over its two deals; the 95% interval is the normal one
over the pairs. Each decision with more than one legal card is timed in processor seconds
(and wall-clock seconds), by side. Each point of each deal is counted by side (``points``), and
each pair's two deals are kept as the cards played (``plays``, by the pair's number; the deal
itself comes back from the seed), so where the points went can be read afterwards. Pairs are
spread over ``--jobs`` processes.

``--merge`` joins the reports of runs over following pairs (``--first`` extends a run) into one.

Goal (issue 22): Expert beats ISMCTS at 300 simulations (interval above 0) while taking less
than a third of its time per decision. Results go to ``bench/out/ismcts_reference.json``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from paired import mean_interval, percentiles  # noqa: E402

from calijack import Deal  # noqa: E402
from calijack.players import get_player  # noqa: E402

OUT = ROOT / "bench" / "out"


def _pair(job):
    import pyspiel

    from calijack import openspiel_game as og

    player, options, sims, seed, index, uct_c = job
    game = pyspiel.load_game(og.GAME_NAME)
    deal = Deal.random(random.Random(f"ismcts/{seed}/{index}"), dealer=index % 2)
    out = {"index": index, "diff": [], "cpu": {"ours": [], "ismcts": []}, "wall": {"ours": [], "ismcts": []}}
    for seat in range(2):
        ours = get_player(player, **options)
        rng = random.Random(f"ismcts/{seed}/{index}/{seat}")
        bot = og.ismcts_bot(game, sims, seed=hash((seed, index, seat)) % 2 ** 31, uct_c=uct_c)
        state = game.state_of(deal.start())
        while not state.is_terminal():
            to_play = state.current_player()
            choices = len(state.legal_actions())
            gc.collect()  # the other side's garbage (ISMCTS leaves a whole tree) is not this decision's
            wall, cpu = time.perf_counter(), time.process_time()
            if to_play == seat:
                action = ours.choose(state.engine.view(seat), rng).card.index
            else:
                action = bot.step(state)
            side = "ours" if to_play == seat else "ismcts"
            if choices > 1:
                out["cpu"][side].append(time.process_time() - cpu)
                out["wall"][side].append(time.perf_counter() - wall)
            state.apply_action(action)
        out["diff"].append(state.returns()[seat])  # difference=True: our points minus theirs
        # Which points each side took (1 ours, -1 theirs, 0 nobody's): where the difference comes from.
        out.setdefault("points", []).append({a.name: 0 if a.seat is None else 1 if a.seat == seat else -1
                                             for a in state.engine.result().awards})
        # The cards played, in order (the deal comes back from the seed): to study where points go.
        out.setdefault("plays", []).append(" ".join(card.code for card in state.engine.plays))
    return sims, out


def main(argv=None) -> int:
    from calijack.openspiel_game import UCT_C

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sims", type=int, nargs="+", default=[100, 300, 1000], help="ISMCTS simulations per decision")
    parser.add_argument("--pairs", type=int, nargs="+", default=[60, 40, 12],
                        help="paired deals at each number of simulations (one number, or one per --sims)")
    parser.add_argument("--player", default="expert", help="our player (default expert)")
    parser.add_argument("--options", default="{}", help="our player's options as JSON, e.g. "
                        "'{\"noise\": null, \"late_stock\": 0}' for the Expert before issue 33")
    parser.add_argument("--uct-c", type=float, default=UCT_C, help=f"ISMCTS's exploration constant (default {UCT_C})")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--first", type=int, default=0, help="number of the first pair (to extend a run)")
    parser.add_argument("--merge", nargs="+", metavar="REPORT", help="merge the reports of runs over different "
                        "pairs (the same player, options, seed and uct_c) into bench/out/ismcts_reference_"
                        "<player>.json, and play nothing")
    args = parser.parse_args(argv)
    if args.merge:
        report = merge([json.loads(Path(p).read_text()) for p in args.merge])
        (OUT / f"ismcts_reference_{report['player']}.json").write_text(json.dumps(report, indent=1))
        for row in report["rows"]:
            low, high = row["ci95"]
            print(f"ISMCTS-{row['sims']:<5} {row['pairs']} pairs ({row['first']}-{row['first'] + row['pairs'] - 1}): "
                  f"{row['mean']:+.3f} a deal (95% interval {low:+.3f} to {high:+.3f}); times from pairs "
                  f"{row['times_from'][0]}-{row['times_from'][1]}: ratio of medians {row['time_ratio']}")
        return 0
    pairs = args.pairs if len(args.pairs) == len(args.sims) else args.pairs[:1] * len(args.sims)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {args.player} against ISMCTS "
          f"(uct_c {args.uct_c}), pairs {dict(zip(args.sims, pairs))}", flush=True)
    options = json.loads(args.options)
    jobs = [(args.player, options, sims, args.seed, i, args.uct_c)
            for sims, count in zip(args.sims, pairs) for i in range(args.first, args.first + count)]
    results = {sims: [] for sims in args.sims}
    start = time.time()
    import multiprocessing

    OUT.mkdir(parents=True, exist_ok=True)
    tag = "".join(f"_{k}{v}" for k, v in sorted(options.items()))
    name = f"ismcts_reference_{args.player}{tag}" + (f"_from{args.first}" if args.first else "") + ".json"
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        for sims, out in pool.imap_unordered(_pair, jobs, chunksize=1):
            results[sims].append(out)
            report = _report(args, results)  # saved after every pair: a run stopped early keeps its figures
            (OUT / name).write_text(json.dumps(report, indent=1))
            row = next(r for r in report["rows"] if r["sims"] == sims)
            print(f"  ISMCTS-{sims}: {row['pairs']} pairs, {args.player} {row['mean']:+.3f} a deal so far "
                  f"({time.time() - start:.0f} s, load average {os.getloadavg()[0]:.1f})", flush=True)
    for row in report["rows"]:
        low, high = row["ci95"]
        print(f"ISMCTS-{row['sims']:<5} {row['pairs']} pairs: {args.player} {row['mean']:+.3f} points a deal "
              f"(95% interval {low:+.3f} to {high:+.3f}); processor ms per decision: {args.player} p50 "
              f"{row['ours_cpu_ms']['p50']} p95 {row['ours_cpu_ms']['p95']}, ISMCTS p50 "
              f"{row['ismcts_cpu_ms']['p50']} p95 {row['ismcts_cpu_ms']['p95']} "
              f"(ratio of medians {row['time_ratio']})"
              + (f"; each point, ours minus theirs a deal: " + ", ".join(f"{k} {v:+.3f}" for k, v in row["points"].items())
                 if "points" in row else ""), flush=True)
    print(f"wrote bench/out/{name}; {time.time() - start:.0f} s; load average {os.getloadavg()[0]:.1f}")
    return 0


def merge(reports: list[dict]) -> dict:
    """One report from runs over different pairs of the same games: each number of simulations'
    pairs joined (they must follow one another with no gap or overlap), its mean and interval
    over all of them. Decision times cannot be pooled from percentiles: each row keeps those of
    the run with the most decisions there, ``times_from`` naming its pairs (a ratio from one run)."""
    keys = ("player", "options", "seed", "uct_c")
    for report in reports[1:]:
        for key in keys:
            if report[key] != reports[0][key]:
                raise SystemExit(f"cannot merge: {key} differs ({reports[0][key]!r} and {report[key]!r})")
    rows = []
    for sims in sorted({r["sims"] for report in reports for r in report["rows"]}):
        parts = sorted((r for report in reports for r in report["rows"] if r["sims"] == sims),
                       key=lambda r: r["first"])
        for r in parts:  # a run stopped early may lack some pairs before its last
            if r.get("last", r["first"] + r["pairs"] - 1) != r["first"] + r["pairs"] - 1:
                raise SystemExit(f"cannot merge ISMCTS-{sims}: the run from pair {r['first']} has {r['pairs']} pairs "
                                 f"but its last is pair {r['last']}")
        for a, b in zip(parts, parts[1:]):
            if a["first"] + a["pairs"] != b["first"]:
                raise SystemExit(f"cannot merge ISMCTS-{sims}: pairs {a['first']}-{a['first'] + a['pairs'] - 1} "
                                 f"are not followed by pair {a['first'] + a['pairs']} but by {b['first']}")
        diffs = [d for r in parts for d in r["diffs"]]
        mean, low, high = mean_interval(diffs)
        timed = max(parts, key=lambda r: r["ours_cpu_ms"]["decisions"])
        rows.append({**{k: v for k, v in timed.items() if k.endswith("_ms") or k == "time_ratio"},
                     "sims": sims, "pairs": len(diffs), "mean": round(mean, 3),
                     "ci95": [round(low, 3), round(high, 3)], "first": parts[0]["first"],
                     "last": parts[-1]["first"] + parts[-1]["pairs"] - 1, "diffs": diffs,
                     "times_from": [timed["first"], timed["first"] + timed["pairs"] - 1],
                     "runs": [{"first": r["first"], "pairs": r["pairs"], "mean": r["mean"], "ci95": r["ci95"]}
                              for r in parts]})
        played = {str(k): v for r in parts for k, v in r.get("plays", {}).items()}  # runs before plays were kept have none
        if played:
            rows[-1]["plays"] = played
        counted = [r for r in parts if "points" in r]  # runs before the points were kept have none
        if counted:
            pairs = sum(r["pairs"] for r in counted)
            rows[-1]["points"] = {name: round(sum(r["points"].get(name, 0) * r["pairs"] for r in counted) / pairs, 3)
                                  for name in dict.fromkeys(n for r in counted for n in r["points"])}
            rows[-1]["points_pairs"] = pairs
    return {**{k: reports[0][k] for k in keys}, "first": min(r["first"] for r in rows),
            "load_average": max((r["load_average"] for r in reports), key=max), "merged": len(reports), "rows": rows}


def _report(args, results: dict) -> dict:
    """The JSON-ready report of the pairs played so far, one row per number of simulations."""
    report = {"player": args.player, "options": json.loads(args.options), "uct_c": args.uct_c, "seed": args.seed, "first": args.first,
              "load_average": [round(x, 2) for x in os.getloadavg()], "rows": []}
    for sims, done in results.items():
        if not done:
            continue
        done = sorted(done, key=lambda r: r["index"])
        mean, low, high = mean_interval([sum(r["diff"]) / 2 for r in done])
        row = {"sims": sims, "pairs": len(done), "mean": round(mean, 3), "ci95": [round(low, 3), round(high, 3)],
               "first": done[0]["index"], "last": done[-1]["index"],
               "diffs": [sum(r["diff"]) / 2 for r in done],  # each pair's, to merge runs
               "plays": {r["index"]: r["plays"] for r in done if "plays" in r}}  # each pair's two deals, ours in seat 0 then 1
        for kind in ("cpu", "wall"):
            for side in ("ours", "ismcts"):
                row[f"{side}_{kind}_ms"] = percentiles([t for r in done for t in r[kind][side]])
        row["time_ratio"] = round(row["ours_cpu_ms"]["p50"] / row["ismcts_cpu_ms"]["p50"], 3)
        deals = [p for r in done for p in r.get("points", [])]
        if deals:  # each point, ours minus theirs, a deal on average
            row["points"] = {name: round(sum(d.get(name, 0) for d in deals) / len(deals), 3)
                             for name in dict.fromkeys(n for d in deals for n in d)}
        report["rows"].append(row)
    return report


if __name__ == "__main__":
    sys.exit(main())
