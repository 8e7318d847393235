"""The ladder's order holds in a short run: each level, on paired deals, scores more than the one
below it (issue 33).

The full ladder (400 paired deals a step, hours of processor time) is ``bench/ladder.py``, and
``calijack/data/ladder.json`` keeps its figures (``test_levels.py`` checks them). Here each step
is played again, small, through the same harness (``bench/paired.py``: the same cards twice,
seats swapped), from seed 1, which the benchmark does not use: the big steps must be won with
their 95% interval above 0, the small ones (Beginner over random play, Expert over Strong) on
average. The runs are counted, not timed, so each gives the same figures on every machine.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from paired import run_pairs  # noqa: E402

from calijack.players import LEVELS  # noqa: E402

# (upper, lower, pairs, the interval must be above 0)
STEPS = [
    ("beginner", "random", 600, False),
    ("casual", "beginner", 60, True),
    ("strong", "casual", 20, True),
    ("expert", "strong", 16, False),
]


def test_the_steps_are_each_level_against_the_one_below():
    names = ["random", *LEVELS]  # the random player below the learners' four levels
    assert [(upper, lower) for upper, lower, *_ in STEPS] == list(zip(names[1:], names[:-1]))


@pytest.mark.parametrize("upper, lower, pairs, clear", STEPS, ids=[f"{u}_vs_{lo}" for u, lo, *_ in STEPS])
def test_each_level_beats_the_one_below_on_paired_deals(upper, lower, pairs, clear):
    report = run_pairs((upper, {}), (lower, {}), pairs, seed=1, jobs=1)
    assert report["pairs"] == pairs
    low, high = report["ci95"]
    assert report["mean"] > 0, f"{upper} scored {report['mean']:+.3f} a deal against {lower} ({low:+.3f} to {high:+.3f})"
    if clear:
        assert low > 0, f"{upper} against {lower}: {report['mean']:+.3f}, interval {low:+.3f} to {high:+.3f}"
