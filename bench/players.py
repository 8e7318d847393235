"""Strength and speed of the computer opponents: prints numbers (not a test).

    .venv/bin/python bench/players.py [--matches 400] [--tradeoff-matches 200 100 40] [--jobs 2]

Plays matches to 10 (seats swapped every second match) through ``calijack.simulate.run``:
heuristic vs random, search vs heuristic, then search with 10, 50 and 250 ms of processor
time per decision vs heuristic. Each run's full JSON goes to ``bench/out/`` (git-ignored).
Targets: heuristic beats random in at least 80% of matches; search beats heuristic in at
least 60% with a 95% interval above 50%; search's median decision at most 250 ms, worst 1 s.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from calijack.simulate import run  # noqa: E402

OUT = ROOT / "bench" / "out"


def line(tag: str, report: dict) -> str:
    """One printed line per pairing."""
    low, high = report["ci95"]
    text = (f"{tag:<28} matches {report['matches']:>4}  wins {report['wins'][0]:>4}-{report['wins'][1]:<4} "
            f"rate {report['win_rate']:.3f}  ci95 [{low:.3f}, {high:.3f}]")
    for key in ("A", "B"):
        cpu, wall = report["decision_cpu_ms"][key], report["decision_ms"][key]
        if cpu and report["players"][0 if key == "A" else 1] == "search":
            text += (f"  search ms/decision cpu median {cpu['median']} p95 {cpu['p95']} max {cpu['max']}"
                     f" | wall median {wall['median']} p95 {wall['p95']} max {wall['max']}")
    return text


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--tradeoff-matches", type=int, nargs=3, default=[200, 100, 40],
                        metavar=("N10", "N50", "N250"), help="matches at 10, 50 and 250 ms")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--only", choices=["heuristic", "search", "tradeoff"], action="append")
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    parts = args.only or ["heuristic", "search", "tradeoff"]
    plan = []
    if "heuristic" in parts:
        plan.append(("heuristic_vs_random", "heuristic", "random", {}, args.matches))
    if "search" in parts:
        plan.append(("search_vs_heuristic", "search", "heuristic", {}, args.matches))
    if "tradeoff" in parts:
        for ms, count in zip((10, 50, 250), args.tradeoff_matches):
            plan.append((f"search{ms}ms_vs_heuristic", "search", "heuristic",
                         {"time_limit": ms / 1000, "samples": 10 ** 6}, count))
    for tag, a, b, options, matches in plan:
        report = run(a, b, matches, seed=args.seed, jobs=args.jobs, a_options=options)
        (OUT / f"{tag}.json").write_text(json.dumps(report, indent=1))
        print(line(tag, report), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
