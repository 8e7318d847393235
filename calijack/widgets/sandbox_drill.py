"""The sandbox's **Try your mistakes again**: each mistake of the deal set up again at the table.

Mixed into :class:`calijack.widgets.sandbox.Sandbox` (whose table, session and words it uses).
Every decision is the engine's (:class:`calijack.retry.Retry` over
:func:`calijack.drill.drills_of`, the very values the review just showed); this module shows
the position, forwards the picks and says what the engine says. Offered (the table's "drill"
action) once a review has marked at least one mistake of the learner's. A mistake missed at
the first try is sent to the page's progress store (``queueDrill``: due tomorrow).
"""

from __future__ import annotations

from .. import render
from ..drill import drills_of
from ..retry import Retry, RetryError, queue_entry
from ..text_coach import drill_not_yet, drills_none

__all__ = ["TriesAgain"]


class TriesAgain:
    """The drill methods of the sandbox (see the module docstring)."""

    _retry: Retry | None = None
    _drills: tuple = ()
    _drills_for = None  # the finished deal the drills are of

    def _reviewed(self, reviews) -> None:
        """The review of the finished deal is shown: its mistakes become drills."""
        self._drills_for = self.session.state
        self._drills = tuple(drills_of(self.session.state, reviews))

    def _drill_actions(self) -> dict:
        """The "Try your mistakes again" action, when the deal shown has drills (merged into the table's)."""
        ready = bool(self._drills) and self._drills_for is self.session.state and self.session.state.finished
        return {"drill": True} if ready else {}

    def _on_drill(self) -> None:
        if not self._drill_actions():
            self._say(drills_none(), "cj-info", announce=True)
            return
        self._retry = Retry(self._drills)
        self._drill_render(self._retry.prompt(), announce=True)

    def _drill_pick(self, code: str) -> None:
        retry = self._retry
        first = retry.at not in retry.first
        try:
            verdict = retry.pick(code)
        except RetryError as error:
            self._say(str(error), "cj-reason", announce=True)
            return
        if first and not verdict.right:
            self.table.store({"store": "drill", "entry": queue_entry(retry.current)})
        if verdict.settled and retry.last:
            text = f"{verdict.text} {retry.summary()}"
        else:
            text = verdict.text
        self._drill_render(text, cls="cj-drill-right" if verdict.right else "cj-drill-wrong", announce=True)

    def _on_drill_next(self) -> None:
        retry = self._retry
        if retry is None or not retry.settled or not retry.next():
            self._say(drill_not_yet(), "cj-info", announce=True)
            return
        self._drill_render(retry.prompt(), announce=True)

    def _on_drill_stop(self) -> None:
        self._retry = None
        self._render(self.session.prompt())

    def _drill_table(self) -> None:
        """The current drill's position at the table, the learner to play (the legal cards marked
        while it is open, as in play: the review's answer is not shown)."""
        s, retry = self.session, self._retry
        position = retry.current.position
        self._frame += 1
        table = render.table_html(position.view(s.seat), names=s.names, scores=s.match_before.scores,
                                  fold_stock=False, target=s.rules.target, interactive=True,
                                  verdicts=None if retry.settled else position.verdicts(),
                                  four_color=self.four_color_toggle.value, css=False)
        self.table.table_html = (f'<div class="cj-sandbox-table cj-drill-table" data-plays="{len(position.plays)}" '
                                 f'data-drill="{retry.at + 1}" data-frame="{self._frame}" data-settled="1">'
                                 f"{table}</div>")

    def _drill_render(self, message: str, cls: str = "cj-info", announce: bool = False) -> None:
        """The current drill at the table, its actions, and ``message``."""
        retry = self._retry
        with self.table.hold_sync():
            self._drill_table()
            self.table.sheet_html = ""
            self.table.actions = {"drill_next": retry.settled and not retry.last, "drill_stop": True}
            self._say(message, cls, announce=announce)
            self._mark()
