"""First demos: the cards, a few shuffled deals, and which cards may be played now."""

from __future__ import annotations

from collections.abc import Sequence

from .. import core, render
from ..cards import DECK, Rank, Suit, sort_cards
from ..render.base import seat_names
from ..state import Deal, State
from ..text import Narrator
from .demo_base import build, esc, para

__all__ = ["cards_demo", "deal_demo", "legal_explorer", "check_state", "card_grid"]


def check_state(state: object, who: str) -> State:
    """``state`` if it is a :class:`State`, else a ``ValueError`` naming the demo."""
    if not isinstance(state, State):
        raise ValueError(f"{who} needs a State (for example Deal.random(1).start()), "
                         f"not {type(state).__name__}")
    return state


def card_grid(cards, *, values: bool = True, width: int = 56) -> str:
    """Cards in a row, each with its card value underneath."""
    items = []
    for card in cards:
        value = f'<span class="cj-cv" data-value="{card.value}">{card.value}</span>' if values else ""
        items.append(f"<li>{render.card_svg(card, width=width)}{value}</li>")
    return f'<ul class="cj-grid">{"".join(items)}</ul>'


# -- the cards ------------------------------------------------------------------------------

def _values_line() -> str:
    ranks = sorted((r for r in Rank if r.pips), key=lambda r: -r.pips)
    listed = ", ".join(f"{r.label} = {r.pips}" for r in ranks)
    return f"Card values towards Game: {listed}; every other card is worth 0."


def _suit_frame(suit: Suit) -> str:
    cards = sort_cards([c for c in DECK if c.suit == suit])
    order = " ".join(c.rank.label for c in cards)
    total = sum(c.value for c in cards)
    text = para(
        f"The thirteen {suit.plural} {esc(suit.symbol)}, best first: {order}. When two cards of the "
        f"suit that was led meet in a trick, the one further left in this row takes it.",
        esc(_values_line()),
        f"Add up the numbers under the {suit.plural}: <b>{total}</b>. The whole pack holds "
        f"<b>{sum(c.value for c in DECK)}</b>.")
    return f'<div class="cj-root">{text}{card_grid(cards)}</div>'


def _counting_frame() -> str:
    ranks = sorted((r for r in Rank if r.pips), key=lambda r: -r.pips)
    rows, parts = [], []
    for rank in ranks:
        cards = [c for c in DECK if c.rank == rank]
        parts.append(f"{len(cards)} × {rank.pips}")
        rows.append(card_grid(sorted(cards, key=lambda c: c.suit)))
    total = sum(c.value for c in DECK)
    text = para(
        "Only twenty cards carry a value: the tens, aces, kings, queens and jacks of every suit. "
        "Whoever captures more of these values in tricks earns the Game point.",
        f"{' + '.join(parts)} = <b>{total}</b>. So the two players' totals always add up to "
        f"{total}, and a {total // 2}–{total // 2} split gives Game to nobody.",
        "These are <i>card values</i>, not match points: a deal is worth at most a few match points.")
    return f'<div class="cj-root">{text}{"".join(rows)}</div>'


def cards_demo(static: bool = True):
    """The 52 cards suit by suit in rank order with their card values, and the cards that count."""
    suits = list(Suit)
    options = [f"{s.symbol} {s.plural.capitalize()}" for s in suits] + ["Cards that count"]

    def frame(i: int) -> str:
        return _suit_frame(suits[i]) if i < len(suits) else _counting_frame()

    return build(frame, len(options), static=static, options=options, description="Show")


# -- a few deals ------------------------------------------------------------------------------

def _deal_frame(seed: int) -> str:
    deal = Deal.random(seed)
    state = deal.start()
    names = seat_names(state.players, 0)
    dealer, leader = names[deal.dealer], names[deal.first_leader]
    turned = deal.turned
    text = para(
        f"Shuffle number {seed}. Dealer: <b>{esc(dealer)}</b>. Each player gets "
        f"{len(deal.hands[0])} cards; the other {len(deal.stock)} make the stock, face up, so only "
        f"its top card is in sight.",
        f"The top card is <b>{esc(turned)}</b>, so <b>{state.trump.plural}</b> are trump for the "
        f"whole deal. That card is still part of the stock: the winner of the first trick takes it.",
        f"First to lead: <b>{esc(leader)}</b>, the player who did not deal.")
    table = render.table_html(state.view(0), reveal=state,
                              note="Both hands and the stock are shown face up here, for learning; "
                                   "at a real table you see your own six cards and the stock's top.")
    return text + table


def deal_demo(seeds: Sequence[int] = (1, 2, 3, 4), static: bool = True):
    """A few shuffled deals (one toggle per seed): both hands, the stock's top, trump, who leads."""
    if isinstance(seeds, (str, bytes)) or not isinstance(seeds, Sequence) or not seeds:
        raise ValueError(f"deal_demo needs a non-empty list of whole-number seeds, not {seeds!r}")
    for seed in seeds:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"deal_demo: every seed must be a whole number, not {seed!r}")
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"deal_demo: the seeds must be different from each other, not {list(seeds)}")
    seeds = list(seeds)
    options = [f"Deal {k}" for k in range(1, len(seeds) + 1)]
    return build(lambda i: _deal_frame(seeds[i]), len(seeds), static=static, options=options,
                 description="Shuffle")


# -- legal play -------------------------------------------------------------------------------

def _outcome(state: State, card, names) -> str:
    after = state.play(card)
    n = state.players
    if len(after.tricks) > len(state.tricks):
        trick = after.tricks[-1]
        best = trick.winning_card
        words = Narrator(n, state.to_play, mark=lambda name: f"<b>{esc(name)}</b>")
        lines = [words.would_win(trick.winner, best, trick.draws[0] if trick.draws else None)]
        shown = render.trick_html(trick.cards, trick.leader, n, names=names)
    else:
        cards = after.current.cards
        best = core.trick_winner([c.index for c in cards], state.trump)
        seat = after.current.seat_of(best, n)
        lines = [f"As things stand, {esc(cards[best])} ({esc(names[seat])}) would take the trick; "
                 f"{esc(names[after.to_play])} plays next."]
        shown = render.trick_html(cards, after.leader, n, names=names)
    return para(*lines) + shown


def legal_explorer(state: State, static: bool = True):
    """One toggle per card of the seat to play: may it be played, the engine's reason, and the outcome."""
    state = check_state(state, "legal_explorer")
    if state.finished:
        raise ValueError("legal_explorer needs a deal in progress, but this deal is over: "
                         "every card has been played")
    seat = state.to_play
    names = seat_names(state.players, seat)
    verdicts = state.verdicts()
    legal = sum(v.legal for v in verdicts)
    header = render.table_html(
        state.view(seat),
        note=f"{names[seat]} to play, trick {state.trick_number}: {legal} of {len(verdicts)} cards may "
             f"be played. Pick a card below to see why.")

    def frame(i: int) -> str:
        v = verdicts[i]
        tag = ('<span class="cj-verdict cj-yes">may be played</span>' if v.legal
               else '<span class="cj-verdict cj-no">may not be played now</span>')
        body = para(f"<b>{esc(v.card)}</b> {tag}", f"Why: {esc(v.reason)}")
        if v.legal:
            body += _outcome(state, v.card, names)
        return f'<div class="cj-root">{body}</div>'

    return build(frame, len(verdicts), static=static, options=[str(v.card) for v in verdicts],
                 description="Card", header=header)
