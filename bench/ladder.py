"""The opponents' ladder: each level against the one below, on paired deals; prints numbers.

    nice -n 19 .venv/bin/python bench/ladder.py [--pairs 400] [--jobs 2] [--seed 22] [--only expert_vs_strong]

Plays, on paired deals (``bench/paired.py``: the same cards twice, seats swapped), Beginner
against the random player (to show it is not random), Casual against Beginner, Strong against
Casual and Expert against Strong. Strong *is* the old ``search`` (``get_player("strong")`` and
``get_player("search")`` build the same player with the same options), so Expert against
Strong is Expert against the old search too. For each pairing it prints the upper level's mean
point difference per deal with its 95% interval, and each level's decision time (processor
milliseconds, p50 and p95, over decisions with more than one legal card).

It writes ``calijack/data/ladder.json`` (committed: the Strategy chapter and the README read
their figures from it), and ``bench/out/ladder_<pairing>.json`` (git-ignored) as each pairing
ends, so ``--only`` can re-run one pairing and the file is assembled from the latest of each
(``--assemble`` only assembles it). Each level's decision time in it comes from
``bench/level_times.py --save`` when that has been run (one process timing alone: steadier
than the ladder's own times, taken while its processes share the cores). Expert against
OpenSpiel's ISMCTS
(``bench/ismcts_reference.py``) goes in too, as ``reference``, once it has been run.
Targets (issue 22): every interval above 0; Expert's p95 at most 100 ms (native).

The figures depend on the machine: it prints and stores the load average, since a busy
machine stretches wall-clock times (processor times much less).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from paired import merge, run_pairs, summary  # noqa: E402

from calijack import Rules  # noqa: E402
from calijack.players import LEVELS  # noqa: E402

OUT = ROOT / "bench" / "out"
DATA = ROOT / "calijack" / "data" / "ladder.json"
PAIRINGS = [("beginner", "random"), ("casual", "beginner"), ("strong", "casual"), ("expert", "strong")]


def tag(a: str, b: str) -> str:
    """A pairing's name: ``expert_vs_strong``."""
    return f"{a}_vs_{b}"


