"""Lessons 01–06 in Voilà: the demo is drawn, its control moves the frame, nothing goes wrong.

Each lesson ends with its demo in static mode (the same notebook serves the book and Voilà).
The test opens the lesson, waits for the demo, checks that the cards are really drawn (the
demo stores each drawing once and every card points at it with ``<use>``), then moves the
control through every position. The ``page`` fixture fails the test on any console error,
uncaught error or request that leaves 127.0.0.1.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
# lesson -> (control kind, text the first frame must show)
LESSONS = {
    "01_cards": ("toggle", "The thirteen clubs"),
    "02_deal": ("toggle", "Shuffle number 1."),
    "03_legal_play": ("toggle", "A trump may be played even while you hold clubs."),
    "04_drawing": ("slider", "Before the first trick"),
    "05_scoring": ("toggle", "The deal as played"),
    "06_worked_example": ("slider", "B dealt, so A leads first."),
}

# Sizes of the card drawings in the visible frame: a <use> that points at nothing draws nothing.
_DRAWN_CARDS_JS = """
(frame) => Array.from(frame.querySelectorAll("svg.cj-card"))
  .filter((svg) => svg.checkVisibility())
  .map((svg) => { const use = svg.querySelector("use");
                  const box = (use || svg).getBBox(); return [box.width, box.height]; })
"""


def _visible_frame(demo):
    return demo.locator(".cj-frame").filter(visible=True)


@pytest.mark.parametrize("lesson", LESSONS)
def test_lesson_in_voila(lesson, lessons, page, page_guard, page_checks):
    kind, first_text = LESSONS[lesson]
    assert (NOTEBOOKS / f"{lesson}.ipynb").is_file()
    page.goto(lessons.url_for(f"{lesson}.ipynb"), wait_until="load")
    demo = page.locator(".cj-static-demo")
    demo.first.wait_for(state="visible", timeout=90_000)
    assert demo.count() == 1
    page_checks.assert_no_broken_widgets(page)

    control = demo.locator(".cj-static-control")
    assert ("widget-slider" if kind == "slider" else "widget-toggle-buttons") in control.get_attribute("class")
    frame = _visible_frame(demo)
    assert frame.count() == 1 and frame.get_attribute("data-frame") == "0"
    assert first_text in frame.inner_text()
    sizes = frame.evaluate(_DRAWN_CARDS_JS)
    assert sizes and all(w > 10 and h > 10 for w, h in sizes), sizes
    before = frame.inner_html()

    page_checks.select_position(control, 1)
    frame = _visible_frame(demo)
    frame.and_(demo.locator('.cj-frame[data-frame="1"]')).wait_for(state="visible", timeout=5_000)
    assert frame.inner_html() != before
    assert frame.evaluate(_DRAWN_CARDS_JS)

    # Every other position too, and back to the first.
    assert page_checks.exercise_static_demos(page, lesson) == 1
    assert page_checks.missing_text_alternatives(page) == []
    page_checks.assert_accessible(page, f"lesson {lesson}")  # axe-core: no serious or critical violation
    # A link within the page leads somewhere: the prose's links into the book ("#source-002")
    # have no target in Voilà, so the template turns them into plain words.
    dead = page.evaluate("""() => Array.from(document.querySelectorAll('a[href^="#"]'))
      .map((a) => a.getAttribute("href").slice(1))
      .filter((id) => id && !document.getElementById(decodeURIComponent(id)))""")
    assert dead == [], f"lesson {lesson}: links to nothing on the page: {dead}"
    if lesson in CHECKED:
        _the_chapters_checks_are_kept(page, lesson)
    page_guard.assert_clean(f"of lesson {lesson}")


def _checked_lessons() -> dict:
    """lesson -> (the book's page of its checks, a right answer to the first, a wrong one to the second)."""
    from calijack.widgets.lesson_checks import DRAWING_PAGE, LEGAL_PLAY_PAGE, drawing_positions

    return {"03_legal_play": (LEGAL_PLAY_PAGE, "My diamonds or my spade", "Any card"),
            "04_drawing": (DRAWING_PAGE, f"The {drawing_positions().mine_drawn}", "None: the loser's card is secret")}


CHECKED = _checked_lessons()


def _the_chapters_checks_are_kept(page, lesson: str) -> None:
    """Lessons 3 and 4 show their chapter's quick checks; an answer is kept under the book's name
    for it (so it counts once, on either page), and the page says where it is kept."""
    from calijack.text_progress import TEXTS

    book_page, right, wrong = CHECKED[lesson]
    questions = page.locator(".cj-quiz .cj-quiz-question")
    assert questions.count() == 4
    expect(page.locator(".cj-lesson-progress")).to_have_text(TEXTS["note_local"])
    first = questions.first
    first.locator(".cj-quiz-control button", has_text=right).click()
    expect(first.locator('.cj-quiz-feedback[data-right="true"]')).to_be_visible()
    page.wait_for_function("(id) => !!calijackProgress.read().checks[id]", arg=f"{book_page}#1")
    assert page.evaluate("(id) => calijackProgress.read().checks[id].first", f"{book_page}#1") is True
    expect(first.locator(".cj-progress-mark")).to_have_count(1)
    # A wrong first answer to the second: kept, but not right at the first try.
    second = questions.nth(1)
    second.locator(".cj-quiz-control button", has_text=wrong).click()
    page.wait_for_function("(id) => !!calijackProgress.read().checks[id]", arg=f"{book_page}#2")
    assert page.evaluate("(id) => calijackProgress.read().checks[id].first", f"{book_page}#2") is False
