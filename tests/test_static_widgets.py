"""calijack.widgets.static: the structure of static-capable demos (pure Python).

Moving a control and seeing the frame change happens in the browser (jslink), and is checked
by tests/browser/test_book.py; here we check what gets embedded in the page.
"""

from __future__ import annotations

import re

import ipywidgets as widgets
import pytest
from ipywidgets.embed import dependency_state
from ipywidgets.widgets.widget_link import Link

from calijack.widgets.static import (
    CONTROL_CLASS,
    DEMO_CLASS,
    FRAME_CLASS,
    StaticDemo,
    chooser,
    stepper,
)

FRAMES = ["<p>one</p>", "<p>two</p>", "<p>three &amp; more</p>"]


def frame_numbers(stack: widgets.Stack) -> list[int]:
    numbers = []
    for child in stack.children:
        assert isinstance(child, widgets.HTML)
        match = re.fullmatch(r'<div class="cj-frame" data-frame="(\d+)">(.*)</div>', child.value,
                             re.DOTALL)
        assert match, child.value
        numbers.append(int(match.group(1)))
    return numbers


def link_ends(link: Link) -> tuple[tuple[widgets.Widget, str], tuple[widgets.Widget, str]]:
    return link.source, link.target


# --------------------------------------------------------------------------------------
# stepper


def test_stepper_structure():
    demo = stepper(FRAMES)
    assert isinstance(demo, widgets.VBox) and isinstance(demo, StaticDemo)
    assert DEMO_CLASS in demo._dom_classes
    slider = demo.control
    assert isinstance(slider, widgets.IntSlider)
    assert not isinstance(slider, widgets.Play)
    assert CONTROL_CLASS in slider._dom_classes
    assert (slider.min, slider.max, slider.step, slider.value) == (0, 2, 1, 0)
    assert slider.description == "Step"
    assert demo.children == (slider, demo.stack)
    assert demo.frame_count == 3
    assert demo.stack.selected_index == 0
    assert frame_numbers(demo.stack) == [0, 1, 2]
    assert [c.value for c in demo.stack.children][2].endswith("<p>three &amp; more</p></div>")
    assert demo.label_stack is None
    assert len(demo.links) == 1
    assert link_ends(demo.links[0]) == ((slider, "value"), (demo.stack, "selected_index"))
    assert isinstance(demo.links[0], Link)  # jslink, not a kernel-side link


def test_stepper_frames_keep_their_html_verbatim():
    demo = stepper(['<svg role="img" aria-label="J♠"></svg>'])
    assert demo.stack.children[0].value == (
        f'<div class="{FRAME_CLASS}" data-frame="0"><svg role="img" aria-label="J♠"></svg></div>'
    )


def test_stepper_with_labels():
    demo = stepper(FRAMES, labels=["Deal", "Lead <J>", "Win"], description="Trick")
    assert demo.control.description == "Trick"
    assert demo.children == (demo.control, demo.label_stack, demo.stack)
    labels = [c.value for c in demo.label_stack.children]
    assert labels == [
        '<div class="cj-frame-label" data-frame="0">Deal</div>',
        '<div class="cj-frame-label" data-frame="1">Lead &lt;J&gt;</div>',  # plain text
        '<div class="cj-frame-label" data-frame="2">Win</div>',
    ]
    assert len(demo.links) == 2
    assert {link_ends(link)[1] for link in demo.links} == {
        (demo.stack, "selected_index"),
        (demo.label_stack, "selected_index"),
    }
    assert all(link_ends(link)[0] == (demo.control, "value") for link in demo.links)


def test_stepper_single_frame():
    demo = stepper(["<p>only</p>"])
    assert (demo.control.min, demo.control.max) == (0, 0)
    assert frame_numbers(demo.stack) == [0]


def test_stepper_accepts_tuple():
    assert stepper(tuple(FRAMES)).frame_count == 3


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"frames": []}, "frames is empty"),
        ({"frames": FRAMES, "labels": ["a", "b"]}, "labels has 2 entries but frames has 3"),
        ({"frames": FRAMES, "labels": []}, "labels has 0 entries but frames has 3"),
        ({"frames": FRAMES, "start": 3}, "start must be a frame number from 0 to 2, not 3"),
        ({"frames": FRAMES, "start": -1}, "start must be a frame number"),
        ({"frames": FRAMES, "start": True}, "start must be a frame number"),
    ],
)
def test_stepper_bad_input_value_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        stepper(**kwargs)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"frames": "<p>a string, not a list</p>"}, "frames must be a list of strings"),
        ({"frames": ["<p>ok</p>", 3]}, r"frames\[1\] must be a str"),
        ({"frames": None}, "frames must be a list of strings"),
        ({"frames": FRAMES, "labels": "abc"}, "labels must be a list of strings"),
        ({"frames": FRAMES, "description": 3}, "description must be a str"),
    ],
)
def test_stepper_bad_input_type_error(kwargs, message):
    with pytest.raises(TypeError, match=message):
        stepper(**kwargs)