def play(a: str, b: str, pairs: int, seed: int, jobs: int, first: int = 0) -> dict:
    """One pairing (pairs ``first`` on); every tenth of the way a progress line, and the pairs so
    far saved to ``bench/out/ladder_<pairing>[_from<first>]_partial.json`` (a long run stopped
    early keeps its figures). The finished report is saved without ``_partial`` and returned."""
    start, step = time.time(), max(1, pairs // 10)
    OUT.mkdir(parents=True, exist_ok=True)
    rules = Rules()
    name = f"ladder_{tag(a, b)}" + (f"_from{first}" if first else "")

    def progress(done, results):
        if done % step == 0 or done == pairs:
            so_far = summary((a, {}), (b, {}), rules, seed, results)
            so_far["seconds"] = round(time.time() - start, 1)
            so_far["load_average"] = [round(x, 2) for x in os.getloadavg()]
            (OUT / f"{name}_partial.json").write_text(json.dumps(so_far, indent=1))
            print(f"  {tag(a, b)}: {done}/{pairs} pairs, mean so far {so_far['mean']:+.3f} "
                  f"(95% interval {so_far['ci95'][0]:+.3f} to {so_far['ci95'][1]:+.3f}; {so_far['seconds']:.0f} s, "
                  f"load average {so_far['load_average'][0]})", flush=True)

    report = run_pairs((a, {}), (b, {}), pairs, seed=seed, jobs=jobs, rules=rules, first=first, on_pair=progress)
    report["seconds"] = round(time.time() - start, 1)
    report["load_average"] = [round(x, 2) for x in os.getloadavg()]
    (OUT / f"{name}.json").write_text(json.dumps(report, indent=1))
    return report


def latest(a: str, b: str, partial: bool) -> dict | None:
    """The pairing's results in ``bench/out``: every run over other pairs (``--first``) merged,
    a finished run preferred to the same run's partial file (taken only with ``partial``)."""
    runs = {}
    for path in sorted(OUT.glob(f"ladder_{tag(a, b)}*.json")):
        stem = path.stem.removesuffix("_partial")
        if path.stem.endswith("_partial") and (not partial or (OUT / f"{stem}.json").exists()):
            continue
        runs[stem] = json.loads(path.read_text())
    if not runs:
        return None
    found = list(runs.values())
    if len(found) == 1 or not all("raw" in r for r in found):
        return max(found, key=lambda r: r["pairs"])
    merged = merge(found)
    merged["load_average"] = max((r["load_average"] for r in found), key=lambda x: x[0])
    return merged


def assemble(partial: bool = False) -> dict:
    """``ladder.json`` from the latest report of each pairing in ``bench/out`` (with ``partial``,
    the pairs so far of a pairing that has not finished)."""
    rows, times = [], {}
    for a, b in PAIRINGS:
        report = latest(a, b, partial)
        if report is None:
            return {"missing": tag(a, b)}
        rows.append({"a": a, "b": b, "pairs": report["pairs"], "deals": report["deals"], "seed": report["seed"],
                     "mean": report["mean"], "ci95": report["ci95"], "load_average": report["load_average"]})
        for side, name in (("A", a), ("B", b)):
            times.setdefault(name, []).append(report["cpu_ms"][side])
    native = {}
    timed = OUT / "level_times.json"
    if timed.exists():  # bench/level_times.py --save: each level timed alone
        found = json.loads(timed.read_text())
        native = {name: {"p50": found[name]["p50"], "p95": found[name]["p95"], "decisions": found[name]["n"],
                         "alone": True} for name in LEVELS if name in found}
    for name in LEVELS:  # else the pairing where the level made the most decisions
        if name in times and name not in native:
            best = max((t for t in times[name] if t), key=lambda t: t["decisions"])
            native[name] = {k: best[k] for k in ("p50", "p95", "decisions")}
    old = json.loads(DATA.read_text()) if DATA.exists() else {}
    reference = old.get("reference")
    reading = (reference or {}).get("reading")  # measured once (issue 33, CHANGELOG 2026-12-05 (evening))
    path = OUT / "ismcts_reference_expert.json"
    if path.exists():  # Expert against OpenSpiel's ISMCTS (bench/ismcts_reference.py), when it has been run
        found = json.loads(path.read_text())
        reference = {"uct_c": found["uct_c"], "load_average": found["load_average"],
                     "rows": [{"sims": r["sims"], "pairs": r["pairs"], "mean": r["mean"], "ci95": r["ci95"],
                               "expert_ms": {k: r["ours_cpu_ms"][k] for k in ("p50", "p95")},
                               "ismcts_ms": {k: r["ismcts_cpu_ms"][k] for k in ("p50", "p95")},
                               # merged runs (ismcts_reference.py --merge): the times are one run's pairs
                               **({"times_from": r["times_from"]} if "times_from" in r else {}),
                               # each point, Expert's minus ISMCTS's a deal, over the pairs that counted them
                               **({"points": r["points"], "points_pairs": r.get("points_pairs", r["pairs"])}
                                  if "points" in r else {})}
                              for r in found["rows"]]}
        if reading:  # the Expert reading its opponent against not (the Strategy chapter's), kept as it was
            reference["reading"] = reading
    return {"about": "bench/ladder.py: mean match-point difference per deal on paired deals (the upper level "
                     "minus the lower), 95% interval over the pairs; decision times in processor ms "
                     "(decisions with a choice)",
            "date": datetime.date.today().isoformat(), "python": platform.python_version(),
            "rows": rows, "native_ms": native, "browser_ms": old.get("browser_ms", {}),
            **({"reference": reference} if reference else {})}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=400, help="paired deals per pairing (default 400)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--first", type=int, default=0,
                        help="number of the first pair (runs over other pairs are merged into ladder.json)")
    parser.add_argument("--only", choices=[tag(a, b) for a, b in PAIRINGS], action="append",
                        help="play only this pairing (repeatable); the others' latest results are kept")
    parser.add_argument("--assemble", action="store_true",
                        help="play nothing: write ladder.json from the latest results in bench/out")
    parser.add_argument("--partial", action="store_true",
                        help="with --assemble: take the pairs so far of a pairing that has not finished")
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    for a, b in PAIRINGS:
        if args.assemble or (args.only and tag(a, b) not in args.only):
            continue
        r = play(a, b, args.pairs, args.seed, args.jobs, args.first)
        low, high = r["ci95"]
        print(f"{tag(a, b):<20} {r['pairs']} pairs: {a} {r['mean']:+.3f} points a deal (95% interval "
              f"{low:+.3f} to {high:+.3f}); ms per decision {a} p50 {r['cpu_ms']['A']['p50']} "
              f"p95 {r['cpu_ms']['A']['p95']}, {b} p50 {r['cpu_ms']['B']['p50']} p95 {r['cpu_ms']['B']['p95']}"
              f" ({r['seconds']} s)", flush=True)
    data = assemble(args.partial)
    if "missing" in data:
        print(f"{data['missing']} has no result yet: {DATA.relative_to(ROOT)} is left as it was")
        return 0
    DATA.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {DATA.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
