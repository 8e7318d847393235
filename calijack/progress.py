"""The learner's progress: one versioned JSON document, kept in the reader's browser.

Everything a learner has done is kept in the browser's ``localStorage`` under one key
(:data:`KEY`), as one JSON document. Nothing is sent anywhere. This module is the one place
that says what the document holds: its :data:`VERSION`, its :data:`SECTIONS` and their JSON
Schema (:func:`schema`), its limits, and how a newer version reads an older one
(:func:`read`). The browser's side is ``calijack/widgets/progress.js``, one small script used
by the static book, the live book (Pyodide) and the Voilà lessons; it receives these
constants and the learner's sentences (:mod:`calijack.text_progress`) from :func:`script`,
never a copy (:func:`page_script` adds ``progress-watch.js``, which remembers a book page's quick
checks and puzzles). In live pages the sandbox's card table reads and writes the store, and Python
checks whatever it hands over (:func:`read_game`, :func:`read_deal`), records included.

The document, version 2 (the book's appendix ``book/records.md`` describes each field)::

    {"format": "calijack-progress", "version": 1,
     "checks":    {"book/03_legal_play#2": {"first": true, "solved": true}},
     "puzzles":   {"7": {"best": 3, "tries": 0, "hint": false}},
     "opponents": {"casual": {"deals": 4, "for": 9, "against": 6, "won": 1, "lost": 0}},
     "deals":     [{"id": "…/1", "when": "2026-12-01T10:00:00Z", "opponent": "casual", "seat": 0,
                    "points": [3, 1], "match": null, "record": {<a finished deal record>}}],
     "game":      {"id": "…", "saved": "…", "opponent": "casual", "seat": 0, "seed": "7",
                   "deal": 1, "trick": 5, "tricks": 26, "record": {<a deal or match record>}} or null,
     "drills":    [{"id": "…", "seat": 0, "record": {<a deal record up to the mistake>}, "played": "7C",
                    "best": "AS", "accept": ["AS"], "exact": true, "values": {"AS": 1, "7C": -1},
                    "step": 0, "due": "2026-12-02"}]}   (since version 2)

**Versions.** A newer version only ever *adds* sections (each section names the version that
brought it, and what it holds when empty); a field never changes meaning or goes away. So a
newer reader reads an older document by checking it against that older version's schema and
adding each later section, empty. A document newer than the reader is never rewritten: the
page says it cannot be read, and the learner may download it or reset it.

``python -m calijack.progress check FILE`` checks a downloaded progress file;
``python -m calijack.progress schema`` prints the schema.
"""

from __future__ import annotations

import argparse
import json
import re
import secrets
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .records import RecordError, read_record
from .schemalite import SchemaError, check
from .text_coach import STAGE_TITLES
from .text_progress import TEXTS, say

__all__ = ["KEY", "FORMAT", "VERSION", "MAX_CHARS", "KEPT_DEALS", "KEPT_DRILLS", "DRILL_DAYS", "DRILL", "SECTIONS", "ProgressError", "SavedGame",
           "schema", "read", "empty", "read_game", "read_deal", "game_entry", "deal_entry", "new_game_id",
           "config", "script", "page_script", "SCRIPT"]

KEY = "calijack-progress"
"""The ``localStorage`` key."""
FORMAT = "calijack-progress"
"""The document's ``format``: what tells it from any other JSON."""
VERSION = 2
"""The version this code writes, and the newest it reads (2 brought ``drills``)."""
MAX_CHARS = 1_000_000
"""The most characters the document's JSON text may hold (a valid document is ASCII: bytes too)."""
KEPT_DEALS = 50
"""Finished deals kept as records, newest last; the totals per opponent count every deal."""
KEPT_DRILLS = 100
"""Mistakes kept in the practice queue; past it, the one that has gone longest without being missed goes."""
DRILL_DAYS = (1, 3, 7, 21)
"""A queued mistake is due again this many days later, one step on after each right answer
(it stays at the last); a wrong answer sends it back to the first step."""
SCRIPT = Path(__file__).resolve().parent / "widgets" / "progress.js"
WATCH = SCRIPT.with_name("progress-watch.js")
_CONFIG_MARK = "/*CONFIG*/ null"

# -- the schema ----------------------------------------------------------------------------------

