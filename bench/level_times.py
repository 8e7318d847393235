"""Each level's decision time, the same decisions in any Python: prints numbers (not a test).

    .venv/bin/python bench/level_times.py [--decisions 60] [--json]
    BENCH_SCRIPT=level_times PYODIDE_DIR=…/node_modules/pyodide node bench/pyodide_review.mjs [--decisions 60]

Plays deals of each level (seat 1) against Casual, ``Deal.random(seed)`` for seeds 1, 2, …,
until the level has made ``--decisions`` decisions with more than one legal card, and times
each with ``time.process_time`` (milliseconds: median, p95, worst). Everything is seeded, so
CPython and Pyodide (``bench/pyodide_review.mjs``, WebAssembly in Node's V8, the engine of
Chromium) make exactly the same decisions. Inside Pyodide ``process_time`` follows the wall
clock, so on a busy machine compare the runtimes by their processes' processor time
(``time node …`` against ``time .venv/bin/python …``); ``bench/live.py --levels-only``
measures the same in Chromium itself, from the built book. With ``--save`` the figures go to
``bench/out/level_times.json``, where ``bench/ladder.py`` takes each level's native time from:
one process timing alone is a steadier measure than the ladder's, whose processes share the
cores with each other.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from calijack import Deal  # noqa: E402
from calijack.players import LEVELS, get_player, play_deal  # noqa: E402


def times(name: str, decisions: int) -> list[float]:
    """Processor seconds of the level's first ``decisions`` decisions with a choice."""
    seconds: list[float] = []

    def on_decision(state, seat, decision, wall, cpu):
        if seat == 1 and len(state.legal_cards()) > 1:
            seconds.append(cpu)

    seed = 1
    while len(seconds) < decisions:
        play_deal(Deal.random(seed), [get_player("casual"), get_player(name)], random.Random(seed),
                  on_decision=on_decision)
        seed += 1
    return seconds[:decisions]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=60)
    parser.add_argument("--levels", nargs="+", choices=list(LEVELS), default=list(LEVELS))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--save", action="store_true",
                        help="also write bench/out/level_times.json (bench/ladder.py takes its native times from it)")
    args = parser.parse_args(argv)
    report = {}
    start = time.process_time()
    for name in args.levels:
        v = sorted(1000 * s for s in times(name, args.decisions))
        report[name] = {"p50": round(statistics.median(v), 1), "p95": round(v[min(len(v) - 1, int(0.95 * len(v)))], 1),
                        "max": round(v[-1], 1), "n": len(v)}
    report["total_s"] = round(time.process_time() - start, 2)
    if args.save:
        import os

        out = Path(__file__).resolve().parent / "out"
        out.mkdir(exist_ok=True)
        (out / "level_times.json").write_text(json.dumps({**report, "load_average": os.getloadavg()}, indent=1))
    if args.json:
        print(json.dumps(report))
    else:
        for name in args.levels:
            t = report[name]
            print(f"{name:<9} ms a decision: median {t['p50']}, p95 {t['p95']}, worst {t['max']} (n={t['n']})")
        print(f"{report['total_s']} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
