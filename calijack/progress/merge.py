"""Merging two progress documents, so that a learner on two devices loses nothing.

The class service of the hub (``calijack/classsvc/``) keeps one copy of each learner's document;
each browser keeps one too. When both hold something new (two devices, or a page offline for a
while), :func:`merge` makes one document of the two. Both are read first
(:func:`calijack.progress.read`: same schema, same limits, same version rules), so a merge never
starts from something a reader would refuse, and its result passes the same reader.

The rules, section by section (the book's appendix ``book/records.md`` says the same for a
learner):

- **checks**: every check answered in either is kept; it is *solved* if solved in either, and
  *right at the first try* only if it was in both that hold it (a wrong first try anywhere
  was a wrong first try).
- **puzzles**: every puzzle is kept with the *best* stars of either; the attempt under way
  keeps the most ``tries`` and a hint seen in either.
- **deals**: every finished deal of either, once (by its ``id``; the same deal in both with two
  endings keeps the later one, by ``when``), oldest first, the newest
  :data:`~.document.KEPT_DEALS` kept.
- **opponents** (the totals): each total counts the deals both kept as records once, plus the
  larger of the two counts of deals no longer kept; never less than either side's total. So
  merging a document with itself, or with an older copy of itself, changes no total.
- **game** (the unfinished one): the one saved last; a game on one side only is kept, unless
  the other side finished that very deal after the game was saved.
- **drills** (the practice queue): every queued mistake of either, once (by ``id``); the same
  mistake in both keeps the schedule that brings it back sooner (a miss anywhere was a miss).
  The queue is ordered by when each is due; past :data:`~.document.KEPT_DRILLS`, the ones due
  last go.
- **people** (deals against classmates at a table of the hub, since version 3): its ``deals``
  merge as **deals** do (every one of either, once, by ``id``; the newest
  :data:`~.document.KEPT_DEALS` kept) and its ``totals`` per classmate as **opponents** do
  (the deals kept in either counted once, plus the larger count of those no longer kept; the
  :data:`~.document.KEPT_PEOPLE` classmates with the most deals kept). Nothing of it is ever
  counted with the deals against the computer. A version 2 document has no ``people``: it
  reads as empty, so merging it with a newer one keeps the newer one's.

``merge(a, b) == merge(b, a)``; ``merge(a, a) == a`` for a document in its merged order (deals
by ``when``, drills by ``due``), which is the order a browser writes them in; and nothing of
either side is lost except what the document's limits leave out.
"""

from __future__ import annotations

import json
from typing import Any

from .document import KEPT_DEALS, KEPT_DRILLS, KEPT_PEOPLE, MAX_CHARS, SECTIONS, VERSION, FORMAT
from .entries import deal_totals
from .reader import read

_TOTALS = ("deals", "for", "against", "won", "lost")
_MAX_CHECKS = SECTIONS["checks"].schema["maxProperties"]
_MAX_PUZZLES = SECTIONS["puzzles"].schema["maxProperties"]
_MAX_OPPONENTS = SECTIONS["opponents"].schema["maxProperties"]


