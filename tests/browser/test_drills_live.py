"""Learn from your mistakes, live: Try your mistakes again in the live book's sandbox, the queue
in the progress store, and Due today on the Practice page (its clock moved by the test hook).

One test, two starts of Python in the browser (the second from the Practice page's link): a
deal played badly on purpose (the first legal card each time) is put in the store as a past
deal and opened with its review (``?review=ID``, the fastest way to a reviewed deal); "Try your
mistakes again"; the first mistake missed (twice: the answer is shown), the second one right.
Only the missed one is queued, due tomorrow; the Practice page says "Due today: 0", and 1 once
the clock hook (``window.calijackClock``, for tests only) says it is tomorrow; its link opens
the sandbox on that mistake, with a Hint. The right answers come from a Python mirror of the
page's session: the same record, the same review seed, the same drills.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from calijack import progress
from calijack.drill import drills_of
from calijack.play import Session
from calijack.retry import queue_entry
from calijack.text_coach import same_cards
from conftest import LIVE_SETUP, REVIEW_SAMPLES
from test_live_book import START_MS, assert_no_traceback
from test_progress_live import kept, wait_kept
from test_sandbox import SEED, first_legal

GAME_ID = "00112233445566aa"
TOMORROW = "(() => { const d = new Date(); d.setDate(d.getDate() + 1); " \
           "return d.toISOString && `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-" \
           "${String(d.getDate()).padStart(2, '0')}`; })()"
CLOCK_HOOK = "window.calijackClock = () => Date.now() + 86400000;"  # tomorrow, in every frame


def badly_played() -> tuple[dict, list, object]:
    """A finished deal played with the first legal card each time (a past deal as the store keeps
    it), the drills the live sandbox will find in it (its review, as the sandbox seeds it), and
    the computer's deal with the same cards."""
    session = Session(seed=SEED)
    while not session.finished:
        session.play(first_legal(session))
    entry = dict(progress.deal_entry(session, GAME_ID), when="2026-12-01T10:00:00Z")
    mirror = Session(seed=SEED)
    mirror.load(entry["record"])              # as the sandbox opens a past deal
    found = drills_of(mirror.state, mirror.review(REVIEW_SAMPLES))  # as the test's live page reviews
    assert len(found) >= 2, "the deal must have two mistakes to try"
    return entry, found, mirror.compare()


FITS_JS = """() => {
  const table = document.querySelector(".cj-table-view").getBoundingClientRect();
  return [...document.querySelectorAll(".cj-table-view *")].filter((el) => el.checkVisibility()
    && !el.closest(".cj-sr-only")).every((el) => el.getBoundingClientRect().right <= table.right + 1);
}"""


def fits(frame, width: int) -> None:
    """Nothing at the drill's table wider than the sandbox's table, once the layout has followed
    the new width. (The live frame's console itself is a little wider than the frame at 390 px,
    with or without a drill: the live book's own layout, left alone here.)"""
    try:
        frame.wait_for_function(FITS_JS, timeout=15_000)
    except Exception:
        pytest.fail(f"at {width} px something at the drill's table is wider than the table", pytrace=False)


def pick(frame, card) -> None:
    frame.locator(f'.cj-drill-table .cj-you .cj-play[data-card="{card.code}"]').click()


def miss_twice_then_right(where, found: list, pick, after_the_first_miss=lambda: None):
    """The first mistake missed twice (one more try, then the answer shown), the second one
    right, on the page or frame ``where`` that shows "Mistake 1 of N"; picks with
    ``pick(where, card)``. Returns what ``after_the_first_miss()`` returned."""
    message = where.locator(".cj-message")
    first, second = found[0], found[1]
    wrong = next(c for c in first.values if c not in first.accept)
    pick(where, wrong)
    expect(message).to_contain_text("One more try")
    assert str(first.best) not in message.inner_text()        # no answer yet
    seen = after_the_first_miss()
    pick(where, wrong)
    expect(message).to_contain_text(f"The answer: {first.best}")
    where.locator(".cj-drill-next").press("Space")
    expect(message).to_contain_text(f"Mistake 2 of {len(found)}")
    pick(where, second.best)
    expect(message).to_contain_text("Right")
    return seen


