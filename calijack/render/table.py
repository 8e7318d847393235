"""Hands, tricks and the whole table as one seat sees it (or revealed, for teaching)."""

from __future__ import annotations

from typing import Iterable, Mapping

from ..cards import Card
from ..view import View
from .base import Html, esc, seat_names
from .cardsvg import card_svg, suit_svg
from ..text import counted
from .style import fragment

__all__ = ["hand_html", "trick_html", "table_html", "known_to_others", "card_state"]

SMALL, MINI = 56, 46


def _cards_list(cards: Iterable[Card | None], marks: Mapping[Card, str] | None, four_color: bool,
                width: int = 64, cls: str = "cj-hand", wrap: Mapping[Card, str] | None = None) -> str:
    items = []
    for card in cards:
        mark = marks.get(card) if marks and card is not None else None
        extra = f' class="{wrap[card]}"' if wrap and card in wrap else ""
        items.append(f"<li{extra}>{card_svg(card, mark=mark, four_color=four_color, width=width)}</li>")
    return f'<ul class="{cls}">{"".join(items)}</ul>'


def card_state(card: Card, verdict=None, *, hinted: bool = False, known: bool = False) -> str:
    """A card's accessible name with its state: "Jack of hearts, playable", or why not.

    ``verdict`` is the engine's (``legal``, ``reason``) for this card, ``None`` when it is not
    the viewer's turn.
    """
    if verdict is None:
        words = [card.name, "not your turn yet"]
    elif verdict.legal:
        words = [card.name, "playable"]
    else:
        reason = verdict.reason.rstrip(".")
        words = [card.name, f"not playable: {reason[:1].lower()}{reason[1:]}"]
    if hinted:
        words.append("the hint's choice")
    if known:
        words.append("your opponent saw you draw it")
    return ", ".join(words)


def _play_list(view: View, marks: Mapping[Card, str], verdicts, hint, four_color: bool) -> str:
    # The viewer's own cards as buttons: the hand is the control. One roving tab stop (the
    # first card here; the table widget's script moves it with the arrow keys).
    judged = {v.card: v for v in verdicts} if verdicts is not None else {}
    items = []
    for k, card in enumerate(view.hand):
        verdict = judged.get(card)
        mark = marks.get(card)
        state = "" if verdict is None else (" cj-can" if verdict.legal else " cj-cannot")
        state += " cj-hinted" if card is hint else ""
        name = card_state(card, verdict, hinted=card is hint, known="known" in (mark or "").split())
        face = card_svg(card, mark=mark, four_color=four_color, width=64)
        face = face.replace('role="img"', 'aria-hidden="true" focusable="false"', 1)
        items.append(f'<li><button type="button" class="cj-play{state}" data-card="{card.code}" '
                     f'tabindex="{0 if k == 0 else -1}" aria-label="{esc(name)}">{face}</button></li>')
    return f'<ul class="cj-hand cj-hand-play" aria-label="Your hand">{"".join(items)}</ul>'


def _hand(cards, marks, four_color, label, width=64, wrap=None) -> str:
    head = f'<div class="cj-label">{esc(label)}</div>' if label else ""
    return head + _cards_list(cards, marks, four_color, width, wrap=wrap)


def hand_html(cards: Iterable[Card | None], *, marks: Mapping[Card, str] | None = None,
              four_color: bool = False, label: str | None = None) -> Html:
    """A row of cards (``None`` draws a back), each with its mark from ``marks``."""
    return fragment(_hand(list(cards), marks, four_color, label), "cj-hand-box", label or "hand")


def _trick(cards, leader, players, names, four_color, width=64, winner=None) -> str:
    items = []
    for pos in range(players):
        seat = (leader + pos) % players
        who = esc(names[seat])
        if winner == seat:
            who = f'<span class="cj-win">{who} ★ wins</span>'
        if pos < len(cards):
            items.append(f"<li>{card_svg(cards[pos], four_color=four_color, width=width)}{who}</li>")
        elif winner is None:
            items.append(f'<li><div class="cj-slot" style="width:{width}px;height:{round(width * 1.4)}px"'
                         f' aria-hidden="true"></div><span class="cj-muted">{who}</span></li>')
    return f'<ul class="cj-trick">{"".join(items)}</ul>'


def trick_html(cards: Iterable[Card], leader: int, players: int, *, names=None,
               four_color: bool = False) -> Html:
    """The cards of a trick in playing order, each above the name of the seat that played it."""
    cards = list(cards)
    if not 0 <= leader < players:
        raise ValueError(f"leader must be a seat from 0 to {players - 1}, not {leader}")
    if len(cards) > players:
        raise ValueError(f"a trick holds at most {players} cards, not {len(cards)}")
    names = seat_names(players, 0, names)
    return fragment(_trick(cards, leader, players, names, four_color), "cj-trick-box", "trick")


