"""The exact solver: best play over the remaining tricks of one fully known world.

Once the stock is gone, a player who counts knows every card (with two players), so the
last tricks can be solved exactly. The objective, for the seat ``me``:

    100 × (my match points − the best other seat's match points this deal)
        + (my card values − the best other seat's card values)

so match points come first and card values only break ties (``tiebreak=False`` drops
them: three times faster, and the search then settles ties by its rule of thumb); the points come from
:func:`calijack.core.award_points` under the deal's rule options. Another objective can be
given as ``score(points, pips)``: :func:`match_points` (the value a review reports) or the
chance of winning the match (:mod:`.equity`). The other seats are assumed to play against
``me`` (with three players this is the "paranoid" reading). Alpha-beta with a transposition
table is exact: it cuts only lines that cannot change the value. Draws from a known stock are
played too, so it solves any world.
"""

from __future__ import annotations

from .. import core
from ..rules import Rules
from .worlds import World

__all__ = ["utility", "match_points", "Solver"]

_INF = 10 ** 9
_VALUE = [core.pips_of(1 << i) for i in range(52)]


def match_points(points: dict, me: int, n: int) -> int:
    """``me``'s match points this deal minus the most that any other seat earns (``award_points``' answer)."""
    pts = [0] * n
    for seat in points.values():
        if seat is not None:
            pts[seat] += 1
    return pts[me] - max(pts[s] for s in range(n) if s != me)


def utility(points: dict, pips: tuple, me: int, n: int, tiebreak: bool = True) -> int:
    """The objective above, from ``award_points``' answer (without the card values if not ``tiebreak``)."""
    pts = [0] * n
    for seat in points.values():
        if seat is not None:
            pts[seat] += 1
    other_pts = max(pts[s] for s in range(n) if s != me)
    other_pips = max(pips[s] for s in range(n) if s != me)
    if not tiebreak:
        return 100 * (pts[me] - other_pts)
    return 100 * (pts[me] - other_pts) + (pips[me] - other_pips)


class Solver:
    """Alpha-beta over one world's remaining plays, from the point of view of seat ``me``."""

    def __init__(self, rules: Rules, dealer: int, turned: int, me: int, tiebreak: bool = True,
                 score=None):
        self.rules, self.dealer, self.turned, self.me = rules, dealer, turned, me
        self.tiebreak = tiebreak
        self.score = score  # (points, pips) -> value for ``me``; None: :func:`utility`
        self.table: dict = {}
        self.nodes = 0
        self.special = -1  # the cards whose capture scores a point (set on first use)

    def _leaf(self, piles, received, trump) -> int:
        points, pips = core.award_points(self.rules, trump, self.dealer, piles, received, self.turned)
        if self.score is not None:
            return self.score(points, pips)
        return utility(points, pips, self.me, len(piles), self.tiebreak)

    @classmethod
    def match_points(cls, rules: Rules, dealer: int, turned: int, me: int) -> "Solver":
        """A solver whose values are exactly :func:`match_points` with best play (whole numbers)."""
        n = rules.players
        return cls(rules, dealer, turned, me, tiebreak=False,
                   score=lambda points, _pips: match_points(points, me, n))

    def values(self, world: World) -> dict[int, int]:
        """The exact value of each legal card of the seat to play (a card index → value)."""
        out = {}
        for card in core.bit_list(world.legal()):
            child = world.copy()
            child.play(card)
            out[card] = self.value(child)
        return out

    def value(self, world: World, alpha: int = -_INF, beta: int = _INF) -> int:
        """The exact value of a world with best play from here on."""
        return self._search(tuple(world.hands), world.stock, world.drawn, tuple(world.piles),
                            tuple(world.received), world.leader, tuple(world.trick), world.done,
                            world.n, world.trump, world.void_any, world.tricks,
                            alpha, beta)

    def line(self, world: World) -> World:
        """The world at the end of one line of best play from ``world`` (a copy)."""
        world = world.copy()
        while not world.finished:
            moves = self.values(world)
            pick = max if world.to_play == self.me else min
            world.play(pick(moves, key=lambda c: (moves[c], -c)))
        return world

    def _search(self, hands, stock, drawn, piles, received, leader, trick, done, n, trump,
                void_any, tricks, alpha, beta):
        self.nodes += 1
        if done == tricks:
            return self._leaf(piles, received, trump)
        key = (hands, leader, trick, piles, received)
        entry = self.table.get(key)
        if entry is not None:
            lower, upper = entry[0], entry[1]
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            if lower == upper:
                return lower
            alpha, beta = max(alpha, lower), min(beta, upper)
        a0, b0 = alpha, beta
        seat = core.play_order(leader, n)[len(trick)]
        hand = hands[seat]
        legal = core.legal_mask(hand, trick[0] if trick else -1, trump, void_any)
        maximise = seat == self.me
        best = -_INF if maximise else _INF
        # Cards that can still meet ours in a trick: the other hands, the stock, and the trick
        # in progress (two of our cards either side of its winning card are not alike).
        live = 0
        for h in hands:
            live |= h
        for c in trick:
            live |= 1 << c
        for pos in range(drawn, len(stock)):
            live |= 1 << stock[pos]
        others = live & ~hand
        special = self.special if self.special >= 0 else self._special(trump)
        moves = []
        prev = -1
        for card in core.bit_list(legal):
            # Two cards of a suit with no live card between them, the same card value and no
            # point riding on either, do the same work: try only one of them.
            if (prev >= 0 and prev // 13 == card // 13 and _VALUE[prev] == _VALUE[card]
                    and not (special >> card) & 1 and not (special >> prev) & 1
                    and not others & ((1 << card) - (2 << prev))):
                prev = card
                continue
            moves.append(card)
            prev = card
        first = entry[2] if entry is not None and len(entry) > 2 else -1
        if first in moves:
            moves.remove(first)
            moves.append(first)
        best_card = -1
        for card in reversed(moves):
            hl, tl, pl, rl = list(hands), list(trick), list(piles), list(received)
            next_leader, new_drawn = core.play_card(card, hl, tl, leader, trump, pl, rl, stock, drawn)
            if tl:  # the trick goes on
                v = self._search(tuple(hl), stock, drawn, piles, received, leader, tuple(tl),
                                 done, n, trump, void_any, tricks, alpha, beta)
            else:
                v = self._search(tuple(hl), stock, new_drawn, tuple(pl), tuple(rl), next_leader, (),
                                 done + 1, n, trump, void_any, tricks, alpha, beta)
            if maximise:
                if v > best:
                    best, best_card = v, card
                if best > alpha:
                    alpha = best
            else:
                if v < best:
                    best, best_card = v, card
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        lower, upper = (entry[:2] if entry is not None else (-_INF, _INF))
        if best <= a0:
            upper = min(upper, best)
        elif best >= b0:
            lower = max(lower, best)
        else:
            lower = upper = best
        self.table[key] = (lower, upper, best_card)
        return best

    def _special(self, trump: int) -> int:
        # The cards whose capture scores a point: never merged with a neighbour.
        self.special = core.capture_mask(self.rules, trump, self.turned)
        return self.special
