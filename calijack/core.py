"""The rules on bit masks: the one place each rule of play and scoring is written.

Cards are indices 0–51 (``suit * 13 + rank``) and a set of cards is an ``int`` mask. The
rich API (:mod:`calijack.state`) and the fast path (:mod:`calijack.fast`) both call these
functions, so they cannot drift apart.
"""

from __future__ import annotations

import random
from enum import IntEnum

from .cards import SUIT_MASK, card_value
from .rules import Rules

__all__ = [
    "Duty", "duty", "allowed", "legal_mask", "trick_winner", "draw_seats",
    "close_trick", "deal_cards", "pick", "popcount", "bit_list", "pips_of", "award_points", "POINT_CARD",
]


class Duty(IntEnum):
    """What binds a player about to play, from the lead and their hand."""

    LEAD = 0              # leading: any card
    FOLLOW_TRUMP = 1      # trumps led, holds a trump: must play a trump
    FREE_NO_TRUMP = 2     # trumps led, holds none: any card
    FOLLOW_OR_TRUMP = 3   # plain suit led, holds it: that suit or a trump
    MUST_TRUMP = 4        # plain suit led, holds none of it but holds a trump: must trump
    FREE_VOID = 5         # void in the led suit with trumps, but void_duty is "any": any card
    FREE_NOTHING = 6      # holds neither the led suit nor a trump: any card


# Plain ints for the hot path (enum attribute look-ups are slow); same values as Duty.
_LEAD, _FOLLOW_TRUMP, _FREE_NO_TRUMP, _FOLLOW_OR_TRUMP, _MUST_TRUMP, _FREE_VOID, _FREE_NOTHING = range(7)


def duty(hand: int, led: int, trump: int, void_any: bool) -> int:
    """The :class:`Duty` binding a hand when ``led`` (a card index, ``-1`` when leading) was led."""
    if led < 0:
        return _LEAD
    led_suit = led // 13
    if led_suit == trump:
        return _FOLLOW_TRUMP if hand & SUIT_MASK[trump] else _FREE_NO_TRUMP
    if hand & SUIT_MASK[led_suit]:
        # Trumping is allowed even while holding the led suit; no other suit is.
        return _FOLLOW_OR_TRUMP
    if hand & SUIT_MASK[trump]:
        return _FREE_VOID if void_any else _MUST_TRUMP
    return _FREE_NOTHING


def allowed(binding: int, hand: int, led_suit: int, trump: int) -> int:
    """The cards of ``hand`` that duty ``binding`` allows. Overtaking is never required."""
    if binding == _FOLLOW_TRUMP or binding == _MUST_TRUMP:
        return hand & SUIT_MASK[trump]
    if binding == _FOLLOW_OR_TRUMP:
        return hand & (SUIT_MASK[led_suit] | SUIT_MASK[trump])
    return hand


