"""The rules on bit masks: the one place each rule of play and scoring is written.

Cards are indices 0–51 (``suit * 13 + rank``) and a set of cards is an ``int`` mask. The
rich API (:mod:`calijack.state`) and the fast path (:mod:`calijack.fast`) both call these
functions, so they cannot drift apart.
"""

from __future__ import annotations

import functools
import random
from enum import IntEnum

from .cards import FULL_MASK, SUIT_MASK, card_value
from .rules import Rules

__all__ = [
    "Duty", "duty", "allowed", "legal_mask", "voids_shown", "beats", "TAKERS", "trick_winner",
    "first_leader", "play_order", "draw_seats", "dealer_of", "play_card",
    "deal_cards", "shuffle", "turned_card", "pick", "popcount", "bit_list", "pips_of", "PIPS_TOTAL",
    "POINT_RANK", "CAPTURED", "HELD", "DEALER", "PIPS", "scorers", "capture_mask",
    "game_winner", "game_decided", "award_points", "count_points",
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


def _suits_allowed(binding: int, led_suit: int, trump: int) -> int:
    # The suits (a card mask) that duty ``binding`` lets a player choose from.
    if binding == _FOLLOW_TRUMP or binding == _MUST_TRUMP:
        return SUIT_MASK[trump]
    if binding == _FOLLOW_OR_TRUMP:
        return SUIT_MASK[led_suit] | SUIT_MASK[trump]
    return FULL_MASK


# _ALLOWS[binding][led suit][trump]: :func:`_suits_allowed` asked once for every case, so the
# hot path pays one look-up, not a call (a lead's suit is -1, which reads the last row).
_ALLOWS = [[[_suits_allowed(b, led, t) for t in range(4)] for led in range(4)] for b in range(7)]


def allowed(binding: int, hand: int, led_suit: int, trump: int) -> int:
    """The cards of ``hand`` that duty ``binding`` allows. Overtaking is never required."""
    return hand & _ALLOWS[binding][led_suit][trump]


def legal_mask(hand: int, led: int, trump: int, void_any: bool) -> int:
    """The legal cards of ``hand`` (``led`` is the trick's first card, ``-1`` to lead)."""
    return hand & _ALLOWS[duty(hand, led, trump, void_any)][led // 13][trump]


@functools.cache  # a pure function of four small values, asked for every play of every guess
def voids_shown(card: int, led: int, trump: int, void_any: bool) -> int:
    """The suits (a card mask) a player proved it held none of by playing ``card`` to ``led``.

    The duties are asked backwards, not restated: a suit is shown missing when holding any
    card of it beside ``card`` would have made ``card`` illegal (holding more only adds duties).
    """
    bit = 1 << card
    shown = 0
    for suit_mask in SUIT_MASK:
        other = suit_mask & ~bit
        probe = bit | (other & -other)
        if not legal_mask(probe, led, trump, void_any) & bit:
            shown |= suit_mask
    return shown


def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` takes a trick that ``best`` is winning.

    Only a higher card of the same suit, or a first trump, takes over: a card of a third suit
    never wins.
    """
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump


TAKERS = tuple(tuple(sum(1 << card for card in range(52) if beats(card, best, trump)) for best in range(52))
               for trump in range(4))
"""``TAKERS[trump][best]``: the cards (a mask) that would take over a trick ``best`` is winning,
:func:`beats` asked once for every pair, so settling a trick costs one look-up per card."""


def trick_winner(cards, trump: int) -> int:
    """The position in ``cards`` (in playing order) of the card that wins the trick."""
    takers = TAKERS[trump]
    best = 0
    for position in range(1, len(cards)):
        if takers[cards[best]] >> cards[position] & 1:
            best = position
    return best


# -- whose turn: the one place that says who plays, leads, draws and deals ---------------------

# Play passes to the next seat (seat + 1, to the leader's left): the seats in playing order
# from each leader, per number of players.
_ORDER = {n: tuple(tuple((first + k) % n for k in range(n)) for first in range(n)) for n in (2, 3)}


def first_leader(dealer: int, players: int) -> int:
    """The seat that leads the first trick of a deal: the seat after the dealer."""
    return _ORDER[players][dealer][1]


def play_order(leader: int, players: int) -> tuple[int, ...]:
    """The seats in playing order from ``leader``: ``play_order(leader, n)[k]`` plays the trick's card ``k``."""
    return _ORDER[players][leader]


def draw_seats(winner: int, players: int) -> tuple[int, ...]:
    """The order of the draws after a trick: the winner, then the others in playing order."""
    return _ORDER[players][winner]


def dealer_of(first_dealer: int, deal: int, players: int) -> int:
    """Who deals deal number ``deal`` (from 0) of a match: the deal passes to the next seat each time."""
    return _ORDER[players][first_dealer][deal % players]


# -- playing a card: the one place a card leaves a hand and a trick is settled -----------------

def play_card(card: int, hands: list, trick: list, leader: int, trump: int, piles: list,
              received: list, stock, drawn: int) -> tuple[int, int]:
    """Play ``card`` (known to be legal) for the seat to play, changing the lists in place.

    The card leaves that seat's mask in ``hands`` and joins ``trick`` (card indices in playing
    order from ``leader``). Once every seat has played, the trick is settled: the winner takes
    its cards into ``piles`` and ``trick`` is emptied; then, while the stock (``stock``: card
    indices, top first, of which ``drawn`` are taken) still holds a card for every seat, each
    seat in draw order takes the next one into ``hands`` and ``received``. With three players
    the last card is never drawn: it stays out of play. Returns ``(leader, drawn)``: who leads
    next (the winner once the trick is settled) and how many stock cards are taken.

    Every engine (the rich API, the fast path, the search's worlds and its solver) plays
    here, so none can settle a trick its own way.
    """
    n = len(hands)
    order = _ORDER[n][leader]
    position = len(trick)
    hands[order[position]] &= ~(1 << card)
    trick.append(card)
    if position + 1 < n:
        return leader, drawn
    winner = order[trick_winner(trick, trump)]
    pile = 0
    for played in trick:
        pile |= 1 << played
    piles[winner] |= pile
    trick.clear()
    if len(stock) - drawn >= n:
        for drawer in _ORDER[n][winner]:
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

    With :attr:`~calijack.rules.Rules.trump_cut` a cut before the deal fixes trump; otherwise the stock's
    top card does. Six cards go to each seat in turn, one at a time.
    """
    trump = rng.randrange(4) if rules.trump_cut else -1
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


def shuffle(rng: random.Random, rules: Rules) -> tuple[int, list[list[int]], list[int], int]:
    """The lot for the first dealer, then :func:`deal_cards`: ``(lot, hands, stock, trump)``.

    The lot is drawn whether or not the caller names the dealer, so that a seed names one
    shuffle: the same seed deals the same cards to the same seats, whoever is told to deal
    (the sandbox's seed 7 is the book's seed 7). Every path that shuffles comes through here.
    """
    lot = rng.randrange(rules.players)
    return (lot, *deal_cards(rng, rules))


def turned_card(rules: Rules, stock) -> int:
    """The card that set trump: the stock's top card at the start (``-1`` when a cut set trump)."""
    return -1 if rules.trump_cut else stock[0]


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

PIPS_TOTAL = 80
"""The card values of the whole pack (four tens, aces, kings, queens and jacks)."""


def pips_of(mask: int) -> int:
    """The card values (towards Game) of a set of cards."""
    return (_SUIT_PIPS[mask & 0x1FFF] + _SUIT_PIPS[mask >> 13 & 0x1FFF]
            + _SUIT_PIPS[mask >> 26 & 0x1FFF] + _SUIT_PIPS[mask >> 39 & 0x1FFF])


# -- scoring: the one place that says what earns each point ------------------------------------

POINT_RANK = {"high": 12, "low": 0, "jack": 9, "game": 8, "nine": 7}
"""The trump rank each point is about (Game only when the trump ten decides it)."""

# How a point is decided: by who captured its card, who held it (was dealt or drew it), the
# dealer (a turned-up jack), or by the card values captured.
CAPTURED, HELD, DEALER, PIPS = range(4)

_SCORERS: dict = {}


def scorers(rules: Rules, trump: int, turned: int) -> tuple[tuple[str, int, int], ...]:
    """How each point of a deal is decided, in the strict counting order: ``(name, card, how)``.

    ``card`` is the point's card index (``-1`` for Game by card values), ``how`` one of
    :data:`CAPTURED`, :data:`HELD`, :data:`DEALER`, :data:`PIPS`; ``turned`` is the card that
    set trump (``-1`` when a cut did).
    """
    key = (rules, trump, turned)
    table = _SCORERS.get(key)
    if table is not None:
        return table
    base = trump * 13
    rows = []
    for name in rules.point_names:
        card = base + POINT_RANK[name]
        if name in ("high", "low"):
            how = HELD if rules.held_high_low else CAPTURED
        elif name == "jack":
            # The turned-up jack scores for the dealer, whoever captures it.
            how = DEALER if rules.turned_jack and turned == card else CAPTURED
        elif name == "game" and not rules.game_by_ten:
            card, how = -1, PIPS
        else:
            how = CAPTURED
        rows.append((name, card, how))
    table = _SCORERS[key] = tuple(rows)
    return table


def capture_mask(rules: Rules, trump: int, turned: int) -> int:
    """The cards whose capture decides a point: what a player fights for, beside card values."""
    mask = 0
    for _, card, how in scorers(rules, trump, turned):
        if how == CAPTURED:
            mask |= 1 << card
    return mask


def game_winner(pips) -> int | None:
    """The seat with the single highest card values, or ``None`` on a tie at the top."""
    best = max(pips)
    return pips.index(best) if pips.count(best) == 1 else None


def game_decided(pips) -> bool:
    """True once the card values not yet captured can no longer change who leads on card values."""
    left = PIPS_TOTAL - sum(pips)
    first = second = -1
    for value in pips:
        if value > first:
            first, second = value, first
        elif value > second:
            second = value
    return left == 0 or first > second + left


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
    pips = tuple(pips_of(pile) for pile in piles)
    points = {}
    for name, card, how in scorers(rules, trump, turned):
        if how == CAPTURED:
            points[name] = _owner(piles, 1 << card)
        elif how == HELD:
            points[name] = _owner(received, 1 << card)
        elif how == DEALER:
            points[name] = dealer
        else:
            points[name] = game_winner(pips)
    return points, pips


# -- the match: the one place points are counted towards the target ---------------------------

def count_points(scores, owners, target: int) -> tuple[tuple[int, ...], int | None, int]:
    """Add a deal's points to the match ``scores``, one by one in the strict counting order.

    ``owners`` holds the seat that earned each point, in that order (``None``: nobody), as
    :func:`award_points` lists them. The match ends the moment a seat reaches ``target``: the
    points after it are not counted, so two seats can never reach it together. Returns
    ``(totals, winner, counted)``: the new totals, the seat that reached the target (or
    ``None``), and how many of ``owners`` were looked at (all of them unless the match ended).
    """
    totals = list(scores)
    counted = 0
    for seat in owners:
        counted += 1
        if seat is None:
            continue
        totals[seat] += 1
        if totals[seat] >= target:
            return tuple(totals), seat, counted
    return tuple(totals), None, counted
