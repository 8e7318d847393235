"""Whole deals on masks between the rule-based opponents, for long tests and quick simulations.

The random and heuristic opponents' decisions are mask functions of public information
(:func:`.heuristic.heuristic_index`, ``core.pick`` over the legal cards), so a deal can be
played without building a :class:`~calijack.view.View` per card. Given the same random
generator, :func:`fast_deal` plays exactly the cards :func:`calijack.players.play_deal` plays
with :class:`.RandomPlayer` and :class:`.HeuristicPlayer` (``tests/test_players.py`` checks it).
"""

from __future__ import annotations

import random

from .. import core
from ..rules import STANDARD, Rules
from .heuristic import heuristic_index
from .worlds import World

__all__ = ["fast_deal", "FAST_PLAYERS"]

FAST_PLAYERS = ("random", "heuristic")


def fast_deal(rng: random.Random, rules: Rules = STANDARD, dealer: int = 0,
              players=("heuristic", "random")):
    """Shuffle and play one deal; ``(points, pips, plays)`` with ``plays`` the card indices in order.

    The deck is shuffled as :meth:`calijack.state.Deal.random` does with ``dealer`` given.
    Raises ``AssertionError`` if an opponent ever picks a card that is not legal.
    """
    for name in players:
        if name not in FAST_PLAYERS:
            raise ValueError(f"fast_deal plays only {', '.join(FAST_PLAYERS)}, not {name!r}")
    _, hands, stock, trump = core.shuffle(rng, rules)
    n = rules.players
    masks = [sum(1 << c for c in h) for h in hands]
    world = World(masks, tuple(stock), 0, [0] * n, masks[:], (dealer + 1) % n, [], 0, n, trump,
                  rules.void_any, rules.draws, rules.tricks)
    turned = -1 if rules.trump_cut else stock[0]
    played = 0
    plays = []
    while not world.finished:
        seat = world.to_play
        legal = world.legal()
        if players[seat] == "random":
            cards = core.bit_list(legal)
            card = cards[core.pick(rng, len(cards))]
        else:
            card = heuristic_index(world.hands[seat], legal, tuple(world.trick), trump, world.top,
                                   played, world.piles, seat, rules, turned)[0]
        assert legal >> card & 1, f"seat {seat} ({players[seat]}) chose an illegal card {card}"
        played |= 1 << card
        plays.append(card)
        world.play(card)
    points, pips = core.award_points(rules, trump, dealer, world.piles, world.received, turned)
    return points, pips, plays
