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

**How sure**: an estimate comes with its uncertainty, :meth:`Rating.stderr`: the standard
error of the card's value minus the best card's, over the same worlds (the spread of that
paired difference from world to world, divided by the square root of the number of worlds).
A play is a **mistake** only when it costs :data:`MISTAKE` (half a match point) or more *and*
clearly so: the loss less :data:`Z` standard errors is still at least :data:`MISTAKE`; it is
**sound** when the loss plus :data:`Z` standard errors is still under :data:`MISTAKE`. When
the loss lies within :data:`Z` standard errors of :data:`MISTAKE`, on either side, the play is
**too close to call** (:meth:`Rating.verdict`): the coach says so, and it is not a mistake (so
no drill and no practice entry). Where the verdict on the card played is unclear (its interval, the loss
plus or minus :data:`Z_MORE` standard errors, holds :data:`MISTAKE`), the review draws as
many worlds again, from the same generator, until it is clear or ``max_samples`` worlds are
drawn (:data:`EXTRA` times the first ones by default): counted, not timed, so a review still
reproduces exactly, and :attr:`Rating.samples` says how many worlds were drawn. A verdict still
unclear then (:attr:`Rating.spent`) is settled on the best estimate where it can be: a loss of
:data:`MISTAKE` or more is a mistake, a loss under it stays too close to call. The verdict
is also unclear while it is not clearly a mistake and another card may be half a point
better than the card played (:data:`RIVALS`): the best on the first worlds is not always the
best. The worlds drawn to settle a verdict try only the cards it compares, the card played,
the best and those rivals (a card that joins them is tried on all of them too): the other
cards' values stay those of the first worlds.
Exact values have no uncertainty: their verdict is the loss alone.