_COUNT = {"type": "integer", "minimum": 0, "maximum": 1_000_000_000}
_WHEN = {"type": "string", "pattern": r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,6})?Z$"}
_GAME_ID = r"[0-9a-f]{8,32}"
_OPPONENT = {"type": "string", "pattern": r"^[A-Za-z][A-Za-z0-9 _-]{0,39}$"}
_SEAT = {"type": "integer", "minimum": 0, "maximum": 2}
_CARD = {"type": "string", "pattern": r"^[2-9TJQKA][SHDC]$"}
_CARDS = {"type": "array", "maxItems": 52, "items": _CARD}
_RULES = {"type": "object", "maxProperties": 32, "propertyNames": {"type": "string", "pattern": r"^[a-z_]{1,32}$"},
          "additionalProperties": {"type": ["string", "integer", "boolean"], "maxLength": 40,
                                   "minimum": -1_000_000, "maximum": 1_000_000}}
_BODY = {"hands": {"type": "array", "minItems": 2, "maxItems": 3, "items": _CARDS}, "stock": _CARDS,
         "plays": _CARDS, "trump": {"type": "string", "pattern": "^[SHDC]$"}}
_DEAL_RECORD = {"type": "object", "required": ["dealer", "hands", "stock", "plays"], "additionalProperties": False,
                "properties": {"rules": _RULES, "dealer": _SEAT, **_BODY}}
_MATCH_RECORD = {"type": "object", "required": ["first_dealer", "deals"], "additionalProperties": False,
                 "properties": {"rules": _RULES, "first_dealer": _SEAT,
                                "deals": {"type": "array", "minItems": 1, "maxItems": 100,
                                          "items": {"type": "object", "additionalProperties": False,
                                                    "required": ["hands", "stock", "plays"], "properties": _BODY}}}}
_SMALL = {"type": "integer", "minimum": 0, "maximum": 1000}

CHECK = {"type": "object", "required": ["first", "solved"], "additionalProperties": False,
         "properties": {"first": {"type": "boolean"}, "solved": {"type": "boolean"}}}
PUZZLE = {"type": "object", "required": ["best", "tries", "hint"], "additionalProperties": False,
          "properties": {"best": {"type": "integer", "minimum": 0, "maximum": 3}, "tries": _SMALL,
                         "hint": {"type": "boolean"}}}
TOTALS = {"type": "object", "required": ["deals", "for", "against", "won", "lost"], "additionalProperties": False,
          "properties": {name: _COUNT for name in ("deals", "for", "against", "won", "lost")}}
DEAL = {"type": "object", "required": ["id", "when", "opponent", "seat", "points", "match", "record"],
        "additionalProperties": False,
        "properties": {"id": {"type": "string", "pattern": f"^{_GAME_ID}/[0-9]{{1,3}}$"}, "when": _WHEN,
                       "opponent": _OPPONENT, "seat": _SEAT,
                       "points": {"type": "array", "minItems": 2, "maxItems": 3, "items": _SMALL},
                       "match": {"enum": ["won", "lost", None]}, "record": _DEAL_RECORD}}
GAME = {"type": "object", "required": ["id", "saved", "opponent", "seat", "seed", "deal", "trick", "tricks", "record"],
        "additionalProperties": False,
        "properties": {"id": {"type": "string", "pattern": f"^{_GAME_ID}$"}, "saved": _WHEN, "opponent": _OPPONENT,
                       "seat": _SEAT, "seed": {"type": "string", "pattern": "^[0-9]{1,19}$"},
                       "deal": {"type": "integer", "minimum": 1, "maximum": 100},
                       "trick": {"type": "integer", "minimum": 1, "maximum": 26},
                       "tricks": {"type": "integer", "minimum": 1, "maximum": 26},
                       "record": {"anyOf": [_DEAL_RECORD, _MATCH_RECORD]}}}
DRILL = {"type": "object", "required": ["id", "seat", "record", "played", "best", "accept", "exact", "values"],
         "additionalProperties": False,
         "properties": {"id": {"type": "string", "pattern": "^[0-9a-f]{16}$"}, "seat": _SEAT,
                        "record": _DEAL_RECORD, "played": _CARD, "best": _CARD,
                        "accept": {"type": "array", "minItems": 1, "maxItems": 26, "items": _CARD},
                        "exact": {"type": "boolean"},
                        "values": {"type": "object", "maxProperties": 26, "propertyNames": _CARD,
                                   "additionalProperties": {"type": ["integer", "number"]}},
                        "step": {"type": "integer", "minimum": 0, "maximum": len(DRILL_DAYS) - 1},
                        "due": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}}}
"""A queued mistake: the position (a deal record up to the play), the answers, and its schedule
(``step``, ``due``: a local date), which the page's store sets (absent until it does)."""


