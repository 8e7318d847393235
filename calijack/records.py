"""Game records (``RECORDS.md``): read, check, write, and replay as JSON.

A record fixes a deal or a match completely. Reading one checks every card and every play
against the rules; anything wrong raises :class:`RecordError`, which says what and where.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass
from typing import Any

from .cards import CardError, parse_card, parse_suit
from .match import Match
from .quoting import LIMIT, one_line, quoted, quoted_path
from .reasons import IllegalPlay
from .rules import RuleError, Rules
from .state import Deal, DealError, State
from .text import say

__all__ = ["RecordError", "MatchRecord", "load", "loads", "read_record", "read_bytes", "deal_record",
           "match_record", "replay_json", "dumps", "MAX_RECORD_BYTES", "MAX_DEPTH"]

MAX_RECORD_BYTES = 1 << 20
"""The largest record read: 1 MiB. A match to 10 takes about 4 kB (20 kB pretty-printed)."""

MAX_DEPTH = 16
"""How deep lists and objects may nest in a record; a match record needs 5."""

_NEEDED_DEPTH = 5           # record > deals > deal > hands > hand
_MESSAGE_LIMIT = 300        # the longest message; every quoted value is bounded well below it

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a pipe (FIFO)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


class RecordError(ValueError):
    """A record that cannot be read; carries where: ``trick`` (from 1), ``seat``, ``card``.

    The message is one line of at most a few hundred characters and ``card`` at most 80,
    whatever the record held: a hostile record cannot make the error large.
    """

    def __init__(self, message: str, *, trick: int | None = None, seat: int | None = None,
                 card: str | None = None, deal: int | None = None):
        message = f"deal {deal + 1}: {message}" if deal is not None else message
        self.message = one_line(message, _MESSAGE_LIMIT)
        super().__init__(self.message)
        self.trick, self.seat = trick, seat
        self.card = one_line(card, LIMIT) if isinstance(card, str) else None

    def to_json(self) -> dict:
        """The ``{"error": …}`` object of ``calijack replay --json``."""
        return {"error": {"message": self.message, "trick": self.trick, "seat": self.seat,
                          "card": self.card}}


@dataclass(frozen=True)
class MatchRecord:
    """A match read from a record: the rules, the first dealer, and each deal's final state."""

    rules: Rules
    first_dealer: int
    states: tuple[State, ...]

    def walk(self):
        """Each deal's state, with the match as it stands after it (its points counted once finished)."""
        match = Match(self.rules, self.first_dealer)
        for state in self.states:
            if state.finished:
                match = match.add(state.result())
            yield state, match

    def match(self) -> Match:
        """The match totals after the finished deals."""
        return list(self.walk())[-1][1]


def _rules(data: dict) -> Rules:
    raw = data.get("rules", {})
    if not isinstance(raw, dict):
        raise RecordError("'rules' must be an object of rule options")
    try:
        return Rules.from_dict(raw)
    except RuleError as error:
        raise RecordError(str(error)) from None


def _cards(raw: Any, where: str, count: int | None, seat: int | None = None):
    if not isinstance(raw, list):
        raise RecordError(f"{where} must be a list of cards", seat=seat)
    if count is not None and len(raw) != count:
        raise RecordError(f"{where} must hold {count} cards, not {len(raw)}", seat=seat)
    cards = []
    for k, text in enumerate(raw):
        try:
            cards.append(parse_card(text))
        except CardError as error:
            raise RecordError(f"{where}[{k}]: {error}", seat=seat,
                              card=text if isinstance(text, str) else None) from None
    return cards


def _check_keys(data: dict, allowed: set[str], what: str, deal: int | None = None):
    for key in data:
        if key not in allowed:
            raise RecordError(f"unknown field {quoted(key)} in {what} (expected: {', '.join(sorted(allowed))})",
                              deal=deal)


