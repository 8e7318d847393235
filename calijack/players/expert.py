"""The Expert: the search, given more guesses where they are cheap and needed.

The search (:mod:`.search`) tries every legal card in each of a fixed number of guesses at
the hidden cards, and each try plays the deal out to its end. A try early in the deal plays
about fifty cards, one near the end of the stock a dozen: with the same time, late decisions
can afford several times as many guesses. The Expert spends a fixed *budget* of cards
played in tries per decision (:data:`BUDGET`, a guess itself counting as :data:`GUESS_COST`
cards), so it makes as many guesses as the budget pays for (between :data:`MIN_SAMPLES` and
:data:`MAX_SAMPLES`): its time per decision stays nearly flat while its estimates sharpen
where the stock runs low and every trick counts.
Once the stock is gone it plays exactly, as the search does.

Three things more (issue 33):

- **Reading the opponent's play** (``noise``; off by default): each guess is weighted by how
  likely the opponent's plays so far were with that guess's hand, under a noisy model of the
  opponent (:mod:`.inference`: the rules of thumb with ``noise`` of random plays, e.g.
  :data:`NOISE`). Replaying the plays so far costs their number of cards, counted in the budget.
  Off because the model is only as good as its guess at how the opponent plays: against an
  opponent that does not play by the rules of thumb (OpenSpiel's ISMCTS at 1,000 simulations,
  the same 40 paired deals) the Expert reading with ``noise`` 0.5 scored -0.55 a deal, and
  without reading +0.49; head to head, the Expert not reading scored +0.27 a deal against the
  one reading (150 pairs; ``CHANGELOG.md``, 2026-12-05 (evening)).
- **Exact play inside the guesses near the end of the stock** (off by default, ``late_stock``
  turns it on): once ``late_stock`` cards or fewer are left in the stock (two players), each
  guess is solved exactly
  (:class:`.solver.Solver`, the deal's draws included) instead of played out by the rules of
  thumb; the guesses are then paid for in solver positions visited (:data:`SOLVE_BUDGET`),
  counted, not timed. Off by default: measured so far it shows no gain (``bench/README.md``),
  and one such decision takes several times the others' time.
- **Banking a ten** (``bank``, on by default): inside its tries, in its tie-break and (when it
  reads the opponent) in its model of the opponent, the Expert's rules of thumb win a trick that
  holds nothing with a ten of the suit led, when last to play and the ten wins: the ten's ten
  card values are then safe in a pile (:func:`.heuristic.thumb`). Measured against the Expert
  without it (``bench/paired.py``, 200 pairs on each of two seeds, both reading the opponent):
  +0.225 and +0.220 a deal, at the same time a decision.
  It is not Casual's rule: as a player's own rule it was not measured.

Two experiments, off by default (measured in ``bench/README.md``, no clear gain so far):

- **Rounds** (``halving=True``): the same counted budget spread over ``ceil(log2(cards))``
  rounds of guesses; after each round but the last, only the better half of the cards still in
  the running is tried on the next round's guesses (successive halving), so the close choices get
  more guesses. Every card still in the running is tried on the same guesses, as before.
- **The other seats' randomness** (``their_epsilon``): their share of random cards in the tries,
  apart from the Expert's own ``epsilon`` (an opponent that plays less like the rules of thumb).

Two experiments on the play inside the tries, off by default (issue 33; measured in ``CHANGELOG.md``):

- **The opponent's best reply** (``replies=True``): a two-ply search before the rollout. After the
  Expert's card, when the opponent plays next, each of the opponent's legal replies is played out,
  and the card is worth the least of them (the opponent's best reply in that guess).
- **Exact last tricks in the tries** (``solve_tricks=N``, two players): each try is played by the
  rules of thumb only until the stock is gone and ``N`` tricks or fewer are left; the rest is solved
  exactly (:class:`.solver.Solver`, one table for the whole decision).

Both pay for themselves out of the same counted budget: a guess goes on as long as the cards
played in its tries (and solver positions visited, :data:`NODE_COST` cards each) are still within
what the plain Expert's guesses would cost, so these options make fewer guesses.

A different search, off by default (issue 33; :mod:`.ismcts`, figures in its docstring):

- **A tree** (``tree=True``): information-set Monte Carlo tree search on the same guesses, rules of
  thumb and counted budget (``budget`` cards played a decision), instead of trying every card on
  every guess; ``uct_c`` (its exploration constant) and ``tree_guesses`` (the pool of guesses it
  draws from) tune it. With ``tree_paired`` every legal card is still tried on each guess, as
  here, and the tree grows below each card (the next plays chosen over all guesses alike).

Everything is counted, not timed, so a game replays exactly from its seed on any machine.
"""