@dataclass(frozen=True)
class Section:
    """One part of the document: the version that brought it, its value when empty, its schema."""

    since: int
    empty: Any
    schema: dict


SECTIONS = {
    "checks": Section(1, {}, {"type": "object", "maxProperties": 2000, "additionalProperties": CHECK,
                              "propertyNames": {"type": "string", "pattern": r"^[A-Za-z0-9_./-]{1,80}#[0-9]{1,3}$"}}),
    "puzzles": Section(1, {}, {"type": "object", "maxProperties": 1000, "additionalProperties": PUZZLE,
                               "propertyNames": {"type": "string", "pattern": "^[1-9][0-9]{0,3}$"}}),
    "opponents": Section(1, {}, {"type": "object", "maxProperties": 32, "additionalProperties": TOTALS,
                                 "propertyNames": _OPPONENT}),
    "deals": Section(1, [], {"type": "array", "maxItems": KEPT_DEALS, "items": DEAL}),
    "game": Section(1, None, {"anyOf": [{"type": "null"}, GAME]}),
    "drills": Section(2, [], {"type": "array", "maxItems": KEPT_DRILLS,
                              "items": dict(DRILL, required=[*DRILL["required"], "step", "due"])}),
}
"""The document's sections, in the order the progress page shows them (each reset on its own)."""


def schema(version: int = VERSION) -> dict:
    """The JSON Schema (draft 2020-12) of a document of ``version``: the sections it has, no others."""
    sections = {name: s.schema for name, s in SECTIONS.items() if s.since <= version}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
            "required": ["format", "version", *sections], "additionalProperties": False,
            "properties": {"format": {"enum": [FORMAT]}, "version": {"enum": [version]}, **sections}}


def empty() -> dict:
    """A document with nothing in it yet."""
    return {"format": FORMAT, "version": VERSION, **{name: json.loads(json.dumps(s.empty))
                                                      for name, s in SECTIONS.items()}}


# -- reading -------------------------------------------------------------------------------------

class ProgressError(ValueError):
    """A document, or a part of one, that cannot be read; ``str(error)`` is the learner's reason
    (it completes "could not be read: …"), ``kind`` says which case (empty, too_big, not_json,
    foreign, too_new, schema, record)."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind


def _schema_reason(error: SchemaError) -> str:
    if error.where:
        return say("reason_schema", where=error.where, what=error.what)
    return say("reason_schema_top", what=error.what)


def _refuse_constant(name: str):
    raise ValueError(name)


def read(data: str | bytes | dict) -> dict:
    """The document in ``data`` (JSON text, or an object already parsed), checked against its
    version's schema and brought up to :data:`VERSION`; :class:`ProgressError` if it cannot be.

    The cases, in the order they are told apart: empty, too big, not JSON, not a progress
    document (foreign), newer than this code (too_new), and not fitting its schema.
    """
    if isinstance(data, (bytes, bytearray)):
        data = bytes(data).decode("utf-8", errors="replace")
    if isinstance(data, str):
        text = data.removeprefix("\ufeff")
        if not text.strip():
            raise ProgressError("empty", say("reason_empty"))
        if len(text) > MAX_CHARS:
            raise ProgressError("too_big", say("reason_too_big", size=f"{len(text):,}", limit=f"{MAX_CHARS:,}"))
        try:
            data = json.loads(text, parse_constant=_refuse_constant)
        except (ValueError, RecursionError):
            raise ProgressError("not_json", say("reason_not_json")) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ProgressError("foreign", say("reason_foreign"))
    version = data.get("version")
    if isinstance(version, float) and version.is_integer():  # JSON has one kind of number: 1.0 is 1
        version = int(version)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ProgressError("foreign", say("reason_foreign"))
    if version > VERSION:
        raise ProgressError("too_new", say("reason_too_new", version=version, known=VERSION))
    try:
        check(data, schema(version))
    except SchemaError as error:
        raise ProgressError("schema", _schema_reason(error)) from None
    upgraded = dict(data, version=VERSION)
    for name, section in SECTIONS.items():
        if section.since > version:
            upgraded[name] = json.loads(json.dumps(section.empty))
    return upgraded


# -- the live sandbox's parts ---------------------------------------------------------------------

@dataclass(frozen=True)
class SavedGame:
    """An unfinished game as the store keeps it, checked: its record read by the engine."""

    id: str
    opponent: str
    seat: int
    seed: int
    record: dict
    read: Any  # the engine's reading of ``record`` (a State or a MatchRecord)


def _part(value: Any, part: dict) -> None:
    try:
        check(value, part)
    except SchemaError as error:
        raise ProgressError("schema", _schema_reason(error)) from None


def _record(record: dict):
    try:
        return read_record(record)
    except RecordError as error:
        raise ProgressError("record", error.message) from None


def read_game(value: Any, opponents=()) -> SavedGame:
    """The store's ``game`` section, as the page hands it to Python, checked: its shape, its record
    (the engine replays every card), its seat and its opponent (one of ``opponents``, if given)."""
    _part(value, GAME)
    read = _record(value["record"])
    states = getattr(read, "states", (read,))
    if value["seat"] >= states[0].rules.players:
        raise ProgressError("record", f"seat {value['seat']} is not at a table of {states[0].rules.players}")
    if opponents and value["opponent"] not in opponents:
        raise ProgressError("schema", f"there is no {value['opponent']} computer player here")
    return SavedGame(value["id"], value["opponent"], value["seat"], int(value["seed"]), value["record"], read)


def read_deal(value: Any):
    """A kept finished deal (an entry of ``deals``), checked; returns ``(entry, state)``."""
    _part(value, DEAL)
    state = _record(value["record"])
    if not state.finished:
        raise ProgressError("record", "the deal is not finished")
    if value["seat"] >= state.rules.players:
        raise ProgressError("record", f"seat {value['seat']} is not at a table of {state.rules.players}")
    return value, state


def new_game_id() -> str:
    """A new game's id: 16 random hex digits."""
    return secrets.token_hex(8)