def _deal(data: Any, rules: Rules, dealer: int, deal: int | None = None) -> State:
    """Check one deal's cards and plays; the state after its last play."""
    if not isinstance(data, dict):
        raise RecordError("a deal must be a JSON object", deal=deal)
    n = rules.players
    allowed = {"hands", "stock", "plays"} | ({"trump"} if rules.trump_cut else set())
    _check_keys(data, allowed | ({"rules", "dealer"} if deal is None else set()), "the deal", deal)
    for key in ("hands", "stock"):
        if key not in data:
            raise RecordError(f"the deal has no {key!r}", deal=deal)
    try:
        hands = data["hands"]
        if not isinstance(hands, list) or len(hands) != n:
            raise RecordError(f"'hands' must be a list of {n} hands, one per seat")
        hands = [_cards(h, f"hands[{seat}]", 6, seat) for seat, h in enumerate(hands)]
        stock = _cards(data["stock"], "stock", rules.stock_size)
        trump = None
        if rules.trump_cut:
            if "trump" not in data:
                raise RecordError("trump_from is 'cut', so the record must name the trump suit in 'trump'")
            try:
                trump = parse_suit(data["trump"])
            except CardError as error:
                raise RecordError(f"'trump': {error}") from None
        try:
            state = Deal.from_cards(hands, stock, dealer, rules, trump).start()
        except DealError as error:
            repeated = str(error).split()[0] if "twice" in str(error) else None
            raise RecordError(str(error), card=repeated) from None
        plays = data.get("plays", [])
        if not isinstance(plays, list):
            raise RecordError("'plays' must be a list of cards")
        for k, text in enumerate(plays):
            if state.finished:
                raise RecordError(f"{len(plays)} plays, but a deal has only {52 - 52 % n} cards to play",
                                  card=text if isinstance(text, str) else None)
            seat, trick = state.to_play, state.trick_number
            try:
                card = parse_card(text)
            except CardError as error:
                raise RecordError(f"trick {trick}, seat {seat}: {error}", trick=trick, seat=seat,
                                  card=text if isinstance(text, str) else None) from None
            try:
                state = state.play(card)
            except IllegalPlay as error:
                why = (f"{card.code} is not in seat {seat}'s hand" if error.kind == "not_in_hand"
                       else f"{card.code} breaks a duty: seat {seat} {error.duty}")
                raise RecordError(f"trick {trick}, seat {seat}: {why}", trick=trick, seat=seat,
                                  card=card.code) from None
        return state
    except RecordError as error:
        if deal is not None and error.message and not error.message.startswith("deal "):
            raise RecordError(error.message, trick=error.trick, seat=error.seat, card=error.card,
                              deal=deal) from None
        raise


def _seat(data: dict, key: str, rules: Rules) -> int:
    if key not in data:
        raise RecordError(f"the record has no {key!r}")
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < rules.players:
        shown = "true" if value is True else "false" if value is False else quoted(value)
        raise RecordError(f"{key!r} must be a seat from 0 to {rules.players - 1}, not {shown}")
    return value


def _check_depth(data: Any) -> None:
    # Walked with a list, not recursion, and stopped at the limit, so a list nested a
    # thousand deep (or holding itself) is refused before anything recurses into it.
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        children = value.values() if isinstance(value, dict) else value
        if depth > MAX_DEPTH:
            raise RecordError(say("record_too_deep", limit=MAX_DEPTH, needed=_NEEDED_DEPTH))
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list, tuple)))


def read_record(data: Any) -> State | MatchRecord:
    """A deal record gives the :class:`State` after its plays; a match record a :class:`MatchRecord`."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    _check_depth(data)
    rules = _rules(data)
    if "deals" in data:
        _check_keys(data, {"rules", "first_dealer", "deals"}, "a match record")
        first = _seat(data, "first_dealer", rules)
        deals = data["deals"]
        if not isinstance(deals, list) or not deals:
            raise RecordError("'deals' must be a non-empty list of deals")
        states: list[State] = []
        match = Match(rules, first)
        for k, raw in enumerate(deals):
            if match.finished:
                raise RecordError(f"the match was won in deal {k}, so no deal may follow it", deal=k)
            if states and not states[-1].finished:
                raise RecordError("this deal is unfinished, but only the last deal may be", deal=k - 1)
            state = _deal(raw, rules, match.dealer(k), k)
            states.append(state)
            if state.finished:
                match = match.add(state.result())
        return MatchRecord(rules, first, tuple(states))
    return _deal(data, rules, _seat(data, "dealer", rules))


def loads(text: str | bytes) -> State | MatchRecord:
    """Read a record from JSON text (bytes are read as UTF-8); a leading byte-order mark is allowed."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise RecordError(say("record_not_text", kind=type(text).__name__))
    if len(text) > MAX_RECORD_BYTES:  # characters, or bytes: either way before any work
        raise RecordError(say("record_text_too_big", size=len(text), limit=MAX_RECORD_BYTES,
                              unit="characters" if isinstance(text, str) else "bytes"))
    if not isinstance(text, str):
        text = _decode(bytes(text), "the record")
    text = text.removeprefix("\ufeff")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}") from None
    except RecursionError:
        raise RecordError(say("record_too_deep", limit=MAX_DEPTH, needed=_NEEDED_DEPTH)) from None
    except ValueError as error:  # a number too long to read
        raise RecordError(f"not valid JSON: {str(error).split(':')[0]}") from None
    return read_record(data)


