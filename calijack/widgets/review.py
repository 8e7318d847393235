"""Reviewing a deal: step through your plays, each card's value beside the best card's.

Two views of one list of frames (each drawn by :func:`calijack.render.review.review_step_html`
from the engine's :func:`calijack.review.review`):

- :func:`review_stepper`, a static demo (a slider over precomputed frames) for the book;
- :class:`ReviewBoard`, one small anywidget for the sandbox: every frame is sent once, and
  ``review.js`` (beside this file) steps through them in the page, with Previous/Next, a strip
  of your plays (mistakes marked) and the arrow keys, so stepping needs no round trip.

Card drawings are stored once per review (:class:`~calijack.widgets.demo_base.Sheet`).
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

from ..render.review import review_step_html
from ..review import review
from ..state import State
from ..text import seat_names
from ..text_coach import review_summary
from .demo_base import Sheet, build

__all__ = ["ReviewBoard", "review_frames", "review_stepper"]

HERE = Path(__file__).resolve().parent


def review_frames(state: State, reviews, seat: int, names=None, four_color: bool = False):
    """``(frames, labels, summary, sheet)`` for ``reviews`` (one seat's plays of ``state``'s deal)."""
    names = names or seat_names(state.players, seat)
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
        labels.append(f"Play {k} of {len(reviews)}: trick {r.trick}, you played {r.card}{mark}")
    mistakes = [r for r in reviews if r.mistake]
    summary = review_summary(len(mistakes), sum(r.loss for r in mistakes), len(reviews))
    return frames, labels, summary, sheet


def review_stepper(state: State, seat: int = 0, samples: int | None = None, seed: int = 0, reviews=None):
    """A slider over ``seat``'s plays of a finished deal, each reviewed (static: works in the book)."""
    if reviews is None:
        kwargs = {} if samples is None else {"samples": samples}
        reviews = review(state, seats=[seat], seed=seed, **kwargs)
    frames, labels, summary, _ = review_frames(state, reviews, seat)
    demo = build(lambda i: frames[i], len(frames), static=True, labels=labels, description="Your play",
                 header=f'<p class="cj-root cj-board-summary">{summary}</p>')
    demo.reviews, demo.summary = reviews, summary
    return demo


class ReviewBoard(anywidget.AnyWidget):
    """The sandbox's review: ``steps`` (one per play: label, mistake, HTML), stepped in the page.

    ``index`` is the step shown (the page sets it as the learner steps; Python may set it too);
    ``summary`` the headline; ``sheet`` the shared drawings. Empty until :meth:`show`.
    """

    # The strip's arrow keys (keys.js, shared with the card table), then the board.
    _esm = "\n".join((HERE / name).read_text(encoding="utf-8") for name in ("keys.js", "review.js"))
    _css = HERE.parent / "static" / "calijack.css"

    steps = traitlets.List([]).tag(sync=True)
    summary = traitlets.Unicode("").tag(sync=True)
    sheet = traitlets.Unicode("").tag(sync=True)
    index = traitlets.Int(0).tag(sync=True)

    def show(self, state: State, reviews, seat: int, names=None, four_color: bool = False) -> None:
        """Show ``reviews`` of ``seat``'s plays, from the first one (or the first mistake)."""
        frames, labels, summary, sheet = review_frames(state, reviews, seat, names, four_color)
        steps = [{"label": label, "short": f"{r.trick}: {r.card}", "mistake": r.mistake, "html": frame}
                 for label, r, frame in zip(labels, reviews, frames)]
        first = next((k for k, r in enumerate(reviews) if r.mistake), 0)
        with self.hold_sync():
            self.sheet = sheet.html()
            self.summary = summary
            self.steps = steps
            self.index = first

    def clear(self) -> None:
        """Empty the board (a new deal)."""
        with self.hold_sync():
            self.steps, self.summary, self.sheet, self.index = [], "", "", 0
