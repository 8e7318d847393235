"""The coach: the value of every legal card of a play, and a review of every play of a deal.

The **value** of a card is, from the side of the seat playing it, that seat's match points
this deal minus the most that any other seat earns this deal (High, Low, Jack, Game, and the
nine where that option is on), with best play by everyone for the rest of the deal.

- **Exact**: with two players, once the stock is gone every card is known, so the value is
  computed by the solver (:meth:`~calijack.players.solver.Solver.match_points`: full minimax
  with alpha-beta, which cuts only lines that cannot change the value). Exact values are
  whole numbers.
- **Estimated**: otherwise the value is the average over ``samples`` worlds consistent with
  the seat's view only (:func:`~calijack.players.worlds.sample`), each card played out in
  every world with the search's rules of thumb (:func:`~calijack.players.search.rollout`),
  on the same worlds for every card (so the comparison is paired). The worlds come from a
  generator seeded by ``seed`` and the play's index, so a review reproduces exactly.

What each card leads to (:class:`Outcome`: who wins the trick, who scores each point) is
kept beside its value; :mod:`calijack.text_coach` words the comparison for a learner.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from . import core
from .cards import DECK, Card
from .players.search import rollout
from .players.solver import Solver, match_points
from .players.worlds import World, sample
from .state import State
from .text_coach import review_comment

__all__ = ["DEFAULT_SAMPLES", "MISTAKE", "Outcome", "Rating", "PlayReview", "rate", "review",
           "review_json", "exact_position", "world_of"]

DEFAULT_SAMPLES = 100
"""Worlds per estimated play: a full two-player deal is reviewed in a few seconds."""

MISTAKE = 0.5
"""A play that costs at least this many match points is marked as a mistake."""

EPSILON = 0.1  # the share of random cards in the playouts, as in the search


@dataclass(frozen=True)
class Outcome:
    """What a card leads to, from the player's side: shares of the worlds (1 or 0 when exact).

    ``wins_trick``: the player's seat wins the trick this card is played to; ``points``: each
    point's name → (share the player scores it, share another seat does).
    """

    wins_trick: float
    points: dict[str, tuple[float, float]]


@dataclass(frozen=True)
class Rating:
    """The value of each legal card of one position, for the seat to play."""

    seat: int
    exact: bool
    samples: int | None               # worlds averaged (None when exact)
    values: dict[Card, float]         # every legal card, in index order
    outcomes: dict[Card, Outcome]
    lead: bool                        # the seat leads this trick
    top: Card | None                  # the exposed stock card, which the trick's winner draws
    per_world: dict[Card, tuple] = field(default_factory=dict, repr=False)  # estimated only

    @property
    def best(self) -> list[Card]:
        """The cards of highest value (as shown: estimated values to two decimals)."""
        shown = self.shown
        top = max(shown.values())
        return [c for c, v in shown.items() if v == top]

    @property
    def shown(self) -> dict[Card, float]:
        """The values as reported: whole numbers when exact, else rounded to two decimals."""
        return {c: (int(v) if self.exact else round(v, 2)) for c, v in self.values.items()}

    def loss(self, card: Card) -> float:
        """What ``card`` costs against the best card, in match points (as shown)."""
        shown = self.shown
        cost = max(shown.values()) - shown[card]
        return cost if self.exact else round(cost, 2)

    def margin(self, card: Card, other: Card, z: float = 1.96) -> tuple[float, float]:
        """The 95% interval of ``card``'s value minus ``other``'s (paired over the same worlds).

        Exact ratings give the difference itself at both ends.
        """
        if self.exact:
            diff = self.values[card] - self.values[other]
            return diff, diff
        diffs = [a - b for a, b in zip(self.per_world[card], self.per_world[other])]
        n = len(diffs)
        mean = sum(diffs) / n
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else float("inf")
        half = z * sd / math.sqrt(n)
        return mean - half, mean + half


@dataclass(frozen=True)
class PlayReview:
    """One play of a deal, rated: its position, the card played and the values of all legal cards."""

    index: int          # the play's index in the deal, from 0
    trick: int          # from 1
    seat: int
    card: Card
    rating: Rating
    comment: str

    @property
    def loss(self) -> float:
        """What the card played cost against the best one, in match points."""
        return self.rating.loss(self.card)

    @property
    def mistake(self) -> bool:
        """True when the play cost at least :data:`MISTAKE` match points."""
        return self.loss >= MISTAKE

    def to_json(self) -> dict:
        """The play as ``calijack review --json`` prints it."""
        r = self.rating
        return {"index": self.index, "trick": self.trick, "seat": self.seat, "card": self.card.code,
                "exact": r.exact, "samples": r.samples,
                "values": {c.code: v for c, v in r.shown.items()},
                "best": [c.code for c in r.best], "loss": self.loss, "comment": self.comment}


def world_of(state: State) -> World:
    """The whole position as the search's :class:`World` (every card known)."""
    rules = state.rules
    return World(list(state.hands), state.deal.stock_index, state.drawn, list(state.piles),
                 list(state.received), state.leader, list(state.trick), len(state.tricks),
                 rules.players, int(state.trump), rules.void_any, rules.draws, rules.tricks)


