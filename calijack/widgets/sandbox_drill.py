"""The sandbox's **Try your mistakes again**: each mistake set up again at the table.

A helper of :class:`calijack.widgets.sandbox.Sandbox` that owns its state (the mistakes of the
deal reviewed, the one under way, the comparison with the computer's play) and acts on the view
only through what its constructor is given: the session, the card table and the view's callbacks.
Every decision is the engine's (:class:`calijack.retry.Retry`); this module shows the position,
forwards the picks and says what the engine says. Two ways in:

- after a review that marked a mistake of the learner's (the table's "drill" action): the
  deal's mistakes (:func:`calijack.drill.drills_of`, the very values the review just showed);
  one missed at the first try is sent to the page's progress store (``queueDrill``: due tomorrow);
- from the Practice chapter's **Due today** (``?drills=due``): the queued mistakes due today,
  as the page's store hands them over, each checked (:func:`calijack.retry.read_entry`); a
  Hint is offered, and each answer moves the mistake along the schedule
  (:func:`calijack.retry.next_step`, ``drillAnswer`` in the store).
"""

from __future__ import annotations

from .. import render
from ..drill import drills_of
from ..progress import DRILL_DAYS, ProgressError
from ..retry import Retry, RetryError, next_step, queue_entry, read_entry
from ..text_coach import drill_not_yet, drill_stars, drills_none, same_cards, same_cards_working
from ..text_progress import say as progress_words

__all__ = ["TriesAgain"]


