"""``make bench`` (``bench/speed.py``): the fast path's deals per second, beside OpenSpiel hearts.

The benchmark lives in the repository, not in the package; these run it as ``make bench``
does, with tiny sizes (the figures themselves are the benchmark's business, not a test's).
"""

from __future__ import annotations

import json
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


def test_bench_runs_its_openspiel_yardstick(tmp_path):
    report = bench(tmp_path, "--seconds", "0.05", "--rounds", "1")
    assert report["deals_per_second"] > 0
    # Either OpenSpiel ran (make bench installs it), or it is reported as not installed:
    # never as a missing file.
    if report.get("ratio") is None:
        assert "cannot import pyspiel" in report["openspiel_error"], report["openspiel_error"]
    else:
        assert report["openspiel_hearts_games_per_second"] > 0