What each card leads to (:class:`Outcome`: who wins the trick, who scores each point) is
kept beside its value; :mod:`calijack.text_coach` words the comparison for a learner.
"""

from __future__ import annotations

import math
import os
import random
from dataclasses import dataclass, field, replace

from . import core
from .cards import DECK, Card
from .players.search import rollout
from .players.solver import Solver, match_points
from .players.worlds import Sampler, World
from .state import State
from .text_coach import review_comment

__all__ = ["DEFAULT_SAMPLES", "SAMPLES_ENV", "samples_setting", "MISTAKE", "Z", "Z_MORE", "EXTRA", "RIVALS", "MISTAKE_CALL", "TOO_CLOSE", "SOUND", "Outcome", "Rating", "PlayReview", "rate", "review",
           "review_json", "exact_position", "world_of"]

DEFAULT_SAMPLES = 100
"""Worlds per estimated play: a full two-player deal is reviewed in a few seconds."""

SAMPLES_ENV = "CALIJACK_REVIEW_SAMPLES"
"""The setting that changes :data:`DEFAULT_SAMPLES` where a live page reviews a deal (the tests
take fewer; a class's hub passes it on to its lessons)."""


def samples_setting(env=None, most: int = 1000) -> int:
    """The worlds per estimated play where a deal is reviewed live (the sandbox, two people's
    table, the class service): ``$CALIJACK_REVIEW_SAMPLES`` when it is a whole number from 1 to
    ``most``, else :data:`DEFAULT_SAMPLES` (a mistyped setting is no reason to fail a learner's
    review)."""
    text = str((os.environ if env is None else env).get(SAMPLES_ENV, "")).strip()
    wanted = int(text) if text.isdigit() else 0
    return wanted if 1 <= wanted <= most else DEFAULT_SAMPLES

MISTAKE = 0.5
"""A play that costs at least this many match points, clearly (:data:`Z`) or on the best estimate
once every guess allowed is drawn (:attr:`Rating.spent`), is marked as a mistake."""

Z = 1.0
"""How many standard errors the loss must stand clear of :data:`MISTAKE` to count.

One standard error, with the extra guesses below: a play whose true loss is just under half
a point can still be called a mistake (about one time in six when it sits right at the line),
but few plays sit there, and most sound plays lose nothing. Chosen by measurement
(``bench/coach_accuracy.py``, against a reference of 20 times the guesses, on the first 109
estimated plays of deals never used): the old rule gave 5 false alarms (4.6% of plays) and
missed 1 of the reference's 9 mistakes; one standard error gave no false alarm and no miss;
1.96 (the 95% interval) also no false alarm, but missed 2 of 9 (called too close) and drew
more guesses (160 a play against 131). Over 289 plays: 1 false alarm and 1 miss of 20 at one
standard error, 5 and 1 for the old rule, 0 and 6 at 1.96.

The same band holds on the other side: a play is called sound only when its loss plus one
standard error is under :data:`MISTAKE`; within one standard error of the line, either side,
it is too close to call. Of the 133 mistakes of 1,296 plays under a sharper reference
(``bench/coach_disputes.py``: 20,000 guesses on every play near the line), the coach marked 123
and called 2 sound; the other 8 sat within one standard error of the line after 3,200 guesses,
and were called sound before this rule, too close to call now.

Once every guess allowed is drawn (:attr:`Rating.spent`), the upper side of that band goes by
the best estimate: a loss of :data:`MISTAKE` or more is a mistake, a loss under it stays too
close to call. No affordable number of guesses settles such a play, and the plays there cost
about half a point either way, so a drill on one teaches a cost that is real; a play is still
never called a mistake on an estimate under the line. See :data:`EXTRA` for the figures."""

Z_MORE = 2.0
"""How many standard errors wide the band is that asks for more worlds: while the loss plus or
minus this many holds :data:`MISTAKE`, the verdict is unclear and more worlds are drawn.

Wider than :data:`Z`, so a play that looks clearly a mistake (or clearly sound) on the first
worlds, but only by one or two standard errors, is looked at again before the verdict."""

RIVALS = True
"""Whether an unclear verdict looks at every card that may be half a point better than the card
played (:meth:`Rating.rivals`: its gap to the card played plus :data:`Z_MORE` standard errors
reaches :data:`MISTAKE`), not only at the best card so far.

The best card on the first worlds is not always the best: a card that swings from world to
world can be a point better than its first average says, and a play can then cost much more
than it seems. Measured (``bench/coach_accuracy.py --rivals 0 1``, 1,296 estimated plays of
deals never used, seeds 34 to 37, the last measured once after the choice, against 2,000
guesses; 137 reference mistakes): 17 missed without, 14 with (of the 122 the reference is sure
of, 8 and 5), false alarms 4 both ways (0.3%), the best card's mean loss 0.023 and 0.022, at
1.16 times the processor time of the estimated plays (379 guesses a play against 370); a whole
deal's review takes no longer that can be measured (``bench/review.py``)."""

EXTRA = 64
"""An unclear verdict draws more worlds, up to this many times the first ones (100 → 6,400).

They try only the card played, the best card and the card played's rivals (:data:`RIVALS`),
so a world drawn then costs about half of one of the first (which try every legal card).
:data:`Z_MORE` and a cap of 32 were chosen by measurement (``bench/coach_accuracy.py``, 648
estimated plays of deals never used, seeds 34 and 35, against 2,000 guesses): with 4 and 1
standard error, 11 false alarms (1.7% of plays) and 11 of the reference's 73 mistakes missed;
with 32 and 2, 2 false alarms (0.3%) and 5 missed, at about 1.75 times the processor time of
the estimated plays.

The cap went from 32 to 64 together with the rule at the cap (:attr:`Rating.spent`, :data:`Z`):
neither alone is enough. Measured (``bench/coach_accuracy.py --extra 32 64 --spent 0 1``, the
same plays rated each way, 1,928 estimated plays of deals never used, seeds 34 to 39; 38 and 39
measured once, after the choice was made on 34 to 37; against 2,000 guesses, 203 reference
mistakes): the cap of 32 without the rule missed 18 (8.9%), with 5 false alarms (0.3% of
plays); 32 with the rule, 14 and 14; 64 without it, 21 and 5; **64 with it, 10 (4.9%) and 8
(0.4%)**; on seeds 38 and 39 alone, 4 of 66 before and 2 after. The best card's mean loss stays
0.022; 476 guesses a play against 373, 1.23 times the processor time of the estimated plays. A
whole deal's review (``bench/review.py --deals 5``) still takes 2.8 s median.

A cap of 128 (12,800 guesses) without the rule was measured before, on the 69 of 1,296 plays
(seeds 34 to 37) that reached 3,200, against the sharper reference of
``bench/coach_disputes.py``: the mistakes left unmarked stayed 10 of 133, for 176 s of
processor time on those plays against 66."""

MISTAKE_CALL, TOO_CLOSE, SOUND = "mistake", "too close", "sound"
"""The verdicts on a card (:meth:`Rating.verdict`)."""

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
    samples: int | None               # worlds drawn (None when exact): see the module's docstring
    values: dict[Card, float]         # every legal card, in index order
    outcomes: dict[Card, Outcome]
    lead: bool                        # the seat leads this trick
    top: Card | None                  # the exposed stock card, which the trick's winner draws
    per_world: dict[Card, tuple] = field(default_factory=dict, repr=False)  # estimated only
    spent: bool = False               # every extra world allowed was drawn for a verdict (see verdict)

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

    def stderr(self, card: Card) -> float:
        """The uncertainty of ``card``'s loss: the standard error of the best card's value minus
        ``card``'s, paired over the same worlds (0 for exact values, for the best card itself,
        and for a rating kept without its worlds)."""
        best = self.best[0]
        if self.exact or card == best or not self.per_world:
            return 0.0
        return self._paired(best, card)[1]

    @property
    def spread(self) -> dict[Card, float]:
        """Every card's :meth:`stderr`, to two decimals (0 when exact)."""
        return {c: round(self.stderr(c), 2) for c in self.values}

    def _loss(self, card: Card) -> float:
        # The loss unrounded (the verdict is not moved by the display's rounding).
        return max(self.values.values()) - self.values[card]

    def verdict(self, card: Card, z: float = Z) -> str:
        """:data:`MISTAKE_CALL` when ``card`` costs :data:`MISTAKE` or more and clearly so (its loss
        less ``z`` standard errors is still :data:`MISTAKE` or more), :data:`SOUND` when it costs
        less and clearly so (its loss plus ``z`` standard errors is still under :data:`MISTAKE`),
        else :data:`TOO_CLOSE`: the loss lies within ``z`` standard errors of :data:`MISTAKE`, on
        either side. Exact values: the loss alone.

        When the rating drew every world it could for this verdict (:attr:`spent`: the review's
        cap, :data:`EXTRA`) and the loss still lies within ``z`` standard errors of the line, its
        best estimate decides the upper side: a loss of :data:`MISTAKE` or more is a mistake (the
        coach has looked as hard as it may, and on its best estimate the play costs half a point),
        a loss under it is too close to call (see :data:`Z`)."""
        loss = self.loss(card)
        if self.exact:
            return MISTAKE_CALL if loss >= MISTAKE else SOUND
        raw, half = self._loss(card), z * self.stderr(card)
        if loss >= MISTAKE and (raw - half >= MISTAKE or (self.spent and raw >= MISTAKE)):
            return MISTAKE_CALL
        if loss < MISTAKE and raw + half < MISTAKE:
            return SOUND
        return TOO_CLOSE

    def mistake(self, card: Card) -> bool:
        """True when the verdict on ``card`` is :data:`MISTAKE_CALL`."""
        return self.verdict(card) == MISTAKE_CALL

    def too_close(self, card: Card) -> bool:
        """True when the verdict on ``card`` is :data:`TOO_CLOSE` (what the coach's sentence asks)."""
        return self.verdict(card) == TOO_CLOSE

    def unclear(self, card: Card, z: float = Z, rivals: bool = False, found: list[Card] | None = None) -> bool:
        """True when more worlds could change the verdict on ``card``: estimated, and its loss
        plus or minus ``z`` standard errors holds :data:`MISTAKE`. With ``rivals``, also when the
        loss less ``z`` standard errors is under :data:`MISTAKE` and any card (not only the best
        so far) may be that much better (:meth:`rivals`; ``found``: those already worked out)."""
        if self.exact:
            return False
        loss, half = self._loss(card), z * self.stderr(card)
        if not rivals:
            return loss - half < MISTAKE <= loss + half
        return loss - half < MISTAKE and bool(self.rivals(card, z) if found is None else found)

    def rivals(self, card: Card, z: float = Z) -> list[Card]:
        """The other cards that may be :data:`MISTAKE` or more better than ``card``: their value
        less ``card``'s, paired over the worlds both were tried on, plus ``z`` standard errors,
        reaches it (none when exact)."""
        if self.exact or not self.per_world:
            return []
        out = []
        for other in self.values:
            if other != card:
                mean, se = self._paired(other, card)
                if mean + z * se >= MISTAKE:
                    out.append(other)
        return out

    def margin(self, card: Card, other: Card, z: float = 1.96) -> tuple[float, float]:
        """The 95% interval of ``card``'s value minus ``other``'s (paired over the same worlds).

        Exact ratings give the difference itself at both ends.
        """
        if self.exact:
            diff = self.values[card] - self.values[other]
            return diff, diff
        mean, se = self._paired(card, other)
        return mean - z * se, mean + z * se

    def _paired(self, card: Card, other: Card) -> tuple[float, float]:
        # The mean of ``card``'s value minus ``other``'s over the same worlds, and its standard
        # error (infinite with fewer than two worlds).
        diffs = [a - b for a, b in zip(self.per_world[card], self.per_world[other])]
        n = len(diffs)
        if n < 2:
            return (diffs[0] if diffs else 0.0), float("inf")
        mean = sum(diffs) / n
        return mean, math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)


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
    def verdict(self) -> str:
        """The coach's verdict on the card played (:meth:`Rating.verdict`)."""
        return self.rating.verdict(self.card)

    @property
    def mistake(self) -> bool:
        """True when the play cost at least :data:`MISTAKE` match points, clearly."""
        return self.rating.mistake(self.card)

    @property
    def too_close(self) -> bool:
        """True when the play cost :data:`MISTAKE` or more on the estimate, but not clearly."""
        return self.verdict == TOO_CLOSE

    def to_json(self) -> dict:
        """The play as ``calijack review --json`` prints it."""
        r = self.rating
        return {"index": self.index, "trick": self.trick, "seat": self.seat, "card": self.card.code,
                "exact": r.exact, "samples": r.samples,
                "values": {c.code: v for c, v in r.shown.items()},
                "best": [c.code for c in r.best], "loss": self.loss, "comment": self.comment,
                "spread": {c.code: v for c, v in r.spread.items()}, "verdict": self.verdict}


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


