"""What every opponent shares: the decision it returns and its seat's knowledge as bit masks.

An opponent is handed a :class:`~calijack.view.View` and nothing else. :class:`Knowledge`
turns that view into card masks once, so the rules of thumb and the search work on ints;
it is built only from the view, so it can hold nothing the seat has not seen.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from .. import core
from ..cards import FULL_MASK, Card
from ..view import View

__all__ = ["Decision", "Player", "Knowledge"]


@dataclass(frozen=True)
class Decision:
    """A card to play and the one sentence that says why (the sandbox's hint)."""

    card: Card
    reason: str

    def __str__(self) -> str:
        return f"{self.card}: {self.reason}"


@runtime_checkable
class Player(Protocol):
    """A computer opponent: decides from its seat's view only."""

    name: str

    def choose(self, view: View, rng: random.Random) -> Decision:
        """The card to play for ``view.seat`` (which must be the seat to play)."""


@dataclass(frozen=True)
class Knowledge:
    """One seat's view as masks: the form the rules of thumb and the search read."""

    seat: int
    players: int
    trump: int
    void_any: bool
    hand: int                  # this seat's cards
    legal: int                 # its legal cards (it is to play)
    trick: tuple[int, ...]     # card indices of the trick in progress
    leader: int
    played: int                # every card played so far
    piles: tuple[int, ...]     # captured cards per seat (public)
    known: tuple[int, ...]     # per seat: cards seen drawn and still held
    stock_top: int             # the exposed card, -1 once the stock is used up
    stock_count: int           # cards left in the stock, the exposed one included
    dead_card: int             # three players: the card left out of play, else -1
    unseen: int                # cards this seat has not seen
    tricks_done: int
    hand_sizes: tuple[int, ...]
    turned: int = -1           # the card that set trump, -1 when a cut did

    @classmethod
    def from_view(cls, view: View) -> "Knowledge":
        """The masks of ``view`` (raises ``ValueError`` unless the view's seat is to play)."""
        if view.to_play is None:
            raise ValueError("the deal is over: there is no card to choose")
        if view.to_play != view.seat:
            raise ValueError(f"seat {view.to_play} is to play, not seat {view.seat}")
        n = view.players
        piles = [0] * n
        played = 0
        for trick in view.tricks:
            for card in trick.cards:
                piles[trick.winner] |= card.bit
                played |= card.bit
        trick = tuple(c.index for c in view.trick)
        for index in trick:
            played |= 1 << index
        hand = sum(c.bit for c in view.hand)
        known = tuple(sum(c.bit for c in cards) for cards in view.known)
        top = view.stock_top.index if view.stock_top is not None else -1
        dead = view.dead_card.index if view.dead_card is not None else -1
        seen = hand | played
        for mask in known:
            seen |= mask
        if top >= 0:
            seen |= 1 << top
        if dead >= 0:
            seen |= 1 << dead
        void_any = view.rules.void_any
        legal = core.legal_mask(hand, trick[0] if trick else -1, int(view.trump), void_any)
        turned = view.turned.index if view.turned is not None else -1
        return cls(view.seat, n, int(view.trump), void_any, hand, legal, trick, view.leader,
                   played, tuple(piles), known, top, view.stock_count, dead,
                   FULL_MASK & ~seen, len(view.tricks), view.hand_sizes, turned)

    def pips(self, seat: int) -> int:
        """Card values ``seat`` has captured."""
        return core.pips_of(self.piles[seat])
