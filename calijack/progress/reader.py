"""Reading a progress document, and the parts of one that the live sandbox hands to Python.

:func:`read` tells apart every way a document cannot be read (:class:`ProgressError`, whose
``kind`` says which) and brings an older version up to the current one
(:data:`calijack.progress.document.VERSION`): a newer version only adds sections, each empty
in an older document. :func:`read_game` and :func:`read_deal` check what the page hands over
from the store, the engine replaying every card of its record.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..records import RecordError, read_record
from ..schemalite import SchemaError, check
from ..text_progress import say
from . import document
from .document import DEAL, FORMAT, GAME, MAX_CHARS, SECTIONS, schema

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
    version's schema and brought up to the current version (:data:`~.document.VERSION`);
    :class:`ProgressError` if it cannot be.

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
    if version > document.VERSION:
        raise ProgressError("too_new", say("reason_too_new", version=version, known=document.VERSION))
    try:
        check(data, schema(version))
    except SchemaError as error:
        raise ProgressError("schema", _schema_reason(error)) from None
    upgraded = dict(data, version=document.VERSION)
    for name, section in SECTIONS.items():
        if section.since > version:
            upgraded[name] = json.loads(json.dumps(section.empty))
    return upgraded



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