def legal_mask(hand: int, led: int, trump: int, void_any: bool) -> int:
    """The legal cards of ``hand`` (``led`` is the trick's first card, ``-1`` to lead)."""
    return allowed(duty(hand, led, trump, void_any), hand, led // 13, trump)


def trick_winner(cards, trump: int) -> int:
    """The position in ``cards`` (in playing order) of the card that wins the trick.

    The highest trump wins; without trumps, the highest card of the led suit. A card of
    a third suit can never win, so only a same-suit higher card or a first trump takes over.
    """
    best = 0
    top = cards[0]
    for position in range(1, len(cards)):
        card = cards[position]
        if card // 13 == top // 13:
            if card > top:
                best, top = position, card
        elif card // 13 == trump:
            best, top = position, card
    return best


def draw_seats(winner: int, players: int) -> tuple[int, ...]:
    """The order of the draws after a trick: the winner, then the others in playing order."""
    return _DRAW_SEATS[players][winner]


_DRAW_SEATS = {n: [tuple((w + k) % n for k in range(n)) for w in range(n)] for n in (2, 3)}


def close_trick(trick, leader: int, trump: int, hands: list, piles: list, received: list,
                stock, drawn: int, draw: bool) -> tuple[int, int]:
    """Settle a full trick in place: the winner takes its cards, then, if ``draw``, each seat
    takes the next card of ``stock`` (card indices, top first, from ``drawn``) in draw order.

    Returns ``(winner, drawn)``. Every engine (the rich API, the fast path, the search's
    worlds) settles tricks here.
    """
    n = len(hands)
    winner = (leader + trick_winner(trick, trump)) % n
    pile = 0
    for card in trick:
        pile |= 1 << card
    piles[winner] |= pile
    if draw:
        for drawer in _DRAW_SEATS[n][winner]:
            bit = 1 << stock[drawn]
            drawn += 1
            hands[drawer] |= bit
            received[drawer] |= bit
    return winner, drawn


def pick(rng: random.Random, count: int) -> int:
    """A uniform index below ``count``: the one random choice both engines share."""
    return int(rng.random() * count)


def deal_cards(rng: random.Random, rules: Rules) -> tuple[list[list[int]], list[int], int]:
    """Shuffle and deal: (hands, stock top first, trump suit), all as card indices.

    With ``trump_from = "cut"`` a cut before the deal fixes trump; otherwise the stock's
    top card does. Six cards go to each seat in turn, one at a time.
    """
    trump = rng.randrange(4) if rules.trump_from == "cut" else -1
    # Sorting by 52 random keys is a uniform shuffle, three times faster than rng.shuffle.
    rand = rng.random
    keys = [rand() for _ in range(52)]
    deck = sorted(range(52), key=keys.__getitem__)
    n = rules.players
    hands = [deck[seat:6 * n:n] for seat in range(n)]
    stock = deck[6 * n:]
    if trump < 0:
        trump = stock[0] // 13
    return hands, stock, trump


def popcount(mask: int) -> int:
    """How many cards a mask holds."""
    return mask.bit_count()


def bit_list(mask: int) -> tuple[int, ...]:
    """The card indices of a mask, in index order."""
    return (_SUIT_BITS[0][mask & 0x1FFF] + _SUIT_BITS[1][mask >> 13 & 0x1FFF]
            + _SUIT_BITS[2][mask >> 26 & 0x1FFF] + _SUIT_BITS[3][mask >> 39 & 0x1FFF])


def _suit_bits(suit: int) -> list[tuple[int, ...]]:
    # Each 13-bit suit mask -> its card indices, built from the mask without its lowest bit.
    table: list[tuple[int, ...]] = [()] * (1 << 13)
    for m in range(1, 1 << 13):
        low = m & -m
        table[m] = (13 * suit + low.bit_length() - 1,) + table[m ^ low]
    return table


_SUIT_BITS = [_suit_bits(s) for s in range(4)]


_SUIT_PIPS = [0] * (1 << 13)
for _m in range(1, 1 << 13):
    _SUIT_PIPS[_m] = card_value((_m & -_m).bit_length() - 1) + _SUIT_PIPS[_m & (_m - 1)]


def pips_of(mask: int) -> int:
    """The card values (towards Game) of a set of cards."""
    return (_SUIT_PIPS[mask & 0x1FFF] + _SUIT_PIPS[mask >> 13 & 0x1FFF]
            + _SUIT_PIPS[mask >> 26 & 0x1FFF] + _SUIT_PIPS[mask >> 39 & 0x1FFF])


# The rank that each point is about (a point card's index is trump * 13 + rank).
POINT_CARD = {"high": 12, "low": 0, "jack": 9, "ten": 8, "nine": 7}


def _owner(masks, bit: int):
    for seat, mask in enumerate(masks):
        if mask & bit:
            return seat
    return None


def award_points(rules: Rules, trump: int, dealer: int, piles, received, turned: int):
    """Who earns each point of a finished deal, and each seat's card values.

    ``piles`` are the captured cards per seat, ``received`` the cards each seat was dealt or
    drew, ``turned`` the card that set trump (``-1`` when a cut set it). Returns
    ``(points, pips)`` where ``points`` maps each name of ``rules.point_names`` to a seat or
    ``None``. A card left out of play (three players) is in nobody's pile and nobody's hand,
    so its point goes to nobody.
    """
    base = trump * 13

    def captured(rank: int):
        return _owner(piles, 1 << (base + rank))

    by_holding = rules.high_low == "held"
    holder = (lambda rank: _owner(received, 1 << (base + rank))) if by_holding else captured
    points = {"high": holder(POINT_CARD["high"]), "low": holder(POINT_CARD["low"])}
    if rules.turned_jack and turned == base + POINT_CARD["jack"]:
        points["jack"] = dealer  # the turned-up jack scores for the dealer, whoever captures it
    else:
        points["jack"] = captured(POINT_CARD["jack"])
    pips = tuple(pips_of(pile) for pile in piles)
    if rules.game == "ten_of_trumps":
        points["game"] = captured(POINT_CARD["ten"])
    else:
        best = max(pips)
        points["game"] = pips.index(best) if pips.count(best) == 1 else None
    if rules.shasta_point:
        points["nine"] = captured(POINT_CARD["nine"])
    return points, pips
