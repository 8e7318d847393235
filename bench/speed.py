"""The fast path's deals per second beside OpenSpiel hearts, one run (``make bench``).

    .venv/bin/python bench/speed.py [--seconds 2] [--rounds 5] [--no-openspiel] [--json]

The two are measured in alternating rounds on one core each and compared by their medians,
so a slow spell of the machine weighs on both sides alike. OpenSpiel's side runs
``bench/openspiel_hearts.py`` with the same interpreter (OpenSpiel is the ``openspiel``
extra, which ``make`` installs); without it, the comparison is reported as unavailable.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if (ROOT / "calijack").is_dir():
    sys.path.insert(0, str(ROOT))

from calijack.fast import deals_per_second  # noqa: E402
from calijack.rules import Rules  # noqa: E402

__all__ = ["run", "print_report", "main"]

YARDSTICK = Path(__file__).resolve().parent / "openspiel_hearts.py"


def _openspiel(seconds: float) -> dict:
    proc = subprocess.run([sys.executable, str(YARDSTICK), "--seconds", str(seconds), "--json"],
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


def main(argv=None) -> int:
    """Run the benchmark and print its report."""
    parser = argparse.ArgumentParser(prog="bench/speed.py", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per round and side")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (medians are compared)")
    parser.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel comparison")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    print_report(run(seconds=args.seconds, openspiel=not args.no_openspiel, rounds=args.rounds), args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
