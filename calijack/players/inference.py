"""What the opponent's plays so far say about its hidden cards: a likelihood for each guess.

A guess at the hidden cards (:func:`.worlds.sample`) is consistent with every play seen, but
not every consistent guess is as likely: a player holding the trump ace rarely throws a low
trump under a trick worth fighting for. The model of the opponent is the rules of thumb
(:func:`.heuristic.rule_of_thumb`, the Casual level's play) with noise: at each of its plays
with more than one legal card, it plays the rule of thumb's card with chance ``1 - noise``,
and otherwise any legal card at random. The **likelihood** of a guess is the product, over the
opponent's plays so far, of the chance that the model, holding that guess's hand, made the
play it made. Weighting each guess by it (Rebstock et al., 2019, for Skat) leans the Expert's
estimates toward the hands the opponent's play points to. A play the model never makes
(``noise`` 0) rules out every guess that requires it: its likelihood is 0.

The model can be wrong about the opponent: OpenSpiel's ISMCTS at 300 simulations plays the
rule of thumb's card in 15 of 66 choices (23%), no more than picking at random among its
4.7 legal cards on average would (``bench/README.md``). :func:`likelihoods` gives a guess's
likelihood under several shares at once, so the Expert can weigh a guess by a mixture of
opponents (its ``noise`` option given as a list, e.g. :data:`MIXTURE`): the average of its
likelihoods under a player of the rules of thumb with half its plays random and under a
player at random. Over a deal the opponent's plays themselves decide which of the two
carries the weight.

The Expert reads the opponent only when asked (its ``noise`` option): against ISMCTS at 1,000
simulations, a player whose plays the model does not describe, reading cost it about a point a
deal (``CHANGELOG.md``, 2026-12-05 (evening)).
"""

from __future__ import annotations

from .. import core
from ..cards import mask_of
from ..view import View
from .heuristic import Stakes, thumb
from .worlds import Guess, World

__all__ = ["NOISE", "MIXTURE", "likelihood", "likelihoods", "Reading"]

NOISE = 0.5
"""The model's share of plays made at random instead of by the rules of thumb."""

MIXTURE = (NOISE, 1.0)
"""Two opponents at once: the rules of thumb with :data:`NOISE` of random plays, and a player at random."""


def likelihood(guess: Guess, view: View, noise: float = NOISE) -> float:
    """The chance that the other seats, under the model, played as ``view`` shows, given ``guess``'s hands.

    The cost is one replay of the plays so far (``len(view.played)`` cards), counted by the Expert.
    """
    return likelihoods(guess, view, (noise,))[0]


def likelihoods(guess: Guess, view: View, noises: tuple[float, ...]) -> tuple[float, ...]:
    """:func:`likelihood` under each of ``noises`` at once (one replay for all of them).

    A share of 1 is a player who picks among its legal cards at random: its likelihood does not
    look at the rules of thumb at all, only at how many cards each play had to choose from.
    """
    return Reading(view).likelihoods(guess, noises)


class Reading:
    """The other seats' plays in one view, read once for the likelihoods of many guesses.

    Everything about a play but the hand it came from is public (the trick, the exposed card,
    the cards gone, the stakes), and so is where each hand's draws lie in the stock: the first
    guess's replay (:func:`calijack.core.play_card`) sets them down, and each guess then only
    follows the other seats' hands, its own cards coming and going. ``bank``: the model plays
    with the Expert's ``bank`` rule (:func:`.heuristic.thumb`).
    """

    def __init__(self, view: View, bank: bool = False):
        self.view = view
        self.bank = bank
        self.steps: list | None = None

    def _read(self, guess: Guess) -> list:
        view = self.view
        rules, trump, n, me = view.rules, int(view.trump), view.players, view.seat
        turned = view.turned.index if view.turned is not None else -1
        world = World.start(guess.deal_hands, guess.deal_stock, view.dealer, trump, rules)
        worth = Stakes.of(rules, trump, turned)
        steps = []  # (seat, card, trick, exposed card, cards gone, last, thumb tables), or (seat, stock position) for a draw
        played = 0
        tables = None  # the rules of thumb's stakes this trick (the piles change only as a trick ends)
        for card in view.played:
            index = card.index
            trick = world.trick
            seat = core.play_order(world.leader, n)[len(trick)]
            if seat != me:
                if tables is None:
                    tables = worth.tables(self.bank)[worth.decided([core.pips_of(p) for p in world.piles])]
                steps.append((seat, index, tuple(trick), world.top, played, len(trick) == n - 1, tables))
            played |= 1 << index
            drawn = world.drawn
            world.play(index)
            for position in range(drawn, world.drawn):  # the draws after the trick, as play_card made them
                drawer = next(s for s in range(n) if world.received[s] >> world.stock[position] & 1)
                if drawer != me:
                    steps.append((drawer, position))
            if not world.trick:
                tables = None
        return steps

    def weight(self, guess: Guess, noises: tuple[float, ...] | None) -> float:
        """The weight a search gives ``guess``: the mean of its :meth:`likelihoods` over ``noises``,
        or 1 when the opponent's plays are not read (``noises`` is ``None``)."""
        return 1.0 if noises is None else sum(self.likelihoods(guess, noises)) / len(noises)

    def likelihoods(self, guess: Guess, noises: tuple[float, ...]) -> tuple[float, ...]:
        """:func:`likelihoods` of ``guess`` (a guess at this view's hidden cards)."""
        if self.steps is None:
            self.steps = self._read(guess)
        trump, void_any = int(self.view.trump), self.view.rules.void_any
        stock = guess.deal_stock
        hands = [mask_of(hand) for hand in guess.deal_hands]
        weights = [1.0] * len(noises)
        for step in self.steps:
            if len(step) == 2:
                seat, position = step
                hands[seat] |= 1 << stock[position]
                continue
            seat, index, trick, top, played, last, tables = step
            hand = hands[seat]
            legal = core.legal_mask(hand, trick[0] if trick else -1, trump, void_any)
            count = legal.bit_count()
            if count > 1:
                model, _ = thumb(hand, legal, trick, top, played | hand, last, tables)
                hit = model == index
                for i, noise in enumerate(noises):
                    weights[i] *= (1 - noise if hit else 0.0) + noise / count
                if not any(weights):
                    return tuple(weights)
            hands[seat] = hand & ~(1 << index)
        return tuple(weights)
