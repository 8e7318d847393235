"""The sandbox: play California Jack against the computer, in Jupyter or Voilà.

A thin ipywidgets view over :class:`calijack.play.Session`: every decision (legal cards and
why, the computer's cards, hints, undo, scores, records) is the session's, and through it the
engine's. This module only shows things and forwards clicks.

Each card of the learner's hand is a ``Button`` that belongs to that card for good (52 are
made once; the hand row shows the ones held). A late or repeated click therefore always
names the card it was made on: it can never land on another card.
"""

from __future__ import annotations

import asyncio
import html
import os
from urllib.parse import quote

import ipywidgets as widgets

from .. import render
from ..cards import DECK, Card
from ..play import Session, SessionError, Step, available_opponents
from ..rules import OPTIONS
from ..state import IllegalPlay, State

__all__ = ["Sandbox", "DELAY"]

DELAY = 0.35  # seconds between two steps of the computer's play, in a live kernel
_MARKS = ("cj-legal", "cj-illegal", "cj-waiting", "cj-hinted")

_CSS = """<style>
.cj-sandbox{max-width:1200px}
.cj-sandbox .cj-side{flex:0 1 430px}
.cj-sandbox .jupyter-button.cj-hand-card{width:58px;height:46px;font-size:19px;font-weight:600;
 background:#fffef6;border:1px solid #9a927c;border-radius:6px;color:#1d1d1f;padding:0}
.cj-sandbox .jupyter-button.cj-hand-card.cj-red{color:#b3261e}
.cj-sandbox .jupyter-button.cj-hand-card.cj-legal{border:3px solid #d4a017;background:#fff4c4;
 transform:translateY(-4px);box-shadow:0 3px 6px rgba(0,0,0,.25)}
.cj-sandbox .jupyter-button.cj-hand-card.cj-illegal{opacity:.42}
.cj-sandbox .jupyter-button.cj-hand-card.cj-waiting{opacity:.7}
.cj-sandbox .jupyter-button.cj-hand-card.cj-hinted{outline:3px solid #2a7de1;outline-offset:2px}
.cj-sandbox .cj-hand{align-items:flex-end;min-height:58px;padding-top:6px}
.cj-sandbox .cj-message{min-height:3em;font-size:15px;margin:6px 0}
.cj-sandbox .cj-message .cj-reason,.cj-sandbox .cj-message .cj-error{color:#9b1c1c;font-weight:600}
.cj-sandbox .cj-message .cj-hint-text{color:#174ea6}
.cj-sandbox .cj-log-lines{max-height:420px;overflow-y:auto;display:flex;flex-direction:column-reverse;
 font-size:13px;border:1px solid #ddd;border-radius:6px;padding:4px 8px;background:#fafafa;color:#222}
.cj-sandbox .cj-log-lines p{margin:1px 0}
</style>"""


def _html(cls: str, value: str = "") -> widgets.HTML:
    box = widgets.HTML(value)
    box.add_class(cls)
    return box


def _button(description: str, cls: str, tooltip: str = "") -> widgets.Button:
    button = widgets.Button(description=description, tooltip=tooltip)
    button.add_class(cls)
    return button


def _rule_control(name: str, value) -> widgets.Widget:
    option = OPTIONS[name]
    style = {"description_width": "100px"}
    if not option.values:
        control = widgets.IntText(value=value, description=name, style=style,
                                  layout=widgets.Layout(width="190px"))
    else:
        labels = [(("yes" if v else "no") if isinstance(v, bool) else str(v)) +
                  (" (standard)" if v == option.standard and type(v) is type(option.standard) else "")
                  for v in option.values]
        control = widgets.Dropdown(options=list(zip(labels, option.values)), value=value,
                                   description=name, style=style, layout=widgets.Layout(width="300px"))
    control.add_class(f"cj-rule-{name}")
    control.tooltip = option.summary
    return control


