"""The fast path: whole deals on bare masks, for simulation and benchmarks.

Every rule comes from :mod:`calijack.core`, exactly as in :class:`calijack.state.State`;
only the bookkeeping is leaner (no objects per play). ``tests/test_fast.py`` plays the
same seeded deals through both and compares every card and every point.
"""

from __future__ import annotations

import random
import time

from . import core
from .core import legal_mask
from .rules import STANDARD, Rules

__all__ = ["random_deal", "random_match", "deals_per_second"]

# Playing order from each leader, per number of players.
_SEATS = {n: [[(first + k) % n for k in range(n)] for first in range(n)] for n in (2, 3)}


def random_deal(rng: random.Random, rules: Rules | dict = STANDARD, dealer: int = 0,
                plays: list | None = None):
    """Shuffle, deal and play one deal with uniformly random legal cards.

    Returns ``(points, pips)`` as :func:`calijack.core.award_points` does. If ``plays`` is
    a list, every card index played is appended to it, in order. The legal card is chosen as
    ``legal[pick(rng, len(legal))]`` over the legal cards in index order.
    """
    rules = Rules.of(rules)  # a dict of options too, checked (RuleError names a bad one)
    _, hands, stock, trump = core.shuffle(rng, rules)   # as Deal.random shuffles
    n = rules.players
    masks = [sum(1 << c for c in hand) for hand in hands]
    received = masks[:]
    piles = [0] * n
    void_any = rules.void_any
    leader = (dealer + 1) % n
    drawn, draw_tricks = 0, rules.draws
    turned = -1 if rules.trump_cut else stock[0]
    seats = _SEATS[n]
    # Local names: the loop below runs 52 times a deal.
    _legal, _close = legal_mask, core.close_trick
    rand = rng.random
    for number in range(rules.tricks):
        trick = []
        led = -1
        for seat in seats[leader]:
            legal = _legal(masks[seat], led, trump, void_any)
            # The k-th lowest legal card, k = core.pick(rng, count), without listing them all.
            k = int(rand() * legal.bit_count())
            while k:
                legal &= legal - 1
                k -= 1
            bit = legal & -legal
            masks[seat] ^= bit
            card = bit.bit_length() - 1
            trick.append(card)
            if led < 0:
                led = card
        leader, drawn = _close(trick, leader, trump, masks, piles, received, stock, drawn,
                               number < draw_tricks)
        if plays is not None:
            plays.extend(trick)
    return core.award_points(rules, trump, dealer, piles, received, turned)


def random_match(rng: random.Random, rules: Rules = STANDARD, first_dealer: int = 0):
    """A random match to the target: ``(winner, scores, deals)``."""
    n = rules.players
    scores = [0] * n
    deals = 0
    while True:
        points, _ = random_deal(rng, rules, (first_dealer + deals) % n)
        deals += 1
        for name in rules.point_names:
            seat = points[name]
            if seat is None:
                continue
            scores[seat] += 1
            if scores[seat] >= rules.target:
                return seat, tuple(scores), deals


def deals_per_second(seconds: float = 3.0, rules: Rules = STANDARD, seed: int = 0) -> dict:
    """Play random deals for about ``seconds`` on one core; the rate and the count."""
    rng = random.Random(seed)
    for _ in range(50):  # warm-up
        random_deal(rng, rules)
    count, start = 0, time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            random_deal(rng, rules, count & 1)
        count += 100
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    return {"deals": count, "seconds": round(elapsed, 3), "deals_per_second": round(count / elapsed, 1)}
