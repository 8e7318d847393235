"""The sandbox lesson in Voilà, played as a learner would: by clicking, tapping or keying the
cards on the table, on a phone (390 x 844, touch) and on a desk (1280 x 800).

A whole deal is played twice: by finger on the phone, and by keyboard on the desk (each
screen's start and end audited, and the phone's keyboard focus checked); the mouse plays the
cards of the shorter tests, on the desk.

The test keeps its own :class:`~calijack.play.Session` on the same seed beside the page: the
computer's replies are seeded by position, so after every play the page must show exactly
what the mirror session says. The page fixtures fail the test on any console error or
request off 127.0.0.1.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calijack.play import Session

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "07_sandbox.ipynb"
SEED = 7  # the notebook's seed: the learner leads the first trick

_HAND_JS = "() => Array.from(document.querySelectorAll('.cj-you .cj-play')).map((b) => b.dataset.card)"
_FOCUS_JS = """() => { const a = document.activeElement;
  return a ? [a.tagName.toLowerCase(), [...a.classList].join(' '), a.dataset.card || ''] : null; }"""
# Both boxes inside the viewport, top to bottom.
_ON_SCREEN_JS = """(selectors) => selectors.every((s) => { const box = document.querySelector(s).getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight && box.left >= 0 && box.right <= window.innerWidth; })"""


def open_sandbox(page, url: str) -> Session:
    """Open the sandbox lesson at ``url``: on the shared server (``lessons``, shorter pauses,
    the same code path) or on a server of the test's own (the lesson's own pauses)."""
    page.goto(url, wait_until="load")
    page.wait_for_selector(".cj-sandbox .cj-play", timeout=90_000)
    assert page.locator(".cj-seed input").input_value() == str(SEED)
    return Session(seed=SEED)


def settle(page, mirror: Session) -> None:
    """Wait until the page shows the mirror's position, all steps shown."""
    plays = len(mirror.state.plays)
    page.wait_for_selector(f'.cj-status[data-settled="1"][data-plays="{plays}"]', state="attached")
    page.wait_for_selector(f'.cj-sandbox-table[data-settled="1"][data-plays="{plays}"]', state="attached")
    page.wait_for_selector(".cj-table-view:not(.cj-busy)", state="attached")
    assert page.evaluate(_HAND_JS) == [c.code for c in mirror.hand]


def first_legal(mirror: Session):
    return next(v.card for v in mirror.verdicts() if v.legal)


def play_while(page, mirror: Session, keep_going) -> None:
    """Play the first legal card, on the page and on the mirror, while ``keep_going(mirror)``."""
    while keep_going(mirror):
        card = first_legal(mirror)
        press_card(page, card)
        mirror.play(card)
        settle(page, mirror)


def every_card_is_legal(mirror: Session) -> bool:
    """True while every card in the hand may be played (``play_while`` on to a refusal)."""
    return all(v.legal for v in mirror.verdicts())


def press_card(page, card) -> None:
    """Click the card on the table, or tap it on a touch screen."""
    button = page.locator(f'.cj-you .cj-play[data-card="{card.code}"]')
    if getattr(page, "screen", "desk") == "phone":
        button.tap()
    else:
        button.click()


def check_screen(page, page_checks, where: str) -> None:
    """Nothing wider than the screen, every target finger-sized, no serious axe finding."""
    assert page_checks.too_wide(page) == [], where
    # A fingertip on a phone (44 CSS px); WCAG's minimum (24 px) for a mouse on a desk.
    least = 44 if page.screen == "phone" else 24
    assert page_checks.small_targets(page, ".cj-sandbox", least) == [], where
    page_checks.assert_accessible(page, f"the sandbox {where}")


def check_start(page, page_checks, mirror: Session) -> None:
    """The table before the first card: named, pointer-cursor buttons; hand and trick in view."""
    # Every card may be led, so every one is a legal, pointer-cursor button named with its state.
    for card in mirror.hand:
        button = page.locator(f'.cj-you .cj-play[data-card="{card.code}"]')
        assert button.get_attribute("aria-label").startswith(f"{card.name}, playable")
        assert button.evaluate("(b) => getComputedStyle(b).cursor") == "pointer"
    assert page.locator(".cj-you").get_by_text("click or tap a card to play it").is_visible()
    # Your hand and the trick are on screen together.
    page.locator(".cj-you .cj-hand").scroll_into_view_if_needed()
    assert page.evaluate(_ON_SCREEN_JS, [".cj-you .cj-hand", ".cj-trick-area"]), page.screen
    check_screen(page, page_checks, f"at the start ({page.screen})")
    assert page.locator(".cj-end").is_hidden()


