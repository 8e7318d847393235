"""The search opponent: perfect-information Monte Carlo, then exact play once cards are known.

While the stock lasts it guesses the hidden cards many times (:mod:`.worlds`: only guesses
consistent with everything its seat has seen), plays each legal card in every guess, finishes
the deal with the rules of thumb of :mod:`.heuristic` for all seats, and keeps the card with
the best average. Every card is tried on the same guesses, so the comparison is paired.
Once the stock is gone a player who counts knows every card (two players): the last tricks
are solved exactly by :class:`.solver.Solver`. With three players the split of the unseen
cards between the two others stays hidden, so each guess is solved and the values averaged
once few enough cards remain.

The objective is the deal's match points (mine minus the best other seat's), scored by
``core.award_points`` under the deal's rule options. With ``match_aware=True``, near the
target, when the view knows the match score, it is the chance of winning the match
(:mod:`.equity`); that is off by default, because measured against the plain search in
matches to 10 it was weaker (``bench/match_aware.py``: 46.8% of 600 matches won).
"""

from __future__ import annotations

import random
import time

from .. import core
from .. import text_hints as hints
from ..text_coach import why_match
from ..cards import DECK
from ..view import View
from .base import Decision, Knowledge
from .heuristic import Stakes, keeps_low, rule_of_thumb, stakes, thumb
from .equity import TIE, MatchObjective, near_target
from .solver import Solver, utility
from .worlds import Sampler, World

__all__ = ["SearchPlayer", "DEFAULT_SAMPLES"]

DEFAULT_SAMPLES = 20      # guesses per decision while the stock lasts
SOLVE_CARDS = 12          # solve exactly once this few cards are left in the hands


def rollout(world: World, rules, dealer: int, turned: int, me: int, rng: random.Random,
            epsilon: float, score=None, their_epsilon: float | None = None, until: int = 0,
            bank: bool = False) -> int | None:
    """Finish ``world`` in place with the rules of thumb for every seat; the objective for ``me``.

    ``score(points, pips)`` replaces the objective (:func:`.solver.utility`) when given.
    ``their_epsilon``, when given, is the other seats' share of random cards (``epsilon`` is then ``me``'s).
    ``until``: stop, and return ``None``, at the first trick's start with the stock gone and ``until``
    tricks or fewer left (the caller then solves the rest exactly); 0 plays to the end.
    ``bank``: every seat plays with the Expert's ``bank`` rule (:func:`.heuristic.thumb`).
    """
    n, trump, void_any, draws = world.n, world.trump, world.void_any, world.draws
    worth = Stakes.of(rules, trump, turned)
    # The world's lists change in place; its counters are kept here and written back at the end.
    hands, trick, piles, received, stock = world.hands, world.trick, world.piles, world.received, world.stock
    leader, drawn, done = world.leader, world.drawn, world.done
    played = 0
    for pile in piles:
        played |= pile
    for card in trick:
        played |= 1 << card
    rand = rng.random
    shares = [epsilon if their_epsilon is None or seat == me else their_epsilon for seat in range(n)]
    legal_mask, play_card, bit_list = core.legal_mask, core.play_card, core.bit_list
    pips = [core.pips_of(pile) for pile in piles]
    decided = worth.decided(pips)  # once Game is decided on card values it stays decided
    thumbs = worth.tables(bank)
    tables = thumbs[decided]
    end = max(draws, world.tricks - until) if until else world.tricks
    while done < end:
        top = stock[drawn] if done < draws else -1
        order = core.play_order(leader, n)
        for position in range(len(trick), n):  # the trick to its end: core.play_card settles it
            seat = order[position]
            hand = hands[seat]
            legal = legal_mask(hand, trick[0] if position else -1, trump, void_any)
            share = shares[seat]
            if share and rand() < share:
                cards = bit_list(legal)
                card = cards[int(rand() * len(cards))]
            else:
                card = thumb(hand, legal, trick, top, played | hand, position == n - 1, tables)[0]
            played |= 1 << card
            leader, drawn = play_card(card, hands, trick, leader, trump, piles, received, stock, drawn)
        done += 1
        if not decided:  # the trick's winner leads next: only its card values changed
            pips[leader] = core.pips_of(piles[leader])
            decided = worth.decided(pips)
            tables = thumbs[decided]
    world.leader, world.drawn, world.done = leader, drawn, done
    if world.done < world.tricks:
        return None
    points, pips = core.award_points(rules, trump, dealer, world.piles, world.received, turned)
    if score is not None:
        return score(points, pips)
    return utility(points, pips, me, n, tiebreak=True)


