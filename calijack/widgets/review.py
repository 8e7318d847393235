"""Reviewing a deal: step through your plays, each card's value beside the best card's.

Two views of one list of frames (:func:`calijack.render.review.review_frames`, each drawn from
the engine's :func:`calijack.review.review`; the class service's review page shows the same):

- :func:`review_stepper`, a static demo (a slider over precomputed frames) for the book;
- :class:`ReviewBoard`, one small anywidget for the sandbox: every frame is sent once, and
  ``review.js`` (beside this file) steps through them in the page, with Previous/Next, a strip
  of your plays (mistakes marked) and the arrow keys, so stepping needs no round trip.

Card drawings are stored once per review (:class:`~calijack.render.compact.Sheet`).
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

from ..render.review import review_frames, review_steps
from ..review import review
from ..state import State
from .demo_base import build

__all__ = ["ReviewBoard", "review_frames", "review_stepper"]

HERE = Path(__file__).resolve().parent


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
        board = review_steps(state, reviews, seat, names, four_color)
        with self.hold_sync():
            self.sheet = board["sheet"]
            self.summary = board["summary"]
            self.steps = board["steps"]
            self.index = board["index"]

    def clear(self) -> None:
        """Empty the board (a new deal)."""
        with self.hold_sync():
            self.steps, self.summary, self.sheet, self.index = [], "", "", 0
