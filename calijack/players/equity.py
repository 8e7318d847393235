"""Playing for the match: what a deal's outcome is worth to the chance of winning the match.

Far from the target, a match point this deal is worth about the same whenever it comes, so the
search maximises match points (:func:`.solver.utility`). Near the target it is not: points are
counted strictly in the order High, Low, Jack, Game (then the nine), and the match ends the
moment a seat reaches the target, so at 9–8 in a match to 10 High is worth the whole match to
either side, and Game, counted last, may count for nothing.

:class:`MatchObjective` scores a finished deal by walking its awards in that order from the
match score: a seat that reaches the target wins (1 for ``me``, 0 for another seat); a deal
that leaves the match open is worth ``me``'s chance of winning from the new score, read from a
table (:func:`equity`) worked out by dynamic programming over a simple model of a deal: each
point goes to each seat with the same chance, and Game to nobody with :data:`GAME_TIE`.
Between outcomes of equal chance (a match decided either way in every guess), the deal's
match points and card values still decide, a hair's weight (:data:`TIE`) behind: the search
looks at a few guesses only, and a deal won well is the safer guess at a match won.
"""

from __future__ import annotations

import functools
import itertools

from ..core import count_points
from ..rules import Rules
from .solver import utility

__all__ = ["GAME_TIE", "NEAR", "TIE", "equity", "near_target", "MatchObjective"]

GAME_TIE = 0.015
"""The chance that card values tie at 40-40 so that nobody scores Game (the model's one figure).

Measured by ``bench/match_aware.py --game-ties``: 1.4% of 2,000 heuristic deals (95% interval
1.0% to 2.0%). The table hardly moves with it: near the target the counting order decides.
"""


def _outcomes(rules: Rules) -> tuple[tuple[tuple, float], ...]:
    """Every way one deal's points can fall (owners in counting order) with its chance in the model."""
    n = rules.players
    per_point = []
    for name in rules.point_names:
        if name == "game" and not rules.game_by_ten:
            share = (1 - GAME_TIE) / n
            per_point.append([(seat, share) for seat in range(n)] + [(None, GAME_TIE)])
        else:
            per_point.append([(seat, 1 / n) for seat in range(n)])
    out = []
    for combo in itertools.product(*per_point):
        chance = 1.0
        for _, p in combo:
            chance *= p
        out.append((tuple(seat for seat, _ in combo), chance))
    return tuple(out)


@functools.lru_cache(maxsize=None)
def _table(rules: Rules):
    outcomes = _outcomes(rules)
    target, n = rules.target, rules.players

    @functools.lru_cache(maxsize=None)
    def win(scores: tuple[int, ...]) -> tuple[float, ...]:
        chances = [0.0] * n
        for owners, p in outcomes:
            after, winner, _ = count_points(scores, owners, target)
            if winner is not None:
                chances[winner] += p
            else:  # High, Low and Jack always score in the model, so the scores rise
                for seat, q in enumerate(win(after)):
                    chances[seat] += p * q
        return tuple(chances)

    return win


def equity(rules: Rules, scores: tuple[int, ...]) -> tuple[float, ...]:
    """Each seat's chance of winning the match from ``scores`` (before a deal), in the model above."""
    scores = tuple(scores)
    if len(scores) != rules.players:
        raise ValueError(f"scores must hold {rules.players} totals, not {len(scores)}")
    for seat, total in enumerate(scores):
        if total >= rules.target:
            return tuple(1.0 if s == seat else 0.0 for s in range(rules.players))
    return _table(rules)(scores)


NEAR = 3
"""A seat this few match points from the target (or fewer) puts the match on the line this deal."""

TIE = 1e-5
"""The weight of the deal's own objective (:func:`.solver.utility`, about ±480) beside the match's chance."""


def near_target(rules: Rules, scores) -> bool:
    """True when some seat is :data:`NEAR` the target: it may reach it this deal, and the order counts."""
    return scores is not None and max(scores) + NEAR >= rules.target


class MatchObjective:
    """``score(points, pips)`` for the solver and the playouts: ``me``'s chance of winning the match.

    ``points`` is :func:`calijack.core.award_points`' answer, in counting order.
    """

    __slots__ = ("rules", "scores", "me", "blend", "_memo")

    def __init__(self, rules: Rules, scores, me: int, blend: float = TIE):
        self.rules, self.scores, self.me, self.blend = rules, tuple(scores), me, blend
        self._memo: dict = {}

    def __call__(self, points: dict, pips) -> float:
        """The chance of winning the match once this deal's ``points`` are counted in order
        (plus the deal's own objective at weight ``blend``)."""
        owners = tuple(points.values())
        value = self._memo.get(owners)
        if value is None:
            after, winner, _ = count_points(self.scores, owners, self.rules.target)
            value = (float(winner == self.me) if winner is not None
                     else equity(self.rules, after)[self.me])
            self._memo[owners] = value
        return value + self.blend * utility(points, pips, self.me, len(pips))