def test_try_your_mistakes_again_queues_the_missed_one_and_it_comes_back_due(book_site, page, page_checks,
                                                                                page_guard):
    entry, found, compared = badly_played()
    page.add_init_script(LIVE_SETUP)  # the lessons' test settings: shorter pauses, fewer guesses
    doc = dict(progress.empty(), deals=[entry])
    page.goto(book_site.url_for("book/practice.html"), wait_until="load")
    page.evaluate("([key, text]) => localStorage.setItem(key, text)", [progress.KEY, json.dumps(doc)])

    page.goto(book_site.url_for(f"notebooks/07_sandbox.html?review={entry['id']}"), wait_until="load")
    expect(page.locator(".cj-live-status")).to_contain_text("Live:", timeout=START_MS)
    frame = page.locator("iframe.cj-live-frame").element_handle().content_frame()
    frame.wait_for_selector('.cj-board[data-steps="26"]', timeout=START_MS)
    start = frame.locator(".cj-drill-start")
    expect(start).to_be_visible()
    start.press("Enter")                                      # by keyboard (the live frame's Enter too)
    message = frame.locator(".cj-message")
    expect(message).to_contain_text(f"Mistake 1 of {len(found)}", timeout=30_000)
    first = found[0]
    assert frame.locator(".cj-drill-table").get_attribute("data-plays") == str(len(first.position.plays))
    for width in (390, 1280):                 # the drill fits a phone and a desk, and passes axe
        page.set_viewport_size({"width": width, "height": 844})
        fits(frame, width)
        page_checks.assert_accessible(frame, f"a mistake set up again at {width} px", context=".cj-table-view")

    def queued_after_the_miss() -> dict:
        queued = wait_kept(page, "(d) => d.drills && d.drills.length === 1")["drills"][0]
        assert queued["id"] == queue_entry(first)["id"] and queued["step"] == 0
        assert queued["due"] == page.evaluate(TOMORROW)        # due tomorrow
        return queued

    queued = miss_twice_then_right(frame, found, pick, queued_after_the_miss)
    assert [d["id"] for d in kept(page)["drills"]] == [queued["id"]]   # the right one is not queued

    # Back to the deal: the same cards played by the computer, the very points Python finds.
    stop = frame.locator(".cj-drill-stop")
    stop.scroll_into_view_if_needed()
    where = page.evaluate("window.scrollY")
    stop.click()
    # The deal is back (as a learner sees it before choosing what next), then the computer's turn.
    expect(message).to_contain_text("The deal is over.", timeout=30_000)
    # The score sheet comes back with it, in place: the page stays by the buttons the learner is
    # using (it scrolls to the sheet only when a deal has just ended).
    page.wait_for_timeout(1000)
    assert page.evaluate("window.scrollY") == where, "the page scrolled away when the deal came back"
    frame.locator(".cj-compare").click()
    expect(message).to_contain_text(same_cards(compared.you, compared.computer), timeout=120_000)
    page_guard.assert_clean("after trying mistakes again")

    # The Practice page: nothing due today; tomorrow (the test hook's clock), the missed one.
    page.goto(book_site.url_for("book/practice.html"), wait_until="load")
    due = page.locator(".cj-due")
    expect(due).to_have_attribute("data-due", "0")
    expect(due).to_contain_text(progress.TEXTS["due_today"].format(due=0))
    expect(due).to_contain_text(progress.TEXTS["drills_none_due"])  # the store's words, not the page's
    page.add_init_script(CLOCK_HOOK)
    page.reload(wait_until="load")
    expect(due).to_have_attribute("data-due", "1")
    expect(due).to_contain_text(progress.TEXTS["due_today"].format(due=1))
    page_checks.assert_accessible(page, "Due today", context=".cj-due")

    # Its link opens the live sandbox on the mistake due, with a hint (which costs a star).
    due.locator(".cj-due-practise").click()
    page.wait_for_url("**/notebooks/07_sandbox.html?drills=due")
    expect(page.locator(".cj-live-status")).to_contain_text("Live:", timeout=START_MS)
    frame = page.locator("iframe.cj-live-frame").element_handle().content_frame()
    frame.wait_for_selector(f'.cj-drill-table[data-plays="{len(first.position.plays)}"]', timeout=START_MS)
    frame.locator(".cj-hint").click()
    expect(frame.locator(".cj-message")).to_contain_text("A hint costs a star")
    pick(frame, first.best)
    expect(frame.locator(".cj-message")).to_contain_text("2 stars of 3")   # right with a hint: one step on
    wait_kept(page, f"(d) => d.drills[0].step === 1 && d.drills[0].due > {json.dumps(queued['due'])}")
    assert_no_traceback(frame)
    page_guard.assert_clean("after practising the queue")
