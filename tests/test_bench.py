"""``make bench`` (``bench/speed.py``): the fast path's deals per second, beside OpenSpiel hearts.

The benchmark lives in the repository, not in the package; these run it as ``make bench``
does, with tiny sizes (the figures themselves are the benchmark's business, not a test's).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEED = ROOT / "bench" / "speed.py"


def bench(tmp_path, *args: str) -> dict:
    """Run ``bench/speed.py ARGS --json`` from another folder; its report."""
    proc = subprocess.run([sys.executable, str(SPEED), *args, "--json"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    return json.loads(proc.stdout)


def test_bench_reports_the_fast_path_alone(tmp_path):
    report = bench(tmp_path, "--seconds", "0.2", "--rounds", "1", "--no-openspiel")
    assert report["deals_per_second"] > 0 and report["deals"] >= 1
    assert report["three_player_deals_per_second"] > 0
    assert "openspiel_hearts_games_per_second" not in report and "ratio" not in report


def test_bench_times_openspiel_beside_the_fast_path(tmp_path):
    """OpenSpiel comes with the test extra (requirements.txt): here it must run, or this fails."""
    report = bench(tmp_path, "--seconds", "0.05", "--rounds", "1")
    assert report.get("openspiel_error") is None, report.get("openspiel_error")
    assert report["openspiel_version"] == "2.0.2"
    assert report["openspiel_hearts_games_per_second"] > 0 and report["deals_per_second"] > 0
    assert report["ratio"] == round(report["deals_per_second"] / report["openspiel_hearts_games_per_second"], 2)


def test_without_openspiel_the_bench_says_so(tmp_path):
    """An interpreter that cannot import pyspiel: one line in the report, not a traceback."""
    shadow = tmp_path / "shadow"
    shadow.mkdir()
    (shadow / "pyspiel.py").write_text("raise ImportError('no OpenSpiel here')\n")
    proc = subprocess.run([sys.executable, str(SPEED), "--seconds", "0.05", "--rounds", "1", "--json"],
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(shadow)},
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["ratio"] is None and report["openspiel_hearts_games_per_second"] is None
    assert report["openspiel_error"].startswith("openspiel_hearts: cannot import pyspiel"), report
    assert "no OpenSpiel here" in report["openspiel_error"]