def check_end(page, page_checks, page_guard, mirror: Session, how: str) -> None:
    """The end of the deal: the score sheet in view and right, the empty hand asks for nothing."""
    sheet = page.locator(".cj-sheet-slot .cj-sheet")
    sheet.wait_for()
    page.wait_for_function("() => { const b = document.querySelector('.cj-sheet-slot').getBoundingClientRect();"
                           " return b.top >= -2 && b.top < window.innerHeight * 0.9; }")
    assert "Score sheet" in sheet.inner_text()
    result = mirror.state.result()
    for award in result.awards:
        row = sheet.locator(f'.cj-award[data-point="{award.name}"]')
        assert row.locator("[data-seat]").first.get_attribute("data-seat") == (
            "" if award.seat is None else str(award.seat))
    for seat, pips in enumerate(result.pips):
        assert int(sheet.locator(f'.cj-seat-values[data-seat="{seat}"] .cj-total').inner_text()) == pips
    assert page.locator(".cj-you").get_by_text("click or tap a card").count() == 0
    assert page.locator(".cj-next-deal").is_visible() and page.locator(".cj-hint").is_disabled()
    check_screen(page, page_checks, f"at the end of the deal ({page.screen})")
    page_guard.assert_clean(f"after a whole deal {how} ({page.screen})")


def tab_to_hand(page) -> None:
    """From the top of the page, Tab reaches the hand in at most two presses, with a clear ring."""
    page.locator("body").focus()
    for presses in (1, 2):
        page.keyboard.press("Tab")
        focus = page.evaluate(_FOCUS_JS)
        if focus and "cj-play" in focus[1]:
            break
    assert focus and "cj-play" in focus[1], f"after {presses} Tabs the focus is on {focus} ({page.screen})"
    # The focus ring is clearly visible, and not the hint's marker.
    ring = page.evaluate("() => { const s = getComputedStyle(document.activeElement);"
                         " return [s.outlineStyle, parseFloat(s.outlineWidth), s.outlineColor]; }")
    assert ring[0] == "solid" and ring[1] >= 3, (page.screen, ring)


@pytest.mark.parametrize("screen_page", ["phone"], indirect=True)
def test_a_whole_deal_by_tapping_the_cards(lessons, screen_page, page_checks, page_guard):
    page = screen_page
    mirror = open_sandbox(page, lessons.url_for(NOTEBOOK.name))
    settle(page, mirror)
    check_start(page, page_checks, mirror)
    tab_to_hand(page)  # a phone with a keyboard reaches the hand too (the desk plays a deal so)

    first = True
    while not mirror.finished:
        card = first_legal(mirror)
        press_card(page, card)
        steps = mirror.play(card)
        settle(page, mirror)
        if first:
            # The polite live region reads out the computer's card, the trick's winner and the draws.
            heard = [s.text for s in steps if s.kind != "play" or s.seat != 0]
            page.wait_for_function("(want) => want.every((t) => document.querySelector('.cj-announce')"
                                   ".textContent.includes(t))", arg=heard)
            first = False
    check_end(page, page_checks, page_guard, mirror, "by finger")


@pytest.mark.parametrize("screen_page", ["desk"], indirect=True)
def test_a_whole_deal_by_keyboard_only(lessons, screen_page, page_checks, page_guard):
    page = screen_page
    mirror = open_sandbox(page, lessons.url_for(NOTEBOOK.name))
    settle(page, mirror)
    check_start(page, page_checks, mirror)
    tab_to_hand(page)
    keys = ["Enter", " "]
    while not mirror.finished:
        hand = [c.code for c in mirror.hand]
        focus = page.evaluate(_FOCUS_JS)
        assert focus and "cj-play" in focus[1], f"focus left the hand: {focus}"
        at, want = hand.index(focus[2]), hand.index(first_legal(mirror).code)
        for _ in range((want - at) % len(hand)):
            page.keyboard.press("ArrowRight")
        assert page.evaluate(_FOCUS_JS)[2] == hand[want]
        page.keyboard.press(keys[len(mirror.state.plays) % 2])  # Enter and Space both play
        mirror.play(hand[want])
        settle(page, mirror)
    # The hand is empty: the keyboard lands on the score sheet, which is in view.
    page.wait_for_function("() => document.activeElement && document.activeElement.classList.contains('cj-sheet-slot')")
    check_end(page, page_checks, page_guard, mirror, "by keyboard")


