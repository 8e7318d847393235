"""The heuristic opponent: the sources' advice as named rules of thumb, on bit masks.

The rules, in the order they are tried (``RULES_OF_THUMB`` names them for the book):

* ``only`` — a single legal card is played at once.
* ``win_low`` — trump with the trump two when nobody can play after you: it captures Low.
* ``fight`` — fight for a trick when the exposed card is worth drawing (a trump, a ten, an ace).
* ``capture`` — win a trick that holds a point card or card values, with the cheapest winner.
* ``count`` — count card values: once Game is decided, values no longer matter.
* ``lose`` — when a trick is not worth winning, lose it with the least useful card,
  keeping low trumps for Low and never throwing a ten away while another card will do.
* ``lead_master`` / ``lead_high`` / ``lead_low`` — when the exposed card is worth winning,
  lead the highest trump left, else the highest card left of a plain suit; otherwise lead a
  low card of no value.

:func:`rule_of_thumb` is the mask-level core; the search uses it for its playouts. What a card
is worth (:func:`stakes`) and whether Game is decided come from :mod:`calijack.core`'s scoring,
so the rules of thumb value exactly what the scorer counts.
"""

from __future__ import annotations

import random

from .. import core
from .. import text_hints as hints
from ..cards import DECK, SUIT_MASK, Rank
from ..core import beats, trick_winner
from ..rules import Rules
from ..view import View
from .base import Decision, Knowledge

__all__ = ["HeuristicPlayer", "heuristic_index", "rule_of_thumb", "stakes", "Stakes", "keeps_low",
           "POINT_STAKE", "RULES_OF_THUMB"]

RULES_OF_THUMB = {
    "only": "play the only legal card",
    "win_low": "trump with the two when the trick is sure: it captures Low",
    "fight": "fight for a trick when the exposed card is worth drawing",
    "capture": "win a trick that holds a point card or card values, as cheaply as possible",
    "count": "count card values: once Game is decided they no longer matter",
    "lose": "lose a worthless trick with the least useful card (keep low trumps and tens)",
    "lead_master": "lead the highest trump left to win an exposed card worth drawing",
    "lead_high": "else lead the highest card left of a plain suit (only a trump can take it)",
    "lead_low": "lead a low card of no value when the exposed card is not worth drawing",
}
"""The heuristic's rules of thumb by name, each in a few words (not to be confused with ``Rules``)."""

POINT_STAKE = 10
"""What capturing a point card is worth to a rule of thumb, beside its card value."""

_STAKES: dict = {}


def stakes(rules: Rules, trump: int, pips_live: bool, turned: int = -1) -> tuple[int, ...]:
    """What capturing each card is worth to a rule of thumb, by card index.

    :data:`POINT_STAKE` for each card whose capture scores a point (:func:`calijack.core.capture_mask`),
    plus its card value while ``pips_live`` and Game goes by card values. ``turned`` is the card
    that set trump (-1 when a cut did).
    """
    key = (rules, trump, pips_live, turned)
    table = _STAKES.get(key)
    if table is None:
        capture = core.capture_mask(rules, trump, turned)
        by_pips = pips_live and not rules.game_by_ten
        table = _STAKES[key] = tuple((POINT_STAKE if capture >> i & 1 else 0)
                                     + (core.pips_of(1 << i) if by_pips else 0) for i in range(52))
    return table


class Stakes:
    """The stakes of one deal (its rules, trump and turned card), live or dead as Game stands."""

    __slots__ = ("live", "dead", "by_pips")

    def __init__(self, rules: Rules, trump: int, turned: int = -1):
        self.live, self.dead = stakes(rules, trump, True, turned), stakes(rules, trump, False, turned)
        self.by_pips = not rules.game_by_ten

    def now(self, piles) -> tuple[tuple[int, ...], bool]:
        """The stakes in force given the captured ``piles``, and whether Game is decided on card values."""
        if self.by_pips and core.game_decided([core.pips_of(p) for p in piles]):
            return self.dead, True
        return self.live, False


def keeps_low(rules: Rules, trump: int, turned: int = -1) -> bool:
    """Whether Low goes to whoever captures the trump two (so a low trump is worth keeping)."""
    return bool(core.capture_mask(rules, trump, turned) >> (trump * 13 + core.POINT_RANK["low"]) & 1)