def game_entry(session, game_id: str) -> dict:
    """The ``game`` section for ``session`` (a :class:`calijack.play.Session`), ``saved`` left to the store."""
    state = session.state
    return {"id": game_id, "opponent": session.opponent, "seat": session.seat, "seed": str(session.seed),
            "deal": session.deal_number, "trick": min(state.trick_number, state.rules.tricks),
            "tricks": state.rules.tricks, "record": session.record()}


def deal_entry(session, game_id: str) -> dict:
    """The ``deals`` entry for ``session``'s deal, just finished (``when`` left to the store)."""
    match = session.match
    outcome = None if not match.finished else "won" if match.winner == session.seat else "lost"
    return {"id": f"{game_id}/{session.deal_number}", "opponent": session.opponent, "seat": session.seat,
            "points": list(session.result.points), "match": outcome, "record": session.record("deal")}


# -- the browser's side ------------------------------------------------------------------------

def config() -> dict:
    """What the store's script is told: the key, the versions, the limits, the sections (each with
    the version that brought it and its empty value), the schema of every version it reads, the
    learner's sentences, and the practice stages' titles (the progress page groups the stars by them)."""
    return {"key": KEY, "format": FORMAT, "version": VERSION, "maxChars": MAX_CHARS, "keptDeals": KEPT_DEALS,
            "keptDrills": KEPT_DRILLS, "drillDays": list(DRILL_DAYS),
            "sections": {name: {"since": s.since, "empty": s.empty} for name, s in SECTIONS.items()},
            "schemas": {str(v): schema(v) for v in range(1, VERSION + 1)},
            "texts": TEXTS, "stages": STAGE_TITLES, "opponents": opponent_labels()}


def opponent_labels() -> dict[str, str]:
    """What the learner calls each opponent a document may name: its level's label ("Casual"), for
    the levels and the names tools use (``heuristic`` is Casual)."""
    from .players import LEVELS, PLAYERS

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


def main(argv: list[str] | None = None) -> int:
    """``python -m calijack.progress check FILE`` / ``schema``."""
    parser = argparse.ArgumentParser(prog="python -m calijack.progress", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("schema", help="print the document's JSON Schema")
    checker = sub.add_parser("check", help="check a progress file (Download my progress)")
    checker.add_argument("file")
    args = parser.parse_args(argv)
    if args.command == "schema":
        print(json.dumps(schema(), indent=1))
        return 0
    try:
        with open(args.file, "rb") as f:
            raw = f.read(MAX_CHARS * 4 + 1)
        doc = read(raw)
    except OSError as error:
        print(f"calijack progress: cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 1
    except ProgressError as error:
        print(f"calijack progress: {args.file} cannot be read: {error}", file=sys.stderr)
        return 1
    print(f"{args.file}: a progress document, version {doc['version']}: {len(doc['checks'])} quick checks, "
          f"{len(doc['puzzles'])} puzzles, {len(doc['deals'])} deals kept, {len(doc['drills'])} mistakes to practise, "
          f"{'an' if doc['game'] else 'no'} unfinished game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
