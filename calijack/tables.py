"""Tables on the hub: two classmates play each other across two devices, the game on the server.

Pure Python, no web server: :class:`Room` holds every table of the class and answers
everything the class service's websocket (``calijack/classsvc/tables.py``) passes on. A player
is a hub user name, always the hub's word: the room never reads a name from a message. The
game itself is the pass-and-play table's (:class:`calijack.friend.Friend`), so every rule, every
refusal of an illegal card and every sentence of what happened are the engine's and the
narrator's; here each seat has its own screen, so nothing is ever hidden behind a pass screen.

- A learner **opens** a table (:meth:`Room.open`): it gets an unguessable id, its link, and
  may name a classmate who is online (:meth:`Room.online`) as invited. Whoever follows the link
  **joins** (:meth:`Room.join`) while the second seat is free; a third is refused.
- Each player sees :meth:`Room.seat_view`: a plain dict of what that seat may know (their
  own hand, the cards played, the trick, the stock's top card, the scores, whose turn, one
  sentence on what to do), and never a card of the other hand that was not shown to both.
  The teacher's :meth:`Room.watch_view` holds only the cards already played and the scores.
- A move (:meth:`Room.receive`, the JSON text a page sent) carries the table's **sequence
  number** as the page last saw it: a move made on a page that is behind (a reload, a second
  tab) is refused, and the page gets the table as it is.
- Each connection is counted (:meth:`Room.connect`, :meth:`Room.disconnect`): a player back
  after a drop or a reload gets the same view. A player with no connection for
  :attr:`Room.gone_after` seconds (the clock is given, for the tests) is gone: the other may
  finish against the computer (a level's player, :data:`LEVEL`).
- Each finished deal gives, for each person at the table, a progress entry with its record
  (:meth:`Room.take_results`): against a classmate, or against the computer once it took a seat.

Every refusal is :class:`TableError`, whose text is one sentence (:mod:`calijack.text_tables`),
and nothing changes.
"""

from __future__ import annotations

import datetime as dt
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from .cards import CardError, parse_card
from .friend import Friend
from .players import get_player, position_rng
from .reasons import IllegalPlay
from .text_friend import NAME_LIMIT
from .text_tables import say

__all__ = ["Room", "Table", "TableError", "MAX_MESSAGE", "MAX_TABLES", "GONE_AFTER", "LEVEL"]

MAX_MESSAGE = 2000
"""The most characters a message from a page may hold (a move takes under 100)."""
MAX_TABLES = 3
"""The most unfinished tables one learner may sit at."""
GONE_AFTER = 60.0
"""Seconds without a connection after which a player is gone, and the other may play on against the computer."""
FORGET_AFTER = 3600.0
"""Seconds after which a table nobody is connected to is put away."""
LEVEL = "casual"
"""The computer's level when it takes a gone player's seat."""
MESSAGES = 6
"""How many of the latest sentences a view holds."""



def _sheet(game) -> list[dict]:
    """The finished deal's score sheet, both players' names in its words: each point, who scored
    it (``None``: nobody) and why. Every card has been played by then: nothing is hidden."""
    result = game.result
    return [{"point": award.name, "title": award.title, "seat": award.seat,
             "why": award.words(result.pips, game.narrator)} for award in result.awards]

class TableError(ValueError):
    """A refusal: ``str(error)`` is the one sentence to show; nothing changed."""


def _now_iso() -> str:
    return dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _codes(cards) -> list[str]:
    return [card.code for card in cards]


def _display(names: tuple[str, str]) -> tuple[str, str]:
    """The players' hub names as the narrator calls them (at most NAME_LIMIT characters, distinct)."""
    short = [name[:NAME_LIMIT] for name in names]
    if short[0].casefold() == short[1].casefold():
        short = [f"{name[:NAME_LIMIT - 2]}-{seat + 1}" for seat, name in enumerate(names)]
    return short[0], short[1]


