"""The coach's pictures: every legal card with its value, and one reviewed play.

Pure functions over a rating (:class:`calijack.review.Rating`, read by its attributes) and a
view; the words come from the narrator (:mod:`calijack.text_coach`). :func:`review_frames` and
:func:`review_steps` draw a whole review (one frame per play, drawings shared): what the
sandbox's review board (:mod:`calijack.widgets.review`) and the class service's review page
show, stepped by the same ``calijack/widgets/review.js``.
"""

from __future__ import annotations

from ..cards import Card
from ..text_coach import amount, review_summary, signed, value_line
from ..view import View
from .base import Html, esc, seat_names
from .cardsvg import card_svg
from .compact import Sheet
from .style import fragment
from .table import table_html

__all__ = ["values_html", "review_step_html", "review_frames", "review_steps"]

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


def review_frames(state, reviews, seat: int, names=None, four_color: bool = False):
    """``(frames, labels, summary, sheet)`` for ``reviews`` (one seat's plays of ``state``'s deal,
    from :func:`calijack.review.review`): one compact frame per play, the drawings in ``sheet``."""
    names = seat_names(state.players, seat, names)
    who = "you" if names[seat] == "You" else names[seat]
    sheet = Sheet()
    frames, labels = [], []
    walk, at = state.deal.start(), 0
    for k, r in enumerate(reviews, 1):
        while at < r.index:
            walk = walk.play(state.plays[at])
            at += 1
        html = review_step_html(walk.view(seat), r.rating, r.card, r.comment, trick=r.trick, names=names,
                                four_color=four_color)
        frames.append(sheet.compact(html))
        mark = " (mistake)" if r.mistake else ""
        labels.append(f"Play {k} of {len(reviews)}: trick {r.trick}, {who} played {r.card}{mark}")
    mistakes = [r for r in reviews if r.mistake]
    summary = review_summary(len(mistakes), sum(r.loss for r in mistakes), len(reviews))
    return frames, labels, summary, sheet


def review_steps(state, reviews, seat: int, names=None, four_color: bool = False) -> dict:
    """What ``review.js`` steps through, as JSON: ``steps`` (one per play: label, short, mistake,
    html), ``summary``, ``sheet`` (the shared drawings) and ``index`` (the first mistake, else 0)."""
    frames, labels, summary, sheet = review_frames(state, reviews, seat, names, four_color)
    steps = [{"label": label, "short": f"{r.trick}: {r.card}", "mistake": r.mistake, "html": frame}
             for label, r, frame in zip(labels, reviews, frames)]
    first = next((k for k, r in enumerate(reviews) if r.mistake), 0)
    return {"steps": steps, "summary": summary, "sheet": sheet.html(), "index": first}
