"""The Practice chapter in the static book (no kernel): every puzzle answers from its
precomputed frames, and the reviewed sample deal steps through every play.

For each puzzle, as a reader would: pick its stage, then nothing is shown before a card is
picked; each card's button shows its own feedback, right only for the puzzle's answer, with
every card's value. On a phone the puzzles fit the screen and every card button is a
comfortable tap target, and the page opens fast (issues 14 and 24): the page holds one
stage's card tables at a time, only the puzzles near the screen are laid out at first, and a
puzzle scrolled to draws every card and takes its own room.
"""

from __future__ import annotations

import pytest

from playwright.sync_api import expect

from calijack import text_progress as progress
from calijack.puzzles import load

pytestmark = pytest.mark.browser

PATH = "book/practice.html"
PUZZLES = load()
STAGES = list(dict.fromkeys(p.stage for p in PUZZLES))


def of_stage(stage: str) -> list:
    return [p for p in PUZZLES if p.stage == stage]


def choose_stage(page, stage: str):
    """Press the stage's button (live once the widget code is in); returns its visible puzzles."""
    page.locator(".cj-stage-control button").nth(STAGES.index(stage)).click()
    questions = page.locator(".cj-practice-stages .cj-puzzle").filter(visible=True)
    page.wait_for_function("([n]) => Array.from(document.querySelectorAll('.cj-practice-stages .cj-puzzle'))"
                           ".filter((q) => q.checkVisibility()).length === n", arg=[len(of_stage(stage))])
    return questions

_SHOWN_JS = """
(question) => Array.from(question.querySelectorAll(".cj-quiz-feedback"))
  .filter((el) => el.checkVisibility())
  .map((el) => ({frame: el.closest(".cj-frame").dataset.frame, right: el.dataset.right,
                 text: el.textContent.trim(), rows: el.querySelectorAll("tbody tr").length}))
"""


def open_page(page, book_site, page_checks) -> None:
    page.goto(book_site.url_for(PATH), wait_until="load")
    page_checks.wait_for_widgets(page)


_WATCH_DUE = """document.addEventListener("DOMContentLoaded", () => {
  window.cjDueChanges = 0;
  new MutationObserver((m) => { window.cjDueChanges += m.length; }).observe(document.querySelector(".cj-due"),
    {childList: true, subtree: true, attributes: true, characterData: true});
});"""


def test_every_puzzle_answers_in_the_static_page(page, page_guard, page_checks, book_site):
    page.add_init_script(_WATCH_DUE)
    open_page(page, book_site, page_checks)
    # A new reader's "Due today" box comes filled with the page, and the store's script, once
    # started, finds nothing to change: the chapter's text never jumps down under it.
    page.wait_for_function("() => !!window.calijackProgress")
    due = page.locator(".cj-due")
    expect(due).to_have_text(progress.TEXTS["due_today"].format(due=0) + progress.TEXTS["due_none"])
    assert page.evaluate("window.cjDueChanges") == 0, "the store's script rewrote a new reader's Due today box"
    assert len(PUZZLES) >= 24 and len(STAGES) == 4
    for k, puzzle in enumerate(PUZZLES):
        questions = choose_stage(page, puzzle.stage)
        question = questions.nth(of_stage(puzzle.stage).index(puzzle))
        question.scroll_into_view_if_needed()
        assert question.evaluate(_SHOWN_JS) == [], f"puzzle {k + 1}: feedback before any pick"
        legal = puzzle.state.legal_cards()
        buttons = question.locator(".cj-quiz-control button")
        assert [buttons.nth(b).inner_text().strip() for b in range(buttons.count())] == [str(c) for c in legal]
        for b, card in enumerate(legal):
            buttons.nth(b).click()
            page.wait_for_function(
                "([q, want]) => Array.from(q.querySelectorAll('.cj-quiz-feedback'))"
                ".filter((el) => el.checkVisibility()).map((el) => el.closest('.cj-frame').dataset.frame)"
                ".join() === want", arg=[question.element_handle(), str(b)], timeout=5_000)
            shown = question.evaluate(_SHOWN_JS)[0]
            right = card.code == puzzle.answer
            assert shown["right"] == str(right).lower(), f"puzzle {k + 1}, {card}"
            assert shown["text"].startswith("Right." if right else "Not quite.")
            assert shown["rows"] == len(legal) and str(card) in shown["text"]
    page_guard.assert_clean(PATH)


def test_the_reviewed_deal_steps_through_every_play(page, page_guard, page_checks, book_site):
    open_page(page, book_site, page_checks)
    demo = page.locator(".cj-static-demo").filter(has=page.locator(".cj-review-step"))
    assert demo.count() == 1
    label = demo.locator(".cj-frame-label").filter(visible=True)
    assert label.inner_text().startswith("Play 1 of 26: trick ")
    page_checks.select_position(demo.locator(".cj-static-control"), 25)
    demo.locator('.cj-frame[data-frame="25"]').wait_for(state="visible")
    assert "Play 26 of 26" in demo.locator(".cj-frame-label").filter(visible=True).inner_text()
    frame = demo.locator('.cj-frame[data-frame="25"]')
    assert frame.locator(".cj-val").count() >= 1 and "You played" in frame.inner_text()
    page_guard.assert_clean(PATH)


