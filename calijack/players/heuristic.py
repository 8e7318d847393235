"""The heuristic opponent: the sources' advice as named rules of thumb, on bit masks.

The rules, in the order they are tried (``RULES`` names them for the book):

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

:func:`rule_of_thumb` is the mask-level core; the search uses it for its playouts.
"""

from __future__ import annotations

import random

from .. import core
from ..cards import DECK, SUIT_MASK
from ..rules import Rules
from ..view import View
from .base import Decision, Knowledge, describe

__all__ = ["HeuristicPlayer", "heuristic_index", "rule_of_thumb", "stakes", "RULES"]

RULES = {
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

_STAKES: dict = {}


def stakes(rules: Rules, trump: int, pips_live: bool) -> tuple[int, ...]:
    """What capturing each card is worth to a rule of thumb: point cards 10, card values as pips."""
    key = (rules.high_low, rules.game, rules.shasta_point, trump, pips_live)
    table = _STAKES.get(key)
    if table is None:
        values = [0] * 52
        base = trump * 13
        if pips_live and rules.game == "pips":
            for i in range(52):
                values[i] = core.pips_of(1 << i)
        point_ranks = [9]                                  # the Jack is always captured
        if rules.high_low == "captured":
            point_ranks += [12, 0]                         # High and Low
        if rules.game == "ten_of_trumps":
            point_ranks.append(8)
        if rules.shasta_point:
            point_ranks.append(7)
        for rank in point_ranks:
            values[base + rank] += 10
        table = _STAKES[key] = tuple(values)
    return table


def _beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` would take a trick that ``best`` is winning."""
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump


def _worth_drawing(top: int, trump: int) -> bool:
    return top >= 0 and (top // 13 == trump or top % 13 in (8, 12))


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
                if suit != trump and c % 13 != 8 and not SUIT_MASK[suit] & ~gone & ~((2 << c) - 1):
                    return c, "lead_high"
        # A low card of no value, not a trump if possible.
        return min(cards, key=lambda c: (stake[c], c // 13 == trump, c % 13)), "lead_low"
    best = trick[0]
    for card in trick[1:]:
        if _beats(card, best, trump):
            best = card
    at_stake = sum(stake[c] for c in trick)
    winners = [c for c in cards if _beats(c, best, trump)]
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
        precious = keep_low and is_trump and c % 13 <= 2
        return (stake[c], precious, is_trump, c % 13 == 8, c % 13)
    return min(cards, key=waste), "lose"


def heuristic_index(hand: int, legal: int, trick: tuple, trump: int, top: int, played: int,
                    piles, seat: int, rules: Rules):
    """The heuristic's card for one seat from public masks: ``(index, rule, decided, stake)``.

    ``decided`` says Game can no longer change hands on card values (the ``count`` rule).
    """
    pips = [core.pips_of(p) for p in piles]
    best_other = max(p for s, p in enumerate(pips) if s != seat)
    left = 80 - sum(pips)
    decided = pips[seat] > best_other + left or best_other > pips[seat] + left
    stake = stakes(rules, trump, pips_live=not decided)
    index, rule = rule_of_thumb(hand, legal, trick, trump, top, played | hand, stake,
                                len(trick) == len(piles) - 1, rules.high_low == "captured")
    return index, rule, decided, stake


class HeuristicPlayer:
    """Plays by named rules of thumb taken from the sources' advice (see ``RULES``)."""

    name = "heuristic"

    def choose(self, view: View, rng: random.Random) -> Decision:
        """The card the first rule that applies picks, with that rule as the reason."""
        k = Knowledge.from_view(view)
        index, rule, decided, stake = heuristic_index(k.hand, k.legal, k.trick, k.trump, k.stock_top,
                                                      k.played, k.piles, k.seat, view.rules)
        return Decision(DECK[index], _reason(rule, DECK[index], k, decided and view.rules.game == "pips", stake))

    def __repr__(self) -> str:
        return "HeuristicPlayer()"


def _reason(rule: str, card, k: Knowledge, decided: bool, stake) -> str:
    top = DECK[k.stock_top] if k.stock_top >= 0 else None
    trump = k.trump
    if rule == "only":
        return f"{card} is the only legal card"
    if rule == "win_low":
        return f"Win with {describe(card, trump)}: capturing it earns Low"
    if rule == "fight":
        return f"Win this trick: the exposed card is {describe(top, trump)}"
    if rule == "capture":
        points = [DECK[c] for c in k.trick if stake[c] >= 10]
        if points:
            return f"Win this trick: it holds {describe(points[0], trump)}"
        values = sum(DECK[c].value for c in k.trick)
        return f"Win this trick: it holds {values} in card values"
    if rule == "lead_master":
        return f"Lead {describe(card, trump)}, the highest trump left, to draw {describe(top, trump)}"
    if rule == "lead_high":
        return f"Lead {card}, the highest {card.suit.singular} left, to draw {describe(top, trump)}"
    if rule == "lead_low":
        if top is None:
            return f"Lead {card}, a low card of no value"
        if _worth_drawing(k.stock_top, trump):
            return f"Lead {card}, a low card: nothing in hand is sure to win {describe(top, trump)}"
        return f"Lead a low card: the exposed {top} is not worth drawing"
    # "lose"
    if decided:
        return f"Game is decided by the count of card values: throw {card}, the least useful card"
    if k.trick and any(DECK[c].rank == 8 for c in core.bit_list(k.hand)) and card.rank != 8:
        return f"Lose this trick with {card}: keep the tens and low trumps"
    return f"Nothing here is worth winning: throw {card}, the least useful card"
