"""Information-set Monte Carlo tree search on the search's fast worlds (an option of the Expert).

The Expert's plain search (:mod:`.search`, :mod:`.expert`) tries every legal card on each guess
at the hidden cards and plays each try out by the rules of thumb: it looks one card deep, and
every guess is played as if both sides knew it (perfect-information Monte Carlo). This module
searches a *tree* instead, single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012), the
way OpenSpiel's reference bot does, on the engine's fast :class:`.worlds.World`:

- each **iteration** takes one guess at the hidden cards (a *determinization*), walks down the
  tree from the decision in hand, choosing at each node among the cards legal in that guess by
  UCB (each card's chance to be chosen counted in its *availability*: how often it was legal
  when its node was reached), adds one node, plays the rest of the deal out by the rules of
  thumb (:func:`.search.rollout`, ``epsilon`` of random cards as the Expert's tries), and adds
  the deal's outcome (the Expert's objective: match points, card values breaking ties) to
  every card chosen on the way, for the seat that chose it (the other seats play against the
  Expert, the "paranoid" reading with three players);
- a **node** is what the Expert sees: the cards played since the decision and, after each
  trick with draws, the exposed card and the Expert's own hand (the card it drew unseen);
- the **guesses** come from the same sampler as the Expert's (:func:`.worlds.sample`), a pool
  of ``guesses`` of them made first; with ``noise`` each is weighted by how likely the
  opponent's plays so far were with its hands (:mod:`.inference`), and every iteration draws
  one from the pool in proportion to its weight;
- the **budget** is counted in cards played, as the Expert's: a guess costs
  :data:`GUESS_COST` cards (and the replay of the plays so far when weighted), each card
  played in the tree or in a rollout one card, each node walked :data:`STEP_COST`; iterations go
  on while the budget lasts (at least :data:`MIN_ITERATIONS`). Nothing is timed, so a game
  replays exactly from its seed;
- the **card chosen** is the one tried most often at the root (ties: the better average, then
  the rule of thumb's card).

With ``paired`` the root is the Expert's as before: every iteration tries every legal card on its
guess, each try's rollout with the same random numbers (so the cards are compared on the same
guesses, as the plain Expert compares them), and only below each card does the tree choose the
next plays by UCB over all the guesses; the card chosen is the one with the best average.

Once the stock is gone the Expert still plays exactly (:class:`.solver.Solver`); the tree is
used only while the stock lasts.

**Measured (2026-12-04, native CPython, one process a run at ``nice -n 10``, load average 0.3 to
3.5 from others' runs; off by default, since neither way beats the plain Expert).** Against
OpenSpiel's ISMCTS-300 (``bench/ismcts_reference.py --sims 300 --pairs 30 --jobs 1``, seed 22,
pairs 0-29, the same pairs for all three), points a deal with the 95% interval, then processor
ms per decision p50/p95 for ours and for ISMCTS-300:

- ``tree=True`` (``uct_c`` 1, 64 guesses, ``noise`` 0.5, budget 14,000): **-0.50 (-1.11 to
  +0.11)**; 54.7/81.1 ms against 512/766 (10.7% of its median);
- ``tree=True, tree_paired=True``: **-0.23 (-0.88 to +0.41)**; 59.8/97.5 ms against 547/837;
  pairs 30-43 added (+0.32, 61.1/97.4 ms against 563/823): **44 pairs, -0.06 (-0.56 to +0.44)**;
- the Expert as it is (default options), for comparison: **+0.13 (-0.40 to +0.67)**;
  65.2/98.2 ms against 536/771.

Pair by pair against the Expert's run, the tree loses 0.63 a deal (-1.54 to +0.27) and the
paired tree 0.37 (-1.13 to +0.40). Against the Expert itself (``bench/paired.py``, seed 3311):
the tree, 20 pairs, -0.20 (-1.00 to +0.60), 54/90 ms against 63/104 (load average 0.5); the
paired tree, 60 pairs, +0.22 (-0.14 to +0.57), 61/93 ms against 66/101 (load average 0.9 to 1.0):
a little ahead of the Expert, not clearly, and behind it against ISMCTS-300. With
about 300 iterations a decision, a tree spreads its rollouts over the cards and over fresh
guesses, where the Expert compares every card on the very same guesses: the tree's estimates
are the noisier, and at this budget that costs more than its deeper look gains.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right

from .. import core
from .inference import Reading
from .search import rollout
from .worlds import Sampler

__all__ = ["search", "UCT_C", "GUESSES", "GUESS_COST", "STEP_COST", "MIN_ITERATIONS", "MAX_ITERATIONS"]

UCT_C = 1.0          # UCB's exploration constant, the outcome counted in match points
GUESSES = 64         # guesses in the pool a decision draws its determinizations from
GUESS_COST = 20      # what making one guess costs, in cards played (as the Expert's)
STEP_COST = 2        # what walking one node of the tree costs, in cards played
MIN_ITERATIONS = 32  # iterations per decision, at least …
MAX_ITERATIONS = 4000  # … and at most


def search(view, me: int, moves, preferred: int, rng: random.Random, budget: int, epsilon: float,
           noise=None, uct_c: float = UCT_C, guesses: int = GUESSES, paired: bool = False):
    """Search the tree from ``view`` (``me`` to play, ``moves`` its legal card indices, ``preferred``
    the rule of thumb's card, which settles ties; ``paired``: see the module's docstring); the card's
    index and a dict of figures: ``iterations``, ``guesses``, ``spent``, ``visits``, ``values``
    (each root card's average, in points) and ``effective`` (the weighted pool's effective size)."""
    rules = view.rules
    turned = view.turned.index if view.turned is not None else -1
    dealer = view.dealer
    replay = len(view.played) if noise is not None else 0
    pool, cumulative = [], []
    mass = squares = 0.0
    spent = 0
    sampler, reading = Sampler(view), Reading(view)
    for _ in range(guesses):
        guess = sampler.sample(rng)
        spent += GUESS_COST + replay
        weight = reading.weight(guess, noise)
        if weight:
            pool.append(guess.world)
            mass += weight
            squares += weight * weight
            cumulative.append(mass)
    if not pool:  # no guess fits the model at all: weigh them alike
        pool.append(sampler.sample(rng).world)
        spent += GUESS_COST
        mass = squares = 1.0
        cumulative = [1.0]
    play_seed = rng.getrandbits(64)
    play_rng = random.Random(play_seed)
    rand = play_rng.random
    root: dict = {}
    totals = dict.fromkeys(moves, 0.0)
    iterations = 0
    log, sqrt = math.log, math.sqrt

    def descend(world, node, path, rollout_rng) -> float:
        """One walk down from ``node`` in ``world`` (changed in place), one node added, the rest
        played out; the outcome for ``me`` in points, added to every card chosen on ``path``."""
        nonlocal spent
        start = world.done * world.n + len(world.trick)
        while not world.finished:
            spent += STEP_COST
            seat = world.to_play
            cards = core.bit_list(world.legal())
            untried = []
            for card in cards:
                stats = node.get(card)
                if stats is None:
                    stats = node[card] = [0, 0.0, 0, {}]
                stats[2] += 1
                if not stats[0]:
                    untried.append(card)
            if untried:
                card = untried[int(rand() * len(untried))] if len(untried) > 1 else untried[0]
                world.play(card)
                path.append(node[card])
                break
            sign = 1.0 if seat == me else -1.0
            best, top = -1, -math.inf
            for card in cards:
                visits, total, avail, _ = node[card]
                score = sign * total / visits + uct_c * sqrt(log(avail) / visits)
                if score > top:
                    best, top = card, score
            stats = node[best]
            world.play(best)
            path.append(stats)
            key = None if world.trick else (world.top, world.hands[me])
            child = stats[3].get(key)
            if child is None:
                child = stats[3][key] = {}
            node = child
        value = rollout(world, rules, dealer, turned, me, rollout_rng, epsilon) / 100
        spent += world.done * world.n + len(world.trick) - start
        for stats in path:
            stats[0] += 1
            stats[1] += value
        return value

    if paired:  # every root card on each iteration's guess, the same rollout randomness; a tree below each
        for card in moves:
            root[card] = [0, 0.0, 0, {}]
        while iterations < MAX_ITERATIONS and (iterations < MIN_ITERATIONS // 4 or spent < budget):
            iterations += 1
            guess = pool[bisect_right(cumulative, rand() * mass) if len(pool) > 1 else 0]
            seed = play_rng.getrandbits(64)
            for card in moves:
                world = guess.copy()
                world.play(card)
                stats = root[card]
                stats[2] += 1
                key = None if world.trick else (world.top, world.hands[me])
                child = stats[3].get(key)
                if child is None:
                    child = stats[3][key] = {}
                spent += 1
                totals[card] += descend(world, child, [stats], random.Random(seed))
    else:
        while iterations < MAX_ITERATIONS and (iterations < MIN_ITERATIONS or spent < budget):
            iterations += 1
            world = pool[bisect_right(cumulative, rand() * mass) if len(pool) > 1 else 0].copy()
            descend(world, root, [], play_rng)
    visits = {card: root[card][0] if card in root else 0 for card in moves}
    values = {card: root[card][1] / root[card][0] if card in root and root[card][0] else 0.0 for card in moves}
    if paired:
        best = max(moves, key=lambda c: (totals[c], c == preferred, -c))
    else:
        best = max(moves, key=lambda c: (visits[c], values[c], c == preferred, -c))
    return best, {"iterations": iterations, "guesses": len(pool), "spent": spent, "visits": visits,
                  "values": values, "effective": round(mass * mass / squares, 1)}