@dataclass
class Table:
    """One table: its seats (hub names), the game once both sit, and who is connected."""

    id: str
    game_id: str                        # the progress entries' id (hex), apart from the secret table id
    seats: list                         # [opener, joiner or None]
    match: bool                         # a match, or a single deal
    invited: str | None = None
    game: Friend | None = None
    seq: int = 0
    computer: int | None = None         # the seat the computer took, if any
    connections: list = field(default_factory=lambda: [0, 0])
    away_since: list = field(default_factory=lambda: [None, None])
    messages: list = field(default_factory=list)
    reported: int = 0                   # finished deals already turned into progress entries
    touched: float = 0.0

    def seat_of(self, user: str) -> int | None:
        return self.seats.index(user) if user in self.seats else None

    @property
    def full(self) -> bool:
        return None not in self.seats

    @property
    def over(self) -> bool:
        """True once no card will be played here again."""
        game = self.game
        return game is not None and game.finished and (game.match.finished or not self.match)

    def say(self, text: str) -> None:
        self.messages = (self.messages + [text])[-MESSAGES:]


class Room:
    """Every table of the class, in memory (the game is the server's, never a page's).

    ``clock`` gives seconds (``time.monotonic`` by default; the tests pass their own),
    ``gone_after`` the seconds away after which a player is gone, ``max_tables`` the most
    unfinished tables one learner may sit at, ``seed`` a seed for every match (the tests'),
    ``rules`` the rules of every table.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic, gone_after: float = GONE_AFTER,
                 max_tables: int = MAX_TABLES, max_message: int = MAX_MESSAGE, level: str = LEVEL,
                 seed: int | None = None, rules=None):
        self.clock, self.gone_after, self.max_tables = clock, gone_after, max_tables
        self.max_message, self.level, self.seed, self.rules = max_message, level, seed, rules
        self.tables: dict[str, Table] = {}
        self.present: dict[str, int] = {}   # user -> open connections (lobby and tables)
        self._results: list[tuple[str, dict]] = []

    # -- who is here ---------------------------------------------------------------------------
    def arrive(self, user: str) -> None:
        """One more page of ``user``'s is connected (the lobby or a table)."""
        self.present[user] = self.present.get(user, 0) + 1

    def depart(self, user: str) -> None:
        left = self.present.get(user, 0) - 1
        if left > 0:
            self.present[user] = left
        else:
            self.present.pop(user, None)

    def online(self, user: str | None = None) -> list[str]:
        """The classmates with a page connected, by name (``user`` left out)."""
        return sorted(name for name in self.present if name != user)

    # -- opening and joining ---------------------------------------------------------------------
    def _open_count(self, user: str) -> int:
        return sum(1 for t in self.tables.values() if user in t.seats and not t.over)

    def open(self, user: str, invite: Any = None, match: bool = True) -> Table:
        """A new table with ``user`` in seat 0; ``invite`` a classmate online, or None."""
        self.sweep()
        if invite is not None:
            if not isinstance(invite, str) or invite not in self.present:
                raise TableError(say("invite_name", value=invite))
            if invite == user:
                raise TableError(say("invite_self"))
        if self._open_count(user) >= self.max_tables:
            raise TableError(say("too_many", limit=self.max_tables))
        table = Table(id=secrets.token_urlsafe(16), game_id=secrets.token_hex(8), seats=[user, None],
                      match=bool(match), invited=invite, touched=self.clock())
        table.say(say("waiting_invited", name=invite) if invite else say("waiting_for"))
        self.tables[table.id] = table
        return table

    def table(self, table_id: Any) -> Table:
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
        if table is None:
            raise TableError(say("no_table", value=table_id))
        return table

    def join(self, user: str, table_id: Any) -> Table:
        """``user`` takes the free seat of the table (refused at a full table, or at their own)."""
        table = self.table(table_id)
        if user in table.seats:
            raise TableError(say("own_table") if not table.full else say("already_seated"))
        if table.full:
            raise TableError(say("full"))
        if self._open_count(user) >= self.max_tables:
            raise TableError(say("too_many", limit=self.max_tables))
        table.seats[1] = user
        names = _display((table.seats[0], user))
        seed = self.seed if self.seed is not None else secrets.randbelow(1_000_000)
        table.game = Friend(names, seed=seed, rules=self.rules)
        table.game.reveal()  # each player has their own screen: nothing to hide behind
        table.seq += 1
        table.say(say("joined", name=names[1]))
        table.say(self._deal_opened(table))
        self._computer_turns(table)
        return table

    # -- connections -----------------------------------------------------------------------------
    def connect(self, table_id: str, user: str) -> None:
        """A page of ``user``'s is connected to the table (a reload is a disconnect, then a connect)."""
        table = self.table(table_id)
        seat = table.seat_of(user)
        if seat is None:
            return
        if table.computer is None and table.full and self.gone(table, seat):
            table.say(say("back", name=self._names(table)[seat]))
        table.connections[seat] += 1
        table.away_since[seat] = None
        table.touched = self.clock()

    def disconnect(self, table_id: str, user: str) -> None:
        table = self.tables.get(table_id)
        seat = None if table is None else table.seat_of(user)
        if seat is None:
            return
        table.connections[seat] = max(0, table.connections[seat] - 1)
        if table.connections[seat] == 0:
            table.away_since[seat] = self.clock()
        table.touched = self.clock()

    def gone(self, table: Table, seat: int) -> bool:
        """True when ``seat``'s player has had no connection for :attr:`gone_after` seconds."""
        since = table.away_since[seat]
        return table.connections[seat] == 0 and since is not None and self.clock() - since >= self.gone_after

    def sweep(self) -> None:
        """Put away the tables nobody has been connected to for :data:`FORGET_AFTER` seconds."""
        now = self.clock()
        for key in [k for k, t in self.tables.items()
                    if not any(t.connections) and now - t.touched >= FORGET_AFTER]:
            del self.tables[key]

    # -- moves -------------------------------------------------------------------------------------
    def receive(self, user: str, text: Any) -> Table:
        """A message from ``user``'s page (JSON text): ``{"type": "play", "table": ID, "seq": N,
        "card": "7C"}``, ``"next"`` (the next deal of the match), ``"computer"`` (finish against
        the computer, once the other player is gone) or ``"join"``. The table it changed, or
        :class:`TableError` with one sentence, and nothing changed."""
        message = self.parse(text)
        kind = message["type"]
        if kind == "join":
            return self.join(user, message.get("table"))
        if kind not in ("play", "next", "computer"):
            raise TableError(say("unknown_type", value=kind))
        table = self.table(message.get("table"))
        seat = table.seat_of(user)
        if seat is None:
            raise TableError(say("not_seated"))
        seq = message.get("seq")
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise TableError(say("no_seq"))
        if seq != table.seq:
            raise TableError(say("stale"))
        if table.game is None:
            raise TableError(say("waiting"))
        if seat == table.computer:
            raise TableError(say("computer_plays"))
        {"play": self._play, "next": self._next, "computer": self._take_over}[kind](table, seat, message)
        table.seq += 1
        table.touched = self.clock()
        self._computer_turns(table)
        return table

    def parse(self, text: Any) -> dict:
        """The message in ``text``, checked for size and shape (:class:`TableError` if not)."""
        if isinstance(text, (bytes, bytearray)):
            if len(text) > self.max_message:
                raise TableError(say("too_big", limit=self.max_message))
            text = bytes(text).decode("utf-8", errors="replace")
        if not isinstance(text, str):
            raise TableError(say("not_json"))
        if len(text) > self.max_message:
            raise TableError(say("too_big", limit=self.max_message))
        try:
            message = json.loads(text, parse_constant=lambda name: None)
        except (ValueError, RecursionError):
            raise TableError(say("not_json")) from None
        if not isinstance(message, dict):
            raise TableError(say("not_json"))
        if not isinstance(message.get("type"), str):
            raise TableError(say("no_type"))
        return message

    def _play(self, table: Table, seat: int, message: dict) -> None:
        game = table.game
        if game.finished:
            raise TableError(say("deal_over"))
        names = self._names(table)
        if game.to_play != seat:
            raise TableError(say("not_your_turn", name=names[game.to_play]))
        raw = message.get("card")
        try:
            card = parse_card(raw) if isinstance(raw, str) and len(raw) <= 8 else None
        except CardError:
            card = None
        if card is None:
            raise TableError(say("not_a_card", value=raw))
        if card not in game.state.hand(seat):
            raise TableError(say("not_your_card", card=card))  # never says whose card it is
        try:
            events = game.play(card)
        except IllegalPlay as refusal:
            raise TableError(str(refusal)) from None
        self._after(table, events)

    def _after(self, table: Table, events) -> None:
        game = table.game
        if game.hidden:
            game.reveal()
        for event in events:
            table.say(event.text)
        if game.finished:
            self._report(table)

    def _next(self, table: Table, seat: int, message: dict) -> None:
        game = table.game
        if not game.finished:
            raise TableError(say("deal_going", trick=game.state.trick_number, tricks=game.rules.tricks))
        if game.match.finished or not table.match:
            winner = game.match.winner
            name = self._names(table)[winner] if winner is not None else self._names(table)[seat]
            raise TableError(say("match_over", name=name, target=game.rules.target))
        game.next_deal()
        game.reveal()
        table.say(self._deal_opened(table))

    def _take_over(self, table: Table, seat: int, message: dict) -> None:
        other = 1 - seat
        names = self._names(table)
        if table.computer is not None or not self.gone(table, other):
            raise TableError(say("not_gone", name=names[other], seconds=round(self.gone_after)))
        table.computer = other
        table.say(say("taken", level=self.level.capitalize(), name=names[other]))

    def _computer_turns(self, table: Table) -> None:
        """The computer plays its seat's cards until it is a person's turn or the deal is over."""
        game = table.game
        if game is None or table.computer is None:
            return
        player = get_player(self.level)
        while not game.finished and game.to_play == table.computer:
            state = game.state
            rng = position_rng(game.seed, game.deal_number - 1)(state, "table")
            decision = player.choose(state.view(table.computer).with_scores(game.match_before.scores), rng)
            self._after(table, game.play(decision.card))

    # -- what each may see -----------------------------------------------------------------------
    @staticmethod
    def _names(table: Table) -> tuple[str, str]:
        if table.game is not None:
            return table.game.names
        return (table.seats[0][:NAME_LIMIT], "")

    def _deal_opened(self, table: Table) -> str:
        game = table.game
        state = game.state
        return game.narrator.deal_opened(game.deal_number, state.dealer, state.trump, state.deal.turned)

    def _status(self, table: Table) -> str:
        game = table.game
        if game is None:
            return "waiting"
        if table.over:
            return "over"
        return "deal_over" if game.finished else "playing"

    def _prompt(self, table: Table, seat: int | None) -> str:
        game, names = table.game, self._names(table)
        if game is None:
            return say("waiting_invited", name=table.invited) if table.invited else say("waiting_for")
        if game.match.finished or (game.finished and not table.match):
            winner = game.match.winner
            if winner is None:
                return say("deal_final", points=game.narrator.points(game.result))
            return say("match_done", name=names[winner], target=game.rules.target)
        if game.finished:
            return say("deal_done", points=game.narrator.points(game.result))
        state = game.state
        act = "play" if state.trick else "lead"
        fields = dict(act=act, trick=state.trick_number, tricks=state.rules.tricks)
        if seat is not None and state.to_play == seat and seat != table.computer:
            return say("your_turn", **fields)
        other = 1 - seat if seat is not None else None
        if other is not None and other != table.computer and self.gone(table, other):
            return say("gone", name=names[other], seconds=round(self.gone_after))
        if other is not None and other != table.computer and table.connections[other] == 0:
            return say("away", name=names[other])
        return say("their_turn", name=names[state.to_play], **fields)

    def _public(self, table: Table) -> dict:
        """What everyone at the table, the watcher too, may know."""
        game = table.game
        view = {"table": table.id, "seq": table.seq, "status": self._status(table),
                "players": list(table.seats), "names": list(self._names(table)), "match": table.match,
                "computer": table.computer}
        if game is None:
            return view
        state = game.state
        view.update({
            "deal": game.deal_number, "trick_number": min(state.trick_number, state.rules.tricks),
            "tricks": state.rules.tricks, "target": state.rules.target, "scores": list(game.scores),
            "trump": state.trump.letter, "to_play": state.to_play, "leader": state.leader,
            "trick": _codes(state.view(0).trick),
            "played": [{"leader": t.leader, "cards": _codes(t.cards), "winner": t.winner} for t in state.tricks],
            "hand_sizes": [len(state.hand(s)) for s in range(state.players)],
            "points": list(game.result.points) if game.finished else None,
            "sheet": _sheet(game) if game.finished else None})
        return view

    def seat_view(self, table_id: str, user: str) -> dict:
        """What ``user``'s seat may see (:class:`TableError` if they do not sit there)."""
        table = self.table(table_id)
        seat = table.seat_of(user)
        if seat is None:
            raise TableError(say("not_seated"))
        view = self._public(table)
        view.update({"kind": "seat", "seat": seat, "prompt": self._prompt(table, seat),
                     "messages": list(table.messages), "hand": [], "legal": []})
        game = table.game
        if game is None:
            return view
        other = 1 - seat
        seen = game.state.view(seat)
        mine = seat != table.computer and not game.finished and seen.to_play == seat
        view.update({
            "hand": _codes(seen.hand), "legal": _codes(seen.legal) if mine else [],
            "turned": seen.turned.code if seen.turned else None,
            "stock_top": seen.stock_top.code if seen.stock_top else None, "stock_count": seen.stock_count,
            "draws": [[c.code if c else None for c in t.draws] for t in seen.tricks],
            "can_take_over": table.computer is None and not table.over and self.gone(table, other)})
        return view

    def watch_view(self, table_id: str) -> dict:
        """The teacher's view: the cards already played, the trick, the scores; never a hand."""
        table = self.table(table_id)
        view = self._public(table)
        view.update({"kind": "watch", "prompt": self._prompt(table, None)})
        return view

    def in_play(self) -> list[dict]:
        """The tables, for the teacher's page: id, players, status (newest first)."""
        out = []
        for table in self.tables.values():
            game = table.game
            out.append({"table": table.id, "players": [p for p in table.seats if p], "status": self._status(table),
                        "deal": game.deal_number if game else 0,
                        "trick": min(game.state.trick_number, game.rules.tricks) if game else 0,
                        "tricks": game.rules.tricks if game else 0})
        return out[::-1]

    def lobby_view(self, user: str) -> dict:
        """The lobby of ``user``: classmates online, their own tables, tables they are invited to."""
        def line(t: Table) -> dict:
            game = t.game
            return {"table": t.id, "players": [p for p in t.seats if p], "status": self._status(t),
                    "deal": game.deal_number if game else 0,
                    "trick": min(game.state.trick_number, game.rules.tricks) if game else 0,
                    "tricks": game.rules.tricks if game else 0}
        return {"kind": "lobby", "you": user, "online": self.online(user),
                "tables": [line(t) for t in self.tables.values() if user in t.seats and not t.over],
                "invites": [line(t) for t in self.tables.values() if t.invited == user and not t.full]}

    # -- results -------------------------------------------------------------------------------------
    def _report(self, table: Table) -> None:
        """Each person's progress entry for the deal just finished (taken by :meth:`take_results`)."""
        game = table.game
        number = game.deal_number
        if number <= table.reported:
            return
        table.reported = number
        record = game.record("deal")
        points = list(game.result.points)
        match = game.match
        for seat, user in enumerate(table.seats):
            if seat == table.computer:
                continue
            outcome = None
            if table.match and match.finished:
                outcome = "won" if match.winner == seat else "lost"
            against = self.level if table.computer is not None else table.seats[1 - seat]
            entry = {"id": f"{table.game_id}/{number}", "when": _now_iso(), "seat": seat, "points": points,
                     "match": outcome, "record": record, "opponent": against}
            self._results.append((user, {"people": table.computer is None, "entry": entry}))

    def take_results(self) -> list[tuple[str, dict]]:
        """The finished deals' entries since the last call, as ``(user, {"people": bool, "entry": …})``:
        ``people`` is True for a deal against a classmate, False once the computer took a seat."""
        out, self._results = self._results, []
        return out
