"""Static-capable demos: precomputed frames selected by a control, entirely in the browser.

In the published book there is no kernel, so no Python callback ever runs. What does run is
every ``jslink`` between widget traits, because the widget state embedded in the page keeps
the ``Link`` models and the page's widget manager replays them. A demo built here therefore
works in three places alike: the static book, a live notebook and Voilà.

- :func:`stepper` puts an ``IntSlider`` over a ``Stack`` of frames (each step of a deal, say),
- :func:`chooser` puts ``ToggleButtons`` over a ``Stack`` (each legal card's outcome, say).

The frames are HTML strings produced by the render layer; this module only wraps each one in
``<div class="cj-frame" data-frame="{i}">…</div>`` so a browser test can tell which frame is
shown. The root box has the CSS class ``cj-static-demo`` and the control ``cj-static-control``.

Deliberately no ``Play`` widget: in the static book its icons are rewritten by the theme's
Font Awesome script and it then throws on every change, which also stops the links it feeds.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import ipywidgets as widgets
from ipywidgets.widgets.widget_link import Link

__all__ = ["StaticDemo", "stepper", "chooser", "step_slider", "toggle_buttons", "DEMO_CLASS", "CONTROL_CLASS",
           "FRAME_CLASS"]

DEMO_CLASS = "cj-static-demo"
CONTROL_CLASS = "cj-static-control"
FRAME_CLASS = "cj-frame"
LABEL_CLASS = "cj-frame-label"


class StaticDemo(widgets.VBox):
    """The root box of a static demo: an ordinary ``VBox`` (same model, same view).

    Attributes, for tests and for callers who want to restyle a part:

    ``control``
        the ``IntSlider`` (stepper) or ``ToggleButtons`` (chooser);
    ``stack``
        the ``Stack`` of frame ``HTML`` widgets;
    ``label_stack``
        the ``Stack`` of label lines, or ``None``;
    ``links``
        the ``jslink`` objects tying ``control`` to the stacks' ``selected_index``.
    """

    def __init__(
        self,
        *,
        control: widgets.DOMWidget,
        control_trait: str,
        stack: widgets.Stack,
        label_stack: widgets.Stack | None = None,
    ) -> None:
        links = [widgets.jslink((control, control_trait), (stack, "selected_index"))]
        children: list[widgets.Widget] = [control]
        if label_stack is not None:
            links.append(widgets.jslink((control, control_trait), (label_stack, "selected_index")))
            children.append(label_stack)
        children.append(stack)
        super().__init__(children=children)
        self.add_class(DEMO_CLASS)
        control.add_class(CONTROL_CLASS)
        self.control = control
        self.stack = stack
        self.label_stack = label_stack
        self.links: tuple[Link, ...] = tuple(links)

    @property
    def frame_count(self) -> int:
        return len(self.stack.children)


def _check_strings(values: object, what: str, *, allow_empty_items: bool = True) -> list[str]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise TypeError(f"{what} must be a list of strings, not {type(values).__name__}")
    items = list(values)
    for i, item in enumerate(items):
        if not isinstance(item, str):
            raise TypeError(f"{what}[{i}] must be a str, not {type(item).__name__}")
        if not allow_empty_items and not item.strip():
            raise ValueError(f"{what}[{i}] is empty")
    return items


def _check_frames(frames: object) -> list[str]:
    items = _check_strings(frames, "frames")
    if not items:
        raise ValueError("frames is empty: a static demo needs at least one HTML frame")
    return items


def _frame_stack(frames: list[str], start: int = 0) -> widgets.Stack:
    children = [
        widgets.HTML(value=f'<div class="{FRAME_CLASS}" data-frame="{i}">{frame}</div>')
        for i, frame in enumerate(frames)
    ]
    return widgets.Stack(children=children, selected_index=start)


def _label_stack(labels: list[str], start: int = 0) -> widgets.Stack:
    children = [
        widgets.HTML(
            value=f'<div class="{LABEL_CLASS}" data-frame="{i}">{html.escape(label)}</div>'
        )
        for i, label in enumerate(labels)
    ]
    return widgets.Stack(children=children, selected_index=start)


def step_slider(count: int, *, description: str = "Step", readout: bool = True,
                start: int = 0) -> widgets.IntSlider:
    """The one slider of every demo, static or live: positions 0 to ``count - 1``, at ``start``.

    ``readout=False`` when label lines ("Step 1 of 6: …") say where the reader is: the
    slider's own 0-based number would only contradict them.
    """
    return widgets.IntSlider(value=start, min=0, max=count - 1, step=1, description=description,
                             continuous_update=True, readout=readout, style={"description_width": "initial"})


def toggle_buttons(options: Sequence[str], *, description: str = "") -> widgets.ToggleButtons:
    """The one set of toggle buttons of every demo, static or live: one button per option."""
    return widgets.ToggleButtons(options=list(options), index=0, description=description,
                                 style={"description_width": "initial", "button_width": "auto"})


def stepper(
    frames: list[str],
    *,
    labels: list[str] | None = None,
    description: str = "Step",
    start: int = 0,
) -> StaticDemo:
    """A slider stepping through ``frames`` (HTML strings), one shown at a time.

    ``labels``, if given, is one plain-text line per frame (HTML-escaped), shown between the
    slider and the frame and switched with it. ``start`` is the frame shown first (the one
    the page pictures until the widget code comes). Raises ``ValueError`` if ``frames`` is
    empty, ``labels`` does not have one entry per frame or ``start`` is not a frame,
    ``TypeError`` if an item is not a str.
    """
    items = _check_frames(frames)
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < len(items):
        raise ValueError(f"start must be a frame number from 0 to {len(items) - 1}, not {start!r}")
    label_items: list[str] | None = None
    if labels is not None:
        label_items = _check_strings(labels, "labels")
        if len(label_items) != len(items):
            raise ValueError(
                f"labels has {len(label_items)} entries but frames has {len(items)}: "
                "give exactly one label per frame"
            )
    if not isinstance(description, str):
        raise TypeError(f"description must be a str, not {type(description).__name__}")
    slider = step_slider(len(items), description=description, readout=label_items is None, start=start)
    return StaticDemo(
        control=slider,
        control_trait="value",
        stack=_frame_stack(items, start),
        label_stack=_label_stack(label_items, start) if label_items is not None else None,
    )


def chooser(
    frames: list[str],
    options: list[str],
    description: str = "",
) -> StaticDemo:
    """Toggle buttons, one per option, each showing its frame of ``frames`` (HTML strings).

    Raises ``ValueError`` if ``frames`` is empty, if ``options`` does not have one entry per
    frame, or if an option is blank or repeated; ``TypeError`` if an item is not a str.
    """
    items = _check_frames(frames)
    option_items = _check_strings(options, "options", allow_empty_items=False)
    if len(option_items) != len(items):
        raise ValueError(
            f"options has {len(option_items)} entries but frames has {len(items)}: "
            "give exactly one option per frame"
        )
    seen: set[str] = set()
    for option in option_items:
        if option in seen:
            raise ValueError(f"option {option!r} appears twice: options must be distinct")
        seen.add(option)
    if not isinstance(description, str):
        raise TypeError(f"description must be a str, not {type(description).__name__}")
    toggles = toggle_buttons(option_items, description=description)
    return StaticDemo(control=toggles, control_trait="index", stack=_frame_stack(items))