def _decode(data: bytes, what: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        offset = error.start + (3 if data.startswith(b"\xef\xbb\xbf") else 0)
        raise RecordError(say("record_not_utf8", what=what, byte=data[offset], offset=offset)) from None


def _refuse_odd_file(mode: int, path: str) -> None:
    for test, kind in _KINDS:
        if test(mode):
            raise RecordError(say("record_not_file", path=path, kind=kind))
    if not stat.S_ISREG(mode):
        raise RecordError(say("record_not_file", path=path, kind="not a file"))


def read_bytes(path) -> bytes:
    """The bytes of a record file, or :class:`RecordError`: only a regular file of at most
    :data:`MAX_RECORD_BYTES` is read (a pipe, ``/dev/zero`` or a directory is refused, never waited on)."""
    try:
        name = quoted_path(os.fsdecode(path))
    except TypeError:
        raise RecordError(say("record_unreadable", path=quoted(path), reason="that is not a file name")) from None
    fd = None
    try:
        # Look before opening: opening a pipe waits for a writer, and a device may act on open.
        _refuse_odd_file(os.stat(path).st_mode, name)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
                     | getattr(os, "O_BINARY", 0))
        info = os.fstat(fd)  # the file opened, which may not be the one looked at
        _refuse_odd_file(info.st_mode, name)
        if info.st_size > MAX_RECORD_BYTES:
            raise RecordError(say("record_too_big", path=name, size=f"{info.st_size:,}", limit=MAX_RECORD_BYTES))
        with os.fdopen(fd, "rb") as f:
            fd = None
            data = f.read(MAX_RECORD_BYTES + 1)  # a file that grew is still bounded
    except RecordError:
        raise
    except OSError as error:
        raise RecordError(say("record_unreadable", path=name, reason=error.strerror or "it cannot be read")) from None
    except ValueError:  # a NUL character in the name
        raise RecordError(say("record_unreadable", path=name, reason="a file name cannot hold a NUL character")) from None
    finally:
        if fd is not None:
            os.close(fd)
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(say("record_too_big", path=name, size=f"more than {MAX_RECORD_BYTES:,}",
                              limit=MAX_RECORD_BYTES))
    return data


def load(path) -> State | MatchRecord:
    """Read a record file (see :func:`read_bytes` for which files are read)."""
    data = read_bytes(path)
    return loads(_decode(data, quoted_path(os.fsdecode(path))))


# -- writing -------------------------------------------------------------------------------

def _deal_body(state: State) -> dict:
    body = {"hands": [[c.code for c in h] for h in state.deal.hands],
            "stock": [c.code for c in state.deal.stock]}
    if state.rules.trump_cut:
        body["trump"] = state.trump.letter
    body["plays"] = [c.code for c in state.plays]
    return body


def deal_record(state: State) -> dict:
    """The deal record of a state (its deal and every card played so far)."""
    return {"rules": state.rules.to_dict(), "dealer": state.dealer, **_deal_body(state)}


def match_record(rules: Rules, first_dealer: int, states) -> dict:
    """The match record of a sequence of deal states (dealers rotating from ``first_dealer``)."""
    return {"rules": rules.to_dict(), "first_dealer": first_dealer,
            "deals": [_deal_body(s) for s in states]}


def game_record(rules: Rules, first_dealer: int, done, state: State, kind: str | None = None,
                error: type[ValueError] = RecordError) -> dict:
    """The record of a game under way (the deals ``done``, then ``state``): "deal" (``state``'s
    deal) or "match" (every deal so far); by default a deal record for the first deal, a match
    record after it. Another ``kind`` raises ``error`` with the sentence saying so."""
    kind = kind or ("match" if done else "deal")
    if kind == "deal":
        return deal_record(state)
    if kind == "match":
        return match_record(rules, first_dealer, (*done, state))
    raise error(say("record_kind", kind=kind))


def dumps(record: dict) -> str:
    """A record as compact, stable JSON text."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


# -- replay --------------------------------------------------------------------------------

def _codes(cards) -> list[str]:
    return sorted(c.code for c in cards)


def deal_json(state: State) -> dict:
    """The replay object of one deal (``calijack replay --json``)."""
    start = state.deal.start()
    tricks, walk = [], start
    for trick in state.tricks + ((state.current,) if state.trick else ()):
        legal = []
        for card in trick.cards:
            legal.append(_codes(walk.legal_cards()))
            walk = walk._apply(card.index)
        entry = {"leader": trick.leader, "cards": [c.code for c in trick.cards], "legal": legal}
        if trick.winner is not None:
            entry["winner"] = trick.winner
            entry["draws"] = [c.code for c in trick.draws]
        tricks.append(entry)
    return {
        "trump": state.trump.letter,
        "tricks": tricks,
        "finished": state.finished,
        "to_play": state.to_play,
        "legal": _codes(state.legal_cards()),
        "result": state.result().to_json() if state.finished else None,
    }


def replay_json(record: State | MatchRecord) -> dict:
    """The whole ``--json`` object for a deal or a match record."""
    if isinstance(record, State):
        return deal_json(record)
    deals, match = [], None
    for state, match in record.walk():
        deals.append({**deal_json(state), "scores": list(match.scores)})
    return {"deals": deals, "winner": match.winner}