def known_to_others(view: View) -> set[Card]:
    """The viewer's cards that another seat saw it draw (the winner's draw is always seen)."""
    n, out = view.players, set()
    hand = set(view.hand)
    for trick in view.tricks:
        for pos, (drawer, card) in enumerate(zip(trick.drawers(n), trick.draws)):
            if drawer == view.seat and card in hand and (pos == 0 or not view.rules.stock_closed):
                out.add(card)
    return out


def _default_marks(view: View) -> dict[Card, str]:
    marks: dict[Card, str] = {}
    if view.to_play == view.seat:
        legal = set(view.legal)
        marks = {c: "legal" if c in legal else "illegal" for c in view.hand}
    for card in known_to_others(view):
        marks[card] = (marks.get(card, "") + " known").strip()
    return marks


def _seat_head(view: View, seat: int, names, extra: str = "", ask: str = "") -> str:
    bits = [f"<strong>{esc(names[seat])}</strong>"]
    if seat == view.dealer:
        bits.append('<span class="cj-dealer" title="dealer" aria-label="dealer">D</span>')
    if view.to_play == seat:
        bits.append('<span class="cj-turn">to play</span>')
    count = view.hand_sizes[seat]
    bits.append(f"<span>{counted(count, 'card')}{extra}</span>")
    if ask:
        bits.append(ask)
    return f'<div class="cj-seat-head">{"".join(bits)}</div>'


def _opponent(view: View, seat: int, names, reveal, four_color) -> str:
    known = view.known[seat]
    if reveal is not None:
        cards = reveal.hand(seat)
        hidden = {c: "cj-hidden" for c in cards if c not in known}
        extra = f" · {len(known)} seen drawn" if known else ""
        body = _cards_list(cards, None, four_color, SMALL, wrap=hidden)
    else:
        cards = list(known) + [None] * view.hidden_counts[seat]
        extra = f" · {len(known)} seen drawn, face up" if known else ""
        body = _cards_list(cards, None, four_color, SMALL)
    return f'<div class="cj-seat cj-opp">{_seat_head(view, seat, names, extra)}{body}</div>'


def _stock(view: View, reveal, four_color) -> str:
    out = ['<div class="cj-stock"><div class="cj-box-title">Stock</div>']
    if view.stock_top is not None:
        out.append(f'<div class="cj-stack">{card_svg(view.stock_top, four_color=four_color)}</div>')
        below = view.stock_hidden
        out.append(f'<div class="cj-count">{view.stock_count} cards<br/>'
                   f'<span class="cj-muted">top card showing, {below} hidden below</span></div>')
    else:
        out.append('<div class="cj-slot" aria-hidden="true"></div><div class="cj-count">used up</div>')
    if view.dead_card is not None:
        out.append(f'<div class="cj-box-title" style="margin-top:8px">Out of play</div>'
                   f'{card_svg(view.dead_card, four_color=four_color, width=SMALL)}')
    out.append("</div>")
    return "".join(out)


def _trick_area(view: View, names, four_color) -> str:
    n = view.players
    if view.trick or not view.tricks:
        title = "Trick in progress" if view.trick else "First trick"
        body = _trick(view.trick, view.leader, n, names, four_color)
        return f'<div class="cj-trick-area"><div class="cj-box-title">{title}</div>{body}</div>'
    last = view.tricks[-1]
    title = f"Last trick (trick {len(view.tricks)}), won by {esc(names[last.winner])}"
    body = _trick(last.cards, last.leader, n, names, four_color, width=SMALL, winner=last.winner)
    draws = []
    for drawer, card in zip(last.drawers(n), last.draws):
        what = str(card) if card is not None else "an unseen card"
        draws.append(f"{esc(names[drawer])} drew {esc(what)}")
    note = f'<div class="cj-count cj-muted">{"; ".join(draws)}</div>' if draws else ""
    return f'<div class="cj-trick-area"><div class="cj-box-title">{title}</div>{body}{note}</div>'


def _piles(view: View, names, four_color, values: bool = True) -> str:
    out = []
    for seat in [view.seat] + [s for s in range(view.players) if s != view.seat]:
        cards = view.captured(seat)
        won = sum(1 for t in view.tricks if t.winner == seat)
        fan = _cards_list(cards, None, four_color, MINI, cls="cj-fan") if cards else ""
        chip = (f'<span class="cj-chip cj-values">card values <b data-pips="{view.pips(seat)}">'
                f'{view.pips(seat)}</b></span>') if values else ""
        out.append(f'<div class="cj-pile"><div class="cj-seat-head"><strong>{esc(names[seat])}</strong>'
                   f'<span>won {counted(won, "trick")}</span>{chip}</div>{fan}</div>')
    return f'<div class="cj-piles">{"".join(out)}</div>'