def exact_position(state: State) -> bool:
    """True when the seat to play knows every card: two players, the stock used up."""
    return state.players == 2 and len(state.tricks) >= state.rules.draws and not state.finished


def _turned(state: State) -> int:
    return state.deal.turned.index if state.deal.turned is not None else -1


def _outcome(world: World, card: int, seat: int, points: dict) -> tuple[bool, dict]:
    """Who took ``card``'s trick (``seat``'s side or not) and the points, from a finished world."""
    won = bool(world.piles[seat] >> card & 1)
    mine = {name: (owner == seat, owner is not None and owner != seat) for name, owner in points.items()}
    return won, mine


def _exact(state: State) -> tuple[dict, dict]:
    seat, rules = state.to_play, state.rules
    solver = Solver.match_points(rules, state.dealer, _turned(state), seat)
    world = world_of(state)
    values, outcomes = {}, {}
    for card in core.bit_list(state.legal_mask()):
        child = world.copy()
        child.play(card)
        values[DECK[card]] = solver.value(child)
        end = solver.line(child)
        points, _ = core.award_points(rules, end.trump, state.dealer, end.piles, end.received, _turned(state))
        won, pts = _outcome(end, card, seat, points)
        outcomes[DECK[card]] = Outcome(float(won), {k: (float(a), float(b)) for k, (a, b) in pts.items()})
    return values, outcomes


def _estimated(state: State, samples: int, rng: random.Random) -> tuple[dict, dict, dict]:
    seat, rules = state.to_play, state.rules
    view, turned, n = state.view(seat), _turned(state), state.players
    moves = core.bit_list(state.legal_mask())
    runs = {c: [] for c in moves}
    wins = dict.fromkeys(moves, 0)
    tally = {c: {name: [0, 0] for name in rules.point_names} for c in moves}
    for _ in range(samples):
        world = sample(view, rng).world
        seed = rng.getrandbits(64)  # an int: random.Random(float) differs between Python versions
        for card in moves:
            child = world.copy()
            child.play(card)
            got = {}

            def score(points, _pips, got=got):
                got["points"] = points
                return match_points(points, seat, n)

            runs[card].append(rollout(child, rules, state.dealer, turned, seat, random.Random(seed),
                                      EPSILON, score))
            won, pts = _outcome(child, card, seat, got["points"])
            wins[card] += won
            for name, (mine, theirs) in pts.items():
                tally[card][name][0] += mine
                tally[card][name][1] += theirs
    values = {DECK[c]: sum(runs[c]) / samples for c in moves}
    outcomes = {DECK[c]: Outcome(wins[c] / samples, {k: (a / samples, b / samples) for k, (a, b) in tally[c].items()})
                for c in moves}
    return values, outcomes, {DECK[c]: tuple(runs[c]) for c in moves}


def rate(state: State, samples: int = DEFAULT_SAMPLES, rng: random.Random | int | None = 0) -> Rating:
    """The value of each legal card for the seat to play in ``state`` (exact when it can be).

    ``samples`` worlds are drawn from ``rng`` (a generator or a seed) for an estimated position.
    """
    if state.finished:
        raise ValueError("the deal is over: there is no play to rate")
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 2:
        raise ValueError(f"samples must be a whole number of at least 2, not {samples!r}")
    seat = state.to_play
    top = state.stock_top
    if exact_position(state):
        values, outcomes = _exact(state)
        return Rating(seat, True, None, values, outcomes, not state.trick, top)
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    values, outcomes, runs = _estimated(state, samples, rng)
    return Rating(seat, False, samples, values, outcomes, not state.trick, top, runs)


def _play_rng(seed: int, index: int) -> random.Random:
    # One generator per play: reviewing one seat or every seat gives each play the same worlds.
    return random.Random(f"review/{seed}/{index}")


def review(state: State, seats=None, samples: int = DEFAULT_SAMPLES, seed: int = 0,
           progress=None) -> list[PlayReview]:
    """Every play of ``state``'s deal (up to its last play) by one of ``seats`` (default: all), rated.

    ``progress(done, total)`` is called after each play if given.
    """
    wanted = set(range(state.players)) if seats is None else set(seats)
    out: list[PlayReview] = []
    walk = state.deal.start()
    todo = []
    for index, card in enumerate(state.plays):
        if walk.to_play in wanted:
            todo.append((index, walk, card))
        walk = walk.play(card)
    for done, (index, position, card) in enumerate(todo, 1):
        rating = rate(position, samples, _play_rng(seed, index))
        comment = review_comment(card, rating, position.trump, position.players)
        out.append(PlayReview(index, position.trick_number, position.to_play, card, rating, comment))
        if progress is not None:
            progress(done, len(todo))
    return out


def review_json(reviews: list[PlayReview]) -> dict:
    """The ``calijack review --json`` object of one deal: ``{"plays": [...]}``."""
    return {"plays": [r.to_json() for r in reviews]}
