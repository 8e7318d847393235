"""The end-of-deal score sheet: each match point with its card, and the card values itemised.

Card values (towards the Game point) and match points are different quantities; the sheet
keeps them in separate tables with different labels and badges, and never adds one to the other.

A deal that ends the match may hand out points that are never counted (the count stops at
the target): given the points counted (``Match.counted``), the sheet marks the others "not
counted", leaves them out of the totals and says why.
"""

from __future__ import annotations

import re

from ..scoring import DealResult
from ..text import uncounted
from .base import Html, esc, seat_names
from .cardsvg import card_svg
from .style import fragment

__all__ = ["score_sheet_html"]

_SEAT = re.compile(r"\bseat (\d+)\b")


def _named(detail: str, names) -> str:
    # The engine's sentences say "seat 1"; the sheet says the seat's name.
    return _SEAT.sub(lambda m: names[int(m.group(1))] if int(m.group(1)) < len(names) else m.group(0), detail)


def _points_table(result: DealResult, names, four_color, counted) -> str:
    rows = []
    dropped = [a for a in result.awards if a.seat is not None and a.name not in counted]
    for award in result.awards:
        who = (f'<span data-seat="{award.seat}">{esc(names[award.seat])}</span>' if award.seat is not None
               else '<span class="cj-nobody" data-seat="">nobody</span>')
        flag = ""
        if award in dropped:
            who += ' <span class="cj-uncounted-tag">not counted</span>'
            flag = ' data-counted="false"'
        elif award.seat is not None:
            flag = ' data-counted="true"'
        if award.card is not None:
            card = card_svg(award.card, four_color=four_color, width=40)
        elif award.name == "game":
            card = " to ".join(f'<span class="cj-cv">{p}</span>' for p in result.pips)
            card = f'<span title="card values">{card}</span>'
        else:
            card = "—"
        detail = _named(award.detail, names)
        detail = detail[:1].upper() + detail[1:]
        rows.append(f'<tr class="cj-award" data-point="{award.name}"{flag}><th scope="row">{esc(award.title)}</th>'
                    f"<td>{who}</td><td>{card}</td><td>{esc(detail)}</td></tr>")
    points = [sum(a.seat == s and a not in dropped for a in result.awards) for s in range(len(result.points))]
    totals = " · ".join(f'{esc(names[s])} <span class="cj-mp" data-seat="{s}">{p}</span>'
                        for s, p in enumerate(points))
    foot = "Match points counted" if dropped else "Match points"
    why = (f'<tr class="cj-uncounted-note"><td colspan="4">{esc(uncounted([a.title for a in dropped]))}</td></tr>'
           if dropped else "")
    return ('<table class="cj-points"><caption>Match points this deal</caption>'
            '<thead><tr><th scope="col">Point</th><th scope="col">Earned by</th>'
            '<th scope="col">Deciding card</th><th scope="col">Why</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody>'
            f'<tfoot><tr><th scope="row">{foot}</th><td colspan="3">{totals}</td></tr>{why}</tfoot></table>')


def _values_table(result: DealResult, names, four_color) -> str:
    rows = []
    for seat, cards in enumerate(result.counted):
        items = "".join(
            f'<li style="display:inline-flex;align-items:center;gap:3px;margin:2px 10px 2px 0">'
            f'{card_svg(c, four_color=four_color, width=34)}'
            f'<span class="cj-cv cj-val" data-value="{c.value}">{c.value}</span></li>' for c in cards)
        items = items or '<li class="cj-nobody" style="display:inline">no cards that carry value</li>'
        rows.append(f'<tr class="cj-seat-values" data-seat="{seat}"><th scope="row">{esc(names[seat])}</th>'
                    f'<td><ul style="margin:0;padding:0;list-style:none;display:flex;flex-wrap:wrap">{items}</ul></td>'
                    f'<td class="cj-num">'
                    f'<span class="cj-cv cj-total" data-value="{result.pips[seat]}">'
                    f'{result.pips[seat]}</span></td></tr>')
    return ('<table class="cj-card-values"><caption>Card values captured (towards the Game point)</caption>'
            '<thead><tr><th scope="col">Seat</th><th scope="col">Cards that carry value '
            '(10 = 10, A = 4, K = 3, Q = 2, J = 1)</th><th scope="col" class="cj-num">Total</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>'
            '<div class="cj-kind">Card values only decide who earns Game; they are not match points.</div>')


def score_sheet_html(result: DealResult, *, names=None, match_scores=None, target=None,
                     counted=None, four_color: bool = False) -> Html:
    """The score sheet of a deal: each point, who earned it and why; card values itemised.

    ``counted``: the names of the points counted into the match score (``Match.counted`` for
    this deal); a point earned but not among them is shown as not counted. ``None``: all.
    """
    n = len(result.pips)
    names = seat_names(n, 0, names)
    counted = {a.name for a in result.awards} if counted is None else set(counted)
    parts = ['<div class="cj-label" style="font-size:16px">Score sheet</div>',
             _points_table(result, names, four_color, counted), _values_table(result, names, four_color)]
    if match_scores is not None:
        if len(match_scores) != n:
            raise ValueError(f"match_scores must give one score per seat ({n}), not {len(match_scores)}")
        goal = f" (first to {target})" if target else ""
        score = " · ".join(f'{esc(names[s])} <span class="cj-mp">{match_scores[s]}</span>' for s in range(n))
        parts.append(f'<div class="cj-match-line"><strong>Match score{goal}:</strong> {score}</div>')
    return fragment("".join(parts), "cj-sheet", "score sheet")
