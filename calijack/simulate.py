"""``python -m calijack simulate A B``: matches (or deals) between two opponents, with statistics.

Each match is seeded from ``--seed`` and its number, so a run reproduces exactly whatever
``--jobs`` is; A takes the other seat in every second match (with three players A takes
one seat, in turn, and B the other two). Matches are spread over processes.
"""

from __future__ import annotations

import json
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path

from .match import Match
from .rules import RuleError, Rules

__all__ = ["register", "run", "wilson", "parse_rule", "SimulationError", "SEARCHING"]

SEARCHING = ("strong", "expert", "search")
"""The players that search (guesses at the hidden cards): they take ``--samples`` and ``--time-limit``."""


class SimulationError(ValueError):
    """A bad option for a simulation (unknown player, rule, or count)."""


def wilson(wins: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a proportion ``wins / total``."""
    if total <= 0:
        return (0.0, 1.0)
    p = wins / total
    denom = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denom
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def parse_rule(text: str) -> tuple[str, object]:
    """``"name=value"`` → ``(name, value)``: whole numbers and true/false are converted."""
    if "=" not in text:
        raise SimulationError(f"--rule takes name=value (such as target=7), not {text!r}")
    name, value = (part.strip() for part in text.split("=", 1))
    if value.lower() in ("true", "false"):
        return name, value.lower() == "true"
    if value.lstrip("-").isdigit():
        return name, int(value)
    return name, value


def _players(spec: dict, rules: Rules, seat_a: int):
    from .players import get_player

    return [get_player(spec["a"], **spec["a_options"]) if s == seat_a
            else get_player(spec["b"], **spec["b_options"]) for s in range(rules.players)]


def _unit(job):
    """Play one match (or one deal) ``index``; a summary of what happened, by side."""
    from .players import play_deal
    from .records import deal_record, dumps

    spec, index = job
    rules = Rules.from_dict(spec["rules"])
    n = rules.players
    rng = random.Random(f"{spec['seed']}:{index}")
    seat_a = index % n
    side = ["A" if s == seat_a else "B" for s in range(n)]
    players = _players(spec, rules, seat_a)
    times = {"A": [], "B": []}
    cpu = {"A": [], "B": []}

    def timed(state, seat, decision, seconds, cpu_seconds):
        times[side[seat]].append(seconds)
        cpu[side[seat]].append(cpu_seconds)

    points = {name: {"A": 0, "B": 0, "none": 0} for name in rules.point_names}
    pips = {"A": 0, "B": 0}
    dealer_pts, other_pts = 0, 0
    match = Match.random(rng, rules)
    deals = 0
    while not match.finished and (spec["deals"] is None or deals < 1):
        state = play_deal(match.next_deal(rng), players, rng, timed, scores=match.scores)
        result = state.result()
        if spec["records"]:
            path = Path(spec["records"]) / f"{'deal' if spec['deals'] else 'match'}{index:05d}_{deals:02d}.json"
            path.write_text(dumps(deal_record(state)) + "\n", encoding="utf-8")
        for award in result.awards:
            points[award.name]["none" if award.seat is None else side[award.seat]] += 1
        for seat in range(n):
            pips[side[seat]] += result.pips[seat] / (n - 1 if side[seat] == "B" else 1)
        earned = result.points
        dealer_pts += earned[state.dealer]
        other_pts += sum(earned[s] for s in range(n) if s != state.dealer) / (n - 1)
        match = match.add(result)
        deals += 1
    if spec["deals"] is not None:
        mine = sum(v["A"] for v in points.values())
        theirs = sum(v["B"] for v in points.values())
        winner = "A" if mine > theirs else "B" if theirs > mine else None
    else:
        winner = side[match.winner]
    return {"index": index, "winner": winner, "deals": deals, "points": points, "pips": pips,
            "dealer": dealer_pts, "non_dealer": other_pts, "times": times, "cpu": cpu}


def _ms(values: list[float]) -> dict | None:
    if not values:
        return None
    ordered = sorted(values)
    return {"decisions": len(ordered), "median": round(1000 * statistics.median(ordered), 2),
            "p95": round(1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 2),
            "max": round(1000 * ordered[-1], 2)}


def run(a: str, b: str, matches: int = 100, *, rules: Rules | dict | None = None, seed: int = 0,
        jobs: int | None = None, deals: int | None = None, records: str | None = None,
        a_options: dict | None = None, b_options: dict | None = None, progress: bool = False,
        first: int = 0, keep_times: bool = False) -> dict:
    """Play the matches (or ``deals`` single deals) and return the JSON-ready summary.

    ``first`` numbers the matches from there (so runs can be split into parts that add up);
    ``keep_times`` adds every decision's processor seconds per side under ``"cpu_seconds"``.
    """
    from .players import PLAYERS, get_player

    for name, options in ((a, a_options), (b, b_options)):
        if name not in PLAYERS:
            raise SimulationError(f"unknown player {name!r} (choose one of {', '.join(PLAYERS)})")
        get_player(name, **(options or {}))  # raises PlayerError on a bad option
    if not isinstance(rules, Rules):
        rules = Rules.from_dict(rules or {})
    units = deals if deals is not None else matches
    if isinstance(units, bool) or not isinstance(units, int) or units < 1:
        raise SimulationError(f"the number of {'deals' if deals is not None else 'matches'} must be at least 1, not {units!r}")
    jobs = max(1, min(jobs or os.cpu_count() or 1, units))
    if records:
        Path(records).mkdir(parents=True, exist_ok=True)
    spec = {"a": a, "b": b, "a_options": a_options or {}, "b_options": b_options or {},
            "rules": rules.to_dict(), "seed": seed, "deals": deals, "records": records}
    work = [(spec, i) for i in range(first, first + units)]
    start = time.perf_counter()
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=units, file=sys.stderr, unit="deal" if deals else "match")
    results = []
    if jobs == 1:
        for job in work:
            results.append(_unit(job))
            if bar:
                bar.update()
    else:
        import multiprocessing

        with multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn").Pool(jobs) as pool:
            for summary in pool.imap_unordered(_unit, work, chunksize=1):
                results.append(summary)
                if bar:
                    bar.update()
    if bar:
        bar.close()
    results.sort(key=lambda r: r["index"])
    report = _summary(a, b, rules, seed, deals, results, time.perf_counter() - start, jobs)
    if keep_times:
        report["cpu_seconds"] = {k: [t for r in results for t in r["cpu"][k]] for k in ("A", "B")}
        report["wall_seconds"] = {k: [t for r in results for t in r["times"][k]] for k in ("A", "B")}
    return report


def _summary(a, b, rules, seed, deals, results, seconds, jobs) -> dict:
    wins = [sum(r["winner"] == "A" for r in results), sum(r["winner"] == "B" for r in results)]
    decided = wins[0] + wins[1]
    low, high = wilson(wins[0], decided)
    played = sum(r["deals"] for r in results)
    points = {}
    for name in rules.point_names:
        counts = {k: sum(r["points"][name][k] for r in results) for k in ("A", "B", "none")}
        points[name] = {k: round(v / played, 4) for k, v in counts.items()}
    times = {k: [t for r in results for t in r["times"][k]] for k in ("A", "B")}
    cpu = {k: [t for r in results for t in r["cpu"][k]] for k in ("A", "B")}
    dealer = sum(r["dealer"] for r in results) / played
    non_dealer = sum(r["non_dealer"] for r in results) / played
    return {
        "players": [a, b], "mode": "deals" if deals is not None else "matches",
        "matches": len(results), "deals": played, "wins": wins,
        "ties": len(results) - decided,
        "win_rate": round(wins[0] / decided, 4) if decided else None,
        "ci95": [round(low, 4), round(high, 4)],
        "point_share": points,
        "pips_per_deal": {"A": round(sum(r["pips"]["A"] for r in results) / played, 2),
                          "B": round(sum(r["pips"]["B"] for r in results) / played, 2)},
        "dealer_points_per_deal": round(dealer, 4), "non_dealer_points_per_deal": round(non_dealer, 4),
        "dealer_edge": round(dealer - non_dealer, 4),
        "decision_ms": {k: _ms(v) for k, v in times.items()},
        "decision_cpu_ms": {k: _ms(v) for k, v in cpu.items()},
        "rules": rules.to_dict(), "seed": seed, "jobs": jobs, "seconds": round(seconds, 2),
    }


def _text(report: dict) -> str:
    a, b = report["players"]
    unit = "deals" if report["mode"] == "deals" else "matches"
    low, high = report["ci95"]
    rate = report["win_rate"]
    lines = [f"{a} (A) vs {b} (B): {report['matches']} {unit}, {report['deals']} deals in all, "
             f"rules: {', '.join(f'{k}={v}' for k, v in report['rules'].items()) or 'standard'}",
             f"wins: A {report['wins'][0]}, B {report['wins'][1]}" + (f", ties {report['ties']}" if report["ties"] else ""),
             f"A's win rate: {rate:.1%} (95% interval {low:.1%} to {high:.1%})" if rate is not None
             else "A's win rate: no decided games",
             "share of each point per deal (A / B / nobody):"]
    for name, share in report["point_share"].items():
        lines.append(f"  {name:<5} {share['A']:.1%} / {share['B']:.1%} / {share['none']:.1%}")
    pips = report["pips_per_deal"]
    lines.append(f"card values captured per deal: A {pips['A']}, B {pips['B']}")
    lines.append(f"dealer's edge: {report['dealer_edge']:+.3f} match points a deal "
                 f"(dealer {report['dealer_points_per_deal']}, other {report['non_dealer_points_per_deal']})")
    for key, name in (("A", a), ("B", b)):
        t, c = report["decision_ms"][key], report["decision_cpu_ms"][key]
        if t and name in SEARCHING:
            lines.append(f"{name} ({key}) ms per decision: median {t['median']}, p95 {t['p95']}, max {t['max']} "
                         f"(processor time: median {c['median']}, p95 {c['p95']}, max {c['max']})")
    lines.append(f"{report['seconds']} s on {report['jobs']} process(es), seed {report['seed']}")
    return "\n".join(lines)


def _command(args) -> int:
    from .players import PlayerError

    try:
        options = dict(parse_rule(text) for text in args.rule or [])
        rules = Rules.from_dict(options)
        search = {}
        if args.samples is not None:
            search["samples"] = args.samples
        if args.time_limit is not None:
            if not args.time_limit > 0:
                raise SimulationError(f"--time-limit must be a positive number of milliseconds, not {args.time_limit:g}")
            search["time_limit"] = args.time_limit / 1000
        report = run(args.a, args.b, args.matches, rules=rules, seed=args.seed, jobs=args.jobs,
                     deals=args.deals, records=args.records,
                     a_options=search if args.a in SEARCHING else {},
                     b_options=search if args.b in SEARCHING else {},
                     progress=not args.json and sys.stderr.isatty() and not args.no_progress)
    except (RuleError, SimulationError, PlayerError) as error:
        print(f"calijack simulate: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"calijack simulate: cannot write records: {error}", file=sys.stderr)
        return 1
    print(json.dumps(report) if args.json else _text(report))
    return 0


def register(subparsers) -> None:
    """Add the ``simulate`` command to the command line."""
    from .players import PLAYERS

    names = ", ".join(PLAYERS)
    cmd = subparsers.add_parser("simulate", help="play matches between two opponents and report statistics")
    cmd.add_argument("a", metavar="A", help=f"the first opponent ({names})")
    cmd.add_argument("b", metavar="B", help=f"the second opponent ({names})")
    cmd.add_argument("--matches", type=int, default=100, help="matches to the target (default 100)")
    cmd.add_argument("--deals", type=int, default=None, help="play N single deals instead of matches (a deal is won by "
                     "the side that earns more match points in it)")
    cmd.add_argument("--rule", action="append", metavar="NAME=VALUE", help="a rule option (repeatable)")
    cmd.add_argument("--seed", type=int, default=0, help="the seed that reproduces the run")
    cmd.add_argument("--jobs", type=int, default=None, help="processes (default: every core)")
    cmd.add_argument("--samples", type=int, default=None, help="strong, expert: guesses per decision (expert: "
                     "the fewest)")
    cmd.add_argument("--time-limit", type=float, default=None, metavar="MS",
                     help="strong, expert: milliseconds of processor time per decision (then not reproducible)")
    cmd.add_argument("--records", metavar="DIR", help="save every deal as a record in DIR")
    cmd.add_argument("--json", action="store_true", help="print one JSON object")
    cmd.add_argument("--no-progress", action="store_true", help="no progress bar")
    cmd.set_defaults(run=_command)

    def error(message: str):  # one line, not argparse's usage block
        print(f"calijack simulate: {message}", file=sys.stderr)
        raise SystemExit(2)

    cmd.error = error