class TriesAgain:
    """The sandbox's drills and comparisons (see the module docstring).

    ``say(text, cls, announce=False)`` writes the table's message line; ``render(message)`` shows
    the session's own table again (and ends a drill: it calls :meth:`end`); ``mark()`` writes
    the status markers; ``next_frame()`` numbers a new table drawing; ``four_color()`` is the
    view's colour setting; ``show_comparison(comparison)`` steps the replay through it.
    """

    def __init__(self, session, table, *, say, render, mark, next_frame, four_color, show_comparison) -> None:
        self.session = session
        self.table = table
        self._say = say
        self._render = render
        self._mark = mark
        self._next_frame = next_frame
        self._four_color = four_color
        self._show_comparison = show_comparison
        self.retry: Retry | None = None  # the mistakes under way at the table, else None
        self.drills: tuple = ()  # the mistakes of the deal last reviewed
        self._drills_for = None  # the finished deal the drills are of
        self._queued: tuple = ()  # practising the queue: each drill's entry (its id and step), else ()
        self._compared = None  # (the finished deal, its Comparison)

    @property
    def active(self) -> bool:
        """Whether a mistake is set up at the table (its picks and hint are the drill's)."""
        return self.retry is not None

    def end(self) -> None:
        """The session's table again: a drill under way ends."""
        self.retry, self._queued = None, ()

    def reviewed(self, reviews) -> None:
        """The review of the finished deal is shown: its mistakes become drills."""
        self._drills_for = self.session.state
        self.drills = tuple(drills_of(self.session.state, reviews))

    def actions(self) -> dict:
        """The actions of a finished deal merged into the table's: "Try your mistakes again" once
        its review marked a mistake, and the same cards played by the computer."""
        state = self.session.state
        ready = bool(self.drills) and self._drills_for is state and state.finished
        return {**({"drill": True} if ready else {}), **({"compare": True} if state.finished else {})}

    # -- the same cards, played by the computer ----------------------------------------------------
    def compared(self):
        """The comparison of the deal shown (:class:`calijack.drill.Comparison`), or None."""
        got = self._compared
        return got[1] if got is not None and got[0] is self.session.state else None

    def compare(self) -> None:
        """The table's "compare" action: the computer plays the same cards."""
        s = self.session
        total = len(s.state.plays)
        said = [0]

        def progress(done, _total):  # a line every eighth of the deal, while the computer plays
            if done - said[0] >= max(1, total // 8):
                said[0] = done
                self._say(same_cards_working(done, total), "cj-info")

        self._say(same_cards_working(0, total), "cj-info", announce=True)
        comparison = s.compare(progress)
        self._compared = (s.state, comparison)
        self._show_comparison(comparison)
        self._say(same_cards(comparison.you, comparison.computer), "cj-info", announce=True)

    # -- the mistakes again ------------------------------------------------------------------------
    def start(self) -> None:
        """The table's "drill" action: the reviewed deal's mistakes, one by one."""
        if not self.actions():
            self._say(drills_none(), "cj-info", announce=True)
            return
        self.retry, self._queued = Retry(self.drills), ()
        self._show(self.retry.prompt(), announce=True)

    def practise(self, entries) -> None:
        """The queued mistakes due today, as the page sent them: each read back, the bad ones left out."""
        drills, queued, bad = [], [], 0
        for entry in entries if isinstance(entries, list) else []:
            try:
                drills.append(read_entry(entry))
                queued.append(entry)
            except ProgressError:
                bad += 1
        note = progress_words("drills_bad", bad=bad) + " " if bad or not isinstance(entries, list) else ""
        if not drills:
            self._render(note + progress_words("drills_none_due") + " " + self.session.prompt())
            return
        self.retry, self._queued = Retry(drills), tuple(queued)
        self._show(note + self.retry.prompt(), announce=True)

    def pick(self, code: str) -> None:
        """A card picked at the table while a mistake is set up."""
        retry = self.retry
        first = retry.at not in retry.first
        try:
            verdict = retry.pick(code)
        except RetryError as error:
            self._say(str(error), "cj-reason", announce=True)
            return
        text = verdict.text
        if self._queued:
            if verdict.settled:  # the schedule moves once the mistake is settled
                entry = self._queued[retry.at]
                step = next_step(entry["step"], retry.wrong == 0)
                self.table.store({"store": "drill_answer", "id": entry["id"], "step": step})
                text += " " + drill_stars(retry.stars(), DRILL_DAYS[step])
        elif first and not verdict.right:
            self.table.store({"store": "drill", "entry": queue_entry(retry.current)})
        if verdict.settled and retry.last:
            text += " " + retry.summary(queued=not self._queued)
        self._show(text, cls="cj-drill-right" if verdict.right else "cj-drill-wrong", announce=True)

    def hint(self) -> None:
        """The table's Hint while a queued mistake is set up."""
        try:
            text = self.retry.hint()
        except RetryError as error:
            self._say(str(error), "cj-info", announce=True)
            return
        self._show(text, cls="cj-hint-text", announce=True)

    def next(self) -> None:
        """The table's "drill_next" action: the next mistake, once this one is settled."""
        retry = self.retry
        if retry is None or not retry.settled or not retry.next():
            self._say(drill_not_yet(), "cj-info", announce=True)
            return
        self._show(retry.prompt(), announce=True)

    def stop(self) -> None:
        """The table's "drill_stop" action: back to the session's table."""
        self.end()
        self._render(self.session.prompt())

    def draw_table(self) -> None:
        """The current drill's position at the table, the learner to play (the legal cards marked
        while it is open, as in play: the review's answer is not shown)."""
        s, retry = self.session, self.retry
        position = retry.current.position
        frame = self._next_frame()
        own = position.players == s.state.players and position.to_play == s.seat  # else: seats by number
        table = render.table_html(position.view(position.to_play), names=s.names if own else None,
                                  fold_stock=False, interactive=True,
                                  verdicts=None if retry.settled else position.verdicts(),
                                  four_color=self._four_color(), css=False)
        self.table.table_html = (f'<div class="cj-sandbox-table cj-drill-table" data-plays="{len(position.plays)}" '
                                 f'data-drill="{retry.at + 1}" data-frame="{frame}" data-settled="1">'
                                 f"{table}</div>")

    def _show(self, message: str, cls: str = "cj-info", announce: bool = False) -> None:
        """The current drill at the table, its actions, and ``message``."""
        retry = self.retry
        with self.table.hold_sync():
            self.draw_table()
            self.table.sheet_html = ""
            hint = {"hint": not retry.settled and not retry.hinted} if self._queued else {}
            self.table.actions = {**hint, "drill_next": retry.settled and not retry.last, "drill_stop": True}
            self._say(message, cls, announce=announce)
            self._mark()
