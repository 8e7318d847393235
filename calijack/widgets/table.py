"""The sandbox's live card table: one small anywidget that shows the engine's table HTML.

The learner's own cards are the control: :func:`calijack.render.table_html` draws them as
buttons (``interactive=True``), and ``table.js`` (beside this file, loaded as anywidget's
``_esm``) sends back the card clicked, tapped or keyed, or the action pressed (Hint, Undo,
Next deal). Everything else (legality, reasons, the computer's play) is decided in Python.

The table is also where a live lesson meets the learner's saved progress: ``table.js`` runs
after the progress store's script (:func:`calijack.progress.script`, prepended to it), tells
Python once what the store holds (``on_stored``: the unfinished game, a deal to review), and
writes what Python sends after each play (:meth:`CardTable.store`). Python checks what it
receives; the page only keeps it.
The stylesheet is the package's one file, ``calijack/static/calijack.css``, loaded as
``_css``, so the page holds it once for the table and the sandbox's other controls.

Both files are package data: the same widget runs in JupyterLab, Voilà and JupyterLite.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Callable

import anywidget
import traitlets

from ..progress import MAX_CHARS, script

CLASS_URL_ENV = "CALIJACK_CLASS_URL"
"""The environment variable of a learner's server on the class's hub that names the class service's path."""

__all__ = ["CardTable", "ACTIONS"]

HERE = Path(__file__).resolve().parent
ACTIONS = ("play", "hint", "undo", "next", "review", "continue", "fresh", "drill", "drill_next", "drill_stop",
           "compare")


def _stored(text) -> tuple[object, object, object]:
    """``(game, review, drills)`` from the page's JSON text; anything unreadable is "junk" (refused later)."""
    if not isinstance(text, str) or len(text) > MAX_CHARS:
        return "junk", None, None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return "junk", None, None
    if not isinstance(data, dict):
        return "junk", None, None
    return data.get("game"), data.get("review"), data.get("drills")


class CardTable(anywidget.AnyWidget):
    """The table, the learner's hand as buttons, the Hint/Undo/Next deal/Review row and the score sheet.

    ``on_action(action, card)`` is called for each valid message from the page: ``action`` is
    one of :data:`ACTIONS`, ``card`` the card's code for "play" (else ``None``). A malformed
    message is reported through ``on_bad`` and changes nothing. ``on_stored(game, review, drills)``
    is called with what the page's progress store holds (``drills``: the queued mistakes due today,
    when the page was asked to practise them, else ``None``) (each as the page sent it, as JSON text:
    unchecked; text that is not JSON comes as ``"junk"``, which the sandbox refuses).
    ``offer`` (``{"text", "yes", "no"}``, or empty) shows a choice in place of the table.
    ``accepted``: the actions this table takes (:data:`ACTIONS` by default; the pass-and-play
    table adds its own); any other is refused as malformed.
    """

    _esm = "\n".join([script(), *((HERE / name).read_text(encoding="utf-8") for name in ("keys.js", "table.js"))])
    _css = HERE.parent / "static" / "calijack.css"

    table_html = traitlets.Unicode("").tag(sync=True)
    message_html = traitlets.Unicode("").tag(sync=True)
    sheet_html = traitlets.Unicode("").tag(sync=True)
    actions = traitlets.Dict({}).tag(sync=True)
    busy = traitlets.Bool(False).tag(sync=True)
    status = traitlets.Dict({}).tag(sync=True)
    offer = traitlets.Dict({}).tag(sync=True)
    class_url = traitlets.Unicode(os.environ.get(CLASS_URL_ENV, "")).tag(sync=True)
    """On the class's hub, the class service's path on the hub's site (the hub's setting
    :data:`CLASS_URL_ENV`): the page keeps the learner's progress in step with it. Empty elsewhere."""

    def __init__(self, on_action: Callable[[str, str | None], None],
                 on_bad: Callable[[str], None] | None = None,
                 on_stored: Callable[[object, object, object], None] | None = None,
                 accepted: tuple[str, ...] = ACTIONS, **kwargs) -> None:
        super().__init__(**kwargs)
        self.accepted = tuple(accepted)
        self._on_action = on_action
        self._on_bad = on_bad or (lambda _text: None)
        self._on_stored = on_stored or (lambda _game, _review, _drills: None)
        self.stored: list[dict] = []  # every message sent to the store, for tests
        self.announced: list[str] = []  # every sentence sent to the live region, for tests
        self.on_msg(self._receive)

    def _receive(self, _widget, content, _buffers=None) -> None:
        # A message from the page is input like any other: check its shape before acting.
        if isinstance(content, dict) and content.get("action") == "stored":
            self._on_stored(*_stored(content.get("json")))
            return
        if not isinstance(content, dict) or content.get("action") not in self.accepted:
            self._on_bad("That click was not understood, so nothing was played.")
            return
        action, card = content["action"], content.get("card")
        if action == "play":
            if not isinstance(card, str) or not 2 <= len(card) <= 3:
                self._on_bad("That click did not name a card, so nothing was played.")
                return
            self._on_action(action, card)
        else:
            self._on_action(action, None)

    def press(self, action: str, card: str | None = None) -> None:
        """Act as the page does when the learner presses ``action`` (or plays ``card``)."""
        self._receive(self, {"action": action, **({"card": card} if card is not None else {})})

    def store(self, message: dict) -> None:
        """Have the page keep ``message`` in the progress store: ``{"store": "game", "game": …}``,
        ``{"store": "finished", "entry": …, "game": …}``, ``{"store": "drill", "entry": …}`` (a
        mistake missed again, queued) or ``{"store": "drill_answer", "id": …, "right": …}`` (see
        ``progress.js``). Sent as JSON
        text, which every kernel passes on alike (Pyodide's makes Python's None undefined)."""
        self.stored.append(message)
        self.send({"store": json.dumps(message, separators=(",", ":"))})

    def announce(self, text: str) -> None:
        """Have screen readers read ``text`` out politely (the live region), if it says anything."""
        if text:
            self.announced.append(text)
            self.send({"announce": text})
