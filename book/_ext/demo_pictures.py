"""The picture of a demo: static HTML drawn from its widget state, shown until it is live.

Used by calijack_speed.py. The picture is what the demo first shows (a Stack's selected
child, boxes' children, HTML widgets' values) with each control drawn inert, in markup whose
geometry book/_widgets_js/cj-widgets.css matches to ipywidgets 8's, so that the live widget
takes the picture's place without moving anything.
"""

from __future__ import annotations

import html
import json
import re

VIEW_TAG = re.compile(
    r'<script type="application/vnd\.jupyter\.widget-view\+json">(?P<json>.*?)</script>', re.S
)
BOXES = {"VBoxModel": "column", "BoxModel": "row", "HBoxModel": "row", "GridBoxModel": "column"}
TEXT_MODELS = {"HTMLModel", "HTMLMathModel"}
LOADING = '<span class="cj-demo-loading" role="status">Loading the demo…</span>'
# For a reader whose input the page never sees (a screen reader in browse mode): a button
# that starts the demo, hidden until it has the focus (cj-widgets.css, cj-widgets.js).
START = '<button type="button" class="cj-demo-start">Start this demo</button>'




def _control_picture(state: dict, name: str) -> str:
    """An inert drawing of a control (its description and options; no input, no focus),
    laid out like ipywidgets 8 lays out the real one, and the "Loading the demo" line."""
    description = html.escape(state.get("description") or "")
    # The control's own classes (cj-quiz-control, …), so the site's rules for it (finger-sized
    # buttons) size the picture as they size the live control.
    own = "".join(" " + html.escape(c) for c in state.get("_dom_classes") or [])
    label = f'<span class="cj-pic-label" aria-hidden="true">{description}</span>'
    if name == "ToggleButtonsModel":
        index = state.get("index")
        buttons = "".join(
            f'<span class="cj-pic-button widget-toggle-button{" cj-pic-on" if i == index else ""}">'
            f"{html.escape(option)}</span>"
            for i, option in enumerate(state.get("_options_labels") or [])
        )
        return (f'<div class="cj-pic-control cj-pic-toggles{own}">{label}'
                f'<div class="cj-pic-buttons" aria-hidden="true">{buttons}</div>{LOADING}</div>')
    readout = ""
    if state.get("readout") and "value" in state:
        readout = f'<span class="cj-pic-readout" aria-hidden="true">{state["value"]}</span>'
    return (f'<div class="cj-pic-control cj-pic-slider{own}">{label}'
            f'<span class="cj-pic-track" aria-hidden="true"></span>{readout}{LOADING}</div>')


def picture(state: dict, model_id: str) -> str:
    """Static HTML showing widget ``model_id`` as it first appears (a Stack shows its
    selected child, boxes their children, HTML widgets their value, controls an inert look)."""
    model = state.get(model_id)
    if model is None:
        return ""
    name, s = model.get("model_name", ""), model.get("state", {})

    def child(ref: str) -> str:
        return picture(state, ref.removeprefix("IPY_MODEL_"))

    if name == "StackModel":  # a box (a flex row) showing only its selected child
        index = s.get("selected_index")
        children = s.get("children") or []
        shown = child(children[index]) if index is not None and index < len(children) else ""
        return f'<div class="cj-pic-box cj-pic-row">{shown}</div>'

    if name in BOXES:
        inner = "".join(child(ref) for ref in s.get("children") or [])
        # The box's own classes (cj-puzzle, …) too: the site's rules for what is inside it
        # (a puzzle's wider card buttons) must size the picture as they size the live box.
        own = "".join(" " + html.escape(c) for c in s.get("_dom_classes") or [])
        return f'<div class="cj-pic-box cj-pic-{BOXES[name]}{own}">{inner}</div>'
    if name in TEXT_MODELS or name == "LabelModel":
        value = s.get("value", "")
        value = value if name in TEXT_MODELS else html.escape(value)
        return f'<div class="cj-pic-html"><div class="cj-pic-content">{value}</div></div>'
    if "description" in s:
        return _control_picture(s, name)
    return ""


def add_pictures(body: str, state: dict) -> str:
    """``body`` with each widget view wrapped in ``div.cj-demo`` after its picture."""

    def wrap(match: re.Match) -> str:
        try:
            model_id = json.loads(match.group("json"))["model_id"]
        except (ValueError, KeyError, TypeError):
            return match.group(0)
        pic = picture(state, model_id) or f'<div class="cj-pic-control">{LOADING}</div>'
        return (f'<div class="cj-demo" data-cj-model="{html.escape(model_id)}">'
                f'<div class="cj-demo-placeholder">{START}{pic}</div>{match.group(0)}</div>')

    return VIEW_TAG.sub(wrap, body)
