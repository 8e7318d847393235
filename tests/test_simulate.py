"""``python -m calijack simulate``: statistics, JSON output, records, clean errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from calijack.records import load
from calijack.simulate import SimulationError, parse_rule, run, wilson

ROOT = Path(__file__).resolve().parent.parent


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "calijack", "simulate", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_simulate_json_runs_and_holds_the_required_keys():
    proc = _cli("random", "heuristic", "--deals", "6", "--json", "--jobs", "2", "--seed", "3")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["matches"] == 6 and report["mode"] == "deals"
    assert len(report["wins"]) == 2 and sum(report["wins"]) + report["ties"] == 6
    low, high = report["ci95"]
    assert 0 <= low <= high <= 1
    assert set(report["point_share"]) == {"high", "low", "jack", "game"}
    for share in report["point_share"].values():
        assert abs(sum(share.values()) - 1) < 1e-3  # each point goes to A, B or nobody
    assert "dealer_edge" in report and "pips_per_deal" in report
    assert proc.stderr == ""  # no progress bar with --json


def test_simulate_matches_are_reproducible_whatever_the_jobs():
    first = run("random", "heuristic", 4, seed=9, jobs=1, rules={"target": 3})
    second = run("random", "heuristic", 4, seed=9, jobs=2, rules={"target": 3})
    for key in ("wins", "ci95", "point_share", "pips_per_deal", "dealer_edge", "deals"):
        assert first[key] == second[key]
    assert first["matches"] == 4 and first["mode"] == "matches"
    # A match to 3 ends when a side reaches 3, so every match has a winner.
    assert sum(first["wins"]) == 4


def test_simulate_text_output_and_rule_options():
    proc = _cli("heuristic", "random", "--matches", "2", "--rule", "target=2", "--rule",
                "stock=closed", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert "win rate" in proc.stdout and "dealer's edge" in proc.stdout
    assert "stock=closed" in proc.stdout and "target=2" in proc.stdout


@pytest.mark.parametrize("args,message", [
    (["--rule", "target=0"], "target"),
    (["--rule", "colour=red"], "unknown rule option 'colour'"),
    (["--rule", "stock"], "name=value"),
    (["--matches", "0"], "at least 1"),
    (["--matches", "many"], "invalid int value"),
])
def test_bad_options_give_one_clean_line(args, message, capsys):
    from calijack.__main__ import main

    try:
        status = main(["simulate", "random", "heuristic", *args])
    except SystemExit as exit:  # argparse's own checks
        status = exit.code
    out, err = capsys.readouterr()
    assert status == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert out == ""


def test_bad_rule_from_the_shell_has_no_traceback():
    proc = _cli("random", "heuristic", "--rule", "void_duty=never")
    assert proc.returncode == 2
    assert proc.stderr.startswith("calijack simulate: rule option 'void_duty' cannot be 'never'")
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_unknown_player_is_refused():
    proc = _cli("random", "grandmaster")
    assert proc.returncode == 2 and "unknown player 'grandmaster'" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_records_save_every_deal(tmp_path):
    report = run("heuristic", "random", 2, seed=1, jobs=1, rules={"target": 2}, records=str(tmp_path))
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == report["deals"] >= 2
    for path in files:
        state = load(path)
        assert state.finished


def test_search_runs_under_simulate_with_a_small_budget():
    report = run("search", "random", deals=2, seed=0, jobs=1, a_options={"samples": 2})
    assert report["matches"] == 2 and report["decision_ms"]["A"]["decisions"] > 0


def test_wilson_interval():
    low, high = wilson(5, 10)
    assert round(low, 4) == 0.2366 and round(high, 4) == 0.7634
    low, high = wilson(0, 10)
    assert low == 0 and round(high, 4) == 0.2775
    assert wilson(0, 0) == (0.0, 1.0)


def test_parse_rule():
    assert parse_rule("target=7") == ("target", 7)
    assert parse_rule("turned_jack=true") == ("turned_jack", True)
    assert parse_rule("stock=closed") == ("stock", "closed")
    with pytest.raises(SimulationError):
        parse_rule("closed")
