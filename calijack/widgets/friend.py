"""Play a friend: two people at one screen, in Jupyter, Voilà or the live book (Pyodide).

A thin view over :class:`calijack.friend.Friend`: every decision (whose turn, when the table
hides, legal cards and why, hints, scores, records, the review) is the game's, and through it
the engine's. The table is the sandbox's :class:`~calijack.widgets.table.CardTable`, drawn by
the same :func:`calijack.render.table_html`: the player whose cards show clicks, taps or keys
them. Between turns the table holds only the pass screen (:func:`calijack.render.friend.pass_html`):
no card of either hand is in the page, not even in a label, until the next player taps
"I am Bo: show my cards".

Before the deal, a short form takes the two names, whether each player agrees to hints, and
the deal number (the seed). After it: the score sheet, **Review this deal** (both players'
plays, each as its player saw the table), the record, the next deal and a new game.

:func:`friend_preview` is the book's static picture of the same screens, one deal's first
turns played by the computer (a slider over precomputed frames: no kernel needed).
"""

from __future__ import annotations

import html
import random
from urllib.parse import quote

import ipywidgets as widgets

from ..review import samples_setting
from .. import render
from ..friend import Friend, FriendError
from ..players import get_player
from ..render.friend import pass_html
from ..state import IllegalPlay
from ..text_coach import review_summary
from ..text_friend import DEFAULT_NAMES, NAME_LIMIT, say
from .demo_base import build
from .review import ReviewBoard
from .table import ACTIONS, CardTable

__all__ = ["FriendTable", "friend_preview"]

REVEAL = "reveal"


def _button(description: str, cls: str, tooltip: str = "") -> widgets.Button:
    button = widgets.Button(description=description, tooltip=tooltip)
    button.add_class(cls)
    return button


def _table_html(game: Friend, frame: int, hint=None, note: str | None = None, interactive: bool = True) -> str:
    """What the screen shows now: the pass screen while hidden, else the table from the
    side of the player whose cards show (every hand empty once the deal is over)."""
    state = game.state
    seat = -1
    if game.hidden:
        phase, seat = "pass", state.to_play
        body = pass_html(game.pass_screen(), interactive=interactive, css=False)
    else:
        phase = "over" if game.finished else "play"
        view = game.visible_view()
        seat = -1 if game.finished else view.seat
        scores = game.match.scores if game.finished else game.match_before.scores
        body = render.table_html(view, names=game.names, scores=scores, target=game.rules.target, note=note,
                                 interactive=interactive and not game.finished, verdicts=game.verdicts() or None,
                                 hint=hint, fold_stock=False, css=False)
    return (f'<div class="cj-friend-table" data-phase="{phase}" data-seat="{seat}" '
            f'data-plays="{len(state.plays)}" data-deal="{game.deal_number}" data-frame="{frame}">{body}</div>')


