"""Strength and speed of the computer opponents: prints numbers (not a test).

    .venv/bin/python bench/players.py [--matches 400] [--part 20] [--jobs 2] [--only NAME ...]

Plays matches to 10 (A takes the other seat in every second match) through
``calijack.simulate.run``, in parts of ``--part`` matches so that a long run reports as it goes:
heuristic vs random, search vs heuristic, then search with 10, 50 and 250 ms of processor time
per decision vs heuristic (``--tradeoff-matches``). After each part it prints the running
totals and rewrites ``bench/out/<pairing>.json`` (git-ignored).
Targets: heuristic beats random in at least 80% of matches; search beats heuristic in at
least 60% with a 95% interval above 50%; search's median decision at most 250 ms, worst 1 s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from calijack.simulate import run, wilson  # noqa: E402

OUT = ROOT / "bench" / "out"


def _ms(values):
    if not values:
        return None
    v = sorted(values)
    return {"decisions": len(v), "median": round(1000 * statistics.median(v), 1),
            "p95": round(1000 * v[min(len(v) - 1, int(0.95 * len(v)))], 1), "max": round(1000 * v[-1], 1)}


def pairing(tag, a, b, options, matches, part, jobs, seed, start=0):
    """Play one pairing in parts (matches ``start`` on), printing the running totals after each part."""
    wins, deals = [0, 0], 0
    cpu, wall = [], []
    done = 0
    if start:
        tag = f"{tag}_from{start}"
    while done < matches:
        size = min(part, matches - done)
        report = run(a, b, size, seed=seed, jobs=jobs, a_options=options, first=start + done, keep_times=True)
        done += size
        wins = [wins[0] + report["wins"][0], wins[1] + report["wins"][1]]
        deals += report["deals"]
        if a == "search":
            cpu += report["cpu_seconds"]["A"]
            wall += report["wall_seconds"]["A"]
        low, high = wilson(wins[0], wins[0] + wins[1])
        total = {"pairing": tag, "players": [a, b], "options": options, "matches": done, "deals": deals,
                 "wins": wins, "win_rate": round(wins[0] / max(1, wins[0] + wins[1]), 4),
                 "ci95": [round(low, 4), round(high, 4)], "decision_cpu_ms": _ms(cpu),
                 "decision_wall_ms": _ms(wall), "last_part": {k: v for k, v in report.items()
                                                              if k not in ("cpu_seconds", "wall_seconds")}}
        (OUT / f"{tag}.json").write_text(json.dumps(total, indent=1))
        text = (f"{tag:<26} matches {done:>4}  wins {wins[0]:>4}-{wins[1]:<4} rate {total['win_rate']:.3f}"
                f"  ci95 [{low:.3f}, {high:.3f}]")
        if cpu:
            c, w = total["decision_cpu_ms"], total["decision_wall_ms"]
            text += (f"  search ms/decision: cpu median {c['median']} p95 {c['p95']} max {c['max']}"
                     f" (n={c['decisions']}) | wall median {w['median']} p95 {w['p95']} max {w['max']}")
        print(text, flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--tradeoff-matches", type=int, nargs=3, default=[200, 100, 40],
                        metavar=("N10", "N50", "N250"), help="matches at 10, 50 and 250 ms")
    parser.add_argument("--part", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--only", choices=["heuristic", "search", "tradeoff"], action="append")
    parser.add_argument("--start", type=int, nargs="+", default=[0],
                        help="number of the first match (one per pairing run, to extend an earlier run)")
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    parts = args.only or ["heuristic", "search", "tradeoff"]
    starts = iter(args.start + [args.start[-1]] * 5)
    if "heuristic" in parts:
        pairing("heuristic_vs_random", "heuristic", "random", {}, args.matches, args.part, args.jobs,
                args.seed, next(starts))
    if "search" in parts:
        pairing("search_vs_heuristic", "search", "heuristic", {}, args.matches, args.part, args.jobs,
                args.seed, next(starts))
    if "tradeoff" in parts:
        for ms, count in zip((10, 50, 250), args.tradeoff_matches):
            if count:
                pairing(f"search{ms}ms_vs_heuristic", "search", "heuristic",
                        {"time_limit": ms / 1000, "samples": 10 ** 6}, count, args.part, args.jobs,
                        args.seed, next(starts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