def test_an_illegal_card_explains_itself_and_undo(voila_app, page, page_guard):
    mirror = open_sandbox(page, voila_app(NOTEBOOK).url)  # the lesson's own pauses
    settle(page, mirror)
    # Two cards clicked in the same instant: the second arrives while the computer's cards
    # are being shown and is ignored; only the first is played.
    first, second = mirror.hand[:2]
    page.evaluate("""([a, b]) => {
        document.querySelector('.cj-play[data-card="' + a + '"]').click();
        document.querySelector('.cj-play[data-card="' + b + '"]').click();
    }""", [first.code, second.code])
    steps = mirror.play(first)
    settle(page, mirror)
    assert second in mirror.hand
    assert page.locator(".cj-status").get_attribute("data-ignored") == "1"
    table = page.locator(".cj-table-view .cj-felt").inner_text()
    winner = next(s for s in steps if s.kind == "trick")
    assert f"won by {mirror.names[winner.seat]}".lower() in table.lower()
    for step in (s for s in steps if s.kind == "draw"):
        assert f"{mirror.names[step.seat]} drew {step.card}" in table

    play_while(page, mirror, every_card_is_legal)
    refused = next(v for v in mirror.verdicts() if not v.legal)
    button = page.locator(f'.cj-you .cj-play[data-card="{refused.card.code}"]')
    assert "cj-cannot" in button.get_attribute("class")
    reason = refused.reason.rstrip(".")
    assert button.get_attribute("aria-label").startswith(
        f"{refused.card.name}, not playable: {reason[:1].lower()}{reason[1:]}")
    frame = page.locator(".cj-status").get_attribute("data-frame")
    button.click()
    page.locator(".cj-message .cj-reason").wait_for()
    assert page.locator(".cj-message").inner_text().strip() == f"{refused.card} cannot be played. {refused.reason}"
    assert page.locator(".cj-status").get_attribute("data-frame") == frame  # nothing was redrawn
    settle(page, mirror)

    before_undo = len(mirror.state.plays)
    page.locator(".cj-undo").click()
    mirror.undo()
    assert len(mirror.state.plays) < before_undo
    settle(page, mirror)
    assert "Took back your last card" in page.locator(".cj-message").inner_text()
    page_guard.assert_clean("after an illegal click and undo")


def test_hint_rules_and_records(lessons, page, page_guard):
    mirror = open_sandbox(page, lessons.url_for(NOTEBOOK.name))
    settle(page, mirror)
    page.locator(".cj-hint").click()
    page.locator(".cj-message .cj-hint-text").wait_for()
    hinted = page.locator(".cj-you .cj-play.cj-hinted")
    assert hinted.count() == 1 and hinted.get_attribute("data-card") == mirror.hint().card.code
    # Rule options speak plain words.
    page.locator(".cj-extras").get_by_text("Rule options").click()
    rules = page.locator(".cj-rules").inner_text()
    for raw in ("void_duty", "high_low", "pips", "source", "002"):
        assert raw not in rules
    assert "When you can't follow suit" in rules
    # Save: the record in the box is this deal, card for card.
    page.locator(".cj-extras").get_by_text("Save or load a record").click()
    page.locator(".cj-save").click()
    page.wait_for_function("() => document.querySelector('.cj-record textarea').value.length > 0")
    assert json.loads(page.locator(".cj-record textarea").input_value()) == mirror.record()
    assert page.locator(".cj-download a").get_attribute("href").startswith("data:application/json")
    page.locator(".cj-record textarea").fill('{"dealer": 0}')
    page.locator(".cj-load").click()
    page.locator(".cj-message .cj-error").wait_for()
    assert page.locator(".cj-message").inner_text().startswith("That record cannot be loaded:")
    page_guard.assert_clean("after hint, rules and records")


@pytest.fixture(autouse=True)
def _notebook_exists():
    assert NOTEBOOK.is_file(), f"{NOTEBOOK} is missing"