class Sandbox(widgets.VBox):
    """Play deals of a match against the computer: legal cards highlighted, hints, undo, records.

    ``Sandbox(seed=7)`` as a notebook's last expression is the whole lesson. Parts, for tests
    (each with its CSS class): ``session`` (the :class:`Session`), ``card_buttons`` (card →
    ``Button``, ``cj-hand-card`` plus ``cj-legal``/``cj-illegal``/``cj-waiting``/``cj-hinted``
    and ``cj-card-JH``), ``hand_box`` (``cj-hand``), ``table`` (``cj-table-view``),
    ``message`` (``cj-message``), ``log_view`` (``cj-log``), ``hint_button`` (``cj-hint``),
    ``undo_button`` (``cj-undo``), ``seed_input`` (``cj-seed``), ``new_deal_button``
    (``cj-new-deal``), ``next_deal_button`` (``cj-next-deal``), ``opponent_picker``
    (``cj-opponent``), ``reveal_toggle`` (``cj-reveal``), ``rule_controls`` (``cj-rule-NAME``),
    ``end_box`` (``cj-end``) with ``score_sheet`` (``cj-score``), ``replay_slider``
    (``cj-replay``) and ``replay_view``; ``record_text`` (``cj-record``), ``save_button``
    (``cj-save``), ``load_button`` (``cj-load``), ``download`` (``cj-download``); ``status``
    (``cj-status``: a marker written last, once everything is shown).
    """

    def __init__(self, seed: int | None = None, rules=None, opponent: str | None = None,
                 seat: int = 0, delay: float | None = None, session: Session | None = None):
        self.session = session or Session(seed=seed, rules=rules, opponent=opponent, seat=seat)
        # The pause between steps in a live kernel; tests and benchmarks may set it by environment.
        self.delay = float(os.environ.get("CALIJACK_SANDBOX_DELAY", DELAY)) if delay is None else delay
        self.busy = False
        self.ignored_clicks = 0  # clicks that arrived while busy (shown in the status marker)
        self._frame = 0
        self._hinted: Card | None = None
        self._marks: dict[Card, str] = {}
        self._replay_quiet = False
        self._build_controls()
        self._build_hand()
        self._build_outputs()
        extras = widgets.Accordion([self._rules_box(), self._records_box()],
                                   titles=("Rule options", "Save or load a record"))
        extras.selected_index = None
        extras.add_class("cj-extras")
        side = widgets.VBox([widgets.HTML("<b>Your hand</b>: click a card to play it."), self.hand_box,
                             widgets.HBox([self.hint_button, self.undo_button]), self.message, self.log_view],
                            layout=widgets.Layout(width="430px", margin="0 0 0 12px"))
        side.add_class("cj-side")
        top = widgets.HBox([self.seed_input, self.new_deal_button, self.next_deal_button, self.opponent_picker,
                            self.reveal_toggle],
                           layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        middle = widgets.HBox([self.table, side],
                              layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"))
        super().__init__([widgets.HTML(_CSS), top, middle, self.end_box, extras, self.status])
        self.add_class("cj-sandbox")
        self._wire()
        self._render(self.session.prompt())

    def _build_controls(self) -> None:
        s = self.session
        self.seed_input = widgets.IntText(value=s.seed, description="Seed",
                                          layout=widgets.Layout(width="170px"),
                                          style={"description_width": "40px"})
        self.seed_input.add_class("cj-seed")
        self.new_deal_button = _button("New deal", "cj-new-deal", "Start a new match from this seed")
        self.next_deal_button = _button("Next deal", "cj-next-deal", "Deal the next deal of the match")
        self.opponent_picker = widgets.Dropdown(options=list(available_opponents()), value=s.opponent,
                                                description="Opponent", layout=widgets.Layout(width="230px"))
        self.opponent_picker.add_class("cj-opponent")
        self.reveal_toggle = widgets.Checkbox(value=False, description="Show all cards (teaching)", indent=False)
        self.reveal_toggle.layout = widgets.Layout(width="220px", margin="0 0 0 12px")
        self.reveal_toggle.add_class("cj-reveal")
        self.hint_button = _button("Hint", "cj-hint", "Suggest a card, and say why")
        self.undo_button = _button("Undo", "cj-undo", "Take back your last card")
        for button in (self.hint_button, self.undo_button):
            button.layout.width = "120px"

    def _build_hand(self) -> None:
        # One button per card of the pack, made once: a click always names its own card.
        self.card_buttons: dict[Card, widgets.Button] = {}
        for card in DECK:
            button = _button(str(card), "cj-hand-card")
            button._dom_classes += (f"cj-card-{card.code}",) + (("cj-red",) if card.suit.is_red else ())
            button.on_click(lambda _b, card=card: self._guard(self._on_card, card, when_busy="ignore"))
            self.card_buttons[card] = button
        self.hand_box = widgets.HBox([], layout=widgets.Layout(flex_flow="row wrap"))
        self.hand_box.add_class("cj-hand")

    def _build_outputs(self) -> None:
        self.table = _html("cj-table-view")
        self.message = _html("cj-message")
        self.log_view = _html("cj-log")
        self.score_sheet = _html("cj-score")
        self.replay_slider = widgets.IntSlider(description="Replay", min=0, max=0, continuous_update=False,
                                               layout=widgets.Layout(width="520px"))
        self.replay_slider.add_class("cj-replay")
        self.replay_view = _html("cj-replay-view")
        self.end_box = widgets.VBox([self.score_sheet, self.replay_slider, self.replay_view],
                                    layout=widgets.Layout(display="none"))
        self.end_box.add_class("cj-end")
        self.status = _html("cj-status")

    def _rules_box(self) -> widgets.VBox:
        pending = self.session.pending_rules
        self.rule_controls = {name: _rule_control(name, getattr(pending, name)) for name in OPTIONS}
        rows = []
        for name, control in self.rule_controls.items():
            option = OPTIONS[name]
            about = f"{option.summary} (other value from source {option.source})"
            rows.append(widgets.HBox([control, widgets.HTML(f"<small>{html.escape(about)}</small>")]))
        return widgets.VBox([widgets.HTML("<em>Rule changes apply from the next <b>New deal</b>.</em>"), *rows])

    def _records_box(self) -> widgets.VBox:
        self.record_text = widgets.Textarea(placeholder="Paste a deal or match record (JSON) here, then Load.",
                                            layout=widgets.Layout(width="100%", height="90px"))
        self.record_text.add_class("cj-record")
        self.save_button = _button("Save record", "cj-save", "Write this deal (or match) as a record")
        self.load_button = _button("Load record", "cj-load", "Play on from the record in the box")
        self.download = _html("cj-download")
        buttons = widgets.HBox([self.save_button, self.load_button])
        return widgets.VBox([self.record_text, buttons, self.download])

    def _wire(self) -> None:
        for button, action in [(self.new_deal_button, self._on_new_deal), (self.hint_button, self._on_hint),
                               (self.next_deal_button, self._on_next_deal), (self.undo_button, self._on_undo),
                               (self.save_button, self._on_save), (self.load_button, self._on_load)]:
            button.on_click(lambda _b, action=action: self._guard(action))
        self.opponent_picker.observe(lambda ch: self._guard(self._on_opponent, ch["new"], when_busy="allow"),
                                     "value")
        self.reveal_toggle.observe(lambda _ch: self.busy or self._render_table(self.session.state), "value")
        self.replay_slider.observe(lambda ch: self._show_replay(ch["new"]), "value")
        for control in self.rule_controls.values():
            control.observe(lambda _ch: self._guard(self._on_rules, when_busy="allow"), "value")

    # -- the controls ---------------------------------------------------------------------
    def _guard(self, action, *args, when_busy: str = "refuse") -> None:
        # While the computer's cards are being shown, clicks do nothing: a card click is
        # ignored, another button says to wait; settings that apply later ("allow") are taken.
        # No error ever reaches the learner as a traceback.
        if self.busy and when_busy != "allow":
            self.ignored_clicks += 1
            if when_busy == "refuse":
                self._say("Wait a moment: the computer is still playing.", "cj-info")
            return
        try:
            action(*args)
        except (SessionError, IllegalPlay) as error:
            self._say(str(error), "cj-error")
        except Exception as error:  # noqa: BLE001 - a learner must never see a traceback
            self._say(f"Something went wrong ({type(error).__name__}: {error}). Nothing was changed.",
                      "cj-error")

    def _on_card(self, card: Card) -> None:
        session = self.session
        if card not in session.hand:
            self._say(f"{card} is not in your hand any more.", "cj-info")
            return
        try:
            steps = session.play(card)
        except IllegalPlay as error:
            self._say(f"{card} cannot be played. {error}", "cj-reason")
            return
        self._hinted = None
        self._show(steps)

    def _on_new_deal(self) -> None:
        self._hinted = None
        self._show(self.session.new_deal(self.seed_input.value))

    def _on_next_deal(self) -> None:
        self._hinted = None
        self._show(self.session.next_deal())

    def _on_hint(self) -> None:
        hint = self.session.hint()
        self._hinted = hint.card
        self._update_hand(self.session.state, settled=True)
        reason = hint.reason if hint.reason.endswith((".", "!", "?")) else hint.reason + "."
        self._say(f"Hint: play {hint.card}. {reason}", "cj-hint-text")

    def _on_undo(self) -> None:
        self.session.undo()
        self._hinted = None
        self._render("Took back your last card, and the computer's replies. " + self.session.prompt())

    def _on_opponent(self, name: str) -> None:
        self.session.set_opponent(name)
        self._say(f"You now play against the {name} computer player.", "cj-info")

    def _on_rules(self) -> None:
        rules = self.session.set_rules({n: c.value for n, c in self.rule_controls.items()})
        changed = rules.describe()
        what = "standard rules" if not changed else "; ".join(changed)
        self._say(f"Next new deal: {what}.", "cj-info")

    def _on_save(self) -> None:
        text = self.session.record_json()
        kind = "match" if self.session.deal_number > 1 else "deal"
        self.record_text.value = text
        href = "data:application/json;charset=utf-8," + quote(text, safe="")
        name = f"calijack-{kind}-{self.session.seed}.json"
        self.download.value = (f'<a class="cj-download-link" download="{name}" href="{href}">'
                               f"Download the {kind} record ({name})</a>")
        self._say(f"The {kind} record is in the box below: copy it, or download it.", "cj-info")

    def _on_load(self) -> None:
        self.session.load(self.record_text.value)
        self._hinted = None
        self._sync_rule_controls()
        if not self.session.finished and not self.session.your_turn:
            self._show(self.session.advance())
        else:
            self._render("Record loaded. " + self.session.prompt())

    def _sync_rule_controls(self) -> None:
        rules = self.session.pending_rules
        for name, control in self.rule_controls.items():
            if control.value != getattr(rules, name):
                control.value = getattr(rules, name)

    # -- showing ----------------------------------------------------------------------------
    def _say(self, text: str, cls: str = "cj-info") -> None:
        self.message.value = f'<span class="{cls}">{html.escape(text)}</span>'

    def _frames(self, steps: list[Step]) -> list[tuple[State, str]]:
        # Steps that leave the table in the same position (a trick won, its draws) share a frame.
        frames: list[tuple[State, str]] = []
        for step in steps:
            if frames and frames[-1][0] is step.state:
                frames[-1] = (step.state, frames[-1][1] + " " + step.text)
            else:
                frames.append((step.state, step.text))
        return frames

    def _show(self, steps: list[Step]) -> None:
        """Show what happened: frame by frame with a pause in a live kernel, else at once."""
        frames = self._frames(steps)
        loop = None
        if self.delay > 0 and len(frames) > 1:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                loop = None
        if loop is None:
            note = " ".join(text for _, text in frames) or None
            self._render(self.session.prompt(), note=note)
            return
        self.busy = True
        self.add_class("cj-busy")
        loop.create_task(self._animate(frames))

    async def _animate(self, frames) -> None:
        try:
            for k, (state, note) in enumerate(frames):
                if k:
                    await asyncio.sleep(self.delay)
                if k < len(frames) - 1:
                    self._render_table(state, note=note, settled=False)
                    self._update_hand(state, settled=False)
        finally:
            self.busy = False
            self._render(self.session.prompt(), note=frames[-1][1])
            self.remove_class("cj-busy")

    def _render(self, message: str, note: str | None = None) -> None:
        """Show the session as it is now: table, hand, controls, log, and the end of a deal."""
        s = self.session
        state = s.state
        self._render_table(state, note=note)  # first: what the learner waits for
        self._update_hand(state, settled=True)
        self._say(message)
        self.undo_button.disabled = not s.can_undo
        self.hint_button.disabled = not s.your_turn
        self.next_deal_button.disabled = not s.can_continue
        lines = "".join(f"<p>{html.escape(line)}</p>" for line in s.log)
        self.log_view.value = f'<div class="cj-log-lines"><div>{lines}</div></div>'
        if state.finished:
            self.score_sheet.value = render.score_sheet_html(s.result, names=s.names, match_scores=s.scores,
                                                             target=s.rules.target)
            # The replay is drawn when the slider moves, not before: the table shows the end.
            with self.replay_slider.hold_trait_notifications():
                self._replay_quiet = True
                self.replay_slider.max = self.replay_slider.value = len(state.plays)
            self._replay_quiet = False
            self.replay_view.value = '<p class="cj-muted">Move the slider to step back through the deal.</p>'
            self.end_box.layout.display = "flex"
        else:
            self.end_box.layout.display = "none"
            self.score_sheet.value = self.replay_view.value = ""
        # Last: a marker saying everything above is shown (tests and benchmarks wait on it).
        self.status.value = (f'<span data-plays="{len(state.plays)}" data-deal="{s.deal_number}" '
                             f'data-frame="{self._frame}" data-ignored="{self.ignored_clicks}" '
                             'data-settled="1"></span>')

    def _render_table(self, state: State, note: str | None = None, settled: bool = True) -> None:
        s = self.session
        self._frame += 1
        reveal = state if self.reveal_toggle.value else None
        scores = (s.match if state.finished else s.match_before).scores
        table = render.table_html(state.view(s.seat), reveal=reveal, names=s.names, scores=scores,
                                  target=s.rules.target, note=note)
        self.table.value = (f'<div class="cj-sandbox-table" data-plays="{len(state.plays)}" '
                            f'data-deal="{s.deal_number}" data-frame="{self._frame}" '
                            f'data-settled="{int(settled)}">{table}</div>')

    def _update_hand(self, state: State, settled: bool) -> None:
        s = self.session
        judged = {v.card: v for v in state.verdicts()} if settled and state.to_play == s.seat else {}
        cards = state.hand(s.seat)
        for card in cards:
            verdict = judged.get(card)
            mark = "cj-waiting" if verdict is None else ("cj-legal" if verdict.legal else "cj-illegal")
            mark += " cj-hinted" if card is self._hinted else ""
            button = self.card_buttons[card]
            if self._marks.get(card) != mark:  # one message per card that changes
                keep = tuple(c for c in button._dom_classes if c not in _MARKS)
                button._dom_classes = keep + tuple(mark.split())
                self._marks[card] = mark
            tooltip = verdict.reason if verdict is not None else f"{card.name}: wait for your turn"
            if button.tooltip != tooltip:
                button.tooltip = tooltip
        children = tuple(self.card_buttons[c] for c in cards)
        if self.hand_box.children != children:
            self.hand_box.children = children

    def _show_replay(self, plays: int) -> None:
        state = self.session.state
        if not state.finished or self._replay_quiet:
            return
        position = state.rewind(plays)
        s = self.session
        what = ("the deal as dealt" if plays == 0
                else f"after card {plays} of {len(state.plays)} ({state.plays[plays - 1]})")
        self.replay_view.value = render.table_html(position.view(s.seat), reveal=position, names=s.names,
                                                   note=f"Replay, every card face up: {what}.")

    def record(self) -> str:
        """The current record as JSON text (what Save puts in the box)."""
        return self.session.record_json()

