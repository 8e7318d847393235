"""The sandbox: play California Jack against the computer, in Jupyter, Voilà or JupyterLite.

A thin view over :class:`calijack.play.Session`: every decision (legal cards and why, the
computer's cards, hints, undo, scores, records) is the session's, and through it the
engine's. This module only shows things and forwards clicks.

The table is one :class:`~calijack.widgets.table.CardTable` (an anywidget): the learner's own
card faces on it are what they click, tap or key, and Hint, Undo and Next deal sit just under
the hand. The settings, rule options and records are ordinary ipywidgets beside it. The
whole sandbox is about 90 widget models (it was 314), so a classroom's kernels start fast.

The game is kept in the browser's progress store (:mod:`calijack.progress`) after every play,
through the card table: the page tells the sandbox once what the store holds, and a saved
unfinished game is offered back (**Continue your game**, or **New deal**) after Python has
checked it, record and all. Finished deals go to the store's past deals and totals; a past
deal asked for by the progress page (``?review=ID``) opens with its review.

Once a review marks a mistake of the learner's, **Try your mistakes again** sets each one up
again at the table (:mod:`.sandbox_drill`, over the engine's :class:`calijack.retry.Retry`).

The store's side and the drills are helpers that own their state (``keeper``, a
:class:`~.sandbox_progress.ProgressKeeper`; ``tries``, a :class:`~.sandbox_drill.TriesAgain`):
each is given the session, the table and the view's callbacks it needs, and sets nothing of the
view's own.
"""

from __future__ import annotations

import asyncio
import html
import logging
import os
import sys
from urllib.parse import quote

import ipywidgets as widgets

from ..review import samples_setting
from .. import render
from ..cards import Card
from ..play import Session, SessionError, Step, available_opponents
from ..players import LEVELS
from ..rules import OPTIONS
from ..state import IllegalPlay, State
from ..text import say
from ..text_coach import review_ready, reviewing
from ..text_progress import say as progress_words
from .sandbox_drill import TriesAgain
from .sandbox_progress import ProgressKeeper
from .review import ReviewBoard
from .table import CardTable

__all__ = ["Sandbox", "DELAY"]

# Faults of calijack's own (never the learner's bad input) are logged here, with their
# traceback, to the kernel process's own standard error: Voilà's (the lesson server's) log, or
# the browser's console in the live book; never to the page. Handlers an application adds to
# the "calijack" loggers get them too.
LOG = logging.getLogger("calijack.sandbox")
if not LOG.handlers and sys.__stderr__ is not None:
    _server_log = logging.StreamHandler(sys.__stderr__)
    _server_log.setFormatter(logging.Formatter("[%(name)s %(asctime)s] %(levelname)s %(message)s"))
    LOG.addHandler(_server_log)

DELAY = 0.35  # seconds between two steps of the computer's play, in a live kernel
DELAY_ENV = "CALIJACK_SANDBOX_DELAY"


def delay_setting(env=None) -> float:
    """The computer's pause: ``$CALIJACK_SANDBOX_DELAY`` when it is a number of seconds from 0 to 5
    (the tests shorten it; a class's hub passes it on), else :data:`DELAY`: a mistyped setting is
    no reason for a lesson to fail."""
    try:
        wanted = float(str((os.environ if env is None else env).get(DELAY_ENV, DELAY)))
    except ValueError:
        return DELAY
    return wanted if 0 <= wanted <= 5 else DELAY


def _button(description: str, cls: str, tooltip: str = "") -> widgets.Button:
    button = widgets.Button(description=description, tooltip=tooltip)
    button.add_class(cls)
    return button


def _rule_control(name: str, value) -> widgets.Widget:
    # Plain words only: the option's question and one answer per value (rules.OPTIONS).
    option = OPTIONS[name]
    style = {"description_width": "initial"}
    if not option.values:
        control = widgets.IntText(value=value, description=option.label, style=style)
    else:
        labels = [option.choice(v) + (" (standard)" if v == option.standard and type(v) is type(option.standard)
                                      else "") for v in option.values]
        control = widgets.Dropdown(options=list(zip(labels, option.values)), value=value,
                                   description=option.label, style=style)
    control.add_class(f"cj-rule-{name}")
    control.tooltip = option.summary[:1].upper() + option.summary[1:]
    return control


