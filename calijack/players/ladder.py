"""The opponents' measured ladder, as ``bench/ladder.py`` last wrote it.

The figures are too slow to measure while the book builds (hundreds of paired deals with the
search), so the benchmark writes them to ``calijack/data/ladder.json``, which is committed;
the Strategy chapter and the README read them from there, and the chapter's hidden asserts
check the file still says what the prose claims. A row is one pairing: the upper level, the
level below, how many paired deals, and the upper level's mean match points a deal more than
the lower's with its 95% interval. ``native_ms`` and ``browser_ms`` give each level's decision
time (milliseconds, p50 and p95) in CPython and in the browser's Python; ``reference`` holds
Expert against OpenSpiel's ISMCTS (``bench/ismcts_reference.py``) when it has been run.

    python -m calijack.players.ladder      # print the ladder as the README shows it
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

__all__ = ["PATH", "Row", "load", "rows", "readme_table"]

PATH = Path(__file__).resolve().parent.parent / "data" / "ladder.json"


@dataclass(frozen=True)
class Row:
    """One pairing of the ladder: ``upper`` against ``lower``."""

    upper: str
    lower: str
    pairs: int
    mean: float
    low: float
    high: float


def load(path: Path | str = PATH) -> dict:
    """The data file as a dict (``ValueError`` naming what is missing if it is malformed)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    for key in ("rows", "native_ms"):
        if key not in data:
            raise ValueError(f"{path}: no {key!r} (write it again with bench/ladder.py)")
    return data


def rows(data: dict | None = None) -> list[Row]:
    """The ladder's pairings, in the order measured (weakest first)."""
    data = load() if data is None else data
    return [Row(r["a"], r["b"], r["pairs"], r["mean"], r["ci95"][0], r["ci95"][1]) for r in data["rows"]]


def readme_table(data: dict | None = None) -> str:
    """The README's table of the ladder (a test checks the README shows exactly this)."""
    from . import LEVELS

    data = load() if data is None else data
    label = {name: level.label for name, level in LEVELS.items()}
    lines = ["| level | against | match points a deal more (95% interval) | paired deals | "
             "ms a decision, p50 / p95 (CPython) |", "|---|---|---|---|---|"]
    for row in rows(data):
        t = data["native_ms"].get(row.upper)
        lines.append(f"| {label.get(row.upper, row.upper)} | {label.get(row.lower, row.lower)} | "
                     f"{row.mean:+.2f} ({row.low:+.2f} to {row.high:+.2f}) | {row.pairs} | "
                     + (f"{t['p50']:.1f} / {t['p95']:.1f} |" if t else "– |"))
    for ref in data.get("reference", {}).get("rows", []):  # against OpenSpiel's ISMCTS, timed in the same run
        low, high = ref["ci95"]
        ours, theirs = ref["expert_ms"], ref["ismcts_ms"]
        lines.append(f"| {label['expert']} | ISMCTS-{ref['sims']} (OpenSpiel) | {ref['mean']:+.2f} ({low:+.2f} to "
                     f"{high:+.2f}) | {ref['pairs']} | {ours['p50']:.1f} / {ours['p95']:.1f} (ISMCTS: "
                     f"{theirs['p50']:.0f} / {theirs['p95']:.0f}) |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.stdout.write(readme_table() + "\n")
