"""The progress document: its format, version, limits, sections and their JSON Schema.

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
                    "step": 0, "due": "2026-12-02"}],   (since version 2)
     "people":    {"totals": {"bo": {"deals": 2, "for": 5, "against": 3, "won": 0, "lost": 0}},
                   "deals": [{"id": "…/1", "when": "…", "opponent": "bo", "seat": 0, "points": [3, 1],
                              "match": null, "record": {<a finished deal record>}}]}   (since version 3)

``people`` holds the deals played against classmates at a table of the hub
(:mod:`calijack.tables`), kept apart from those against the computer: its ``opponent`` is the
classmate's hub name, and its totals are per classmate.

**Versions.** A newer version only ever *adds* sections (each section names the version that
brought it, and what it holds when empty); a field never changes meaning or goes away. So a
newer reader reads an older document by checking it against that older version's schema and
adding each later section, empty. A document newer than the reader is never rewritten: the
page says it cannot be read, and the learner may download it or reset it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

KEY = "calijack-progress"
"""The ``localStorage`` key."""
FORMAT = "calijack-progress"
"""The document's ``format``: what tells it from any other JSON."""
VERSION = 3
"""The version this code writes, and the newest it reads (2 brought ``drills``, 3 ``people``)."""
MAX_CHARS = 1_000_000
"""The most characters the document's JSON text may hold (a valid document is ASCII: bytes too)."""
KEPT_DEALS = 50
"""Finished deals kept as records, newest last; the totals per opponent count every deal."""
KEPT_DRILLS = 100
"""Mistakes kept in the practice queue; past it, the one that has gone longest without being missed goes."""
DRILL_DAYS = (1, 3, 7, 21)
"""A queued mistake is due again this many days later, one step on after each right answer
(it stays at the last); a wrong answer sends it back to the first step."""

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

_CLASSMATE = {"type": "string", "pattern": r"^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$"}
KEPT_PEOPLE = 200
"""The most classmates the totals against people name."""
PEOPLE = {"type": "object", "required": ["totals", "deals"], "additionalProperties": False,
          "properties": {"totals": {"type": "object", "maxProperties": KEPT_PEOPLE, "propertyNames": _CLASSMATE,
                                    "additionalProperties": TOTALS},
                         "deals": {"type": "array", "maxItems": KEPT_DEALS,
                                   "items": dict(DEAL, properties={**DEAL["properties"], "opponent": _CLASSMATE})}}}
"""The deals against classmates (a table of the hub): the last ones as records, the totals per classmate."""


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
    "people": Section(3, {"totals": {}, "deals": []}, PEOPLE),
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
