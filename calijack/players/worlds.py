"""Guessing the hidden cards: whole deals consistent with everything one seat has seen.

A *world* is one complete guess: every seat's hand and the stock's order below the exposed
card, built so that replaying the deal's plays on it is legal and gives the very same view.
The guess respects what the seat saw: the other hands' cards seen drawn, the plays (a
seat that did not follow or did not trump was void), and, with the closed stock, that a
card drawn unseen was only in that hand from its draw on. :func:`sample_state` gives the
guess as an engine :class:`~calijack.state.State`; the search uses the faster :class:`World`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .. import core
from ..cards import DECK
from ..state import Deal, State
from ..view import View

__all__ = ["World", "Guess", "Sampler", "sample", "sample_state"]


class World:
    """A full position on masks (a perfect-information copy for the search)."""

    __slots__ = ("hands", "stock", "drawn", "piles", "received", "leader", "trick", "done",
                 "n", "trump", "void_any", "draws", "tricks")

    def __init__(self, hands, stock, drawn, piles, received, leader, trick, done, n, trump,
                 void_any, draws, tricks):
        self.hands, self.stock, self.drawn, self.piles = hands, stock, drawn, piles
        self.received, self.leader, self.trick, self.done = received, leader, trick, done
        self.n, self.trump, self.void_any, self.draws, self.tricks = n, trump, void_any, draws, tricks

    @classmethod
    def start(cls, hands, stock, dealer: int, trump: int, rules) -> "World":
        """The position before the first lead: ``hands`` and ``stock`` (top first) as card indices."""
        n = rules.players
        masks = [sum(1 << c for c in hand) for hand in hands]
        return cls(masks, tuple(stock), 0, [0] * n, masks[:], core.first_leader(dealer, n), [], 0, n,
                   trump, rules.void_any, rules.draws, rules.tricks)

    def copy(self) -> "World":
        """An independent copy."""
        return World(self.hands[:], self.stock, self.drawn, self.piles[:], self.received[:],
                     self.leader, self.trick[:], self.done, self.n, self.trump, self.void_any,
                     self.draws, self.tricks)

    @property
    def to_play(self) -> int:
        """The seat to play (meaningless once finished)."""
        return core.play_order(self.leader, self.n)[len(self.trick)]

    @property
    def finished(self) -> bool:
        """True once every trick is played."""
        return self.done == self.tricks

    def legal(self) -> int:
        """The legal cards of the seat to play, as a mask."""
        trick = self.trick
        return core.legal_mask(self.hands[core.play_order(self.leader, self.n)[len(trick)]],
                               trick[0] if trick else -1, self.trump, self.void_any)

    def play(self, card: int) -> None:
        """Play a card index for the seat to play (no check): :func:`calijack.core.play_card`."""
        self.leader, self.drawn = core.play_card(card, self.hands, self.trick, self.leader, self.trump,
                                                 self.piles, self.received, self.stock, self.drawn)
        if not self.trick:
            self.done += 1

    def replay(self, cards) -> bool:
        """Play card indices in turn, as :meth:`play` does; whether each was legal when played."""
        hands, trick, piles, received, stock = self.hands, self.trick, self.piles, self.received, self.stock
        leader, drawn, done, n, trump, void_any = self.leader, self.drawn, self.done, self.n, self.trump, self.void_any
        ok = True
        for card in cards:
            if ok and not core.legal_mask(hands[core.play_order(leader, n)[len(trick)]], trick[0] if trick else -1,
                                          trump, void_any) >> card & 1:
                ok = False
            leader, drawn = core.play_card(card, hands, trick, leader, trump, piles, received, stock, drawn)
            if not trick:
                done += 1
        self.leader, self.drawn, self.done = leader, drawn, done
        return ok

    @property
    def top(self) -> int:
        """The exposed stock card, or -1."""
        return self.stock[self.drawn] if self.done < self.draws else -1


@dataclass
class _Seat:
    slots: list          # unknown slots: (available from trick, where) with where = ("hand", i) or ("stock", pos)
    placed: list         # cards played whose slot is unknown: (card, trick it was played in)
    hidden: int          # cards held now that the viewer has not seen
    voids: list          # (trick, suit mask) the seat showed it held none of


@dataclass(frozen=True)
class Guess:
    """A sampled world and whether its history passed every duty check."""

    world: World
    deal_hands: tuple
    deal_stock: tuple
    consistent: bool


def _analyse(view: View):
    n, rules = view.players, view.rules
    trump = int(view.trump)
    void_any = rules.void_any
    seats = [_Seat([], [], view.hidden_counts[s], []) for s in range(n)]
    stock: dict[int, int] = {}                    # position -> known card
    fixed_draws = [0] * n                         # seen draws per seat (mask)
    initial = [[] for _ in range(n)]              # the viewer's own dealt cards
    all_tricks = list(view.tricks) + ([None] if view.trick else [])
    plays_by = [[] for _ in range(n)]             # (card, trick number)
    for j, trick in enumerate(all_tricks):
        if trick is None:
            leader, cards = view.leader, view.trick
        else:
            leader, cards = trick.leader, trick.cards
        led = cards[0].index
        for pos, card in enumerate(cards):
            seat = core.play_order(leader, n)[pos]
            plays_by[seat].append((card.index, j))
            if pos and seat != view.seat:
                shown = core.voids_shown(card.index, led, trump, void_any)
                if shown:
                    seats[seat].voids.append((j, shown))
        if trick is not None:
            for k, (drawer, card) in enumerate(zip(trick.drawers(n), trick.draws)):
                position = j * n + k
                if card is None:
                    seats[drawer].slots.append((j + 1, ("stock", position)))
                else:
                    stock[position] = card.index
                    fixed_draws[drawer] |= card.bit
    for seat in range(n):
        for i in range(6):
            seats[seat].slots.append((0, ("hand", i)))
        for card, j in plays_by[seat]:
            if not fixed_draws[seat] >> card & 1:
                seats[seat].placed.append((card, j))
    me = view.seat
    own = [c for c, _ in plays_by[me]] + [c.index for c in view.hand]
    initial[me] = [c for c in own if not fixed_draws[me] >> c & 1]
    return seats, stock, initial, trump


class Sampler:
    """Guesses at one view's hidden cards: what the view says about them is worked out once, for
    a search that makes many guesses (``Sampler(view).sample(rng)`` is :func:`sample`)."""

    def __init__(self, view: View):
        self.view = view
        seats, self.stock, self.initial, self.trump = _analyse(view)
        self.seats = seats
        n, me = view.players, view.seat
        self.unseen = [c.index for c in view.unseen]
        self.drawn = min(len(view.tricks), view.rules.draws) * n
        self.others = others = [s for s in range(n) if s != me]
        self.played = [c.index for c in view.played]
        # A hidden card was in its hand at least since the latest unknown slot: any void shown
        # from then on rules its suit out.
        self.banned = banned = {}
        for s in others:
            latest = max(a for a, _ in seats[s].slots) if seats[s].slots else 0
            mask = 0
            for j, suits in seats[s].voids:
                if j >= latest:
                    mask |= suits
            banned[s] = mask

    def sample(self, rng: random.Random, tries: int = 30) -> Guess:
        """One world consistent with the view (retrying until every past play checks as legal)."""
        guess = None
        for _ in range(tries):
            guess = _attempt(self, rng, self.seats, self.banned)
            if guess is not None and guess.consistent:
                return guess
        if guess is None:  # no split fits the voids: drop them rather than fail
            loose = [_Seat(s.slots, s.placed, s.hidden, []) for s in self.seats]
            guess = _attempt(self, rng, loose, {s: 0 for s in self.others})
        return guess


def sample(view: View, rng: random.Random, tries: int = 30) -> Guess:
    """One world consistent with ``view`` (retrying until every past play checks as legal)."""
    return Sampler(view).sample(rng, tries)


def _attempt(sampler: Sampler, rng, seats, banned):
    view, stock, initial, trump, others = sampler.view, sampler.stock, sampler.initial, sampler.trump, sampler.others
    n, rules = view.players, view.rules
    pool = sampler.unseen[:]
    rng.shuffle(pool)
    hidden = {}
    order = others if len(others) == 1 else sorted(
        others, key=lambda s: (-sum(1 for c in pool if (1 << c) & banned[s]), s))
    for s in order:
        fits = [c for c in pool if not (1 << c) & banned[s]]
        if len(fits) < seats[s].hidden:
            return None
        chosen = fits[:seats[s].hidden]
        hidden[s] = chosen
        chosen_set = set(chosen)
        pool = [c for c in pool if c not in chosen_set]
    hands = [list(initial[s]) if s == view.seat else [None] * 6 for s in range(n)]
    stock_cards = [None] * rules.stock_size
    for position, card in stock.items():
        stock_cards[position] = card
    for s in others:
        if not _fill(seats[s], hidden[s], hands[s], stock_cards, rng):
            return None
    rest = sampler.drawn
    if view.stock_top is not None:
        stock_cards[rest] = view.stock_top.index
        rest += 1
    elif view.dead_card is not None:
        stock_cards[rest] = view.dead_card.index
        rest += 1
    for card in pool:
        stock_cards[rest] = card
        rest += 1
    world = World.start(hands, stock_cards, view.dealer, trump, rules)
    ok = world.replay(sampler.played)
    return Guess(world, tuple(tuple(h) for h in hands), tuple(stock_cards), ok)


def _fill(seat: _Seat, hidden: list, hand: list, stock_cards: list, rng) -> bool:
    """Put the seat's unknown cards in its unknown slots.

    A card may sit in a slot available from trick ``a`` if it is still there when played
    (``a`` no later than its play) and no void the seat showed while holding it rules its
    suit out. Cards are placed most urgent first, each in a random slot that fits.
    """
    cards = []
    for card, played in list(seat.placed) + [(c, 10 ** 6) for c in hidden]:
        lo = 0
        for j, suits in seat.voids:
            if j < played and suits >> card & 1 and j + 1 > lo:
                lo = j + 1
        cards.append((played, rng.random(), lo, card))
    cards.sort()
    free = list(seat.slots)
    for played, _, lo, card in cards:
        fits = [k for k, (avail, _) in enumerate(free) if lo <= avail <= played]
        if not fits:
            return False
        avail, (where, pos) = free.pop(fits[int(rng.random() * len(fits))])
        if where == "hand":
            hand[pos] = card
        else:
            stock_cards[pos] = card
    return True


def sample_state(view: View, rng: random.Random) -> State:
    """An engine ``State`` whose view for ``view.seat`` equals ``view``: one guess of the hidden cards.

    Raises ``ValueError`` if no consistent guess turns up (the view cannot come from a real deal).
    """
    guess = sample(view, rng, tries=200)
    if not guess.consistent:
        raise ValueError("no deal consistent with this view was found")
    deal = Deal.from_cards([[DECK[c] for c in h] for h in guess.deal_hands],
                           [DECK[c] for c in guess.deal_stock], view.dealer, view.rules,
                           view.trump if view.rules.trump_cut else None)
    return deal.start().play_all(list(view.played))
