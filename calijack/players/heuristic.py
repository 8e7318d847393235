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

:func:`rule_of_thumb` is the mask-level core; the search's playouts call :func:`thumb`, the same
rules with their card orders asked once a deal (:class:`Thumb`, kept by :class:`Stakes`). What a card
is worth (:func:`stakes`) and whether Game is decided come from :mod:`calijack.core`'s scoring,
so the rules of thumb value exactly what the scorer counts.
"""

from __future__ import annotations

import random
import weakref

from .. import core
from .. import text_hints as hints
from ..cards import DECK, SUIT_MASK, Rank
from ..core import TAKERS, trick_winner
from ..rules import Rules
from ..view import View
from .base import Decision, Knowledge

__all__ = ["HeuristicPlayer", "heuristic_index", "rule_of_thumb", "thumb", "thumb_tables", "Thumb", "stakes",
           "Stakes", "keeps_low",
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
        if len(_STAKES) >= KEPT:
            _STAKES.clear()
        capture = core.capture_mask(rules, trump, turned)
        by_pips = pips_live and not rules.game_by_ten
        table = _STAKES[key] = tuple((POINT_STAKE if capture >> i & 1 else 0)
                                     + (core.pips_of(1 << i) if by_pips else 0) for i in range(52))
    return table


class Stakes:
    """The stakes of one deal (its rules, trump and turned card), live or dead as Game stands.

    ``thumbs`` holds the :class:`Thumb` of each (live, then dead), for :func:`thumb`; ``banked``
    the same with the Expert's ``bank`` rule.
    """

    __slots__ = ("live", "dead", "by_pips", "keep_low", "thumbs", "banked")

    def __init__(self, rules: Rules, trump: int, turned: int = -1):
        self.live, self.dead = stakes(rules, trump, True, turned), stakes(rules, trump, False, turned)
        self.by_pips = not rules.game_by_ten
        self.keep_low = keeps_low(rules, trump, turned)
        self.thumbs = (thumb_tables(self.live, trump, self.keep_low), thumb_tables(self.dead, trump, self.keep_low))
        self.banked = (thumb_tables(self.live, trump, self.keep_low, True),
                       thumb_tables(self.dead, trump, self.keep_low, True))

    def tables(self, bank: bool = False) -> tuple["Thumb", "Thumb"]:
        """The :class:`Thumb` of the live and the dead stakes, with the ``bank`` rule or without."""
        return self.banked if bank else self.thumbs

    @classmethod
    def of(cls, rules: Rules, trump: int, turned: int = -1) -> "Stakes":
        """``Stakes(rules, trump, turned)``, made once and kept (a search asks for it on every try)."""
        key = (rules, trump, turned)
        worth = _WORTH.get(key)
        if worth is None:
            if len(_WORTH) >= KEPT:  # a simulation over many rule sets: start again
                _WORTH.clear()
            worth = _WORTH[key] = cls(rules, trump, turned)
        if worth is not _LAST[0]:  # another deal: the cards picked for the last are not asked again soon
            for tables in list(Thumb.made):
                tables.forget()
            _LAST[0] = worth
        return worth

    def decided(self, pips) -> bool:
        """Whether Game is decided on card values, given each seat's card values captured (``pips``)."""
        return self.by_pips and core.game_decided(pips)

    def now(self, piles) -> tuple[tuple[int, ...], bool]:
        """The stakes in force given the captured ``piles``, and whether Game is decided on card values."""
        if self.decided([core.pips_of(p) for p in piles]):
            return self.dead, True
        return self.live, False


KEPT = 512  # Stakes kept at most (one per rules, trump and turned card), and tables of stakes
_WORTH: dict = {}  # Stakes.of's
_LAST: list = [None]  # the Stakes asked for last


TENS = sum(1 << c for c in range(52) if c % 13 == Rank.TEN)  # the four tens' bits


def keeps_low(rules: Rules, trump: int, turned: int = -1) -> bool:
    """Whether Low goes to whoever captures the trump two (so a low trump is worth keeping)."""
    return bool(core.capture_mask(rules, trump, turned) >> (trump * 13 + core.POINT_RANK["low"]) & 1)


