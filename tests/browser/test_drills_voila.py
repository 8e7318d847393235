"""Try your mistakes again, in the Voilà sandbox: a deal played badly by clicks (the first legal
card each time), reviewed, then its mistakes set up again; one missed twice (the answer shown),
the next one right. On a phone (390 x 844, touch), with axe; the live book's test plays the
same drills on a desk (1280 x 800), by mouse.

The live book's test (``test_drills_live.py``) follows the queue and the Practice page; this
one is the lesson a class runs in Voilà. The right answers come from a mirror session on the
same seed: the same deal, the same review, the same drills.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from calijack.drill import drills_of
from test_drills_live import miss_twice_then_right
from test_sandbox import NOTEBOOK, check_screen, open_sandbox, play_while


def pick(page, card) -> None:
    button = page.locator(f'.cj-drill-table .cj-you .cj-play[data-card="{card.code}"]')
    if page.screen == "phone":
        button.tap()
    else:
        button.click()


@pytest.mark.parametrize("screen_page", ["phone"], indirect=True)
def test_the_mistakes_of_a_deal_played_in_voila_come_back_to_try_again(voila_app, screen_page, page_checks,
                                                                       page_guard, monkeypatch):
    page = screen_page
    monkeypatch.setenv("CALIJACK_SANDBOX_DELAY", "0.05")  # shorter pauses; the review's own guesses
    mirror = open_sandbox(page, voila_app(NOTEBOOK).url)
    play_while(page, mirror, lambda m: not m.finished)
    found = drills_of(mirror.state, mirror.review())
    assert len(found) >= 2, "the deal must have two mistakes to try"

    page.locator(".cj-review-deal").click()
    page.wait_for_selector('.cj-board[data-steps="26"]', timeout=120_000)
    start = page.locator(".cj-drill-start")
    expect(start).to_be_visible()
    start.press("Enter")                                      # by keyboard
    message = page.locator(".cj-message")
    expect(message).to_contain_text(f"Mistake 1 of {len(found)}", timeout=30_000)
    first = found[0]
    assert page.locator(".cj-drill-table").get_attribute("data-plays") == str(len(first.position.plays))
    check_screen(page, page_checks, f"with a mistake set up again ({page.screen})")

    miss_twice_then_right(page, found, pick)
    page_guard.assert_clean(f"after trying mistakes again in Voilà ({page.screen})")
