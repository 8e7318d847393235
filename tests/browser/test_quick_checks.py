"""The quick checks at the end of chapters 3 and 4 answer in the static book, with no kernel.

For each question, as a reader would: nothing is shown before an answer is picked; each
answer button then shows exactly its own feedback, saying right or not and why; exactly one
answer per question is right. At 390 px the questions fit the screen and every button is a
comfortable tap target. With JavaScript off, every question's folded "Answer" box opens and
says which answer is right, and why.
"""

from __future__ import annotations

import pytest

from conftest import _guarded_page  # noqa: E402  (beside this file)

pytestmark = pytest.mark.browser

PAGES = {"book/03_legal_play.html": 4, "book/04_drawing.html": 4}
FEEDBACK = ".cj-quiz-feedback"

_VISIBLE_FEEDBACK_JS = """
(question) => Array.from(question.querySelectorAll(".cj-quiz-feedback"))
  .filter((el) => el.checkVisibility())
  .map((el) => ({frame: el.closest(".cj-frame").dataset.frame, right: el.dataset.right,
                 text: el.textContent.trim()}))
"""


def open_page(page, book_site, page_checks, path: str) -> None:
    page.goto(book_site.url_for(path), wait_until="load")
    page_checks.wait_for_widgets(page)


def shown(question) -> list[dict]:
    return question.evaluate(_VISIBLE_FEEDBACK_JS)


@pytest.mark.parametrize("path", sorted(PAGES))
def test_quick_checks_answer_in_the_static_page(page, page_guard, page_checks, book_site, path):
    open_page(page, book_site, page_checks, path)
    quizzes = page.locator(".cj-quiz")
    assert quizzes.count() == 1, f"{path}: expected one block of quick checks, found {quizzes.count()}"
    questions = quizzes.first.locator(".cj-quiz-question")
    assert questions.count() == PAGES[path], f"{path}: {questions.count()} questions"
    for q in range(questions.count()):
        question = questions.nth(q)
        question.scroll_into_view_if_needed()
        assert shown(question) == [], f"{path}, question {q + 1}: feedback shown before any answer"
        buttons = question.locator(".cj-quiz-control button")
        rights = []
        for b in range(buttons.count()):
            buttons.nth(b).click()
            try:
                page.wait_for_function(
                    "([question, want]) => Array.from(question.querySelectorAll('.cj-quiz-feedback'))"
                    ".filter((el) => el.checkVisibility()).map((el) => el.closest('.cj-frame')"
                    ".dataset.frame).join() === want",
                    arg=[question.element_handle(), str(b)], timeout=5_000)
            except Exception:
                pytest.fail(f"{path}, question {q + 1}: answer {b + 1} shows {shown(question)}",
                            pytrace=False)
            feedback = shown(question)[0]
            verdict = "Right." if feedback["right"] == "true" else "Not quite."
            assert feedback["text"].startswith(verdict) and len(feedback["text"]) > len(verdict) + 20, \
                f"{path}, question {q + 1}, answer {b + 1}: {feedback['text']!r} gives no reason"
            assert "mod-active" in (buttons.nth(b).get_attribute("class") or "")
            rights.append(feedback["right"] == "true")
        assert rights.count(True) == 1, f"{path}, question {q + 1}: right answers {rights}"
    page_guard.assert_clean(path)


@pytest.mark.parametrize("path", sorted(PAGES))
def test_quick_checks_fit_a_phone(browser, book_site, page_checks, path):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        page = context.new_page()
        page.goto(book_site.url_for(path), wait_until="load")
        page_checks.wait_for_widgets(page)
        quiz = page.locator(".cj-quiz").first
        quiz.scroll_into_view_if_needed()
        box = quiz.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, f"{path}: quiz box {box}"
        buttons = quiz.locator(".cj-quiz-control button")
        assert buttons.count() >= 8
        for b in range(buttons.count()):
            size = buttons.nth(b).bounding_box()
            assert size["width"] >= 44 and size["height"] >= 44, f"{path}: button {b} is {size}"
            assert size["x"] + size["width"] <= 390, f"{path}: button {b} leaves the screen: {size}"
        buttons.first.tap()
        page.wait_for_function("(quiz) => Array.from(quiz.querySelectorAll('.cj-quiz-feedback'))"
                               ".some((el) => el.checkVisibility())", arg=quiz.element_handle())
    finally:
        context.close()


@pytest.mark.parametrize("path", sorted(PAGES))
def test_every_answer_can_be_read_without_javascript(browser, page_guard, book_site, path):
    """No script runs, so no widget comes: the page's picture of each question stays, and its
    folded Answer box (a plain <details>) opens on a click to the right answer and its reason."""
    context, page = _guarded_page(browser, page_guard, java_script_enabled=False)
    try:
        page.goto(book_site.url_for(path), wait_until="load")
        assert page.locator(".cj-demo-placeholder").count() > 0, f"{path}: no demo picture"
        assert page.locator(".widget-subarea").count() == 0, f"{path}: widgets rendered with scripts off"
        questions = page.locator(".cj-demo-placeholder .cj-quiz-question")
        assert questions.count() == PAGES[path], f"{path}: {questions.count()} questions pictured"
        for q in range(questions.count()):
            question = questions.nth(q)
            labels = [label.strip() for label in question.locator(".cj-pic-button").all_inner_texts()]
            box = question.locator("details.cj-quiz-answer")
            assert box.count() == 1, f"{path}, question {q + 1}: {box.count()} Answer boxes"
            right = box.locator(".cj-quiz-right")
            assert box.locator("summary").inner_text().strip() == "Answer"
            assert not right.is_visible(), f"{path}, question {q + 1}: the answer is shown unasked"
            box.locator("summary").click()
            right.wait_for(state="visible", timeout=5_000)
            said = right.inner_text().strip()
            label, _, why = said.partition(": ")
            assert label in labels, f"{path}, question {q + 1}: {label!r} is none of the answers {labels}"
            assert len(why) > 20, f"{path}, question {q + 1}: {said!r} gives no reason"
            others = box.locator("li").all_inner_texts()
            assert len(others) == len(labels) - 1 and all(": " in o for o in others), others
        page_guard.assert_clean(path)
    finally:
        context.close()
