"""The progress store's browser side: ``calijack/widgets/progress.js`` with its constants.

The script reads and writes the document in the browser, in the static book, the live book
and the Voilà lessons alike. Whatever it must know (the key, the versions, the limits, the
sections, the schema of every version it reads, the learner's sentences) it gets from
:func:`config`, put in place of its CONFIG mark by :func:`script`: never a copy.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from ..text_coach import STAGE_TITLES
from ..text_progress import TEXTS
from . import document
from .document import DRILL_DAYS, FORMAT, KEPT_DEALS, KEPT_DRILLS, KEY, MAX_CHARS, SECTIONS, schema

SCRIPT = Path(__file__).resolve().parents[1] / "widgets" / "progress.js"
WATCH = SCRIPT.with_name("progress-watch.js")
_CONFIG_MARK = "/*CONFIG*/ null"
SYNC_SECONDS = 5
"""On the class's hub, the page sends its progress to the class service at most once in this many seconds."""


def config() -> dict:
    """What the store's script is told: the key, the versions, the limits, the sections (each with
    the version that brought it and its empty value), the schema of every version it reads, the
    learner's sentences, and the practice stages' titles (the progress page groups the stars by them)."""
    return {"key": KEY, "format": FORMAT, "version": document.VERSION, "maxChars": MAX_CHARS, "keptDeals": KEPT_DEALS,
            "keptDrills": KEPT_DRILLS, "drillDays": list(DRILL_DAYS), "syncSeconds": SYNC_SECONDS,
            "sections": {name: {"since": s.since, "empty": s.empty} for name, s in SECTIONS.items()},
            "schemas": {str(v): schema(v) for v in range(1, document.VERSION + 1)},
            "texts": TEXTS, "stages": STAGE_TITLES, "opponents": opponent_labels()}


def opponent_labels() -> dict[str, str]:
    """What the learner calls each opponent a document may name: its level's label ("Casual"), for
    the levels and the names tools use (``heuristic`` is Casual)."""
    from ..players import LEVELS, PLAYERS

    labels = {name: level.label for name, level in LEVELS.items()}
    by_class = {PLAYERS[name]: label for name, label in labels.items()}
    return {**{name: by_class.get(cls, name.capitalize()) for name, cls in PLAYERS.items()}, **labels}


def script() -> str:
    """The store's script with :func:`config` in it: what the book, Voilà and the live book load."""
    source = SCRIPT.read_text(encoding="utf-8")
    if source.count(_CONFIG_MARK) != 1:
        raise RuntimeError(f"{SCRIPT.name} must hold {_CONFIG_MARK!r} exactly once")
    constants = json.dumps(config(), ensure_ascii=True, separators=(",", ":"))
    return source.replace(_CONFIG_MARK, re.sub(r"</", r"<\\/", constants))


def page_script() -> str:
    """:func:`script` and the watch of a page's quick checks and puzzles: what every book page loads."""
    return script() + "\n" + WATCH.read_text(encoding="utf-8")
