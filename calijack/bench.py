"""``calijack bench``: the fast path's deals per second beside OpenSpiel hearts, one run.

The two are measured in alternating rounds on one core each and compared by their medians,
so a slow spell of the machine weighs on both sides alike.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys

from .fast import deals_per_second
from .rules import Rules

__all__ = ["run", "print_report"]

# Run as a module of this package, so it is found in any install (not by a path to bench/).
YARDSTICK = "calijack.openspiel_hearts"


def _openspiel(seconds: float) -> dict:
    proc = subprocess.run([sys.executable, "-m", YARDSTICK, "--seconds", str(seconds), "--json"],
                          capture_output=True, text=True, timeout=seconds * 10 + 120)
    if proc.returncode != 0:
        message = proc.stderr.strip().splitlines()[-1:] or [f"exit status {proc.returncode}"]
        return {"error": message[0]}
    return json.loads(proc.stdout)


def run(seconds: float = 5.0, openspiel: bool = True, rounds: int = 5) -> dict:
    """Measure ``rounds`` alternating rounds of ``seconds`` each; one JSON-ready object."""
    ours, theirs, version, error, deals = [], [], None, None, 0
    for _ in range(rounds):
        mine = deals_per_second(seconds)
        ours.append(mine["deals_per_second"])
        deals += mine["deals"]
        if openspiel and error is None:
            other = _openspiel(seconds)
            if "error" in other:
                error = other["error"]
            else:
                theirs.append(other["games_per_second"])
                version = other.get("open_spiel_version")
    three = deals_per_second(seconds, Rules(players=3))
    report = {
        "deals_per_second": statistics.median(ours),
        "deals": deals,
        "rounds": rounds,
        "seconds_per_round": seconds,
        "deals_per_second_rounds": ours,
        "three_player_deals_per_second": three["deals_per_second"],
        "python": platform.python_version(),
        "cpu_count": os.cpu_count(),
    }
    if openspiel:
        if error is not None:
            report.update(openspiel_hearts_games_per_second=None, openspiel_error=error, ratio=None)
        else:
            rate = statistics.median(theirs)
            report.update(openspiel_hearts_games_per_second=rate,
                          openspiel_hearts_rounds=theirs, openspiel_version=version,
                          ratio=round(report["deals_per_second"] / rate, 2))
    return report


def print_report(report: dict, as_json: bool) -> None:
    """Print a benchmark's report: one JSON line, or one ``key: value`` line per figure."""
    if as_json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key}: {value}")
