"""The plumbing every demo shares: one frame function, two modes, compact pages.

A demo is ``count`` frames of HTML computed by a function ``frame(i)`` from engine calls and
the render layer. The same function feeds both modes:

- **static** (the book): every frame is computed now and put in a ``Stack`` that a slider or
  toggle selects through ``jslink`` (:mod:`calijack.widgets.static`): no kernel needed;
- **live** (Jupyter, Voilà): a Python callback computes the chosen frame when the control
  moves, and shows exactly the HTML the static frame would hold.

The static book embeds every frame in the page, and a card drawn by the render layer is a
few kilobytes of SVG. :class:`~calijack.render.compact.Sheet` (re-exported here) therefore
stores each distinct card drawing once per demo and the render layer's stylesheet once.
"""

from __future__ import annotations

import html
import sys
from typing import Callable, Sequence

import ipywidgets as widgets

from ..render.compact import SHEET_CLASS, Sheet
from .static import CONTROL_CLASS, FRAME_CLASS, LABEL_CLASS, StaticDemo, chooser, step_slider, stepper, toggle_buttons

__all__ = ["Sheet", "LiveDemo", "build", "esc", "para", "frame_html", "label_html",
           "SHEET_CLASS", "LIVE_CLASS"]

LIVE_CLASS = "cj-live-demo"
# True in the reader's browser (the live book's Pyodide kernel). There a kernel answers every
# control, so demos are live: each frame is drawn by a Python callback when it is chosen,
# instead of every frame being computed before the lesson appears.
IN_BROWSER = sys.platform == "emscripten"


def esc(text: object) -> str:
    """``text`` escaped for HTML."""
    return html.escape(str(text), quote=True)


def para(*lines: str) -> str:
    """A block of explanation: one ``<p>`` per line (already HTML)."""
    return '<div class="cj-root cj-explain">' + "".join(f"<p>{line}</p>" for line in lines) + "</div>"


def frame_html(index: int, body: str) -> str:
    """A frame as :mod:`calijack.widgets.static` wraps it (so both modes show the same HTML)."""
    return f'<div class="{FRAME_CLASS}" data-frame="{index}">{body}</div>'


def label_html(index: int, label: str) -> str:
    """A label line as :mod:`calijack.widgets.static` wraps it."""
    return f'<div class="{LABEL_CLASS}" data-frame="{index}">{html.escape(label)}</div>'


class LiveDemo(widgets.VBox):
    """A live demo: the control's Python callback shows the chosen frame (Jupyter, Voilà).

    Same parts as :class:`~calijack.widgets.static.StaticDemo` where they make sense:
    ``control``, ``frame_count``; plus ``frame`` (the ``HTML`` widget showing the frame),
    ``label`` (the label line or ``None``) and ``sheet`` (the shared drawings).
    """

    def __init__(self, *, control: widgets.DOMWidget, control_trait: str, count: int,
                 frame: Callable[[int], str], labels: Sequence[str] | None,
                 sheet: Sheet, header: str | None, start: int = 0) -> None:
        self._frame_fn, self._labels, self._sheet = frame, labels, sheet
        self._cache: dict[int, str] = {}
        self.control, self.frame_count = control, count
        self.header = widgets.HTML(value=sheet.compact(header)) if header else None
        self.frame = widgets.HTML(value=self.frame_value(start))
        self.label = widgets.HTML(value=label_html(start, labels[start])) if labels is not None else None
        self.sheet = widgets.HTML(value=sheet.html())  # after the first frame: it holds its drawings
        self.sheet.add_class(SHEET_CLASS)
        control.add_class(CONTROL_CLASS)
        control.observe(self._show, names=control_trait)
        parts = [self.sheet, self.header, control, self.label, self.frame]
        super().__init__(children=[p for p in parts if p is not None])
        self.add_class(LIVE_CLASS)

    def frame_value(self, index: int) -> str:
        """The HTML of frame ``index``, wrapped as the static demo wraps it (computed once)."""
        if index not in self._cache:
            self._cache[index] = frame_html(index, self._sheet.compact(self._frame_fn(index)))
        return self._cache[index]

    def _show(self, change) -> None:
        index = change["new"]
        if index is None or not 0 <= index < self.frame_count:
            return
        before = self._sheet.size
        value = self.frame_value(index)
        if self._sheet.size != before:  # new drawings: the sheet must hold them first
            self.sheet.value = self._sheet.html()
        self.frame.value = value
        if self.label is not None:
            self.label.value = label_html(index, self._labels[index])


def build(frame: Callable[[int], str], count: int, *, static: bool, options: Sequence[str] | None = None,
          labels: Sequence[str] | None = None, description: str = "", header: str | None = None,
          start: int = 0):
    """A demo of ``count`` frames: a slider (no ``options``) or toggle buttons (``options``).

    ``static=True`` precomputes every frame for :func:`~calijack.widgets.static.stepper` or
    :func:`~calijack.widgets.static.chooser`; ``static=False`` computes them on demand. In both
    the root box's first child is the :class:`Sheet` (``sheet`` attribute), then the optional
    ``header`` (HTML shown above the control, ``header`` attribute). A slider opens on frame
    ``start`` (the one the book pictures before the widget code comes). In the reader's
    browser (:data:`IN_BROWSER`) the demo is always live.
    """
    sheet = Sheet()
    if options is not None and start:
        raise ValueError("toggle buttons open on their first option: start is for a slider")
    if not static or IN_BROWSER:
        if options is None:
            if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < count:
                raise ValueError(f"start must be a frame number from 0 to {count - 1}, not {start!r}")
            control = step_slider(count, description=description or "Step", readout=labels is None, start=start)
            trait = "value"
        else:
            control = toggle_buttons(options, description=description)
            trait = "index"
        return LiveDemo(control=control, control_trait=trait, count=count, frame=frame,
                        labels=labels, sheet=sheet, header=header, start=start)
    frames = [sheet.compact(frame(i)) for i in range(count)]
    head = widgets.HTML(value=sheet.compact(header)) if header else None
    if options is None:
        demo = stepper(frames, labels=list(labels) if labels is not None else None,
                       description=description or "Step", start=start)
    else:
        demo = chooser(frames, list(options), description=description)
    demo.sheet = widgets.HTML(value=sheet.html())
    demo.sheet.add_class(SHEET_CLASS)
    demo.header = head
    demo.children = tuple(w for w in (demo.sheet, head) if w is not None) + demo.children
    return demo