def test_stepper_can_open_on_a_later_frame():
    """The frame a demo opens on is the one the book pictures before its code comes."""
    demo = stepper(FRAMES, labels=["a", "b", "c"], start=1)
    assert demo.control.value == 1 and demo.stack.selected_index == 1 and demo.label_stack.selected_index == 1
    state = dependency_state([demo, *demo.links], drop_defaults=False)
    assert state[demo.stack.model_id]["state"]["selected_index"] == 1


def test_build_opens_on_the_start_frame_in_both_modes():
    from calijack.widgets.demo_base import build

    frames = lambda i: f"<p>frame {i}</p>"  # noqa: E731
    static = build(frames, 4, static=True, labels=list("abcd"), start=2)
    live = build(frames, 4, static=False, labels=list("abcd"), start=2)
    assert static.control.value == live.control.value == 2 and static.stack.selected_index == 2
    assert "frame 2" in live.frame.value and 'data-frame="2"' in live.label.value
    with pytest.raises(ValueError, match="start must be a frame number from 0 to 3"):
        build(frames, 4, static=False, start=4)
    with pytest.raises(ValueError, match="start is for a slider"):
        build(frames, 2, static=True, options=["x", "y"], start=1)


# --------------------------------------------------------------------------------------
# chooser


def test_chooser_structure():
    demo = chooser(FRAMES, ["J♠", "7♥", "A♦"], description="Play")
    assert isinstance(demo, widgets.VBox)
    assert DEMO_CLASS in demo._dom_classes
    toggles = demo.control
    assert isinstance(toggles, widgets.ToggleButtons)
    assert CONTROL_CLASS in toggles._dom_classes
    assert toggles.options == ("J♠", "7♥", "A♦")
    assert toggles.index == 0 and toggles.description == "Play"
    assert demo.children == (toggles, demo.stack)
    assert frame_numbers(demo.stack) == [0, 1, 2]
    assert demo.stack.selected_index == 0
    assert len(demo.links) == 1
    assert link_ends(demo.links[0]) == ((toggles, "index"), (demo.stack, "selected_index"))


def test_chooser_default_description():
    assert chooser(FRAMES[:1], ["only"]).control.description == ""


@pytest.mark.parametrize(
    ("frames", "options", "message"),
    [
        ([], [], "frames is empty"),
        (FRAMES, ["a", "b"], "options has 2 entries but frames has 3"),
        (FRAMES, ["a", "b", "c", "d"], "options has 4 entries but frames has 3"),
        (FRAMES, ["a", "b", "a"], "option 'a' appears twice"),
        (FRAMES, ["a", " ", "c"], r"options\[1\] is empty"),
    ],
)
def test_chooser_bad_input_value_error(frames, options, message):
    with pytest.raises(ValueError, match=message):
        chooser(frames, options)


def test_chooser_bad_input_type_error():
    with pytest.raises(TypeError, match="options must be a list of strings"):
        chooser(FRAMES, "abc")
    with pytest.raises(TypeError, match=r"options\[2\] must be a str"):
        chooser(FRAMES, ["a", "b", 3])


# --------------------------------------------------------------------------------------
# What the static book embeds


def test_embedded_state_contains_the_links():
    """The Link models are part of the embeddable state: that is what runs in the book."""
    demo = stepper(FRAMES, labels=["a", "b", "c"])
    state = dependency_state([demo, *demo.links], drop_defaults=True)
    model_names = {entry["model_name"] for entry in state.values()}
    assert {"LinkModel", "IntSliderModel", "StackModel", "HTMLModel", "VBoxModel"} <= model_names
    links = [entry["state"] for entry in state.values() if entry["model_name"] == "LinkModel"]
    assert len(links) == 2
    for link in links:
        assert link["source"] == [f"IPY_MODEL_{demo.control.model_id}", "value"]
        assert link["target"][1] == "selected_index"


def test_no_play_widget_anywhere():
    for demo in (stepper(FRAMES), chooser(FRAMES, ["a", "b", "c"])):
        state = dependency_state([demo, *demo.links])
        assert "PlayModel" not in {entry["model_name"] for entry in state.values()}
