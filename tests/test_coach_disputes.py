"""``bench/coach_disputes.py``: the coach judged against a sharper reference where the 20x one is unsure."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _module(name: str = "coach_disputes"):
    """The bench script ``bench/<name>.py``, loaded as a module (with ``bench`` on the path, as it runs)."""
    sys.path[:0] = [str(ROOT / "bench")]
    try:
        spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(ROOT / "bench"))


def _row(deal: int, loss: float, marked: bool, se: float = 0.02) -> dict:
    return {"seed": 1, "deal": deal, "play": 0, "card": "2H", "ref": {"2H": 1.0 - loss, "AS": 1.0},
            "ref_se": se, "z1.0": {"mistake": marked}}


def test_the_sharp_rating_replaces_the_reference_where_it_was_asked_and_says_whom_it_sides_with():
    disputes = _module()
    rows = [_row(0, 0.55, False),  # a miss under the 20x reference …
            _row(1, 0.10, False),  # agreed, sound, not rated again
            _row(2, 0.45, True),   # a false alarm under the 20x reference …
            _row(3, 0.70, True),   # agreed, a mistake
            _row(4, 0.52, False, se=0.05)]  # a miss on the line: the reference is not sure of it
    sharp = {(1, 0, 0): {"values": {"2H": 0.55, "AS": 1.0}, "se": 0.01},   # … sound after all (loss 0.45)
             (1, 2, 0): {"values": {"2H": 0.40, "AS": 1.0}, "se": 0.01}}   # … a mistake after all (loss 0.60)
    got = disputes.summary(rows, sharp, "z1.0")
    assert got["reference"] == {"mistakes": 3, "false_alarms": 1, "false_alarm_share": 0.2, "missed": 2,
                                "missed_share": 0.6667, "missed_too_close": 0, "called_sound": 2,
                                "called_sound_share": 0.6667, "sure": 2, "sure_missed": 1}
    assert got["sharpened"] == {"mistakes": 3, "false_alarms": 0, "false_alarm_share": 0.0, "missed": 1,
                                "missed_share": 0.3333, "missed_too_close": 0, "called_sound": 1,
                                "called_sound_share": 0.3333, "sure": 2, "sure_missed": 0}
    rows[0]["z1.0"]["close"] = True  # the miss, said too close to call rather than sound
    assert disputes.summary(rows, sharp, "z1.0")["reference"]["missed_too_close"] == 1
    assert got["disputes"] == {"plays": 3, "sharp_sides_with_coach": 2, "sharp_sides_with_reference": 0}  # row 4 not rated again
    sharp[(1, 0, 0)]["values"]["2H"] = 0.3  # now the sharp rating agrees with the 20x one on the first
    assert disputes.summary(rows, sharp, "z1.0")["disputes"]["sharp_sides_with_reference"] == 1


def test_the_accuracy_bench_rates_each_play_once_for_both_rules_at_the_cap():
    # One deal, a tiny budget (4 guesses, up to 8): many plays reach the cap, and the row without
    # the rule at the cap ("s0") differs from the default only where the estimate is half a point
    # or more: the rule adds mistakes, never takes one away, on the same guesses.
    accuracy = _module("coach_accuracy")
    assert accuracy._coach(1.0, accuracy.EXTRA, accuracy.Z_MORE, accuracy.RIVALS) == "z1.0"
    assert accuracy._coach(1.0, 2, accuracy.Z_MORE, accuracy.RIVALS, False) == "z1.0x2s0"
    rows = accuracy._job((5, 0, 4, 2, [1.0], [2], [accuracy.Z_MORE], [accuracy.RIVALS], [False, True]))
    assert rows and all({"z1.0x2", "z1.0x2s0"} <= set(r) for r in rows)
    changed = 0
    for row in rows:
        with_rule, without = row["z1.0x2"], row["z1.0x2s0"]
        assert with_rule["samples"] == without["samples"] <= 8 and with_rule["best"] == without["best"]
        if with_rule != without:
            changed += 1
            assert with_rule["mistake"] and not without["mistake"] and without["close"], row
    assert changed  # the rule did something on this deal (else the test shows nothing)
