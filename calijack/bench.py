"""``calijack bench``: the fast path's deals per second beside OpenSpiel hearts, one run."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

from .fast import deals_per_second
from .rules import Rules

__all__ = ["run"]

SCRIPT = Path(__file__).resolve().parent.parent / "bench" / "openspiel_hearts.py"


def _openspiel(seconds: float) -> dict:
    if not SCRIPT.exists():
        return {"error": f"{SCRIPT} is missing"}
    proc = subprocess.run([sys.executable, str(SCRIPT), "--seconds", str(seconds), "--json"],
                          capture_output=True, text=True, timeout=seconds * 10 + 120)
    if proc.returncode != 0:
        message = proc.stderr.strip().splitlines()[-1:] or [f"exit status {proc.returncode}"]
        return {"error": message[0] + " (install it with: pip install -r bench/requirements.txt)"}
    return json.loads(proc.stdout)


def run(seconds: float = 5.0, openspiel: bool = True) -> dict:
    """Measure on one core; returns one flat JSON-ready object."""
    ours = deals_per_second(seconds)
    three = deals_per_second(seconds / 2, Rules(players=3))
    report = {
        "deals_per_second": ours["deals_per_second"],
        "deals": ours["deals"],
        "seconds": ours["seconds"],
        "three_player_deals_per_second": three["deals_per_second"],
        "python": platform.python_version(),
        "cpu_count": os.cpu_count(),
    }
    if openspiel:
        other = _openspiel(seconds)
        if "error" in other:
            report["openspiel_hearts_games_per_second"] = None
            report["openspiel_error"] = other["error"]
            report["ratio"] = None
        else:
            rate = other["games_per_second"]
            report["openspiel_hearts_games_per_second"] = rate
            report["openspiel_version"] = other.get("open_spiel_version")
            report["ratio"] = round(ours["deals_per_second"] / rate, 2)
    return report
