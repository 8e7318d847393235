"""The Beginner: legal play with a learner's habits, not the sources' advice.

Someone learning the game wins what they can, leads their strongest cards, and thinks about
neither the card values in a trick nor the exposed card of the stock. The Beginner plays like
that on purpose, so a learner has an opponent they can beat while they learn:

* ``win_big`` — when it can win the trick it usually does, with its strongest winning card:
  it wins worthless tricks, and spends its high trumps early;
* ``let_go`` — now and then it lets a trick go all the same, with its lowest card, even a
  trick holding a counting card (a ten, an ace, a face card) or a point;
* ``throw`` — when it cannot win it plays its lowest card, by rank alone: a ten before a jack;
* ``lead_strong`` / ``lead_small`` — it usually leads its strongest card (a trump before a
  plain card of the same rank), sometimes its lowest;
* it never looks at the stock's exposed card, nor at what has been played.

Its choices are drawn from the ``rng`` it is given (:func:`beginner_index`), so a deal played
from the same seed is played the same way: reproducible, and yet not the same every deal.
"""

from __future__ import annotations

import random

from .. import core
from .. import text_hints as hints
from ..cards import DECK
from ..core import beats, trick_winner
from ..view import View
from .base import Decision, Knowledge

__all__ = ["BeginnerPlayer", "beginner_index", "HABITS"]

HABITS = {
    "only": "play the only legal card",
    "win_big": "win the trick whenever it can, with its strongest winning card",
    "let_go": "now and then let a trick go with its lowest card, whatever the trick holds",
    "throw": "when it cannot win, play its lowest card by rank, a ten before a jack",
    "lead_strong": "lead its strongest card, trumps first",
    "lead_small": "sometimes lead its lowest card",
}
"""The Beginner's habits by name, each in a few words."""

WIN = 0.8         # the chance it wins a trick it can win
LEAD_STRONG = 0.7  # the chance it leads its strongest card (else its lowest)


def _strength(card: int, trump: int) -> tuple[bool, int]:
    # How strong a learner thinks a card is: a trump first, then by rank.
    return card // 13 == trump, card % 13


def beginner_index(legal: int, trick: tuple, trump: int, rng: random.Random) -> tuple[int, str]:
    """The Beginner's card index and habit, from its legal cards and the trick in progress.

    Exactly one number is drawn from ``rng`` for each decision with a choice, so a deal
    replays the same from the same seed.
    """
    cards = core.bit_list(legal)
    if len(cards) == 1:
        return cards[0], "only"
    draw = rng.random()
    if not trick:
        if draw < LEAD_STRONG:
            return max(cards, key=lambda c: _strength(c, trump)), "lead_strong"
        return min(cards, key=lambda c: (c % 13, c // 13 == trump)), "lead_small"
    best = trick[trick_winner(trick, trump)]
    winners = [c for c in cards if beats(c, best, trump)]
    if winners and draw < WIN:
        return max(winners, key=lambda c: _strength(c, trump)), "win_big"
    if winners:
        return min(cards, key=lambda c: (c // 13 == trump, c % 13)), "let_go"
    return min(cards, key=lambda c: (c % 13, c // 13 == trump)), "throw"  # no card wins: the lowest


class BeginnerPlayer:
    """Plays legally with a learner's habits (see ``HABITS``); seeded by the ``rng`` it is handed."""

    name = "beginner"

    def choose(self, view: View, rng: random.Random) -> Decision:
        """The card a learner's habit picks, with the habit as the reason."""
        k = Knowledge.from_view(view)
        index, habit = beginner_index(k.legal, k.trick, k.trump, rng)
        card = DECK[index]
        return Decision(card, hints.why_habit(habit, card, k.trump))

    def __repr__(self) -> str:
        return "BeginnerPlayer()"