def _bar(view: View, names, scores, target, four_color) -> str:
    trump = view.trump
    turned = f" (set by {view.turned})" if view.turned is not None else " (fixed by the cut)"
    bits = [f'<span class="cj-chip cj-trump">Trump {suit_svg(trump, size=18, four_color=four_color)}'
            f" {trump.plural}{esc(turned)}</span>"]
    state = "Deal over" if view.finished else f"Trick {len(view.tricks) + 1} of {view.rules.tricks}"
    bits.append(f'<span class="cj-chip">{state}</span>')
    if scores is not None:
        parts = " · ".join(f"{esc(names[s])} {scores[s]}" for s in range(view.players))
        goal = f" (first to {target})" if target else ""
        bits.append(f'<span class="cj-chip cj-match">Match points: {parts}{goal}</span>')
    return f'<div class="cj-bar">{"".join(bits)}</div>'


def table_html(view: View, *, reveal=None, names=None, scores=None, target=None,
               marks: Mapping[Card, str] | None = None, four_color: bool = False,
               note: str | None = None, interactive: bool = False, verdicts=None, hint: Card | None = None,
               css: bool = True, fold_stock: bool = True, simple: bool = False) -> Html:
    """The table from ``view.seat``'s side; ``reveal=state`` turns every card face up.

    ``interactive=True`` draws the viewer's cards as buttons (the sandbox's live table), each
    named with its state from ``verdicts`` (the engine's, ``None`` when it is not the viewer's
    turn); ``hint`` tags the hinted card. ``css=False`` leaves the stylesheet out (for a page
    that already has it). A revealed stock's long row of cards is folded under one line
    (``fold_stock=False``: shown open). ``simple=True`` leaves out what a first look at the game
    has not met yet: the bar naming trump and counting tricks, and the card values.
    """
    n = view.players
    names = seat_names(n, view.seat, names)
    if scores is not None and len(scores) != n:
        raise ValueError(f"scores must give one score per seat ({n}), not {len(scores)}")
    if reveal is not None and (reveal.players != n or reveal.view(view.seat) != view):
        raise ValueError("reveal must be the state the view was taken from")
    if target is None and scores is not None:
        target = view.rules.target
    own = _default_marks(view) if marks is None else dict(marks)
    opps = "".join(_opponent(view, s, names, reveal, four_color) for s in range(n) if s != view.seat)
    parts = [] if simple else [_bar(view, names, scores, target, four_color)]
    parts += [f'<div class="cj-opps">{opps}</div>',
              f'<div class="cj-middle">{_stock(view, reveal, four_color)}{_trick_area(view, names, four_color)}</div>',
              _you(view, names, own, four_color, interactive, verdicts, hint),
              _piles(view, names, four_color, values=not simple)]
    if reveal is not None and reveal.stock[1:]:
        below = reveal.stock[1:]
        fan = _cards_list(below, None, four_color, MINI, cls="cj-fan")
        if fold_stock:
            parts.append(f'<details class="cj-seat cj-stock-below"><summary class="cj-box-title">The stock '
                         f'below the top: {counted(len(below), "card")}, in order (revealed)</summary>{fan}</details>')
        else:
            parts.append(f'<div class="cj-seat"><div class="cj-box-title">Stock below the top, in order '
                         f'(revealed)</div>{fan}</div>')
    legend = _legend(own.values(), reveal is not None, n)
    if legend:
        parts.append(legend)
    if note:
        parts.append(f'<div class="cj-note">{esc(note)}</div>')
    return fragment("".join(parts), "cj-table", f"card table seen by {names[view.seat]}", css=css)


def _you(view: View, names, own, four_color, interactive, verdicts, hint) -> str:
    if not interactive:
        return (f'<div class="cj-seat cj-you">{_seat_head(view, view.seat, names)}'
                f'{_cards_list(view.hand, own, four_color, 64)}</div>')
    ask = ""
    if view.hand and view.to_play == view.seat:
        ask = '<span class="cj-ask">click or tap a card to play it</span>'
    return (f'<div class="cj-seat cj-you">{_seat_head(view, view.seat, names, ask=ask)}'
            f'{_play_list(view, own, verdicts, hint, four_color)}</div>')


def _legend(marks: Iterable[str], revealed: bool, players: int = 2) -> str:
    who = "your opponent" if players == 2 else "an opponent"
    words = {w for m in marks if m for w in m.split()}
    items = []
    if "legal" in words:
        items.append("<span>gold edge, raised: you may play it</span>")
    if "illegal" in words:
        items.append("<span>dimmed: you may not play it now</span>")
    if "known" in words:
        items.append(f"<span>violet eye: {who} saw you draw it</span>")
    if revealed:
        items.append("<span>dashed outline: hidden from you (table revealed)</span>")
    return f'<div class="cj-legend">{"".join(items)}</div>' if items else ""
