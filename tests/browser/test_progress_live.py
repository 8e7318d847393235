"""Progress that lasts, live: the sandbox keeps its game after every play, in the live book
(Python in the browser, "Play live") and in Voilà, and offers it back after a reload.

The live book's test shares one browser profile between its three starts of Python (each
costs seconds): play 3 cards, reload and **Continue** (the same deal, hand and trick), play
the deal to its end, find it on the progress page, download its record and replay it with
``calijack replay``, and press **Review** (the live sandbox opens it with its review). The
Voilà test does Continue there, and plays with a browser that refuses the site any storage.
The page fixtures fail a test on any console error or request off 127.0.0.1.
"""

from __future__ import annotations

import json

import pytest

from playwright.sync_api import expect

from calijack import progress
from calijack.play import Session
from conftest import LIVE_SETUP
from test_live_book import START_MS, start_live
from test_progress_book import BLOCKED, replayed_points
from test_sandbox import NOTEBOOK, SEED, first_legal, play_while, press_card, settle

KEY = json.dumps(progress.KEY)


def kept(page) -> dict | None:
    text = page.evaluate(f"() => localStorage.getItem({KEY})")
    return None if text is None else json.loads(text)


def wait_kept(page, test_js: str) -> dict:
    """The kept document once ``test_js`` (a function of it) holds."""
    try:
        page.wait_for_function(f"() => {{ const t = localStorage.getItem({KEY}); return t && ({test_js})(JSON.parse(t)); }}",
                               timeout=30_000)
    except Exception:
        doc = kept(page) or {}
        summary = {k: (len(v) if isinstance(v, (list, dict)) else v) for k, v in doc.items()}
        pytest.fail(f"the store never held {test_js}: it holds {summary}", pytrace=False)
    return kept(page)


def play_cards(frame, mirror: Session, count: int) -> None:
    for _ in range(count):
        card = first_legal(mirror)
        press_card(frame, card)
        mirror.play(card)
        settle(frame, mirror)


def test_play_live_continue_finish_download_and_review(book_site, page, page_guard, tmp_path):
    page.add_init_script(LIVE_SETUP)  # the lessons' test settings: shorter pauses, fewer guesses
    frame = start_live(page, book_site, "07_sandbox")
    mirror = Session(seed=SEED)
    settle(frame, mirror)
    play_cards(frame, mirror, 3)
    plays = len(mirror.state.plays)
    game = wait_kept(page, f"(d) => d.game && d.game.record.plays.length === {plays}")["game"]
    assert game["record"] == mirror.record() and game["seed"] == str(SEED)

    # Reload, "Play live" again: the game is offered back, Continue is the default.
    frame = start_live(page, book_site, "07_sandbox", kept=None)
    offer = frame.locator(".cj-offer")
    expect(offer).to_be_visible(timeout=30_000)
    expect(offer).to_contain_text(f"trick {mirror.state.trick_number} of 26")
    assert frame.locator(".cj-felt").is_hidden()
    continue_button = frame.locator(".cj-offer .cj-continue")
    assert continue_button.inner_text() == progress.TEXTS["continue"]
    assert frame.evaluate("() => document.activeElement.classList.contains('cj-continue')")
    continue_button.click()
    settle(frame, mirror)                     # the same deal, hand and number of cards played
    expect(frame.locator(".cj-message")).to_contain_text(f"Trick {mirror.state.trick_number} of 26")
    expect(frame.locator(".cj-message")).to_contain_text(progress.TEXTS["continued"])

    # To the end: the deal is kept with its result.
    play_while(frame, mirror, lambda m: not m.finished)
    entry = wait_kept(page, "(d) => d.deals.length === 1")["deals"][0]
    assert entry["record"] == mirror.record("deal") and entry["points"] == list(mirror.result.points)
    page_guard.assert_clean("after a live deal kept")

    page.goto(book_site.url_for("book/progress.html"), wait_until="load")
    page.locator('#cj-progress[data-ready="1"]').wait_for(state="attached")
    deal = page.locator(".cj-progress-deal")
    mine, theirs = mirror.result.points
    expect(deal).to_contain_text(f"you scored {mine}, the computer {theirs}.")
    assert replayed_points(page, deal, tmp_path) == [mine, theirs]

    # Review: the sandbox page starts Python by itself and opens the deal with its review.
    deal.locator(".cj-review-link").click()
    page.wait_for_url("**/notebooks/07_sandbox.html?review=*")
    expect(page.locator(".cj-live-status")).to_contain_text("Live:", timeout=START_MS)
    frame = page.locator("iframe.cj-live-frame").element_handle().content_frame()
    frame.wait_for_selector('.cj-board[data-steps="26"]', timeout=START_MS)
    assert frame.locator(".cj-offer").is_hidden()
    assert frame.locator(".cj-sandbox-table").get_attribute("data-plays") == "52"
    assert kept(page)["deals"] == [entry]     # reviewing keeps nothing new
    page_guard.assert_clean("after reviewing a kept deal")


def test_voila_offers_the_game_back_and_plays_without_storage(lessons, new_page, page_checks, page_guard):
    url = lessons.url_for(NOTEBOOK.name)
    page = new_page()
    page.goto(url, wait_until="load")
    page.wait_for_selector(".cj-sandbox .cj-play", timeout=90_000)
    mirror = Session(seed=SEED)
    settle(page, mirror)
    # One Voilà, no class's hub: the page says where progress is kept.
    expect(page.locator(".cj-table-view .cj-progress-note")).to_have_text(progress.TEXTS["note_local"])
    play_cards(page, mirror, 3)
    wait_kept(page, f"(d) => d.game && d.game.record.plays.length === {len(mirror.state.plays)}")

    page.reload(wait_until="load")
    offer = page.locator(".cj-offer")
    offer.wait_for(timeout=90_000)
    for width in (390, 1280):                 # the choice fits a phone and a desk, and passes axe
        page.set_viewport_size({"width": width, "height": 844})
        box = offer.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (width, box)
        assert page_checks.small_targets(page, ".cj-offer", 44) == [], width
        page_checks.assert_accessible(page, f"the offer to continue at {width} px", context=".cj-offer")
    page.keyboard.press("Enter")              # Continue has the focus: the default
    settle(page, mirror)
    expect(page.locator(".cj-message")).to_contain_text(progress.TEXTS["continued"])
    play_cards(page, mirror, 1)
    wait_kept(page, f"(d) => d.game && d.game.record.plays.length === {len(mirror.state.plays)}")

    # A browser that refuses this site any storage: the lesson plays, and says nothing is kept.
    blocked = new_page()
    blocked.add_init_script(BLOCKED)
    blocked.goto(url, wait_until="load")
    blocked.wait_for_selector(".cj-sandbox .cj-play", timeout=90_000)
    fresh = Session(seed=SEED)
    settle(blocked, fresh)
    expect(blocked.locator(".cj-table-view .cj-progress-note")).to_have_text(progress.TEXTS["note_blocked"])
    play_cards(blocked, fresh, 1)
    assert blocked.locator(".cj-offer").is_hidden()
    page_guard.assert_clean("in Voilà")