class SearchPlayer:
    """Guesses the hidden cards, plays each card out in every guess, solves the endgame exactly.

    ``samples`` guesses per decision (default :data:`DEFAULT_SAMPLES`); ``time_limit`` (processor
    seconds, so a busy machine does not starve it) stops sampling early when given (then results depend on the machine's speed, so leave it
    ``None`` to reproduce games exactly); ``epsilon`` is the share of random cards in playouts.
    ``match_aware``: when the view knows the match score (:meth:`View.with_scores`) and a seat
    could reach the target this deal, play for the chance of winning the match
    (:class:`.equity.MatchObjective`) instead of this deal's match points. Off by default: it
    lost more decisive pairs than it won against the plain search (``bench/match_aware.py``).
    """

    name = "search"
    bank = False  # the rules of thumb with the ``bank`` rule in tries and tie-breaks (the Expert's)

    def __init__(self, samples: int | None = None, time_limit: float | None = None,
                 epsilon: float = 0.1, solve_cards: int = SOLVE_CARDS, match_aware: bool = False,
                 match_sampled: bool = True, match_blend: float = TIE):
        if samples is not None and (isinstance(samples, bool) or not isinstance(samples, int) or samples < 1):
            raise ValueError(f"samples must be a whole number of at least 1, not {samples!r}")
        if time_limit is not None and not (isinstance(time_limit, (int, float)) and time_limit > 0):
            raise ValueError(f"time_limit must be a positive number of seconds, not {time_limit!r}")
        if samples is None and time_limit is None:
            samples = DEFAULT_SAMPLES
        self.samples, self.time_limit = samples, time_limit
        self.epsilon, self.solve_cards = epsilon, solve_cards
        self.match_aware, self.match_sampled, self.match_blend = bool(match_aware), bool(match_sampled), match_blend
        self.last_stats: dict = {}
        self._quota = samples  # guesses for the decision in hand (see _samples_for)

    def __repr__(self) -> str:
        return (f"SearchPlayer(samples={self.samples!r}, time_limit={self.time_limit!r}, "
                f"match_aware={self.match_aware!r})")

    def choose(self, view: View, rng: random.Random) -> Decision:
        """The card with the best expected match points (or chance of the match near the target), and why."""
        start = time.process_time()
        k = Knowledge.from_view(view)
        moves = core.bit_list(k.legal)
        if len(moves) == 1:
            self.last_stats = {"mode": "only", "worlds": 0}
            return Decision(DECK[moves[0]], hints.why_only(DECK[moves[0]]))
        preferred = self._preferred(view, k)
        cards_left = sum(k.hand_sizes)
        score = self._objective(view)
        if k.stock_count == 0 and (k.players == 2 or cards_left <= self.solve_cards):
            self._quota = self.samples
            return self._endgame(view, k, moves, preferred, rng, start, score)
        self._quota = self._samples_for(k, moves)
        return self._sampled(view, k, moves, preferred, rng, start, score if self.match_sampled else None)

    # -- helpers ------------------------------------------------------------------------------
    def _objective(self, view: View):
        """The match objective near the target (when the score is known), else ``None`` (match points)."""
        if self.match_aware and near_target(view.rules, view.scores):
            return MatchObjective(view.rules, view.scores, view.seat, self.match_blend)
        return None

    def _preferred(self, view: View, k: Knowledge) -> int:
        """The rule of thumb's card: it settles ties."""
        stake = stakes(view.rules, k.trump, True, k.turned)
        card, _ = rule_of_thumb(k.hand, k.legal, k.trick, k.trump, k.stock_top, k.played | k.hand,
                                stake, len(k.trick) == k.players - 1, keeps_low(view.rules, k.trump, k.turned),
                                self.bank)
        return card

    def _samples_for(self, k: Knowledge, moves) -> int | None:
        """Guesses for this decision while the stock lasts (a subclass may vary it with the position)."""
        return self.samples

    def _enough(self, count: int, start: float) -> bool:
        if self._quota is not None and count >= self._quota:
            return True
        return self.time_limit is not None and count >= 1 and time.process_time() - start >= self.time_limit

    def _sampled(self, view, k, moves, preferred, rng, start, score=None) -> Decision:
        rules = view.rules
        turned = view.turned.index if view.turned is not None else -1
        totals = dict.fromkeys(moves, 0)
        count = 0
        sampler = Sampler(view)
        while not self._enough(count, start):
            world = sampler.sample(rng).world
            seed = rng.getrandbits(64)  # an int: random.Random(float) differs between Python versions
            for card in moves:
                child = world.copy()
                child.play(card)
                totals[card] += rollout(child, rules, view.dealer, turned, k.seat,
                                        random.Random(seed), self.epsilon, score, bank=self.bank)
            count += 1
        best = max(moves, key=lambda c: (totals[c], c == preferred, -c))
        scale = 100 if score is None else 1
        self.last_stats = {"mode": "sampled", "worlds": count, "match": score is not None,
                           "values": {DECK[c].code: totals[c] / count / scale for c in moves}}
        if score is not None:
            return Decision(DECK[best], why_match(DECK[best], count, totals[best] / count))
        others = [totals[c] for c in moves if c != best]
        margin = (totals[best] - max(others)) / count / 100
        return Decision(DECK[best], hints.why_sampled(DECK[best], count, totals[best] / count / 100, margin))

    def _endgame(self, view, k, moves, preferred, rng, start, score=None) -> Decision:
        rules = view.rules
        turned = view.turned.index if view.turned is not None else -1
        totals = dict.fromkeys(moves, 0)
        count = 0
        worlds = []
        exact = k.players == 2  # two players: the unseen cards are exactly the other hand
        sampler = Sampler(view)
        while True:
            world = sampler.sample(rng).world
            solver = Solver(rules, view.dealer, turned, k.seat, tiebreak=False, score=score)
            values = solver.values(world)
            for card in moves:
                totals[card] += values[card]
            worlds.append((world, solver))
            count += 1
            if exact or self._enough(count, start):
                break
        best = max(moves, key=lambda c: (totals[c], c == preferred, -c))
        scale = 100 if score is None else 1
        self.last_stats = {"mode": "exact" if exact else "solved", "worlds": count, "match": score is not None,
                           "values": {DECK[c].code: totals[c] / count / scale for c in moves}}
        if score is not None:
            return Decision(DECK[best], why_match(DECK[best], 0 if exact else count, totals[best] / count))
        if exact:
            world, solver = worlds[0]
            child = world.copy()
            child.play(best)
            end = solver.line(child)
            points, _ = core.award_points(rules, k.trump, view.dealer, end.piles, end.received, turned)
            mine = sum(1 for s in points.values() if s == k.seat)
            theirs = sum(1 for s in points.values() if s is not None and s != k.seat)
            return Decision(DECK[best], hints.why_exact(DECK[best], mine, theirs))
        return Decision(DECK[best], hints.why_solved(DECK[best], count, totals[best] / count / 100))
