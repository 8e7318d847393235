"""A match: deals until a seat reaches the target, points counted in strict order."""

from __future__ import annotations

import random
from dataclasses import dataclass

from . import core
from .rules import STANDARD, Rules
from .scoring import DealResult
from .state import Deal, generator

__all__ = ["Match", "MatchOver", "count_points"]


class MatchOver(ValueError):
    """A deal added to a match that is already won."""


def count_points(scores: tuple[int, ...], result: DealResult, target: int):
    """Add a deal's points in strict order (High, Low, Jack, Game, …), stopping at the target
    (:func:`calijack.core.count_points`).

    Returns ``(scores, winner, counted)``: the new totals, the seat that reached the
    target (or ``None``), and the names of the points that were counted.
    """
    awards = result.awards
    totals, winner, looked = core.count_points(scores, (a.seat for a in awards), target)
    return totals, winner, tuple(a.name for a in awards[:looked] if a.seat is not None)


@dataclass(frozen=True)
class Match:
    """The state of a match: the deals scored so far, the totals and the winner, if any."""

    rules: Rules = STANDARD
    first_dealer: int = 0
    results: tuple[DealResult, ...] = ()
    scores: tuple[int, ...] = ()
    winner: int | None = None
    counted: tuple[tuple[str, ...], ...] = ()   # per deal, the points counted

    def __post_init__(self):
        if not isinstance(self.rules, Rules):  # a dict of options is welcome; a bad one is named
            object.__setattr__(self, "rules", Rules.of(self.rules))
        n = self.rules.players
        if isinstance(self.first_dealer, bool) or not isinstance(self.first_dealer, int) \
                or not 0 <= self.first_dealer < n:
            raise ValueError(f"first_dealer must be a seat from 0 to {n - 1}, not {self.first_dealer!r}")
        if not self.scores:
            object.__setattr__(self, "scores", (0,) * n)

    @property
    def finished(self) -> bool:
        """True once a seat has reached the target."""
        return self.winner is not None

    def dealer(self, deal_number: int | None = None) -> int:
        """Who deals deal ``deal_number`` (from 0; default the next one): the deal rotates."""
        k = len(self.results) if deal_number is None else deal_number
        return core.dealer_of(self.first_dealer, k, self.rules.players)

    def next_deal(self, rng: random.Random | int | None = None) -> Deal:
        """A shuffled deal for the next dealer."""
        if self.finished:
            raise MatchOver(f"the match is over: seat {self.winner} reached {self.rules.target}")
        return Deal.random(rng, self.rules, self.dealer())

    def add(self, result: DealResult) -> "Match":
        """The match after scoring one more deal."""
        if self.finished:
            raise MatchOver(f"the match is over: seat {self.winner} reached {self.rules.target}")
        scores, winner, counted = count_points(self.scores, result, self.rules.target)
        return Match(self.rules, self.first_dealer, self.results + (result,), scores, winner,
                     self.counted + (counted,))

    @classmethod
    def random(cls, rng: random.Random | int | None = None, rules: Rules | dict = STANDARD) -> "Match":
        """A new match whose first dealer is drawn at random."""
        rules = Rules.of(rules)
        return cls(rules, generator(rng).randrange(rules.players))