class _Tally:
    """The worlds drawn so far for one position: each card's value and outcome in each.

    The first worlds try every legal card. Worlds drawn later, to settle a verdict, try only the
    cards the verdict compares (the card played and the best); they are kept, so a card that
    becomes the best later is tried on each of them too, and every card's worlds are the first
    ones in the order drawn (so any two cards are compared on the same worlds).
    """

    def __init__(self, state: State):
        self.state = state
        self.seat, self.turned = state.to_play, _turned(state)
        self.sampler = Sampler(state.view(state.to_play))  # one reading of the view for every world
        self.moves = core.bit_list(state.legal_mask())
        self.runs = {c: [] for c in self.moves}
        self.wins = dict.fromkeys(self.moves, 0)
        self.tally = {c: {name: [0, 0] for name in state.rules.point_names} for c in self.moves}
        self.first = 0      # worlds every card was tried on
        self.kept: list = []  # the later worlds, (world, seed), in the order drawn

    def rated(self) -> Rating:
        state, runs = self.state, self.runs
        values, outcomes = {}, {}
        for c in self.moves:
            count = len(runs[c])
            values[DECK[c]] = sum(runs[c]) / count
            outcomes[DECK[c]] = Outcome(self.wins[c] / count,
                                        {k: (a / count, b / count) for k, (a, b) in self.tally[c].items()})
        return Rating(self.seat, False, self.first + len(self.kept), values, outcomes, not state.trick,
                      state.stock_top, {DECK[c]: tuple(runs[c]) for c in self.moves})

    def draw(self, samples: int, rng: random.Random, cards=None) -> None:
        """Draw ``samples`` more worlds from ``rng``; try ``cards`` (indices; default every legal card) on each."""
        for _ in range(samples):
            world = self.sampler.sample(rng).world
            seed = rng.getrandbits(64)  # an int: random.Random(float) differs between Python versions
            for card in self.moves if cards is None else cards:
                self.tried(world, seed, card)
            if cards is None:
                self.first += 1
            else:
                self.kept.append((world, seed))

    def catch_up(self, cards) -> bool:
        """Try each of ``cards`` on the kept worlds it has not been tried on; whether any was."""
        done = False
        for card in cards:
            for world, seed in self.kept[len(self.runs[card]) - self.first:]:
                self.tried(world, seed, card)
                done = True
        return done

    def tried(self, world: World, seed: int, card: int) -> None:
        """Play ``card`` in ``world`` and the deal out (the rollout seeded by ``seed``); count it."""
        state, seat, n = self.state, self.seat, self.state.players
        child = world.copy()
        child.play(card)
        got = {}

        def score(points, _pips):
            got["points"] = points
            return match_points(points, seat, n)

        self.runs[card].append(rollout(child, state.rules, state.dealer, self.turned, seat, random.Random(seed),
                                       EPSILON, score))
        won, pts = _outcome(child, card, seat, got["points"])
        self.wins[card] += won
        for name, (mine, theirs) in pts.items():
            self.tally[card][name][0] += mine
            self.tally[card][name][1] += theirs


