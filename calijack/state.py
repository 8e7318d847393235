"""A deal of California Jack: the deal, the state of play, legal cards with reasons.

``Deal`` fixes the cards; ``State`` is one immutable position. ``state.play(card)`` returns
the next state or raises :class:`IllegalPlay` with a sentence a learner understands, leaving
the state it was given unchanged. Every rule comes from :mod:`calijack.core`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from . import core, reasons
from .cards import DECK, Card, CardError, Suit, cards_of, mask_of, parse_card, parse_suit, sort_cards
from .reasons import IllegalPlay, Verdict
from .rules import STANDARD, DealError, Rules
from .scoring import DealResult, score
from .text import say
from .view import View, check_seat, view as view_of

__all__ = ["Deal", "State", "Trick", "Verdict", "IllegalPlay", "DealError", "SEED_LIMIT", "check_seed", "generator"]

SEED_LIMIT = 2 ** 63
"""Seeds are whole numbers from 0 up to, not including, this (they fit a signed 64-bit integer)."""


def check_seed(seed: int) -> int:
    """``seed`` if it is a whole number from 0 to ``SEED_LIMIT - 1``, else :class:`DealError` saying so."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise DealError(say("bad_seed", largest=SEED_LIMIT - 1, seed=seed))
    return seed


def generator(rng: random.Random | int | None) -> random.Random:
    """``rng`` itself if it is a ``random.Random``, else a generator seeded by it (``None``: unseeded)."""
    if isinstance(rng, random.Random):
        return rng
    return random.Random(None if rng is None else check_seed(rng))


@dataclass(frozen=True)
class Deal:
    """The cards of one deal: who dealt, each hand, the stock (top first) and the trump suit."""

    rules: Rules
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    trump: Suit
    stock_index: tuple[int, ...] = field(init=False, repr=False, compare=False)  # card indices

    def __post_init__(self):
        if not isinstance(self.rules, Rules):  # a dict of options is welcome; a bad one is named
            object.__setattr__(self, "rules", Rules.of(self.rules))
        object.__setattr__(self, "stock_index", tuple(c.index for c in self.stock))
        n = self.rules.players
        if isinstance(self.dealer, bool) or not isinstance(self.dealer, int) or not 0 <= self.dealer < n:
            raise DealError(f"dealer must be a seat from 0 to {n - 1}, not {self.dealer!r}")
        if len(self.hands) != n:
            raise DealError(f"hands must hold {n} hands (one per seat), not {len(self.hands)}")
        for seat, hand in enumerate(self.hands):
            if len(hand) != 6:
                raise DealError(f"hand of seat {seat} must hold 6 cards, not {len(hand)}")
        if len(self.stock) != self.rules.stock_size:
            raise DealError(f"stock must hold {self.rules.stock_size} cards, not {len(self.stock)}")
        seen: set[Card] = set()
        for card in (*(c for h in self.hands for c in h), *self.stock):
            if card in seen:
                raise DealError(f"{card.code} appears twice")
            seen.add(card)

    @classmethod
    def from_cards(cls, hands: Sequence[Iterable[Card | str]], stock: Iterable[Card | str],
                   dealer: int = 0, rules: Rules | dict = STANDARD, trump: Suit | str | None = None) -> "Deal":
        """A deal from explicit cards (strings are parsed); trump from the stock unless cut."""
        rules = Rules.of(rules)
        hands_t = tuple(tuple(parse_card(c) for c in hand) for hand in hands)
        stock_t = tuple(parse_card(c) for c in stock)
        if rules.trump_cut:
            if trump is None:
                raise DealError("trump_from is 'cut', so the deal must name the trump suit")
            suit = parse_suit(trump)
        else:
            if trump is not None:
                if not stock_t or parse_suit(trump) != stock_t[0].suit:
                    raise DealError("the trump suit is set by the stock's top card; give 'trump' only with trump_from 'cut'")
            if not stock_t:
                raise DealError(f"stock must hold {rules.stock_size} cards, not 0")
            suit = stock_t[0].suit
        return cls(rules, dealer, hands_t, stock_t, suit)

    @classmethod
    def random(cls, rng: random.Random | int | None = None, rules: Rules | dict = STANDARD,
               dealer: int | None = None) -> "Deal":
        """A shuffled deal; pass a seeded ``random.Random`` (or a seed, see :func:`check_seed`) to reproduce it."""
        rules = Rules.of(rules)
        rng = generator(rng)
        lot, hands, stock, trump = core.shuffle(rng, rules)   # the same cards whoever deals
        if dealer is None:
            dealer = lot
        return cls(rules, dealer, tuple(tuple(DECK[i] for i in h) for h in hands),
                   tuple(DECK[i] for i in stock), Suit(trump))

    def with_rules(self, rules: Rules | dict | None = None, **options) -> "Deal":
        """The same cards, dealer and trump under other rule options (``rules``, or options by name)."""
        if rules is not None:
            rules = Rules.of(rules)
        if rules is None:
            rules = self.rules.with_(**options)
        elif options:
            rules = rules.with_(**options)
        trump = self.trump if rules.trump_cut else None
        return Deal.from_cards(self.hands, self.stock, dealer=self.dealer, rules=rules, trump=trump)

    @property
    def first_leader(self) -> int:
        """The seat after the dealer leads first."""
        return (self.dealer + 1) % self.rules.players

    @property
    def turned(self) -> Card | None:
        """The stock's top card at the start, which set trump (``None`` when a cut did)."""
        return None if self.rules.trump_cut else self.stock[0]

    def start(self) -> "State":
        """The position before the first lead."""
        n = self.rules.players
        hands = tuple(mask_of(h) for h in self.hands)
        return State(self, hands, 0, self.first_leader, (), (0,) * n, (), hands)


