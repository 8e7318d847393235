"""The coach's pictures: every legal card with its value, and one reviewed play.

Pure functions over a rating (:class:`calijack.review.Rating`, read by its attributes) and a
view; the words come from the narrator (:mod:`calijack.text_coach`).
"""

from __future__ import annotations

from ..cards import Card
from ..text_coach import amount, signed, value_line
from ..view import View
from .base import Html, esc, seat_names
from .cardsvg import card_svg
from .style import fragment
from .table import table_html

__all__ = ["values_html", "review_step_html"]

MINI = 52


def values_html(rating, played: Card | None = None, *, four_color: bool = False, css: bool = True) -> Html:
    """Each legal card of a rating with its value under it; the best gold, the card played outlined."""
    best = set(rating.best)
    items = []
    for card, value in rating.shown.items():
        classes = ["cj-val"] + (["cj-val-best"] if card in best else []) + (["cj-val-played"] if card == played else [])
        tags = (["best"] if card in best else []) + (["played"] if card == played else [])
        tag = f'<span class="cj-val-tag">{esc(", ".join(tags))}</span>' if tags else ""
        number = signed(value, rating.exact)
        items.append(f'<li class="{" ".join(classes)}" data-card="{card.code}" data-value="{value}">'
                     f'{card_svg(card, four_color=four_color, width=MINI)}'
                     f'<span class="cj-val-num">{esc(number)}</span>{tag}</li>')
    how = "exact, with best play" if rating.exact else f"estimated over {rating.samples} guesses"
    caption = f"What each card you could play is worth, in match points ({how})"
    body = (f'<div class="cj-val-caption">{esc(caption)}</div>'
            f'<ul class="cj-values-row" aria-label="{esc(caption)}">{"".join(items)}</ul>')
    return fragment(body, "cj-values-box", css=css)


def review_step_html(view: View, rating, played: Card, comment: str, *, trick: int, names=None,
                     four_color: bool = False, css: bool = True) -> Html:
    """One of your plays, reviewed: your card's value beside the best card's, the sentence, the table."""
    names = seat_names(view.players, view.seat, names)
    loss = rating.loss(played)
    best = rating.best
    top = played if played in best else best[0]
    mistake = rating.mistake(played)
    if mistake:
        badge = f'<span class="cj-badge cj-badge-mistake">Mistake: costs {esc(amount(loss))}</span>'
    elif rating.too_close(played):
        badge = '<span class="cj-badge cj-badge-close">Too close to call</span>'
    elif played in best:
        badge = '<span class="cj-badge cj-badge-best">Best card</span>'
    else:
        badge = f'<span class="cj-badge cj-badge-close">Close: {esc(amount(loss))} behind</span>'
    line = value_line(played, rating.shown[played], top, rating.shown[top], rating.exact)
    who = "you" if names[view.seat] == "You" else names[view.seat]
    head = (f'<p class="cj-review-title">Trick {trick} of {view.rules.tricks}: '
            f'{esc(who)} played {esc(played)} {badge}</p>'
            f'<p class="cj-review-line">{esc(line)}</p><p class="cj-review-comment">{esc(comment)}</p>')
    values = values_html(rating, played, four_color=four_color, css=False)
    table = table_html(view, names=names, four_color=four_color, css=False)
    body = head + values + table
    return fragment(f'<div class="cj-review-step" data-mistake="{str(mistake).lower()}">{body}</div>',
                    "cj-review", f"review of trick {trick}", css=css)