def rate(state: State, samples: int = DEFAULT_SAMPLES, rng: random.Random | int | None = 0,
         played: Card | None = None, max_samples: int | None = None, z_more: float = Z_MORE,
         rivals: bool = RIVALS) -> Rating:
    """The value of each legal card for the seat to play in ``state`` (exact when it can be).

    ``samples`` worlds are drawn from ``rng`` (a generator or a seed) for an estimated position.
    With ``played``, while the verdict on that card is unclear (:meth:`Rating.unclear` with
    ``z_more`` standard errors and ``rivals``), as many worlds again are drawn, up to
    ``max_samples`` in all (default: ``samples``, no more); they try only the card played,
    the best card and, with ``rivals``, every card that may be half a point better than the
    card played (:meth:`Rating.rivals`).
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
    limit = samples if max_samples is None else max_samples
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < samples:
        raise ValueError(f"max_samples must be a whole number of at least samples ({samples}), not {max_samples!r}")
    tally = _Tally(state)
    tally.draw(samples, rng)
    rating = tally.rated()
    while played is not None:
        focus = [played.index] + [rating.best[0].index] * (rating.best[0] != played)
        found = rating.rivals(played, z_more) if rivals else []
        focus += [c.index for c in found if c.index not in focus]
        if tally.catch_up(focus):  # a card joined the comparison: try it on every world drawn since
            rating = tally.rated()
            continue
        if rating.samples >= limit or not rating.unclear(played, z_more, rivals, found):
            break
        tally.draw(min(rating.samples, limit - rating.samples), rng, focus)
        rating = tally.rated()
    if played is not None and limit > samples and rating.samples >= limit:
        rating = replace(rating, spent=True)
    return rating


def _play_rng(seed: int, index: int) -> random.Random:
    # One generator per play: reviewing one seat or every seat gives each play the same worlds.
    return random.Random(f"review/{seed}/{index}")


def review(state: State, seats=None, samples: int = DEFAULT_SAMPLES, seed: int = 0,
           progress=None, max_samples: int | None = None) -> list[PlayReview]:
    """Every play of ``state``'s deal (up to its last play) by one of ``seats`` (default: all), rated.

    A play whose verdict is unclear after ``samples`` worlds gets more, up to ``max_samples``
    (default :data:`EXTRA` × ``samples``). ``progress(done, total)`` is called after each play if given.
    """
    limit = EXTRA * samples if max_samples is None else max_samples
    wanted = set(range(state.players)) if seats is None else set(seats)
    out: list[PlayReview] = []
    walk = state.deal.start()
    todo = []
    for index, card in enumerate(state.plays):
        if walk.to_play in wanted:
            todo.append((index, walk, card))
        walk = walk.play(card)
    for done, (index, position, card) in enumerate(todo, 1):
        rating = rate(position, samples, _play_rng(seed, index), played=card, max_samples=limit)
        comment = review_comment(card, rating, position.trump, position.players)
        out.append(PlayReview(index, position.trick_number, position.to_play, card, rating, comment))
        if progress is not None:
            progress(done, len(todo))
    return out


def review_json(reviews: list[PlayReview]) -> dict:
    """The ``calijack review --json`` object of one deal: ``{"plays": [...]}``."""
    return {"plays": [r.to_json() for r in reviews]}