def _worth_drawing(top: int, trump: int) -> bool:
    # A trump, or a card of high value (a ten or an ace).
    return top >= 0 and (top // 13 == trump or core.pips_of(1 << top) >= 4)


def rule_of_thumb(hand: int, legal: int, trick: tuple, trump: int, top: int, gone: int,
                  stake: tuple, last: bool, keep_low: bool) -> tuple[int, str]:
    """The card a rule of thumb plays and the rule's name.

    ``gone`` holds the cards known to be out of the opponents' hands (played or this seat's),
    ``stake`` comes from :func:`stakes`, ``last`` says nobody plays after this seat, and
    ``keep_low`` that Low goes to whoever captures the trump two.
    """
    cards = core.bit_list(legal)
    if len(cards) == 1:
        return cards[0], "only"
    tmask = SUIT_MASK[trump]
    low_trump = trump * 13
    if not trick:
        if _worth_drawing(top, trump):
            left = tmask & ~gone
            if left and hand & (1 << (left.bit_length() - 1)):
                return left.bit_length() - 1, "lead_master"
            # Else the highest card left of a plain suit: only a trump can take it.
            for c in sorted(cards, key=lambda c: (stake[c], -(c % 13))):
                suit = c // 13
                if suit != trump and c % 13 != Rank.TEN and not SUIT_MASK[suit] & ~gone & ~((2 << c) - 1):
                    return c, "lead_high"
        # A low card of no value, not a trump if possible.
        return min(cards, key=lambda c: (stake[c], c // 13 == trump, c % 13)), "lead_low"
    best = trick[trick_winner(trick, trump)]
    at_stake = sum(stake[c] for c in trick)
    winners = [c for c in cards if beats(c, best, trump)]
    if winners:
        if keep_low and last and (1 << low_trump) & legal and low_trump in winners:
            return low_trump, "win_low"
        fight = _worth_drawing(top, trump)
        if fight or at_stake > 0:
            # The cheapest winner: a plain card before a trump, low before high,
            # the trump two kept back unless the trick is sure.
            def cost(c):
                is_trump = c // 13 == trump
                spare = keep_low and c == low_trump and not last
                return (spare, is_trump, -stake[c] if last else stake[c], c % 13)
            return min(winners, key=cost), "fight" if fight else "capture"
    # Lose cheaply: no value, no trump, no ten, lowest rank first.
    def waste(c):
        is_trump = c // 13 == trump
        precious = keep_low and is_trump and c % 13 <= Rank.FOUR
        return (stake[c], precious, is_trump, c % 13 == Rank.TEN, c % 13)
    return min(cards, key=waste), "lose"


def heuristic_index(hand: int, legal: int, trick: tuple, trump: int, top: int, played: int,
                    piles, seat: int, rules: Rules, turned: int = -1):
    """The heuristic's card for one seat from public masks: ``(index, rule, decided, stake)``.

    ``decided`` says Game can no longer change hands on card values (the ``count`` rule).
    """
    stake, decided = Stakes(rules, trump, turned).now(piles)
    index, rule = rule_of_thumb(hand, legal, trick, trump, top, played | hand, stake,
                                len(trick) == len(piles) - 1, keeps_low(rules, trump, turned))
    return index, rule, decided, stake


class HeuristicPlayer:
    """Plays by named rules of thumb taken from the sources' advice (see ``RULES_OF_THUMB``)."""

    name = "heuristic"

    def choose(self, view: View, rng: random.Random) -> Decision:
        """The card the first rule that applies picks, with that rule as the reason."""
        k = Knowledge.from_view(view)
        index, rule, decided, stake = heuristic_index(k.hand, k.legal, k.trick, k.trump, k.stock_top,
                                                      k.played, k.piles, k.seat, view.rules, k.turned)
        return Decision(DECK[index], _reason(rule, DECK[index], k, decided, stake))

    def __repr__(self) -> str:
        return "HeuristicPlayer()"


def _reason(rule: str, card, k: Knowledge, decided: bool, stake) -> str:
    top = DECK[k.stock_top] if k.stock_top >= 0 else None
    trump = k.trump
    if rule == "only":
        return hints.why_only(card)
    if rule == "win_low":
        return hints.why_win_low(card, trump)
    if rule == "fight":
        return hints.why_fight(top, trump)
    if rule == "capture":
        points = [DECK[c] for c in k.trick if stake[c] >= POINT_STAKE]
        return hints.why_capture(points[0] if points else None, sum(DECK[c].value for c in k.trick), trump)
    if rule == "lead_master":
        return hints.why_lead_master(card, top, trump)
    if rule == "lead_high":
        return hints.why_lead_high(card, top, trump)
    if rule == "lead_low":
        return hints.why_lead_low(card, stake[card.index], top, _worth_drawing(k.stock_top, trump), trump,
                                 decided)
    keeps_tens = bool(k.trick) and card.rank != Rank.TEN and any(
        DECK[c].rank == Rank.TEN for c in core.bit_list(k.hand))
    return hints.why_lose(card, decided, keeps_tens)