from __future__ import annotations

import math
import random

from .. import core
from .. import text_hints as hints
from ..cards import DECK
from . import ismcts
from .base import Decision, Knowledge
from .inference import NOISE, Reading
from .search import SearchPlayer, rollout
from .solver import Solver
from .worlds import Sampler

__all__ = ["ExpertPlayer", "BUDGET", "MIN_SAMPLES", "MAX_SAMPLES", "GUESS_COST", "NOISE", "LATE_STOCK",
           "SOLVE_BUDGET", "LATE_MIN", "LATE_MAX", "NODE_COST"]

BUDGET = 19_000     # cards played in tries per decision (14,000 before issue 33's speed-up; 22,000 scored no better)
MIN_SAMPLES = 24    # guesses per decision, at least …
MAX_SAMPLES = 300   # … and at most
GUESS_COST = 20     # what making one guess costs, in cards played (measured: about 0.09 ms, 18 cards)
LATE_STOCK = 2      # with late_stock=LATE_STOCK: solve each guess exactly once this few cards are left
SOLVE_BUDGET = 40_000  # solver positions visited per decision then …
LATE_MIN = 8        # … with at least this many guesses …
LATE_MAX = 200      # … and at most this many
NODE_COST = 1       # what a solver position visited in a try costs, in cards played (measured: about 6 µs each)