def test_puzzles_fit_a_phone(browser, book_site, page_checks):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        page = context.new_page()
        open_page(page, book_site, page_checks)
        for k, stage in ((0, STAGES[0]), (len(of_stage(STAGES[-1])) - 1, STAGES[-1])):
            question = choose_stage(page, stage).nth(k)
            question.scroll_into_view_if_needed()
            box = question.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, f"puzzle {k + 1}: {box}"
            buttons = question.locator(".cj-quiz-control button")
            for b in range(buttons.count()):
                size = buttons.nth(b).bounding_box()
                assert size["width"] >= 44 and size["height"] >= 44, f"puzzle {k + 1}, button {b}: {size}"
            buttons.first.tap()
            page.wait_for_function("(q) => Array.from(q.querySelectorAll('.cj-quiz-feedback'))"
                                   ".some((el) => el.checkVisibility())", arg=question.element_handle())
        # The theme's closed side drawers wait off-screen at 390 px (too_wide would list them):
        # what must fit is the page's width and the chapter's own demos.
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        for demo in page.locator(".bd-article .cj-static-demo, .bd-article .cj-puzzle").all():
            box = demo.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    finally:
        context.close()


# Per puzzle picture: whether it is drawn now (content-visibility lets the browser skip one far
# off-screen), its height, and how many of its cards are drawn (a <use> of the page's sheet
# draws its card only if the drawing it points at is there; the sheet itself is not displayed).
_PICTURES_JS = """
() => Array.from(document.querySelectorAll(".cj-demo-placeholder .cj-puzzle")).map((pic) => ({
  drawn: pic.firstElementChild.checkVisibility({contentVisibilityAuto: true}),
  height: pic.getBoundingClientRect().height,
  cards: pic.querySelectorAll("svg.cj-card use").length,
  cardsDrawn: Array.from(pic.querySelectorAll("svg.cj-card use"))
    .filter((use) => use.getBBox().width > 0).length,
}))
"""
_SHEETS_JS = """
() => Array.from(document.querySelectorAll(".cj-sheet-defs"))
  .map((sheet) => [getComputedStyle(sheet).display, sheet.getBoundingClientRect().height])
"""


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1280, "height": 800}],
                         ids=["390px", "1280px"])
@pytest.mark.parametrize("path", [PATH, "notebooks/08_practice.html"])
def test_far_puzzles_wait_to_be_drawn_and_each_draws_its_cards(browser, book_site, page_checks,
                                                               path, viewport):
    context = browser.new_context(viewport=viewport)
    try:
        page = context.new_page()
        page.goto(book_site.url_for(path), wait_until="load")
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done)))")
        first = page.evaluate(_PICTURES_JS)
        # The page holds the first stage's puzzles only; the others come when their stage is picked.
        shown = of_stage(STAGES[0])
        assert len(first) == len(shown) < len(PUZZLES)
        # At load the puzzles far below the screen are not laid out (most of the page's work).
        assert sum(not p["drawn"] for p in first) >= len(shown) - 3, first
        assert page.evaluate(_SHEETS_JS) == [["none", 0]] * page.locator(".cj-sheet-defs").count()
        page_checks.assert_accessible(page, f"{path} (puzzle pictures, {viewport['width']} px)")
        page.evaluate("""() => { window.cjShift = 0; new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.cjShift += e.value; }).observe({type: "layout-shift"}); }""")
        pictures = page.locator(".cj-demo-placeholder .cj-puzzle")
        for k in range(len(shown)):
            # Scrolled by the page itself, at once: Playwright's own scroll first waits for the
            # box to stand still over two frames, which a page still laying out under a busy
            # machine may not give it within its limit (seen once in a full run).
            pictures.nth(k).evaluate("(pic) => pic.scrollIntoView({block: 'center', behavior: 'instant'})")
            # Drawn within a frame or two of coming near the screen.
            page.wait_for_function("(pic) => pic.firstElementChild.checkVisibility({contentVisibilityAuto: true})",
                                   arg=pictures.nth(k).element_handle(), timeout=5_000)
            shown = page.evaluate(_PICTURES_JS)[k]
            assert shown["drawn"] and shown["cards"] >= 1, (k + 1, shown)
            assert shown["cardsDrawn"] == shown["cards"], (k + 1, shown)
        # Every picture, once drawn, keeps its own height: the page is as long as with every
        # picture drawn at once.
        drawn = page.evaluate("document.documentElement.scrollHeight")
        page.add_style_tag(content=".cj-demo-placeholder .cj-puzzle { content-visibility: visible !important; }")
        assert abs(page.evaluate("document.documentElement.scrollHeight") - drawn) <= 1
        # Nothing in view moved while the reader scrolled through (a picture is drawn, and
        # takes its own room, before it reaches the screen).
        assert page.evaluate("window.cjShift") <= 0.01
    finally:
        context.close()
