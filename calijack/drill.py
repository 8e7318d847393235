"""Learning from one's own deals: the mistakes set up again, and the same cards played by the computer.

- :func:`drills`: each play of one seat that the review marks as a mistake (it cost at least
  :data:`~calijack.review.MISTAKE` match points), as a position to try again. Any card whose
  value is within :data:`ACCEPT` of the best card's is a right answer. The values are the
  review's own (:func:`calijack.review.review`, same samples and seed), so ``calijack drill``
  and ``calijack review`` never disagree.
- :func:`compare`: the deal dealt again, the same cards in every hand and in the stock, with
  the strongest computer player (:data:`COMPUTER`) in the learner's seat. The other seats
  keep their player, and each of their choices is drawn from a generator seeded by the
  position (``rng_for``), exactly as the sandbox seeds its opponent, so the comparison is
  fair ("was it my cards or my play?") and reproduces.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable

from .cards import Card
from .players import get_player, position_rng  # the sandbox's scheme, re-exported
from .records import deal_record
from .review import DEFAULT_SAMPLES, MISTAKE, PlayReview, Rating, review
from .state import State

__all__ = ["ACCEPT", "COMPUTER", "Drill", "drills", "drills_of", "Comparison", "compare", "position_rng"]

ACCEPT = MISTAKE
"""A card within this many match points of the best card's value is a right answer."""

COMPUTER = "expert"
"""The computer player that plays the learner's cards in :func:`compare`: the strongest one."""


@dataclass(frozen=True)
class Drill:
    """One mistake to try again: the position before it, the card played, and the answers."""

    play: int                       # the play's index in the deal, from 0
    position: State                 # the deal up to (not including) that play
    played: Card
    best: Card                      # a card of the highest value
    accept: tuple[Card, ...]        # every card within ACCEPT of the best (best included)
    values: dict[Card, float]       # every legal card's value, as the review shows it
    exact: bool                     # the values are exact (whole numbers), not estimated
    comment: str                    # the coach's sentence about the card played
    # The review's rating of the position (for the coach's sentence on any other card), when known.
    rating: Rating | None = field(default=None, repr=False, compare=False)

    @classmethod
    def of(cls, reviewed: PlayReview, position: State) -> "Drill":
        """The drill of a reviewed play (its position is given, to avoid replaying the deal)."""
        rating = reviewed.rating
        # The loss as the review reports it (to two decimals), so that the card played, marked
        # as a mistake, is never also an accepted answer.
        accept = tuple(card for card in rating.shown if rating.loss(card) < ACCEPT)
        return cls(reviewed.index, position, reviewed.card, rating.best[0], accept,
                   rating.shown, rating.exact, reviewed.comment, rating)

    def right(self, card: Card) -> bool:
        """Whether ``card`` is an accepted answer."""
        return card in self.accept

    def to_json(self) -> dict:
        """The drill as ``calijack drill --json`` prints it."""
        return {"play": self.play, "position": deal_record(self.position), "played": self.played.code,
                "best": self.best.code, "accept": [c.code for c in self.accept],
                "values": {c.code: v for c, v in self.values.items()}}


def drills(state: State, seat: int, samples: int = DEFAULT_SAMPLES, seed: int = 0,
           progress=None) -> list[Drill]:
    """Every mistake ``seat`` made in ``state``'s deal, in playing order, as a drill.

    ``samples`` and ``seed`` are the review's; ``progress(done, total)`` is passed on to it.
    """
    return drills_of(state, review(state, (seat,), samples=samples, seed=seed, progress=progress))


def drills_of(state: State, reviews) -> list[Drill]:
    """The drills of the mistakes among ``reviews`` (plays of ``state``'s deal, already reviewed),
    in playing order: the sandbox has reviewed the deal already, and asks again for nothing."""
    mistakes = {r.index: r for r in reviews if r.mistake}
    out, walk = [], state.deal.start()
    for index, card in enumerate(state.plays):
        if index in mistakes:
            out.append(Drill.of(mistakes[index], walk))
        walk = walk.play(card)
    return out


@dataclass(frozen=True)
class Comparison:
    """The learner's points in a deal beside the computer's with the very same cards."""

    seat: int
    you: int
    computer: int
    state: State                    # the computer's deal, finished

    def to_json(self) -> dict:
        """The comparison as ``calijack compare --json`` prints it."""
        return {"seat": self.seat, "you": self.you, "computer": self.computer,
                "record": deal_record(self.state)}


def _player(who):
    return get_player(who) if isinstance(who, str) else who


def compare(state: State, seat: int, opponent=COMPUTER,
            rng_for: Callable[[State], random.Random] | None = None, scores=None,
            progress=None, computer=COMPUTER) -> Comparison:
    """Deal ``state``'s cards again and let ``computer`` play ``seat``'s hand against ``opponent``.

    ``opponent`` and ``computer`` are player names (:func:`~calijack.players.get_player`) or
    players. ``state`` must be finished. ``rng_for(position)`` seeds every choice (default
    :func:`position_rng` ``(0)``); ``scores``, the match score before this deal, is shown to
    every player, as in the sandbox. ``progress(done, total)`` is called after each card.
    """
    if not state.finished:
        raise ValueError(f"the deal is not over: trick {state.trick_number} of {state.rules.tricks} "
                         "is being played, so there is nothing to compare yet")
    rng_for = rng_for or position_rng(0)
    players = [_player(opponent) for _ in range(state.players)]
    players[seat] = _player(computer)
    walk = state.deal.start()
    total = len(state.plays)
    while not walk.finished:
        view = walk.view(walk.to_play)
        if scores is not None:
            view = view.with_scores(scores)
        walk = walk.play(players[walk.to_play].choose(view, rng_for(walk)).card)
        if progress is not None:
            progress(len(walk.plays), total)
    return Comparison(seat, state.result().points[seat], walk.result().points[seat], walk)
