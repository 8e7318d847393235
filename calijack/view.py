"""What one seat knows: the only window opponents and widgets look through.

A view holds the seat's own hand, every card it saw another seat draw that is still held,
the exposed top of the stock, every card played, the match score when the caller gives it
(:meth:`View.with_scores`), and nothing else. Two positions that
differ only in cards the seat has not seen give equal views.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .cards import DECK, FULL_MASK, Card, Suit, cards_of, mask_of, sort_cards
from .rules import DealError, Rules
from .text import say, seat_list

if TYPE_CHECKING:
    from .state import State, Trick

__all__ = ["View", "view", "check_seat"]


def check_seat(seat: int, players: int) -> int:
    """``seat`` if it is a seat at a table of ``players`` (0 to ``players - 1``), else :class:`DealError`.

    The one seat check of the engine: a negative index must not quietly name another seat.
    """
    if type(seat) is int and 0 <= seat < players:  # the common case, first and cheap
        return seat
    if not isinstance(seat, bool):
        try:
            index = operator.index(seat)  # a NumPy integer is a seat too
        except TypeError:
            index = None
        if index is not None and 0 <= index < players:
            return index
    raise DealError(say("no_seat", seat=seat, players=players, seats=seat_list(players)))


@dataclass(frozen=True)
class View:
    """One seat's knowledge of a position (a value: equal knowledge, equal views)."""

    seat: int
    rules: Rules
    dealer: int
    trump: Suit
    turned: Card | None               # the card that set trump, seen by everyone
    leader: int
    to_play: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    known: tuple[tuple[Card, ...], ...]   # per seat: cards seen drawn, still held
    stock_top: Card | None
    stock_count: int
    dead_card: Card | None
    trick: tuple[Card, ...]           # the trick in progress, from its leader
    tricks: tuple[Trick, ...]         # completed tricks; a draw not seen is ``None``
    legal: tuple[Card, ...]           # this seat's legal cards when it is to play
    scores: tuple[int, ...] | None = None  # the match score before this deal, when known

    def with_scores(self, scores) -> "View":
        """The same view, knowing the match score before this deal (so a player can play for the match)."""
        scores = tuple(scores)
        if len(scores) != self.players or any(isinstance(s, bool) or not isinstance(s, int) or s < 0
                                              for s in scores):
            raise ValueError(f"scores must be {self.players} whole numbers of 0 or more, not {scores!r}")
        return replace(self, scores=scores)

    @property
    def players(self) -> int:
        """How many seats play."""
        return self.rules.players

    @property
    def finished(self) -> bool:
        """True once every trick has been played."""
        return self.to_play is None

    @property
    def played(self) -> tuple[Card, ...]:
        """Every card played so far, in order."""
        return tuple(c for t in self.tricks for c in t.cards) + self.trick

    def captured(self, seat: int) -> list[Card]:
        """The cards ``seat`` has won in tricks (public: every played card is seen)."""
        seat = check_seat(seat, self.players)
        return sort_cards([c for t in self.tricks if t.winner == seat for c in t.cards], self.trump)

    def pips(self, seat: int) -> int:
        """The card values ``seat`` has captured."""
        seat = check_seat(seat, self.players)
        return sum(c.value for t in self.tricks if t.winner == seat for c in t.cards)

    @property
    def unseen(self) -> list[Card]:
        """Cards this seat has not seen: in other hands (not known) or below the stock's top."""
        seen = mask_of(self.hand) | mask_of(self.played)
        seen |= mask_of(c for cards in self.known for c in cards)
        seen |= mask_of(c for c in (self.stock_top, self.dead_card) if c is not None)
        return cards_of(FULL_MASK & ~seen)

    @property
    def hidden_counts(self) -> tuple[int, ...]:
        """How many unseen cards each other seat holds (0 for this seat)."""
        return tuple(0 if s == self.seat else self.hand_sizes[s] - len(self.known[s])
                     for s in range(self.players))

    @property
    def stock_hidden(self) -> int:
        """How many stock cards lie unseen below the exposed top."""
        return max(self.stock_count - 1, 0)


def _saw(rules: Rules, viewer: int, drawer: int, position: int) -> bool:
    # The winner's draw is the exposed top: everyone saw it. With the closed stock the
    # others take theirs unseen by the rest of the table.
    return position == 0 or not rules.stock_closed or drawer == viewer


def view(state: State, seat: int) -> View:
    """What ``seat`` knows in ``state``."""
    n, rules = state.players, state.rules
    seat = check_seat(seat, n)
    tricks = []
    known_masks = [0] * n
    for trick in state.tricks:
        draws = []
        for position, (drawer, card) in enumerate(zip(trick.drawers(n), trick.draws)):
            seen = _saw(rules, seat, drawer, position)
            draws.append(card if seen else None)
            if seen and drawer != seat:
                known_masks[drawer] |= card.bit
        tricks.append(replace(trick, draws=tuple(draws)))
    known = tuple(tuple(sort_cards(cards_of(known_masks[s] & state.hands[s]), state.trump))
                  for s in range(n))
    to_play = state.to_play
    return View(
        seat=seat, rules=rules, dealer=state.dealer, trump=state.trump, turned=state.deal.turned,
        leader=state.leader, to_play=to_play, hand=tuple(state.hand(seat)),
        hand_sizes=tuple(h.bit_count() for h in state.hands), known=known,
        stock_top=state.stock_top, stock_count=len(state.stock), dead_card=state.dead_card,
        trick=tuple(DECK[i] for i in state.trick), tricks=tuple(tricks),
        legal=tuple(state.legal_cards()) if to_play == seat else (),
    )
