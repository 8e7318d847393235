"""The coach in the widgets: "Review this deal" in the sandbox, and the book's static review."""

from __future__ import annotations

import json
import random
import re
from html import unescape

import pytest

from calijack import Deal
from calijack.play import Session, SessionError
from calijack.players import get_player, play_deal
from calijack.review import review
from calijack.widgets.review import review_frames, review_stepper
from calijack.widgets.sandbox import Sandbox

from ipywidgets.widgets.widget import _instances as widget_instances


@pytest.fixture(autouse=True)
def few_worlds(monkeypatch):
    monkeypatch.setenv("CALIJACK_REVIEW_SAMPLES", "6")


def finished_sandbox(seed: int = 31) -> Sandbox:
    """A sandbox whose first deal the learner played to the end by clicking its first legal card."""
    sb = Sandbox(seed=seed, opponent="random", delay=0)
    while not sb.session.finished:
        sb.play(next(v.card for v in sb.session.verdicts() if v.legal))
    return sb


def message(sb: Sandbox) -> str:
    return unescape(re.sub(r"<[^>]+>", "", sb.table.message_html))


def test_review_is_offered_only_once_the_deal_is_over():
    sb = Sandbox(seed=31, opponent="random", delay=0)
    assert "review" not in sb.table.actions
    with pytest.raises(SessionError, match="You cannot review this deal now"):
        sb.session.review()
    sb.press("review")  # a stale click: refused in words, nothing shown
    assert "You cannot review this deal now" in message(sb) and sb.review_board.steps == []


def test_review_this_deal_steps_through_your_plays_with_mistakes_marked():
    sb = finished_sandbox()
    assert sb.table.actions["review"] is True and sb.review_board.steps == []
    sb.press("review")
    session = sb.session
    expected = session.review(6)
    own = [k for k, _ in enumerate(session.state.plays)
           if session.state.rewind(k).to_play == session.seat]
    steps = sb.review_board.steps
    assert [r.index for r in expected] == own and len(steps) == len(own) == 26
    assert [s["mistake"] for s in steps] == [r.mistake for r in expected]
    for step, r in zip(steps, expected):
        assert f"you played {r.card}" in step["label"] and str(r.card) in step["short"]
        assert f'data-mistake="{str(r.mistake).lower()}"' in step["html"]
        assert r.comment.replace("'", "&#x27;") in step["html"]
        assert (("Mistake: costs" in step["html"]) == r.mistake)
    first_mistake = next((k for k, r in enumerate(expected) if r.mistake), 0)
    assert sb.review_board.index == first_mistake
    mistakes = sum(r.mistake for r in expected)
    assert sb.review_board.summary.startswith("No mistakes" if not mistakes else f"{mistakes} play")
    assert sb.review_board.summary in message(sb)
    assert sb.review_board.sheet.startswith('<div class="cj-sheet-defs"')


def test_a_new_deal_clears_the_review():
    sb = finished_sandbox()
    sb.press("review")
    assert sb.review_board.steps
    sb.press("next")
    assert sb.review_board.steps == [] and "review" not in sb.table.actions


def test_the_review_is_one_widget_model_more():
    before = set(widget_instances)
    sb = finished_sandbox(33)
    sb.press("review")
    made = set(widget_instances) - before
    assert sb.review_board.model_id in made
    assert len(made) <= 150


def test_session_reviews_are_reproducible_and_seat_only():
    a, b = Session(seed=12, opponent="random"), Session(seed=12, opponent="random")
    for s in (a, b):
        while not s.finished:
            s.play(next(v.card for v in s.verdicts() if v.legal))
    ra, rb = a.review(5), b.review(5)
    assert [r.to_json() for r in ra] == [r.to_json() for r in rb]
    assert {r.seat for r in ra} == {0}


def test_the_static_review_has_one_frame_per_play_of_the_seat():
    heuristic = get_player("heuristic")
    state = play_deal(Deal.random(4), [heuristic, heuristic], random.Random(4))
    reviews = review(state, seats=[1], samples=4)
    demo = review_stepper(state, seat=1, reviews=reviews)
    assert demo.frame_count == 26 and demo.control.max == 25
    frames, labels, summary, _ = review_frames(state, reviews, 1)
    assert labels[0].startswith("Play 1 of 26: trick ") and demo.summary == summary
    assert sum("(mistake)" in label for label in labels) == sum(r.mistake for r in reviews)
    assert all('class="cj-review-step"' in f for f in frames)


def test_the_review_strip_and_the_hand_share_one_arrow_key_helper(tmp_path):
    """keys.js is in both modules once, neither has its own key map, and under Node it moves
    round the ends as the hand always did (tests/browser: the strip and the hand by keyboard)."""
    import shutil
    import subprocess
    from pathlib import Path

    from calijack.widgets.review import ReviewBoard
    from calijack.widgets.table import CardTable

    helper = (Path(__file__).resolve().parents[1] / "calijack" / "widgets" / "keys.js").read_text(encoding="utf-8")
    for module in (ReviewBoard._esm, CardTable._esm):
        assert module.count(helper) == 1 and module.count("ArrowRight") == helper.count("ArrowRight")
    node = shutil.which("node")
    assert node, "node is missing: install Node.js (`make npm` installs Debian's npm, which brings it)"
    cases = [("ArrowRight", 0, 5), ("ArrowDown", 3, 5), ("ArrowRight", 4, 5), ("ArrowLeft", 0, 5),
             ("ArrowUp", 2, 5), ("Home", 3, 5), ("End", 1, 5), ("Enter", 1, 5), ("ArrowLeft", 0, 1)]
    script = tmp_path / "keys-check.js"
    script.write_text(helper + f"\nconsole.log(JSON.stringify({json.dumps(cases)}.map((c) => cjArrowTarget(...c))));\n")
    done = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [1, 4, 0, 4, 1, 0, 4, None, 0]
