"""The coach in a real browser: "Review this deal" in the sandbox (Voilà), on a phone and on a
desk, by tapping, clicking and keying; and the practice lesson's puzzles.

The review test loads a finished deal into the sandbox as a record and keeps a mirror
:class:`~calijack.play.Session` loaded from the same text: the review's worlds are seeded by
the session, so the page must show exactly the mirror's review.
"""

from __future__ import annotations

import json
import random

from calijack import Deal
from calijack.play import Session
from calijack.players import get_player, play_deal
from calijack.records import deal_record, dumps

from conftest import LESSONS_ENV

SAMPLES = LESSONS_ENV["CALIJACK_REVIEW_SAMPLES"]  # worlds per estimated play on the shared lesson server


def finished_record() -> str:
    heuristic = get_player("heuristic")
    state = play_deal(Deal.random(7, dealer=1), [heuristic, heuristic], random.Random(1))
    return dumps(deal_record(state))


def press(page, locator) -> None:
    """Tap on a touch screen, click elsewhere."""
    if getattr(page, "screen", "desk") == "phone":
        locator.tap()
    else:
        locator.click()


def board_index(page) -> int:
    return int(page.locator(".cj-board").get_attribute("data-index"))


def test_review_this_deal_in_the_sandbox(lessons, screen_page, page_checks, page_guard):
    page = screen_page
    page.goto(lessons.url_for("07_sandbox.ipynb"), wait_until="load")
    page.wait_for_selector(".cj-sandbox .cj-play", timeout=90_000)
    assert page.locator(".cj-review-deal").is_hidden()  # offered only once a deal is over

    record = finished_record()
    mirror = Session.from_record(record)
    expected = mirror.review(int(SAMPLES))
    press(page, page.locator(".cj-extras").get_by_text("Save or load a record"))
    page.locator(".cj-record textarea").fill(record)
    press(page, page.locator(".cj-load"))
    page.wait_for_function("() => document.querySelector('.cj-message').textContent.startsWith('Record loaded')")
    review_button = page.locator(".cj-review-deal")
    review_button.wait_for(state="visible")
    press(page, review_button)

    board = page.locator(".cj-board")
    page.wait_for_selector('.cj-board[data-steps="26"]', timeout=60_000)
    assert board.is_visible()
    summary = board.locator(".cj-board-summary").inner_text()
    mistakes = [k for k, r in enumerate(expected) if r.mistake]
    assert summary.startswith(f"{len(mistakes)} plays are marked as mistakes") if len(mistakes) > 1 else summary
    assert summary in page.locator(".cj-message").inner_text()
    chips = board.locator(".cj-board-chip")
    assert chips.count() == 26
    assert [k for k in range(26) if "cj-board-bad" in chips.nth(k).get_attribute("class")] == mistakes
    # It opens on the first mistake: your card's value beside the best card's, and the sentence.
    assert mistakes and board_index(page) == mistakes[0]
    first = expected[mistakes[0]]
    frame = board.locator(".cj-board-frame")
    text = frame.inner_text()
    assert f"You played {first.card}" in text and first.comment in text and "Mistake: costs" in text
    assert frame.locator(".cj-val").count() == len(first.rating.values)
    assert frame.locator(".cj-val-best").count() == len(first.rating.best)
    assert chips.nth(mistakes[0]).get_attribute("aria-current") == "step"

    # Previous / Next by pointer; the step and the strip follow.
    at = mistakes[0]
    target = at + 1 if at < 25 else at - 1
    press(page, board.locator(".cj-board-next" if target > at else ".cj-board-prev"))
    page.wait_for_function(f"() => document.querySelector('.cj-board').dataset.index === '{target}'")
    assert expected[target].comment in frame.inner_text()
    # The keyboard: the strip's tab stop, then the arrow keys and Home.
    chips.nth(target).focus()
    page.keyboard.press("Home")
    page.wait_for_function("() => document.querySelector('.cj-board').dataset.index === '0'")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('.cj-board').dataset.index === '1'")
    assert page.evaluate("() => document.activeElement.dataset.step") == "1"
    assert f"You played {expected[1].card}" in frame.inner_text()
    if len(mistakes) > 1:
        press(page, board.locator(".cj-board-next-mistake"))
        page.wait_for_function(f"() => document.querySelector('.cj-board').dataset.index === '{mistakes[0]}'"
                               if mistakes[0] > 1 else
                               f"() => document.querySelector('.cj-board').dataset.index === '{mistakes[1]}'")

    board.scroll_into_view_if_needed()
    assert page_checks.too_wide(page) == [], page.screen
    least = 44 if page.screen == "phone" else 24
    assert page_checks.small_targets(page, ".cj-board", least) == [], page.screen
    page_checks.assert_accessible(page, f"the review ({page.screen})")
    page_guard.assert_clean(f"after the review ({page.screen})")


def test_practice_lesson_in_voila(lessons, screen_page, page_checks, page_guard):
    page = screen_page
    from calijack.puzzles import load

    puzzles = load()
    page.goto(lessons.url_for("08_practice.ipynb"), wait_until="load")
    questions = page.locator(".cj-puzzle").filter(visible=True)
    questions.first.wait_for(state="visible", timeout=90_000)
    stages = list(dict.fromkeys(p.stage for p in puzzles))
    page_checks.assert_no_broken_widgets(page)
    for k in (0, len(puzzles) - 1):  # the first opening puzzle and the last endgame one
        puzzle = puzzles[k]
        press(page, page.locator(".cj-stage-control button").nth(stages.index(puzzle.stage)))
        mine = [p for p in puzzles if p.stage == puzzle.stage]
        page.wait_for_function("(n) => Array.from(document.querySelectorAll('.cj-puzzle'))"
                               ".filter((q) => q.checkVisibility()).length === n", arg=len(mine))
        item = questions.nth(mine.index(puzzle))   # one stage at a time
        item.scroll_into_view_if_needed()
        assert item.locator(".cj-quiz-feedback").filter(visible=True).count() == 0
        buttons = item.locator(".cj-quiz-control button")
        labels = [buttons.nth(i).inner_text().strip() for i in range(buttons.count())]
        legal = [str(c) for c in puzzle.state.legal_cards()]
        assert labels == legal
        answer = str(puzzle.state.legal_cards()[[c.code for c in puzzle.state.legal_cards()].index(puzzle.answer)])
        wrong = next(label for label in labels if label != answer)
        press(page, buttons.nth(labels.index(wrong)))
        shown = item.locator(".cj-quiz-feedback").filter(visible=True)
        shown.wait_for()
        assert shown.get_attribute("data-right") == "false" and "Not quite." in shown.inner_text()
        press(page, buttons.nth(labels.index(answer)))
        item.locator('.cj-quiz-feedback[data-right="true"]').filter(visible=True).wait_for()
        values = item.locator('.cj-quiz-feedback[data-right="true"] .cj-puzzle-values tbody tr')
        assert values.count() == len(legal)
        # The lesson keeps the stars (its keeper, lesson_progress.py): right at the second try, 2.
        page.wait_for_function("(n) => (calijackProgress.read().puzzles[String(n)] || {}).best === 2",
                               arg=puzzle.number)
    assert page_checks.too_wide(page) == [], page.screen
    page_checks.assert_accessible(page, f"the practice lesson ({page.screen})")
    page_guard.assert_clean(f"of the practice lesson ({page.screen})")


def test_the_sample_record_is_a_finished_two_player_deal():
    data = json.loads(finished_record())
    assert len(data["plays"]) == 52 and len(data["hands"]) == 2