def rules_words(rules) -> str:
    """The options of ``rules`` that differ from the standard profile, in a learner's words."""
    changed = rules.to_dict()
    if not changed:
        return "the standard rules"
    return "; ".join(f"{OPTIONS[name].label}: {OPTIONS[name].choice(value)}" for name, value in changed.items())


class Sandbox(widgets.VBox):
    """Play deals of a match against the computer: legal cards highlighted, hints, undo, records.

    ``Sandbox(seed=7)`` as a notebook's last expression is the whole lesson. Parts, for tests
    (each with its CSS class): ``session`` (the :class:`Session`); ``table`` (the
    :class:`CardTable`, ``cj-table-view``: the table, the hand as buttons, Hint/Undo/Next
    deal, the message line and the score sheet; ``play(card)`` and ``press(action)`` act as
    the page does); ``seed_input`` (``cj-seed``), ``new_deal_button`` (``cj-new-deal``),
    ``opponent_picker`` (``cj-opponent``) with ``opponent_about`` (``cj-opponent-about``: how
    the chosen opponent plays), ``reveal_toggle`` (``cj-reveal``),
    ``four_color_toggle`` (``cj-four-color``), ``log_view`` (``cj-log``), ``rule_controls``
    (``cj-rule-NAME``), ``end_box`` (``cj-end``) with ``replay_slider`` (``cj-replay``) and
    ``replay_view``; ``record_text`` (``cj-record``), ``save_button`` (``cj-save``),
    ``load_button`` (``cj-load``), ``download`` (``cj-download``); the helpers ``keeper`` (the
    progress store's side) and ``tries`` (the mistakes tried again, the comparison).
    """

    def __init__(self, seed: int | None = None, rules=None, opponent: str | None = None,
                 seat: int = 0, delay: float | None = None, session: Session | None = None):
        self.session = session or Session(seed=seed, rules=rules, opponent=opponent, seat=seat)
        # The pause between steps in a live kernel; tests and benchmarks may set it by environment.
        self.delay = delay_setting() if delay is None else delay
        self.busy = False
        self.ignored_clicks = 0  # clicks that arrived while busy (shown in the status marker)
        self._frame = 0
        self._hinted: Card | None = None
        self._note: str | None = None  # the table's line on what just happened
        self._replay_quiet = False
        self.table = CardTable(on_action=self._on_action, on_bad=lambda text: self._say(text, "cj-error"),
                               on_stored=lambda game, review, drills: self._guard(
                                   self.keeper.stored, game, review, drills, when_busy="allow"))
        self.table.add_class("cj-table-view")
        self.tries = TriesAgain(self.session, self.table, say=self._say, render=self._render, mark=self._mark,
                                next_frame=self._next_frame, four_color=lambda: self.four_color_toggle.value,
                                show_comparison=self._replay_comparison)
        self.keeper = ProgressKeeper(self.session, self.table, say=self._say, render=self._render,
                                     practise=self.tries.practise, review=self._on_review,
                                     show_opponent=self._show_opponent, loaded=self._after_load)
        self._build_settings()
        self._build_end()
        self.log_view = widgets.HTML()
        self.log_view.add_class("cj-log")
        extras = widgets.Accordion([self._rules_box(), self._records_box(), self.log_view],
                                   titles=("Rule options", "Save or load a record", "What happened so far"))
        extras.selected_index = None
        extras.add_class("cj-extras")
        play = widgets.VBox([self.table, self.end_box], layout=widgets.Layout(flex="1 1 560px", min_width="0"))
        side = widgets.VBox([self.settings, self.opponent_about, extras],
                            layout=widgets.Layout(flex="1 1 300px", min_width="0"))
        side.add_class("cj-side")
        super().__init__([widgets.HBox([play, side], layout=widgets.Layout(flex_flow="row wrap",
                                                                            align_items="flex-start"))])
        self.add_class("cj-sandbox")
        self._wire()
        self._render(self.session.prompt())

    # -- building ---------------------------------------------------------------------------
    def _build_settings(self) -> None:
        s = self.session
        self.seed_input = widgets.IntText(value=s.seed, description="Seed", style={"description_width": "initial"},
                                          layout=widgets.Layout(width="150px"))
        self.seed_input.add_class("cj-seed")
        self.new_deal_button = _button("New deal", "cj-new-deal", "Start a new match from this seed")
        # The levels by their labels; a tool's player (such as "random") by its name, if chosen.
        names = list(available_opponents()) + ([s.opponent] if s.opponent not in available_opponents() else [])
        self.opponent_picker = widgets.Dropdown(options=[(LEVELS[n].label if n in LEVELS else n, n) for n in names],
                                                value=s.opponent, description="Opponent",
                                                style={"description_width": "initial"})
        self.opponent_picker.add_class("cj-opponent")
        self.opponent_about = widgets.HTML(self._about(s.opponent))
        self.opponent_about.add_class("cj-opponent-about")
        self.reveal_toggle = widgets.Checkbox(value=False, description="Show all cards (teaching)", indent=False)
        self.reveal_toggle.add_class("cj-reveal")
        self.four_color_toggle = widgets.Checkbox(value=False, description="Four-colour suits", indent=False)
        self.four_color_toggle.add_class("cj-four-color")
        self.settings = widgets.HBox([self.seed_input, self.new_deal_button, self.opponent_picker,
                                      self.reveal_toggle, self.four_color_toggle])
        self.settings.add_class("cj-settings")

    def _build_end(self) -> None:
        self.replay_slider = widgets.IntSlider(description="Replay", min=0, max=0, continuous_update=False,
                                               layout=widgets.Layout(width="100%", max_width="520px"))
        self.replay_slider.add_class("cj-replay")
        self.replay_view = widgets.HTML()
        self.replay_view.add_class("cj-replay-view")
        self.review_board = ReviewBoard()
        self.review_board.add_class("cj-review-board")
        self.end_box = widgets.VBox([self.review_board, self.replay_slider, self.replay_view],
                                    layout=widgets.Layout(display="none"))
        self.end_box.add_class("cj-end")

    def _rules_box(self) -> widgets.VBox:
        pending = self.session.pending_rules
        self.rule_controls = {name: _rule_control(name, getattr(pending, name)) for name in OPTIONS}
        note = widgets.HTML('<p class="cj-small">Changes apply from the next <b>New deal</b>.</p>')
        box = widgets.VBox([note, *self.rule_controls.values()])
        box.add_class("cj-rules")
        return box

    def _records_box(self) -> widgets.VBox:
        self.record_text = widgets.Textarea(placeholder="Paste a deal or match record (JSON) here, then Load.",
                                            layout=widgets.Layout(width="100%", height="90px"))
        self.record_text.add_class("cj-record")
        self.save_button = _button("Save record", "cj-save", "Write this deal (or match) as a record")
        self.load_button = _button("Load record", "cj-load", "Play on from the record in the box")
        self.download = widgets.HTML()
        self.download.add_class("cj-download")
        return widgets.VBox([self.record_text, widgets.HBox([self.save_button, self.load_button]), self.download])

    def _wire(self) -> None:
        for button, action in [(self.new_deal_button, self._on_new_deal), (self.save_button, self._on_save),
                               (self.load_button, self._on_load)]:
            button.on_click(lambda _b, action=action: self._guard(action))
        self.opponent_picker.observe(lambda ch: self._guard(self._on_opponent, ch["new"], when_busy="allow"),
                                     "value")
        for toggle in (self.reveal_toggle, self.four_color_toggle):
            toggle.observe(lambda _ch: self.busy or self._redraw(), "value")
        self.replay_slider.observe(lambda ch: self._show_replay(ch["new"]), "value")
        for control in self.rule_controls.values():
            control.observe(lambda _ch: self._guard(self._on_rules, when_busy="allow"), "value")

    # -- what the learner does ----------------------------------------------------------------
    def play(self, card: Card | str) -> None:
        """Play ``card`` as a click on it does (for tests and notebooks)."""
        self.table.press("play", card.code if isinstance(card, Card) else card)

    def press(self, action: str) -> None:
        """Press "hint", "undo" or "next" as the page does."""
        self.table.press(action)

    def _on_action(self, action: str, card: str | None) -> None:
        if self.keeper.offered is not None and action not in ("continue", "fresh"):
            self._say(progress_words("offer_pending"), "cj-info")
            return
        if action == "play":
            self._guard(self._on_card, card, when_busy="ignore")
        else:
            handler = {"hint": self._on_hint, "undo": self._on_undo, "next": self._on_next_deal,
                       "review": self._on_review, "continue": self.keeper.continue_game, "fresh": self.keeper.fresh,
                       "drill": self.tries.start, "drill_next": self.tries.next, "compare": self.tries.compare,
                       "drill_stop": self.tries.stop}[action]
            self._guard(handler)

    def _guard(self, action, *args, when_busy: str = "refuse") -> None:
        # While the computer's cards are being shown, clicks do nothing: a card click is
        # ignored, another button says to wait; settings that apply later ("allow") are taken.
        # No error ever reaches the learner as a traceback.
        if self.busy and when_busy != "allow":
            self.ignored_clicks += 1
            if when_busy == "refuse":
                self._say(self.session.narrator.waiting(), "cj-info")
            self._mark()
            return
        try:
            action(*args)
            self.keeper.keep()
        except (SessionError, IllegalPlay) as error:
            self._say(str(error), "cj-error")
        except Exception as error:  # noqa: BLE001 - a learner must never see a traceback
            # The learner gets one sentence; the maintainer the traceback, in the server's log.
            LOG.exception("the sandbox's %s failed (the learner was told nothing changed)",
                          getattr(action, "__name__", action))
            self._say(say("unexpected", error=f"{type(error).__name__}: {error}"), "cj-error")

    def _on_card(self, code: str) -> None:
        if self.tries.active:  # a mistake set up again: the pick is the drill's
            self.tries.pick(code)
            return
        session = self.session
        try:
            steps = session.play(code)
        except IllegalPlay as error:
            if error.kind == "not_in_hand":  # a late second click on a card already played
                self._say(session.narrator.gone(error.card), "cj-info", announce=True)
            elif error.card is None:
                self._say(str(error), "cj-error", announce=True)
            else:
                self._say(f"{error.card} cannot be played. {error}", "cj-reason", announce=True)
            return
        self._hinted = None
        self.keeper.note_play(session.finished)
        self._show(steps)

    def _on_new_deal(self) -> None:
        self._hinted = None
        self._show(self.session.new_deal(self.seed_input.value))
        self.keeper.new_game()

    def _on_next_deal(self) -> None:
        self._hinted = None
        self._show(self.session.next_deal())
        self.keeper.new_game_unless_kept()  # on from a past deal opened for review: a game of its own

    def _on_hint(self) -> None:
        if self.tries.active:  # a queued mistake at the table: the drill's hint
            self.tries.hint()
            return
        hint = self.session.hint()
        self._hinted = hint.card
        self._render_table(self.session.state, note=self._note)
        reason = hint.reason if hint.reason.endswith((".", "!", "?")) else hint.reason + "."
        self._say(f"Hint: play {hint.card}. {reason}", "cj-hint-text", announce=True)

    def _on_undo(self) -> None:
        self.session.undo()
        self._hinted = None
        self._render(self.session.narrator.undone() + " " + self.session.prompt())

    def _on_review(self) -> None:
        s = self.session
        self._say(reviewing(), "cj-info", announce=True)
        # Fewer worlds for tests by environment; the learner gets the coach's default.
        reviews = s.review(samples_setting())
        self.review_board.show(s.state, reviews, s.seat, names=s.names, four_color=self.four_color_toggle.value)
        self.tries.reviewed(reviews)
        self.table.actions = {**self.table.actions, **self.tries.actions()}
        self._say(review_ready(self.review_board.summary), "cj-info", announce=True)

    @staticmethod
    def _about(name: str) -> str:
        level = LEVELS.get(name)
        return f'<p class="cj-small">{html.escape(level.about)}</p>' if level else ""

    def _on_opponent(self, name: str) -> None:
        if name == self.session.opponent:  # set from a saved game: nothing to say
            return
        self.session.set_opponent(name)
        self.opponent_about.value = self._about(name)
        label = LEVELS[name].label if name in LEVELS else name
        self._say(f"You now play against the {label} computer player.", "cj-info")

    def _on_rules(self) -> None:
        rules = self.session.set_rules({n: c.value for n, c in self.rule_controls.items()})
        self._say(f"Next new deal: {rules_words(rules)}.", "cj-info")

    def _on_save(self) -> None:
        text = self.session.record_json()
        kind = "match" if self.session.deal_number > 1 else "deal"
        self.record_text.value = text
        href = "data:application/json;charset=utf-8," + quote(text, safe="")
        name = f"calijack-{kind}-{self.session.seed}.json"
        self.download.value = (f'<a class="cj-download-link" download="{name}" href="{href}">'
                               f"Download the {kind} record ({name})</a>")
        self._say(f"The {kind} record is in the box under Save or load a record: copy it, or download it.",
                  "cj-info")

    def _on_load(self) -> None:
        self.session.load(self.record_text.value)
        self.keeper.new_game()
        self._after_load()
        if not self.session.finished and not self.session.your_turn:
            self._show(self.session.advance())
        else:
            self._render("Record loaded. " + self.session.prompt())

    def _show_opponent(self, name: str) -> None:
        """The picker shows ``name``, the session's opponent already (so it says nothing)."""
        self.opponent_picker.value = name

    def _after_load(self) -> None:
        """A game was loaded into the session: no hint stands, the rule controls show its rules."""
        self._hinted = None
        self._sync_rule_controls()

    def _sync_rule_controls(self) -> None:
        rules = self.session.pending_rules
        for name, control in self.rule_controls.items():
            if control.value != getattr(rules, name):
                control.value = getattr(rules, name)

    # -- showing ----------------------------------------------------------------------------
    def _say(self, text: str, cls: str = "cj-info", announce: bool = False) -> None:
        self.table.message_html = f'<span class="{cls}">{html.escape(text)}</span>'
        if announce:
            self.table.announce(text)

    def _frames(self, steps: list[Step]) -> list[tuple[State, str]]:
        # Steps that leave the table in the same position (a trick won, its draws) share a frame.
        frames: list[tuple[State, str]] = []
        for step in steps:
            if frames and frames[-1][0] is step.state:
                frames[-1] = (step.state, frames[-1][1] + " " + step.text)
            else:
                frames.append((step.state, step.text))
        return frames

    def _heard(self, steps: list[Step]) -> str:
        # What a screen reader hears: what the others did, the trick's winner and the draws
        # (the learner knows which card they played), then what to do now.
        said = " ".join(s.text for s in steps if not (s.kind == "play" and s.seat == self.session.seat))
        after = "The score sheet is below the table." if self.session.finished else self.session.prompt()
        return f"{said} {after}".strip()

    def _show(self, steps: list[Step]) -> None:
        """Show what happened: frame by frame with a pause in a live kernel, else at once."""
        frames = self._frames(steps)
        heard = self._heard(steps)
        loop = None
        if self.delay > 0 and len(frames) > 1:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                loop = None
        if loop is None:
            note = " ".join(text for _, text in frames) or None
            self._render(self.session.prompt(), note=note)
            self.table.announce(heard)
            return
        self.busy = True
        self.table.busy = True
        loop.create_task(self._animate(frames, heard))

    async def _animate(self, frames, heard: str) -> None:
        try:
            for k, (state, note) in enumerate(frames):
                if k:
                    await asyncio.sleep(self.delay)
                if k < len(frames) - 1:
                    self._render_table(state, note=note, settled=False)
        finally:
            self.busy = False
            with self.table.hold_sync():
                self.table.busy = False
                self._render(self.session.prompt(), note=frames[-1][1])
            self.table.announce(heard)

    def _render(self, message: str, note: str | None = None) -> None:
        """Show the session as it is now: table, hand, actions, log, and the end of a deal."""
        s = self.session
        state = s.state
        self.tries.end()  # the session's table again: a drill under way ends
        with self.table.hold_sync():  # one message to the page: the table and what goes with it
            self._render_table(state, note=note)
            self._say(message)
            self.table.actions = {"hint": s.your_turn, "undo": s.can_undo,
                                  **({"next": True} if s.can_continue else {}),
                                  **({"review": True} if state.finished else {}), **self.tries.actions()}
            if state.finished:
                self.table.sheet_html = render.score_sheet_html(s.result, names=s.names, match_scores=s.scores,
                                                                target=s.rules.target, counted=s.match.counted[-1],
                                                                four_color=self.four_color_toggle.value)
            else:
                self.table.sheet_html = ""
            self._mark()
        lines = "".join(f"<p>{html.escape(line)}</p>" for line in s.log)
        self.log_view.value = f'<div class="cj-log-lines"><div>{lines}</div></div>'
        if state.finished:
            # The replay is drawn when the slider moves, not before: the table shows the end.
            with self.replay_slider.hold_trait_notifications():
                self._replay_quiet = True
                self.replay_slider.max = self.replay_slider.value = len(state.plays)
            self._replay_quiet = False
            self.replay_view.value = '<p class="cj-small">Move the slider to step back through the deal.</p>'
            self.end_box.layout.display = "flex"
        else:
            self.end_box.layout.display = "none"
            self.replay_view.value = ""
            if self.review_board.steps:
                self.review_board.clear()

    def _redraw(self) -> None:
        # A display setting changed: the table again as it is (a drill's position, if one is set up).
        if self.tries.active:
            self.tries.draw_table()
        else:
            self._render_table(self.session.state, note=self._note)

    def _mark(self, settled: bool = True) -> None:
        # Markers for tests and benchmarks: what the page shows, written with it.
        s = self.session
        self.table.status = {"plays": len(s.state.plays), "deal": s.deal_number, "frame": self._frame,
                             "ignored": self.ignored_clicks, "settled": int(settled and not self.busy)}

    def _next_frame(self) -> int:
        """A new drawing of the table: its number (the status marker's ``frame``)."""
        self._frame += 1
        return self._frame

    def _render_table(self, state: State, note: str | None = None, settled: bool = True) -> None:
        s = self.session
        self._next_frame()
        self._note = note
        reveal = state if self.reveal_toggle.value else None
        scores = (s.match if state.finished else s.match_before).scores
        mine = settled and state is s.state and s.your_turn
        table = render.table_html(state.view(s.seat), reveal=reveal, names=s.names, scores=scores, fold_stock=False,
                                  target=s.rules.target, note=note, interactive=True,
                                  verdicts=s.verdicts() if mine else None, hint=self._hinted if mine else None,
                                  four_color=self.four_color_toggle.value, css=False)
        self.table.table_html = (f'<div class="cj-sandbox-table" data-plays="{len(state.plays)}" '
                                 f'data-deal="{s.deal_number}" data-frame="{self._frame}" '
                                 f'data-settled="{int(settled)}">{table}</div>')
        if not settled:
            self._mark(settled=False)

    def _show_replay(self, plays: int) -> None:
        # The deal played, or once compared, the computer's deal with the same cards.
        s = self.session
        if not s.state.finished or self._replay_quiet:
            return
        comparison = self.tries.compared()
        state = comparison.state if comparison is not None else s.state
        position = state.rewind(plays)
        what = ("the deal as dealt" if plays == 0
                else f"after card {plays} of {len(state.plays)} ({state.plays[plays - 1]})")
        whose = "The computer's deal with your cards" if comparison is not None else "Replay"
        self.replay_view.value = render.table_html(position.view(s.seat), reveal=position, names=s.names,
                                                   note=f"{whose}, every card face up: {what}.",
                                                   four_color=self.four_color_toggle.value, css=False)

    def _replay_comparison(self, comparison) -> None:
        """The replay steps through the computer's deal with the same cards, from the start."""
        with self.replay_slider.hold_trait_notifications():
            self._replay_quiet = True
            self.replay_slider.max = len(comparison.state.plays)
            self.replay_slider.value = 0
        self._replay_quiet = False
        self._show_replay(0)

    def compared(self):
        """The comparison of the deal shown with the computer's play (:meth:`.TriesAgain.compared`)."""
        return self.tries.compared()

    def record(self) -> str:
        """The current record as JSON text (what Save puts in the box)."""
        return self.session.record_json()