def _worth_drawing(top: int, trump: int) -> bool:
    # A trump, or a card of high value (a ten or an ace).
    return top >= 0 and (top // 13 == trump or core.pips_of(1 << top) >= 4)


class Thumb:
    """What :func:`thumb` reads for one table of stakes, trump suit and ``keep_low``, asked once.

    The rules of thumb pick "the least useful card" by an order on the cards (first by stake,
    then trump or not, then rank…). Each order is written here once, as a tuple per card, and
    kept as one whole number per card that sorts exactly as the tuples do, with the card's index
    below it: the card a rule picks is then ``min(...) & 63``, and equal tuples go to the lower
    index, as ``min`` over the cards in index order does. The card an order picks from a set of
    cards (a mask) is kept once asked (:class:`_Least`): a search asks the same sets again and again.
    """

    __slots__ = ("stake", "trump", "keep_low", "bank", "trumps", "worth", "plain", "low_trump",
                 "lead_high", "lead_low", "cost_last", "cost", "waste", "__weakref__")
    made: "weakref.WeakSet[Thumb]" = weakref.WeakSet()  # every Thumb still in use, to forget its picks

    def __init__(self, stake: tuple, trump: int, keep_low: bool, bank: bool = False):
        Thumb.made.add(self)
        self.stake, self.trump, self.keep_low = stake, trump, keep_low
        self.trumps = tmask = SUIT_MASK[trump]
        # With ``bank``, the plain tens (see :func:`thumb`'s ``bank`` rule), else none.
        self.bank = TENS & ~tmask if bank else 0
        self.low_trump = low_trump = trump * 13
        self.worth = sum(1 << c for c in range(52) if _worth_drawing(c, trump))  # cards worth drawing
        self.plain = sum(1 << c for c in range(52) if c // 13 != trump and c % 13 != Rank.TEN)

        def order(key) -> tuple[int, ...]:
            keys = [key(c) for c in range(52)]
            rank = {k: i for i, k in enumerate(sorted(set(keys)))}
            return tuple(rank[k] << 6 | c for c, k in enumerate(keys))

        def least(key) -> _Least:
            return _Least(order(key))

        def is_trump(c):
            return tmask >> c & 1 == 1

        # Lead the highest card left of a plain suit: the lowest stake, then the highest rank.
        self.lead_high = order(lambda c: (stake[c], -(c % 13)))
        # A low card of no value, not a trump if possible.
        self.lead_low = least(lambda c: (stake[c], is_trump(c), c % 13))
        # The cheapest winner: a plain card before a trump, low before high, the trump two kept
        # back unless the trick is sure; the last to play takes the most it can.
        self.cost_last = least(lambda c: (is_trump(c), -stake[c], c % 13))
        self.cost = least(lambda c: (keep_low and c == low_trump, is_trump(c), stake[c], c % 13))
        # Lose cheaply: no value, no trump, no ten, lowest rank first.
        self.waste = least(lambda c: (stake[c], keep_low and is_trump(c) and c % 13 <= Rank.FOUR, is_trump(c),
                                      c % 13 == Rank.TEN, c % 13))

    def forget(self) -> None:
        """Let go of the cards picked so far (see :class:`_Least`)."""
        for least in (self.lead_low, self.cost_last, self.cost, self.waste):
            least.clear()


class _Least(dict):
    """The card of a mask that comes first in one order (``least[mask]``), each mask's worked out once."""

    __slots__ = ("order",)
    LIMIT = 1 << 13  # masks kept at most (then forgotten all at once)

    def __init__(self, order: tuple[int, ...]):
        super().__init__()
        self.order = order

    def __missing__(self, mask: int) -> int:
        if len(self) >= self.LIMIT:
            self.clear()
        card = self[mask] = min(map(self.order.__getitem__, core.bit_list(mask))) & 63
        return card


_THUMBS: dict = {}


def thumb_tables(stake: tuple, trump: int, keep_low: bool, bank: bool = False) -> Thumb:
    """The :class:`Thumb` of a table of stakes (from :func:`stakes`), a trump suit, ``keep_low``
    and ``bank``, kept."""
    key = (id(stake), trump, keep_low, bank)
    tables = _THUMBS.get(key)
    if tables is None or tables.stake is not stake:
        if len(_THUMBS) > KEPT:  # stakes() keeps its tables; any other caller's are let go
            _THUMBS.clear()
        tables = _THUMBS[key] = Thumb(stake, trump, keep_low, bank)
    return tables


def rule_of_thumb(hand: int, legal: int, trick: tuple, trump: int, top: int, gone: int,
                  stake: tuple, last: bool, keep_low: bool, bank: bool = False) -> tuple[int, str]:
    """The card a rule of thumb plays and the rule's name.

    ``gone`` holds the cards known to be out of the opponents' hands (played or this seat's),
    ``stake`` comes from :func:`stakes`, ``last`` says nobody plays after this seat,
    ``keep_low`` that Low goes to whoever captures the trump two, and ``bank`` turns on the
    Expert's extra rule (see :func:`thumb`).
    """
    return thumb(hand, legal, trick, top, gone, last, thumb_tables(stake, trump, keep_low, bank))


def thumb(hand: int, legal: int, trick, top: int, gone: int, last: bool, tables: Thumb) -> tuple[int, str]:
    """:func:`rule_of_thumb` with its stakes, trump and ``keep_low`` read from ``tables``
    (:func:`thumb_tables`): the rules of thumb themselves, for a caller that plays many cards.

    Tables made with ``bank`` add one rule, the Expert's (in its tries, its model of the
    opponent and its tie-break; not Casual's): ``bank``, last to play on a trick worth nothing,
    win it with a plain ten when one wins, so the ten's card value is safe in one's own pile
    (measured: +0.22 a deal for the Expert against itself without it, ``CHANGELOG.md``)."""
    if not legal & (legal - 1):
        return legal.bit_length() - 1, "only"
    if not trick:
        if top >= 0 and tables.worth >> top & 1:
            # The cards an opponent may hold: not gone, not this seat's, not the exposed card.
            theirs = ~(gone | hand | 1 << top)
            mine = tables.trumps & hand
            if mine and (tables.trumps & theirs).bit_length() < mine.bit_length():
                return mine.bit_length() - 1, "lead_master"  # no opponent holds a higher trump
            # Else the highest card left of a plain suit: only a trump can take it.
            high = tables.lead_high
            best = -1
            for c in core.bit_list(legal & tables.plain):
                if not SUIT_MASK[c // 13] & theirs & ~((2 << c) - 1) and (best < 0 or high[c] < best):
                    best = high[c]
            if best >= 0:
                return best & 63, "lead_high"
        # A low card of no value, not a trump if possible.
        return tables.lead_low[legal], "lead_low"
    trump = tables.trump
    winners = legal & TAKERS[trump][trick[0] if len(trick) == 1 else trick[trick_winner(trick, trump)]]
    if winners:
        low_trump = tables.low_trump
        if tables.keep_low and last and winners >> low_trump & 1:
            return low_trump, "win_low"
        fight = top >= 0 and tables.worth >> top & 1
        stake = tables.stake
        if fight or any(map(stake.__getitem__, trick)):  # stakes are never below 0
            cost = tables.cost_last if last else tables.cost
            return cost[winners], "fight" if fight else "capture"
        if last and tables.bank:
            tens = winners & tables.bank
            if tens:
                return tens.bit_length() - 1, "bank"
    # Lose cheaply: no value, no trump, no ten, lowest rank first.
    return tables.waste[legal], "lose"


def heuristic_index(hand: int, legal: int, trick: tuple, trump: int, top: int, played: int,
                    piles, seat: int, rules: Rules, turned: int = -1):
    """The heuristic's card for one seat from public masks: ``(index, rule, decided, stake)``.

    ``decided`` says Game can no longer change hands on card values (the ``count`` rule).
    """
    stake, decided = Stakes.of(rules, trump, turned).now(piles)
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