@dataclass(frozen=True)
class Trick:
    """A trick: who led, the cards in playing order, and (once complete) winner and draws."""

    leader: int
    cards: tuple[Card, ...]
    winner: int | None = None
    draws: tuple[Card, ...] = ()

    def seat_of(self, position: int, players: int) -> int:
        """The seat that played the card at ``position``."""
        return (self.leader + position) % players

    def drawers(self, players: int) -> tuple[int, ...]:
        """The seats that drew ``draws``, in order (the winner first)."""
        return core.draw_seats(self.winner, players)[:len(self.draws)] if self.winner is not None else ()


@dataclass(frozen=True)
class State:
    """One position of a deal; immutable. ``play`` returns the next position."""

    deal: Deal
    hands: tuple[int, ...]            # card masks per seat
    drawn: int                        # cards taken from the stock so far
    leader: int                       # seat that leads the current trick
    trick: tuple[int, ...]            # card indices played to the current trick
    piles: tuple[int, ...]            # captured cards per seat
    tricks: tuple[Trick, ...]         # completed tricks
    received: tuple[int, ...] = field(repr=False, default=())  # dealt or drawn, per seat

    # -- what the table shows -------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        """The rule options in force."""
        return self.deal.rules

    @property
    def players(self) -> int:
        """How many seats play."""
        return self.deal.rules.players

    @property
    def trump(self) -> Suit:
        """The trump suit of this deal."""
        return self.deal.trump

    @property
    def dealer(self) -> int:
        """The seat that dealt."""
        return self.deal.dealer

    @property
    def finished(self) -> bool:
        """True once every trick has been played."""
        return len(self.tricks) == self.rules.tricks

    @property
    def to_play(self) -> int | None:
        """The seat whose turn it is, or ``None`` once the deal is over."""
        return None if self.finished else (self.leader + len(self.trick)) % self.players

    @property
    def trick_number(self) -> int:
        """The current trick, counting from 1 (the last one once finished)."""
        return len(self.tricks) + (0 if self.finished else 1)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The cards still to be drawn, top first (the card left out of play excluded)."""
        rest = self.deal.stock[self.drawn:]
        return rest if len(self.tricks) < self.rules.draws else ()

    @property
    def stock_top(self) -> Card | None:
        """The exposed top card of the stock, or ``None`` once it is used up."""
        stock = self.stock
        return stock[0] if stock else None

    @property
    def dead_card(self) -> Card | None:
        """With three players: the last card, turned up after the draws, out of play."""
        if len(self.tricks) >= self.rules.draws and self.drawn < len(self.deal.stock):
            return self.deal.stock[self.drawn]
        return None

    def hand(self, seat: int) -> list[Card]:
        """The cards a seat holds, trumps first, each suit high to low."""
        return sort_cards(cards_of(self.hands[check_seat(seat, self.players)]), self.trump)

    def captured(self, seat: int) -> list[Card]:
        """The cards a seat has won in tricks."""
        return sort_cards(cards_of(self.piles[check_seat(seat, self.players)]), self.trump)

    def pips(self, seat: int) -> int:
        """The card values a seat has captured so far."""
        return core.pips_of(self.piles[check_seat(seat, self.players)])

    @property
    def current(self) -> Trick:
        """The trick in progress (possibly with no cards yet)."""
        return Trick(self.leader, tuple(DECK[i] for i in self.trick))

    @property
    def plays(self) -> list[Card]:
        """Every card played, in order, from the first lead."""
        return [c for t in self.tricks for c in t.cards] + [DECK[i] for i in self.trick]

    # -- legal play -------------------------------------------------------------------------
    @property
    def _led(self) -> int:
        return self.trick[0] if self.trick else -1

    def legal_mask(self) -> int:
        """The legal cards of the seat to play, as a mask (0 once the deal is over)."""
        seat = self.to_play
        if seat is None:
            return 0
        return core.legal_mask(self.hands[seat], self._led, self.trump, self.rules.void_any)

    def legal_cards(self) -> list[Card]:
        """The cards the seat to play may play, trumps first."""
        return sort_cards(cards_of(self.legal_mask()), self.trump)

    def verdicts(self) -> list[Verdict]:
        """For each card of the seat to play: legal or not, and why."""
        seat = self.to_play
        if seat is None:
            return []
        return [self.explain(card) for card in self.hand(seat)]

    def explain(self, card: Card | str) -> Verdict:
        """Whether the seat to play may play ``card``, with the reason in plain words.

        Raises :class:`IllegalPlay` when it cannot be judged: the deal is over, or the card is
        not in hand.
        """
        card = parse_card(card)
        seat = self.to_play
        if seat is None or not self.hands[seat] & card.bit:
            raise self._refusal(card)
        return reasons.verdict(card, self.hands[seat], self._led, self.trump, self.rules.void_any)

    def _refusal(self, card: Card) -> IllegalPlay:
        seat = self.to_play
        hand = self.hands[seat] if seat is not None else 0
        return reasons.refusal(card, seat, self.trick_number, hand, self._led, self.trump,
                               self.rules.void_any)

    # -- moving on -------------------------------------------------------------------------
    def play(self, card: Card | str) -> "State":
        """Play ``card`` for the seat to play; raise :class:`IllegalPlay` if it may not.

        The legal mask decides; a sentence is built only for a refusal.
        """
        try:
            card = parse_card(card)
        except CardError as error:
            raise reasons.not_a_card(error, self.to_play, self.trick_number) from None
        if self.legal_mask() >> card.index & 1:
            return self._apply(card.index)
        raise self._refusal(card)

    def _apply(self, index: int) -> "State":
        """Play a card index known to be legal (the fast inner step)."""
        seat = (self.leader + len(self.trick)) % self.players
        hands = list(self.hands)
        hands[seat] &= ~(1 << index)
        trick = self.trick + (index,)
        if len(trick) < self.players:
            return State(self.deal, tuple(hands), self.drawn, self.leader, trick,
                         self.piles, self.tricks, self.received)
        piles, received = list(self.piles), list(self.received)
        winner, drawn = core.close_trick(trick, self.leader, self.trump, hands, piles, received,
                                         self.deal.stock_index, self.drawn,
                                         len(self.tricks) < self.rules.draws)
        draws = self.deal.stock[self.drawn:drawn]
        done = Trick(self.leader, tuple(DECK[i] for i in trick), winner, draws)
        return State(self.deal, tuple(hands), drawn, winner, (), tuple(piles),
                     self.tricks + (done,), tuple(received))

    def play_all(self, cards: Iterable[Card | str]) -> "State":
        """Play several cards in order."""
        state = self
        for card in cards:
            state = state.play(card)
        return state

    def play_random(self, rng: random.Random | int | None = None, tricks: int | None = None) -> "State":
        """Play uniformly random legal cards until the deal is over (or ``tricks`` tricks are done).

        Each card is ``legal[core.pick(rng, len(legal))]`` over the legal cards in index order,
        exactly as :func:`calijack.fast.random_deal` chooses, so a deal dealt and played from
        one seeded ``rng`` is the same card for card in both engines.
        """
        rng = generator(rng)
        state = self
        while not state.finished and (tricks is None or len(state.tricks) < tricks or state.trick):
            legal = core.bit_list(state.legal_mask())
            state = state._apply(legal[core.pick(rng, len(legal))])
        return state

    def with_rules(self, rules: Rules | dict | None = None, **options) -> "State":
        """The same cards and the same plays under other rule options (see :meth:`Deal.with_rules`).

        Raises :class:`IllegalPlay` if a card played is not legal under the other options.
        """
        return self.deal.with_rules(rules, **options).start().play_all(self.plays)

    def rewind(self, plays: int) -> "State":
        """The state after the first ``plays`` cards of this deal (for replay and undo)."""
        return self.deal.start().play_all(self.plays[:plays])

    # -- knowledge and scoring ---------------------------------------------------------------
    def view(self, seat: int) -> View:
        """What ``seat`` knows: see :func:`calijack.view.view`."""
        return view_of(self, seat)

    def result(self) -> DealResult:
        """The scoring of the finished deal: see :func:`calijack.scoring.score`."""
        return score(self)

    def _repr_html_(self) -> str:
        from . import render  # lazy: the engine never depends on rendering

        return render.table_html(self.view(self.to_play if self.to_play is not None else 0),
                                 reveal=self)