class ExpertPlayer(SearchPlayer):
    """The search with a budget of cards played per decision instead of a fixed number of guesses.

    ``budget``, ``min_samples`` and ``max_samples`` set the guesses (see the module's
    docstring); ``samples``, as the search's option, sets the fewest (``min_samples``).
    ``noise`` (``None``, the default: the guesses are not weighed by the opponent's plays),
    ``late_stock``, ``halving``, ``their_epsilon``, ``replies``, ``solve_tricks``, ``tree``,
    ``uct_c``, ``tree_guesses``, ``tree_paired`` and ``bank``: see the module's docstring. The
    other options are :class:`.search.SearchPlayer`'s.
    """

    name = "expert"

    def __init__(self, budget: int = BUDGET, min_samples: int = MIN_SAMPLES, max_samples: int = MAX_SAMPLES,
                 noise: float | tuple[float, ...] | None = None, late_stock: int = 0, solve_budget: int = SOLVE_BUDGET,
                 halving: bool = False, their_epsilon: float | None = None, replies: bool = False,
                 solve_tricks: int = 0, tree: bool = False, uct_c: float = ismcts.UCT_C,
                 tree_guesses: int = ismcts.GUESSES, tree_paired: bool = False, bank: bool = True, **options):
        if options.get("samples") is not None:
            min_samples = options.pop("samples")
            max_samples = max(max_samples, min_samples) if isinstance(min_samples, int) else max_samples
        for label, value in (("budget", budget), ("min_samples", min_samples), ("max_samples", max_samples)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{label} must be a whole number of at least 1, not {value!r}")
        if min_samples > max_samples:
            raise ValueError(f"min_samples ({min_samples}) is more than max_samples ({max_samples})")
        shares = noise if isinstance(noise, (tuple, list)) else (noise,)
        if noise is not None and (not shares or any(isinstance(x, bool) or not isinstance(x, (int, float))
                                                    or not 0 <= x <= 1 for x in shares)):
            raise ValueError(f"noise must be a share between 0 and 1, a list of such shares, or None, "
                             f"not {noise!r}")
        noise = None if noise is None else tuple(float(x) for x in shares)
        for label, value in (("late_stock", late_stock), ("solve_budget", solve_budget)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{label} must be a whole number of at least 0, not {value!r}")
        if their_epsilon is not None and (isinstance(their_epsilon, bool) or not isinstance(their_epsilon, (int, float))
                                          or not 0 <= their_epsilon <= 1):
            raise ValueError(f"their_epsilon must be a share between 0 and 1 or None, not {their_epsilon!r}")
        if isinstance(solve_tricks, bool) or not isinstance(solve_tricks, int) or solve_tricks < 0:
            raise ValueError(f"solve_tricks must be a whole number of at least 0, not {solve_tricks!r}")
        if halving and (replies or solve_tricks):
            raise ValueError("halving cannot be combined with replies or solve_tricks")
        if isinstance(uct_c, bool) or not isinstance(uct_c, (int, float)) or not 0 <= uct_c < math.inf:
            raise ValueError(f"uct_c must be a number of at least 0, not {uct_c!r}")
        if isinstance(tree_guesses, bool) or not isinstance(tree_guesses, int) or tree_guesses < 1:
            raise ValueError(f"tree_guesses must be a whole number of at least 1, not {tree_guesses!r}")
        if not isinstance(bank, bool):
            raise ValueError(f"bank must be True or False, not {bank!r}")
        if tree and (halving or replies or solve_tricks or their_epsilon is not None):
            raise ValueError("tree cannot be combined with halving, replies, solve_tricks or their_epsilon")
        options.pop("samples", None)
        super().__init__(samples=min_samples, **options)
        self.budget, self.min_samples, self.max_samples = budget, min_samples, max_samples
        self.noise, self.late_stock, self.solve_budget = noise, late_stock, solve_budget
        self.halving = bool(halving)
        self.their_epsilon = None if their_epsilon is None else float(their_epsilon)
        self.replies, self.solve_tricks = bool(replies), solve_tricks
        self.tree, self.uct_c, self.tree_guesses = bool(tree), float(uct_c), tree_guesses
        self.tree_paired = bool(tree_paired)
        self.bank = bank

    def __repr__(self) -> str:
        return (f"ExpertPlayer(budget={self.budget!r}, min_samples={self.min_samples!r}, "
                f"max_samples={self.max_samples!r}, noise={self.noise!r}, late_stock={self.late_stock!r}, "
                f"halving={self.halving!r}, their_epsilon={self.their_epsilon!r}, replies={self.replies!r}, "
                f"solve_tricks={self.solve_tricks!r}, tree={self.tree!r}, bank={self.bank!r})")

    def _late(self, k: Knowledge) -> bool:
        return k.players == 2 and 0 < k.stock_count <= self.late_stock and self.solve_budget > 0

    def _sampled(self, view, k, moves, preferred, rng, start, score=None) -> Decision:
        """The search's sampled decision, each guess weighted by the opponent's plays (when
        ``noise`` is set) and, late in the stock, solved exactly (see the module's docstring)."""
        late = self._late(k)
        if self.tree and score is None and not late:
            return self._tree(view, k, moves, preferred, rng)
        deep = self.replies or (self.solve_tricks and k.players == 2)
        if score is not None or (self.noise is None and not late and not self.halving and self.their_epsilon is None
                                 and not deep):
            return super()._sampled(view, k, moves, preferred, rng, start, score)
        if deep and not late:
            return self._deep(view, k, moves, preferred, rng, start)
        if not late:  # the weighted tries, in one round or by halving
            return self._rounds(view, k, moves, preferred, rng, start)
        rules = view.rules
        turned = view.turned.index if view.turned is not None else -1
        totals = dict.fromkeys(moves, 0.0)
        weights = squares = 0.0
        count = nodes = 0
        sampler, reading = Sampler(view), Reading(view, self.bank)
        while count < LATE_MAX and (count < LATE_MIN or nodes < self.solve_budget):
            guess = sampler.sample(rng)
            rng.getrandbits(64)  # drawn for every guess, as the search does (a try's seed)
            weight = reading.weight(guess, self.noise)
            count += 1
            solver = Solver(rules, view.dealer, turned, k.seat, tiebreak=False)
            values = solver.values(guess.world)
            nodes += solver.nodes
            if weight:
                for card in moves:
                    totals[card] += weight * values[card]
                weights += weight
                squares += weight * weight
        if not weights:  # no guess fits the model at all: weigh them alike
            return super()._sampled(view, k, moves, preferred, rng, start, score)
        best = max(moves, key=lambda c: (totals[c], c == preferred, -c))
        self.last_stats = {"mode": "solved guesses", "worlds": count, "match": False,
                           "nodes": nodes, "effective": round(weights * weights / squares, 1),
                           "values": {DECK[c].code: totals[c] / weights / 100 for c in moves}}
        others = [totals[c] for c in moves if c != best]
        margin = (totals[best] - max(others)) / weights / 100
        return Decision(DECK[best], hints.why_sampled(DECK[best], count, totals[best] / weights / 100, margin))

    def _costs(self, view, k: Knowledge, moves):
        """What the weighted tries work with: the rules, the turned card's index (-1: none), the
        cards left to play, a guess's fixed cost (:data:`GUESS_COST`, and replaying the opponent's
        plays when ``noise`` weighs the guesses) and the budget: what one round over every legal
        card costs for the guesses :meth:`_samples_for` pays for."""
        turned = view.turned.index if view.turned is not None else -1
        cards_left = sum(k.hand_sizes) + k.stock_count
        fixed = GUESS_COST + (k.players * k.tricks_done + len(k.trick) if self.noise is not None else 0)
        return view.rules, turned, cards_left, fixed, self._quota * (fixed + len(moves) * cards_left)

    def _rounds(self, view, k, moves, preferred, rng, start) -> Decision:
        """The weighted sampled decision, by rounds with ``halving``: the same counted budget as one round over
        every legal card (the guesses :meth:`_samples_for` pays for), spread over
        ``ceil(log2(len(moves)))`` rounds; after each round but the last only the better half of the
        cards still in the running (by their weighted average over every guess so far, all of them
        tried on the same guesses) goes on, so the last rounds' guesses go to the close choices.
        Without ``halving``, one round: the plain weighted search (with ``their_epsilon`` in the tries).
        """
        rules, turned, cards_left, fixed, budget = self._costs(view, k, moves)
        rounds = max(1, (len(moves) - 1).bit_length()) if self.halving else 1
        live = list(moves)
        totals = dict.fromkeys(moves, 0.0)
        weights = dict.fromkeys(moves, 0.0)
        count = spent = 0
        mass = squares = 0.0
        sampler, reading = Sampler(view), Reading(view, self.bank)
        for done in range(rounds):
            cost = fixed + len(live) * cards_left
            guesses = max(1, (budget - spent) // (rounds - done) // cost)
            for _ in range(guesses):
                guess = sampler.sample(rng)
                seed = rng.getrandbits(64)
                weight = reading.weight(guess, self.noise)
                count += 1
                if not weight:
                    continue
                for card in live:
                    child = guess.world.copy()
                    child.play(card)
                    totals[card] += weight * rollout(child, rules, view.dealer, turned, k.seat, random.Random(seed),
                                                     self.epsilon, None, self.their_epsilon, bank=self.bank)
                    weights[card] += weight
                mass += weight
                squares += weight * weight
            spent += guesses * cost
            if done < rounds - 1 and weights[live[0]]:
                live.sort(key=lambda c: (-totals[c], c != preferred, c))
                live = live[:(len(live) + 1) // 2]
        if not weights[live[0]]:  # no guess fits the model at all: weigh them alike
            return SearchPlayer._sampled(self, view, k, moves, preferred, rng, start, None)
        best = max(live, key=lambda c: (totals[c], c == preferred, -c))
        last = weights[best]
        self.last_stats = {"mode": "sampled", "worlds": count, "match": False, "nodes": 0, "spent": spent,
                           "kept": [DECK[c].code for c in live],
                           "effective": round(mass * mass / squares, 1),
                           "values": {DECK[c].code: totals[c] / weights[c] / 100 if weights[c] else 0.0
                                      for c in moves}}
        return _verdict(best, totals, [totals[c] for c in live if c != best], last, count)

    def _deep(self, view, k, moves, preferred, rng, start) -> Decision:
        """The weighted sampled decision with ``replies`` and/or ``solve_tricks`` (see the module's docstring).

        The budget is what the plain Expert's guesses would cost (:meth:`_samples_for`); guesses are
        made while what has been spent (cards played in tries, solver positions at :data:`NODE_COST`)
        is below it, at least one, at most ``max_samples``.
        """
        rules, turned, cards_left, fixed, budget = self._costs(view, k, moves)
        until = self.solve_tricks if k.players == 2 else 0
        solver = Solver(rules, view.dealer, turned, k.seat, tiebreak=False) if until else None
        me, epsilon, theirs, bank = k.seat, self.epsilon, self.their_epsilon, self.bank
        spent = 0

        def playout(world, seed) -> int:
            nonlocal spent
            before = world.done * world.n + len(world.trick)
            value = rollout(world, rules, view.dealer, turned, me, random.Random(seed), epsilon, None, theirs, until, bank)
            spent += world.done * world.n + len(world.trick) - before
            if value is None:
                nodes = solver.nodes
                value = solver.value(world)
                spent += (solver.nodes - nodes) * NODE_COST
            return value

        totals = dict.fromkeys(moves, 0.0)
        count = 0
        mass = squares = 0.0
        sampler, reading = Sampler(view), Reading(view, self.bank)
        while count < self.max_samples and (count == 0 or spent < budget):
            guess = sampler.sample(rng)
            seed = rng.getrandbits(64)
            weight = reading.weight(guess, self.noise)
            count += 1
            spent += fixed
            if not weight:
                continue
            for card in moves:
                child = guess.world.copy()
                child.play(card)
                if self.replies and not child.finished and child.to_play != me:
                    value = None
                    for reply in core.bit_list(child.legal()):
                        grand = child.copy()
                        grand.play(reply)
                        spent += 1
                        got = playout(grand, seed)
                        value = got if value is None or got < value else value
                else:
                    value = playout(child, seed)
                totals[card] += weight * value
            mass += weight
            squares += weight * weight
        if not mass:  # no guess fits the model at all: weigh them alike
            return SearchPlayer._sampled(self, view, k, moves, preferred, rng, start, None)
        best = max(moves, key=lambda c: (totals[c], c == preferred, -c))
        self.last_stats = {"mode": "sampled", "worlds": count, "match": False, "nodes": solver.nodes if solver else 0,
                           "spent": spent, "budget": budget, "effective": round(mass * mass / squares, 1),
                           "values": {DECK[c].code: totals[c] / mass / 100 for c in moves}}
        return _verdict(best, totals, [totals[c] for c in moves if c != best], mass, count)

    def _tree(self, view, k, moves, preferred, rng) -> Decision:
        """The tree search's decision (``tree=True``, :mod:`.ismcts`), on the same counted budget."""
        best, stats = ismcts.search(view, k.seat, moves, preferred, rng, self.budget, self.epsilon, self.noise,
                                    self.uct_c, self.tree_guesses, self.tree_paired)
        values, visits = stats["values"], stats["visits"]
        self.last_stats = {"mode": "tree", "worlds": stats["guesses"], "match": False, "nodes": 0,
                           "iterations": stats["iterations"], "spent": stats["spent"],
                           "effective": stats["effective"],
                           "visits": {DECK[c].code: visits[c] for c in moves},
                           "values": {DECK[c].code: values[c] for c in moves}}
        others = [values[c] for c in moves if c != best and visits[c]]
        margin = values[best] - max(others) if others else 0.0
        return Decision(DECK[best], hints.why_sampled(DECK[best], stats["guesses"], values[best], margin))

    def _samples_for(self, k: Knowledge, moves) -> int:
        """As many guesses as the budget pays for: each is made, then tries every legal card to the
        end of the deal (every card in the hands and in the stock is played)."""
        per_guess = GUESS_COST + len(moves) * (sum(k.hand_sizes) + k.stock_count)
        if self.noise is not None:  # the replay of the plays so far, for the opponent's likelihood
            per_guess += k.players * k.tricks_done + len(k.trick)
        return max(self.min_samples, min(self.max_samples, self.budget // per_guess))


def _verdict(best: int, totals: dict, others: list, weight: float, count: int) -> Decision:
    """The weighted tries' decision: ``best`` (a card's index), its average (``totals[best]`` over
    ``weight``, in points) and its margin over the next best of ``others`` (the other cards'
    totals), in the learner's words."""
    margin = (totals[best] - max(others)) / weight / 100 if others else totals[best] / weight / 100
    return Decision(DECK[best], hints.why_sampled(DECK[best], count, totals[best] / weight / 100, margin))
