"""Scoring a finished deal, with the breakdown a learner needs to see why.

Who earns each point, and how each point is decided, comes from :mod:`calijack.core`
(:func:`~calijack.core.scorers`, :func:`~calijack.core.award_points`); this module adds
the card (or the totals) behind each point, worded by :mod:`calijack.text`, and itemises
each seat's card values. Card values and match points are different quantities and are
never added together.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import core
from .cards import DECK, Card, cards_of, sort_cards
from .text import POINT_TITLES, Narrator, award_detail

if TYPE_CHECKING:
    from .state import State

__all__ = ["Award", "DealResult", "score", "POINT_TITLES"]


@dataclass(frozen=True)
class Award:
    """One point of the deal: who earned it (``None``: nobody), the deciding card, and why.

    ``basis`` says how the point was decided (:data:`calijack.core.CAPTURED`, ``HELD``,
    ``DEALER``, ``PIPS``, or ``-1`` when its card was left out of play), so a view can word
    ``detail`` in its own seat names with :func:`calijack.text.award_detail`.
    """

    name: str
    seat: int | None
    card: Card | None
    detail: str
    basis: int = core.CAPTURED

    @property
    def title(self) -> str:
        """The point's name for people: ``"High"``."""
        return POINT_TITLES[self.name]

    def words(self, pips, narrator: Narrator) -> str:
        """``detail`` in ``narrator``'s seat names (``pips``: the deal's card values per seat)."""
        return award_detail(self.name, self.seat, self.card, self.basis, pips, narrator)


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


def score(state: "State") -> DealResult:
    """The breakdown of a finished deal; raises ``ValueError`` while cards remain."""
    if not state.finished:
        raise ValueError(f"the deal is not over: trick {state.trick_number} of {state.rules.tricks} is being played")
    turned = state.deal.turned
    turned = turned.index if turned is not None else -1
    trump, rules = int(state.trump), state.rules
    points, pips = core.award_points(rules, trump, state.dealer, state.piles, state.received, turned)
    dead = state.dead_card
    narrator = Narrator(state.players)
    awards = []
    for name, index, basis in core.scorers(rules, trump, turned):
        card = DECK[index] if index >= 0 else None
        if card is not None and card == dead:
            basis = -1
        seat = points[name]
        detail = award_detail(name, seat, card, basis, pips, narrator)
        awards.append(Award(name, seat, card, detail, basis))
    counted = tuple(tuple(c for c in sort_cards(cards_of(pile), state.trump) if c.value)
                    for pile in state.piles)
    return DealResult(tuple(awards), pips, counted)
