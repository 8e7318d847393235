"""Scoring a finished deal, with the breakdown a learner needs to see why.

Who earns each point is decided by :func:`calijack.core.award_points`; this module adds
the card (or the totals) behind each point and itemises each seat's card values. Card
values and match points are different quantities and are never added together.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import core
from .cards import DECK, Card, cards_of, sort_cards
from .state import State

__all__ = ["Award", "DealResult", "score", "POINT_TITLES"]

POINT_TITLES = {"high": "High", "low": "Low", "jack": "Jack", "game": "Game", "nine": "Shasta (nine)"}


@dataclass(frozen=True)
class Award:
    """One point of the deal: who earned it (``None``: nobody), the deciding card, and why."""

    name: str
    seat: int | None
    card: Card | None
    detail: str

    @property
    def title(self) -> str:
        """The point's name for people: ``"High"``."""
        return POINT_TITLES[self.name]


@dataclass(frozen=True)
class DealResult:
    """The scoring of one deal."""

    awards: tuple[Award, ...]              # in the strict counting order
    pips: tuple[int, ...]                  # card values captured per seat
    counted: tuple[tuple[Card, ...], ...]  # per seat: the captured cards that carry value

    @property
    def points(self) -> tuple[int, ...]:
        """Match points each seat earned this deal."""
        players = len(self.pips)
        return tuple(sum(1 for a in self.awards if a.seat == s) for s in range(players))

    def winner_of(self, name: str) -> int | None:
        """The seat that earned point ``name`` (or ``None``); ``KeyError`` for a point not played."""
        for award in self.awards:
            if award.name == name:
                return award.seat
        raise KeyError(f"no point {name!r} in this deal (points: {', '.join(a.name for a in self.awards)})")

    def to_json(self) -> dict:
        """The ``result`` object of ``calijack replay --json``."""
        out = {a.name: a.seat for a in self.awards}
        out["pips"] = list(self.pips)
        out["points"] = list(self.points)
        return out

    def _repr_html_(self) -> str:
        from . import render  # lazy: the engine never depends on rendering

        return render.score_sheet_html(self)


def _detail(name: str, seat, card: Card | None, state: State, pips) -> str:
    rules = state.rules
    who = f"seat {seat}"
    if name == "game" and rules.game == "pips":
        totals = " to ".join(str(p) for p in pips)
        if seat is None:
            return f"card values tied at the top ({totals}): nobody scores Game"
        return f"{who} captured the most card values ({totals})"
    if card is None:
        return "nobody"
    if state.dead_card == card:
        return f"{card} was the card left out of play: nobody scores it"
    if name == "jack" and rules.turned_jack and state.deal.turned == card:
        return f"{card} was turned up to set trump: the dealer ({who}) scores Jack"
    if name in ("high", "low") and rules.high_low == "held":
        return f"{who} held {card} (dealt or drawn)"
    return f"{who} captured {card}"


def score(state: State) -> DealResult:
    """The breakdown of a finished deal; raises ``ValueError`` while cards remain."""
    if not state.finished:
        raise ValueError(f"the deal is not over: trick {state.trick_number} of {state.rules.tricks} is being played")
    turned = state.deal.turned
    points, pips = core.award_points(state.rules, state.trump, state.dealer, state.piles,
                                     state.received, turned.index if turned else -1)
    base = state.trump * 13
    cards = {"high": "high", "low": "low", "jack": "jack", "nine": "nine",
             "game": "ten" if state.rules.game == "ten_of_trumps" else None}
    awards = []
    for name in state.rules.point_names:
        rank = core.POINT_CARD.get(cards[name]) if cards[name] else None
        card = DECK[base + rank] if rank is not None else None
        seat = points[name]
        awards.append(Award(name, seat, card, _detail(name, seat, card, state, pips)))
    counted = tuple(tuple(c for c in sort_cards(cards_of(pile), state.trump) if c.value)
                    for pile in state.piles)
    return DealResult(tuple(awards), pips, counted)