def _canon(value: Any) -> str:
    """One text for one value: the tie-breaker that makes every choice the same either way round."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _later(a: dict, b: dict, key: str) -> dict:
    """Of two entries, the one with the later ``key`` (ties: the larger canonical text)."""
    return max((a, b), key=lambda e: (e[key], _canon(e)))


def merge_checks(a: dict, b: dict) -> dict:
    out = {}
    for key in a.keys() | b.keys():
        sides = [s[key] for s in (a, b) if key in s]
        out[key] = {"first": all(e["first"] for e in sides), "solved": any(e["solved"] for e in sides)}
    return {k: out[k] for k in sorted(out)[:_MAX_CHECKS]}


def merge_puzzles(a: dict, b: dict) -> dict:
    out = {}
    for key in a.keys() | b.keys():
        sides = [s[key] for s in (a, b) if key in s]
        out[key] = {"best": max(e["best"] for e in sides), "tries": max(e["tries"] for e in sides),
                    "hint": any(e["hint"] for e in sides)}
    return {k: out[k] for k in sorted(out, key=int)[:_MAX_PUZZLES]}


def _kept_totals(deals: list[dict]) -> dict[str, dict]:
    """The totals per opponent of the deals kept as records."""
    out: dict[str, dict] = {}
    for entry in deals:
        totals = out.setdefault(entry["opponent"], dict.fromkeys(_TOTALS, 0))
        for name, value in deal_totals(entry).items():
            totals[name] += value
    return out


def merge_deals(a: list, b: list) -> list:
    """Every finished deal of either, once, oldest first (all of them: the cap comes later)."""
    by_id: dict[str, dict] = {}
    for entry in [*a, *b]:
        by_id[entry["id"]] = _later(by_id[entry["id"]], entry, "when") if entry["id"] in by_id else entry
    return sorted(by_id.values(), key=lambda e: (e["when"], e["id"]))


def merge_opponents(a: dict, a_deals: list, b: dict, b_deals: list, union: list,
                    limit: int = _MAX_OPPONENTS) -> dict:
    """The totals: deals kept in either counted once, plus the larger count of deals no longer kept."""
    kept_a, kept_b, kept = _kept_totals(a_deals), _kept_totals(b_deals), _kept_totals(union)
    zero = dict.fromkeys(_TOTALS, 0)
    out = {}
    for name in a.keys() | b.keys():  # totals reset on both sides stay reset
        ta, tb = a.get(name, zero), b.get(name, zero)
        ka, kb, k = kept_a.get(name, zero), kept_b.get(name, zero), kept.get(name, zero)
        out[name] = {f: min(1_000_000_000, max(ta[f], tb[f], k[f] + max(ta[f] - ka[f], tb[f] - kb[f])))
                     for f in _TOTALS}
    keep = sorted(out, key=lambda n: (-out[n]["deals"], n))[:limit]
    return {n: out[n] for n in sorted(keep)}


def merge_game(a: dict | None, a_deals: list, b: dict | None, b_deals: list):
    """The unfinished game saved last; one side's game goes if the other side finished that deal since."""
    if a == b:
        return a
    if a is not None and b is not None:
        return _later(a, b, "saved")
    game, other_deals = (a, b_deals) if a is not None else (b, a_deals)
    finished = f"{game['id']}/{game['deal']}"
    if any(d["id"] == finished and d["when"] >= game["saved"] for d in other_deals):
        return None
    return game


def merge_people(a: dict, b: dict) -> dict:
    """The deals against classmates and their totals: merged as ``deals`` and ``opponents`` are."""
    union = merge_deals(a["deals"], b["deals"])
    return {"totals": merge_opponents(a["totals"], a["deals"], b["totals"], b["deals"], union, KEPT_PEOPLE),
            "deals": union[-KEPT_DEALS:]}


def merge_drills(a: list, b: list) -> list:
    """Every queued mistake of either, once; the sooner schedule wins; ordered by when each is due."""
    by_id: dict[str, dict] = {}
    for entry in [*a, *b]:
        if entry["id"] in by_id:
            other = by_id[entry["id"]]
            entry = min((other, entry), key=lambda e: (e["due"], e["step"], _canon(e)))
        by_id[entry["id"]] = entry
    return sorted(by_id.values(), key=lambda e: (e["due"], e["id"]))[:KEPT_DRILLS]


def merge(a: Any, b: Any, *, already_read: bool = False) -> dict:
    """One document holding everything of ``a`` and of ``b`` (each a document, or its JSON text).

    Raises :class:`calijack.progress.ProgressError` if either cannot be read. The result is a
    document of the current version within every limit: the oldest deals go first if the text
    would pass :data:`~.document.MAX_CHARS`, as in the browser. ``already_read``: both are what
    :func:`~.reader.read` returned (the class service's stored copy and the copy it has just
    read), so they are not read again; the result is read all the same."""
    if not already_read:
        a, b = read(a), read(b)
    union = merge_deals(a["deals"], b["deals"])
    doc = {"format": FORMAT, "version": VERSION,
           "checks": merge_checks(a["checks"], b["checks"]),
           "puzzles": merge_puzzles(a["puzzles"], b["puzzles"]),
           "opponents": merge_opponents(a["opponents"], a["deals"], b["opponents"], b["deals"], union),
           "deals": union[-KEPT_DEALS:],
           "game": merge_game(a["game"], a["deals"], b["game"], b["deals"]),
           "drills": merge_drills(a["drills"], b["drills"]),
           "people": merge_people(a["people"], b["people"])}
    while len(json.dumps(doc, separators=(",", ":"))) > MAX_CHARS and (doc["deals"] or doc["people"]["deals"]):
        if doc["deals"]:
            doc["deals"] = doc["deals"][1:]
        else:
            doc["people"]["deals"] = doc["people"]["deals"][1:]
    return read(doc)
