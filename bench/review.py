"""How fast the coach is: reviewing whole deals, and solving every exact position.

    .venv/bin/python bench/review.py [--deals 5] [--samples 100] [--json]

Plays ``--deals`` two-player deals between two heuristic players (seeded), then times, in
processor seconds on one core:

- the review of each whole deal, every seat's plays (``calijack review``'s work), and of one
  seat's plays (the sandbox's "Review this deal"): median and worst;
- every exact position met on the way (two players, the stock gone): each one's values,
  solved by full minimax (alpha-beta): median and worst, in milliseconds.

Target (issue 12): a full two-player deal reviewed in at most 10 s on one core.

The same file runs inside Pyodide (``bench/pyodide_review.mjs`` loads it with the package in
Node's WebAssembly engine, V8, as Chromium's), so the two runtimes are timed by one code path.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if (ROOT / "calijack").is_dir():
    sys.path.insert(0, str(ROOT))

from calijack import Deal  # noqa: E402
from speed import print_report  # noqa: E402 - bench/speed.py, beside this file
from calijack.players import get_player, play_deal  # noqa: E402
from calijack.review import DEFAULT_SAMPLES, exact_position, rate, review  # noqa: E402


def deals(count: int):
    """``count`` finished deals between two heuristic players, from seeds 1, 2, …"""
    heuristic = get_player("heuristic")
    return [play_deal(Deal.random(seed), [heuristic, heuristic], random.Random(seed))
            for seed in range(1, count + 1)]


def summary(values: list[float], scale: float = 1.0, digits: int = 2) -> dict:
    """Median and worst of ``values`` (times ``scale``)."""
    return {"n": len(values), "median": round(statistics.median(values) * scale, digits),
            "max": round(max(values) * scale, digits)}


def run(count: int = 5, samples: int = DEFAULT_SAMPLES) -> dict:
    """The figures above, as one dict."""
    whole, seat, exact = [], [], []
    for state in deals(count):
        start = time.process_time()
        review(state, samples=samples)
        whole.append(time.process_time() - start)
        start = time.process_time()
        review(state, seats=[0], samples=samples)
        seat.append(time.process_time() - start)
        walk = state.deal.start()
        for card in state.plays:
            if exact_position(walk):
                start = time.process_time()
                rate(walk)
                exact.append(time.process_time() - start)
            walk = walk.play(card)
    return {"python": sys.version.split()[0], "platform": sys.platform, "samples": samples, "deals": count,
            "whole_deal_seconds": summary(whole), "one_seat_seconds": summary(seat),
            "exact_position_ms": summary(exact, 1000, 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    print_report(run(args.deals, args.samples), args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