class FriendTable(widgets.VBox):
    """Two people play California Jack at one screen, passing it between turns.

    ``FriendTable(seed=7)`` as a notebook's last expression is the whole lesson. Parts, for
    tests (each with its CSS class): ``name_inputs`` (``cj-friend-name``), ``hint_boxes``
    (``cj-friend-hints``), ``seed_input`` (``cj-seed``), ``start_button`` (``cj-friend-start``),
    ``setup_message`` (``cj-friend-setup-message``); ``game`` (the :class:`Friend`, once
    started); ``table`` (the :class:`CardTable`, ``cj-table-view``; ``play(card)``,
    ``press(action)`` act as the page does); ``review_boards`` and ``review_heads`` (one per
    player); ``save_button`` (``cj-save``), ``record_text`` (``cj-record``), ``download``
    (``cj-download``), ``new_game_button`` (``cj-friend-new``).
    """

    def __init__(self, seed: int | None = None, names=DEFAULT_NAMES, rules=None):
        self.rules = rules
        self.game: Friend | None = None
        self._frame = 0
        self._hinted = None
        self._reviewed = False
        self._build_setup(seed, names)
        self.table = CardTable(on_action=self._on_action, on_bad=lambda text: self._say(text, "cj-error"),
                               accepted=ACTIONS + (REVEAL,))
        self.table.add_class("cj-table-view")
        self._build_end()
        self.game_box = widgets.VBox([self.table, self.end_box], layout=widgets.Layout(display="none"))
        self.game_box.add_class("cj-friend-game")
        super().__init__([self.setup, self.game_box])
        self.add_class("cj-sandbox")  # the sandbox's sizes for touch, its focus rings
        self.add_class("cj-friend")

    # -- building ---------------------------------------------------------------------------
    def _build_setup(self, seed, names) -> None:
        style = {"description_width": "initial"}
        self.name_inputs = []
        for which, name in zip(("First player", "Second player"), names):
            field = widgets.Text(value=name, description=which, style=style,
                                 layout=widgets.Layout(width="260px", max_width="100%"))
            field.add_class("cj-friend-name")
            self.name_inputs.append(field)
        self.hint_boxes = []
        for which in ("first", "second"):
            box = widgets.Checkbox(value=False, description=f"The {which} player agrees to hints", indent=False)
            box.add_class("cj-friend-hints")
            self.hint_boxes.append(box)
        seed = random.randrange(1_000_000) if seed is None else seed
        self.seed_input = widgets.IntText(value=seed, description="Deal number", style=style,
                                          layout=widgets.Layout(width="190px"))
        self.seed_input.add_class("cj-seed")
        self.start_button = _button("Start the deal", "cj-friend-start", "Deal, then pass to the first player")
        self.start_button.on_click(lambda _b: self._guard(self._on_start))
        self.setup_message = widgets.HTML()
        self.setup_message.add_class("cj-friend-setup-message")
        intro = widgets.HTML(f'<p class="cj-small">{html.escape(say("hints_off"))} '
                             f'{html.escape(say("name_rule", limit=NAME_LIMIT))}</p>')
        self.setup = widgets.VBox([widgets.HBox(self.name_inputs), intro, *self.hint_boxes,
                                   widgets.HBox([self.seed_input, self.start_button]), self.setup_message])
        self.setup.add_class("cj-friend-setup")
        self.setup.add_class("cj-settings")

    def _build_end(self) -> None:
        self.review_heads, self.review_boards = [], []
        for _ in range(2):
            head = widgets.HTML()
            head.add_class("cj-friend-review-head")
            board = ReviewBoard()
            board.add_class("cj-review-board")
            self.review_heads.append(head)
            self.review_boards.append(board)
        self.save_button = _button("Save record", "cj-save", "Write this deal (or match) as a record")
        self.save_button.on_click(lambda _b: self._guard(self._on_save))
        self.new_game_button = _button("New game", "cj-friend-new", "Back to the names and the deal number")
        self.new_game_button.on_click(lambda _b: self._guard(self._on_new_game))
        self.record_text = widgets.Textarea(layout=widgets.Layout(width="100%", height="90px", display="none"))
        self.record_text.add_class("cj-record")
        self.download = widgets.HTML()
        self.download.add_class("cj-download")
        parts = [w for pair in zip(self.review_heads, self.review_boards) for w in pair]
        self.end_box = widgets.VBox(parts + [widgets.HBox([self.save_button, self.new_game_button]),
                                             self.record_text, self.download],
                                    layout=widgets.Layout(display="none"))
        self.end_box.add_class("cj-end")

    # -- what the players do ----------------------------------------------------------------
    def start(self) -> None:
        """Start the deal with the form's names, hints and deal number, as **Start the deal** does."""
        self.start_button.click()

    def play(self, card) -> None:
        """Play ``card`` as a click on it does (for tests and notebooks)."""
        self.table.press("play", card if isinstance(card, str) else card.code)

    def press(self, action: str) -> None:
        """Press "reveal" (the pass screen's button), "hint", "review" or "next" as the page does."""
        self.table.press(action)

    def _on_action(self, action: str, card: str | None) -> None:
        handler = {"play": lambda: self._on_card(card), REVEAL: self._on_reveal, "hint": self._on_hint,
                   "review": self._on_review, "next": self._on_next}.get(action)
        if handler is None:
            self._say(say("unknown_action"), "cj-error")
            return
        self._guard(handler)

    def _guard(self, action) -> None:
        # Bad input is one sentence on the table (or the form), and nothing changes; a player
        # never sees a traceback.
        try:
            action()
        except IllegalPlay as error:
            text = str(error) if error.card is None or error.kind != "duty" else f"{error.card} cannot be played. {error}"
            self._say(text, "cj-reason", announce=True)
        except FriendError as error:
            self._say(str(error), "cj-error", announce=True)
        except Exception as error:  # noqa: BLE001 - a player must never see a traceback
            self._say(f"Something went wrong ({type(error).__name__}: {error}). Nothing was changed.", "cj-error")

    def _on_start(self) -> None:
        names = [field.value for field in self.name_inputs]
        hints = tuple(box.value for box in self.hint_boxes)
        game = Friend(names, hints=hints, seed=self.seed_input.value, rules=self.rules)
        self.game = game
        self._hinted = None
        self.setup_message.value = ""
        self.setup.layout.display = "none"
        self.game_box.layout.display = "flex"
        self._clear_end()
        self._render()
        self.table.announce(self._pass_words())

    def _on_card(self, code: str | None) -> None:
        game = self._game()
        events = game.play(code)
        self._hinted = None
        note = " ".join(e.text for e in events)
        self._render(note=None if game.hidden else note)
        self.table.announce(self._pass_words() if game.hidden else f"{note} {game.prompt()}")

    def _on_reveal(self) -> None:
        game = self._game()
        game.reveal()
        self._render()
        self.table.announce(game.prompt())

    def _on_hint(self) -> None:
        game = self._game()
        card, text = game.hint_text()
        self._hinted = card
        self._render(message=(text, "cj-hint-text"))
        self.table.announce(text)

    def _on_next(self) -> None:
        game = self._game()
        game.next_deal()
        self._hinted = None
        self._clear_end()
        self._render()
        self.table.announce(self._pass_words())

    def _on_review(self) -> None:
        game = self._game()
        self._say(say("reviewing"), "cj-info", announce=True)
        reviews = game.review(samples_setting())
        summaries = {}
        for seat, name in enumerate(game.names):
            mine = reviews[seat]
            self.review_boards[seat].show(game.state, mine, seat, names=game.names)
            self.review_heads[seat].value = (f'<p class="cj-label cj-friend-review-name">'
                                             f'{html.escape(say("review_head", name=name))}</p>')
            mistakes = [r for r in mine if r.mistake]
            summaries[seat] = review_summary(len(mistakes), sum(r.loss for r in mistakes), len(mine))
        self._reviewed = True
        text = say("reviewed", summaries=game.narrator.review_lines(summaries))
        self._render(message=(text, "cj-info"))
        self.table.announce(text)

    def _on_save(self) -> None:
        game = self._game()
        text = game.record_json()
        kind = "match" if game.deal_number > 1 else "deal"
        self.record_text.value = text
        self.record_text.layout.display = "flex"
        href = "data:application/json;charset=utf-8," + quote(text, safe="")
        name = f"calijack-friend-{kind}-{game.seed}.json"
        self.download.value = (f'<a class="cj-download-link" download="{name}" href="{href}">'
                               f'{html.escape(say("download", kind=kind, file=name))}</a>')
        self._say(say("saved"), "cj-info")

    def _on_new_game(self) -> None:
        self.game = None
        self.game_box.layout.display = "none"
        self.setup.layout.display = "flex"
        self._clear_end()

    # -- showing ----------------------------------------------------------------------------
    def _game(self) -> Friend:
        if self.game is None:
            raise FriendError(say("not_started"))
        return self.game

    def _say(self, text: str, cls: str = "cj-info", announce: bool = False) -> None:
        if self.game is None:
            self.setup_message.value = f'<p class="{cls}" role="status">{html.escape(text)}</p>'
            return
        self.table.message_html = f'<span class="{cls}">{html.escape(text)}</span>'
        if announce:
            self.table.announce(text)

    def _pass_words(self) -> str:
        screen = self.game.pass_screen()
        return " ".join((screen.title, *screen.lines)) if screen else self.game.prompt()

    def _clear_end(self) -> None:
        self._reviewed = False
        for head, board in zip(self.review_heads, self.review_boards):
            head.value = ""
            if board.steps:
                board.clear()
        self.record_text.value = ""
        self.record_text.layout.display = "none"
        self.download.value = ""
        self.end_box.layout.display = "none"

    def _render(self, note: str | None = None, message: tuple[str, str] | None = None) -> None:
        """Show the game as it is now: the pass screen, or one player's table, or the end."""
        game = self._game()
        self._frame += 1
        with self.table.hold_sync():
            self.table.table_html = _table_html(game, self._frame, hint=self._hinted, note=note)
            text, cls = message or (game.prompt(), "cj-info")
            self.table.message_html = f'<span class="{cls}">{html.escape(text)}</span>'
            showing = not game.hidden and not game.finished
            self.table.actions = {**({"hint": True} if showing and game.hints_on else {}),
                                  **({"review": True} if game.finished and not self._reviewed else {}),
                                  **({"next": True} if game.can_continue else {})}
            if game.finished:
                match = game.match
                self.table.sheet_html = render.score_sheet_html(game.result, names=game.names,
                                                                match_scores=match.scores, target=game.rules.target,
                                                                counted=match.counted[-1])
            else:
                self.table.sheet_html = ""
            self.table.status = {"plays": len(game.state.plays), "deal": game.deal_number, "frame": self._frame,
                                 "phase": "pass" if game.hidden else ("over" if game.finished else "play"),
                                 "settled": 1}
        self.end_box.layout.display = "flex" if game.finished else "none"

    def record(self) -> str:
        """The finished deal's record as JSON text (what Save record puts in the box)."""
        return self._game().record_json()


def friend_preview(seed: int = 7, names=DEFAULT_NAMES, plays: int = 4, static: bool = True):
    """The pass-and-play screens of a deal's first ``plays`` cards, the computer playing both
    hands: each pass screen, then the table as the player to play sees it (a slider; static
    in the book)."""
    game = Friend(names, seed=seed)
    player = get_player("heuristic")
    frames, labels = [], []
    while len(game.state.plays) < plays and not game.finished:
        name = game.names[game.to_play]
        if game.hidden:
            frames.append(_table_html(game, len(frames), interactive=False))
            labels.append(say("preview_pass", name=name))
            game.reveal()
            continue
        frames.append(_table_html(game, len(frames), interactive=False))
        labels.append(say("preview_turn", name=name))
        view = game.visible_view()
        game.play(player.choose(view, random.Random(f"{seed}/{len(game.state.plays)}")).card)
    frames.append(_table_html(game, len(frames), interactive=False))
    labels.append(say("preview_pass" if game.hidden else "preview_on", name=game.names[game.to_play]))
    return build(lambda i: frames[i], len(frames), static=static, labels=labels, description="Screen")
