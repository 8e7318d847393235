"""``bench/ismcts_reference.py --merge``: runs over following pairs joined into one report."""

from __future__ import annotations

import importlib.util
import json
import re
import statistics
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("ismcts_reference", ROOT / "bench" / "ismcts_reference.py")
reference = importlib.util.module_from_spec(spec)
spec.loader.exec_module(reference)


def run(first: int, diffs: list[float], p50: float, decisions: int, **over) -> dict:
    times = {"decisions": decisions, "p50": p50, "p95": 2 * p50, "max": 3 * p50}
    row = {"sims": 300, "pairs": len(diffs), "mean": round(statistics.mean(diffs), 3), "ci95": [-1.0, 1.0],
           "first": first, "diffs": diffs, "ours_cpu_ms": times, "ismcts_cpu_ms": {**times, "p50": 10 * p50},
           "ours_wall_ms": times, "ismcts_wall_ms": times, "time_ratio": 0.1}
    return {"player": "expert", "options": {}, "seed": 22, "uct_c": 5.0, "first": first,
            "load_average": [1.0, 1.0, 1.0], "rows": [row], **over}


def test_the_pairs_of_following_runs_are_joined_and_the_interval_is_over_all_of_them():
    merged = reference.merge([run(3, [2.0, -1.0], 50.0, 90), run(0, [1.0, 0.0, 1.0], 40.0, 120)])
    row = merged["rows"][0]
    assert row["diffs"] == [1.0, 0.0, 1.0, 2.0, -1.0] and row["pairs"] == 5 and row["first"] == 0
    mean, low, high = reference.mean_interval(row["diffs"])
    assert row["mean"] == round(mean, 3) == 0.6 and row["ci95"] == [round(low, 3), round(high, 3)]
    # Percentiles cannot be pooled: the times are one run's, the one with the most decisions.
    assert row["ours_cpu_ms"]["p50"] == 40.0 and row["times_from"] == [0, 2]
    assert [r["first"] for r in row["runs"]] == [0, 3] and merged["merged"] == 2


@pytest.mark.parametrize("second, said", [
    (run(4, [1.0], 40.0, 10), "pairs 0-2 are not followed by pair 3 but by 4"),
    (run(2, [1.0], 40.0, 10), "pairs 0-2 are not followed by pair 3 but by 2"),
    (run(3, [1.0], 40.0, 10, seed=23), "seed differs (22 and 23)"),
    ({**run(3, [1.0, 2.0], 40.0, 10), "rows": [{**run(3, [1.0, 2.0], 40.0, 10)["rows"][0], "last": 5}]},
     "the run from pair 3 has 2 pairs but its last is pair 5"),
    (run(3, [1.0], 40.0, 10, options={"budget": 22000}), "options differs"),
])
def test_runs_that_are_not_one_run_continued_are_refused_by_name(second, said):
    with pytest.raises(SystemExit, match=re.escape(said)):
        reference.merge([run(0, [1.0, 0.0, 1.0], 40.0, 120), second])


def test_each_points_share_is_weighted_by_its_runs_pairs_and_runs_without_it_are_left_out():
    counted = run(3, [2.0, -1.0], 50.0, 90)
    counted["rows"][0]["points"] = {"high": 0.5, "game": -1.0}
    later = run(5, [0.0, 0.0, 0.0, 0.0], 50.0, 90)
    later["rows"][0]["points"] = {"high": -0.25, "jack": 1.0}
    row = reference.merge([run(0, [1.0, 0.0, 1.0], 40.0, 120), counted, later])["rows"][0]
    assert row["points_pairs"] == 6
    assert row["points"] == {"high": 0.0, "game": round(-2 / 6, 3), "jack": round(4 / 6, 3)}


def test_the_plays_of_each_pair_are_joined_and_keyed_by_the_pairs_number():
    first, second = run(0, [1.0], 40.0, 10), run(1, [0.0], 40.0, 10)
    first["rows"][0]["plays"] = {0: ["AH 2S", "KD 3C"]}  # as played: whole numbers
    second["rows"][0]["plays"] = {"1": ["QS 4H", "JC 5D"]}  # as read back from JSON: text
    row = reference.merge([second, first])["rows"][0]
    assert row["plays"] == {"0": ["AH 2S", "KD 3C"], "1": ["QS 4H", "JC 5D"]}
    assert "plays" not in reference.merge([run(0, [1.0], 40.0, 10), run(1, [0.0], 40.0, 10)])["rows"][0]


def test_the_ladder_keeps_the_reading_comparison_when_it_takes_a_new_reference(tmp_path, monkeypatch):
    # bench/ladder.py rebuilds ladder.json's "reference" from the latest ismcts_reference report; the
    # Strategy chapter also reads "reading" (the Expert reading its opponent or not), measured once.
    spec = importlib.util.spec_from_file_location("ladder_bench", ROOT / "bench" / "ladder.py")
    ladder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ladder)
    monkeypatch.setattr(ladder, "OUT", tmp_path)
    monkeypatch.setattr(ladder, "DATA", tmp_path / "ladder.json")
    times = {"p50": 1.0, "p95": 2.0, "decisions": 10}
    for a, b in ladder.PAIRINGS:
        (tmp_path / f"ladder_{ladder.tag(a, b)}.json").write_text(json.dumps(
            {"pairs": 4, "deals": 8, "seed": 22, "mean": 0.5, "ci95": [0.1, 0.9], "load_average": [1, 1, 1],
             "cpu_ms": {"A": times, "B": times}}))
    reading = {"sims": 1000, "first": 0, "with": {"mean": -0.5}, "without": {"mean": 0.5}}
    (tmp_path / "ladder.json").write_text(json.dumps({"reference": {"rows": [], "reading": reading}}))
    (tmp_path / "ismcts_reference_expert.json").write_text(json.dumps(run(0, [1.0, 0.0], 40.0, 10)))
    data = ladder.assemble()
    assert data["reference"]["rows"][0]["mean"] == 0.5 and data["reference"]["reading"] == reading
    (tmp_path / "ladder.json").write_text(json.dumps({"reference": {"rows": []}}))
    assert "reading" not in ladder.assemble()["reference"]  # nothing made up where nothing was measured
