"""``calijack bench`` finds its OpenSpiel yardstick in a non-editable install (no source tree)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_bench_runs_its_yardstick_from_a_wheel_installed_elsewhere(tmp_path):
    # Build the wheel from a copy (setuptools writes build/ beside the sources) and install it
    # with --target: the package alone, far from bench/.
    source = tmp_path / "source"
    for name in ("pyproject.toml", "README.md"):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "calijack", source / "calijack",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--disable-pip-version-check", "-w", str(tmp_path / "dist"), str(source)],
                   check=True, capture_output=True, timeout=300)
    wheel = next((tmp_path / "dist").glob("calijack-*.whl"))
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                    "--disable-pip-version-check", "--target", str(site), str(wheel)],
                   check=True, capture_output=True, timeout=300)
    env = {**os.environ, "PYTHONPATH": str(site)}
    where = subprocess.run([sys.executable, "-c", "import calijack; print(calijack.__file__)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    assert Path(where.stdout.strip()).is_relative_to(site)
    proc = subprocess.run([sys.executable, "-m", "calijack", "bench", "--seconds", "0.05", "--rounds", "1",
                           "--json"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["deals_per_second"] > 0
    # Either OpenSpiel ran (make bench installs it), or it is reported as not installed:
    # never as a missing file.
    if report.get("ratio") is None:
        assert "cannot import pyspiel" in report["openspiel_error"], report["openspiel_error"]
    else:
        assert report["openspiel_hearts_games_per_second"] > 0
