"""Play a friend in Voilà: two people play a whole deal at one page, passing it between turns.

One deal, on a touch screen held upright (390 x 844) for its first half and a desk's width
(1280 px) for the rest: the first player taps or clicks, the second keys (Enter on the pass
screen's button, the arrow keys and Enter in the hand). While the pass screen shows, no card
of either hand that the other player has not seen is in the page's text, its DOM or its
accessibility tree, and no card button is in the page. axe-core checks the form, the pass
screen, a player's table and the end at both widths.

The test keeps its own :class:`~calijack.friend.Friend` on the page's deal number beside the
page: after every action the page must show what the mirror says. The page fixture fails the
test on any console error or request off 127.0.0.1.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from calijack.friend import Friend
from conftest import LESSONS_ENV

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "09_friend.ipynb"
NAMES = ("Ann", "Bo")
KEYS = 1  # the seat that plays by keyboard; the other taps or clicks

_FOCUS_JS = """() => { const a = document.activeElement;
  return a ? [[...a.classList].join(' '), a.dataset.card || ''] : null; }"""
# The page's whole text, hidden parts too (what a script could read), and what is shown.
_DOM_TEXT_JS = "() => document.body.textContent"


def secrets(game: Friend) -> set:
    """The cards in either hand that the other player has not seen."""
    state = game.state
    return {c for seat in (0, 1) for c in set(state.hand(seat)) - set(state.view(1 - seat).known[seat])}


def leaks(text: str, cards) -> list[str]:
    """Every way the page names a card ("J♥", "Jack of hearts") found in ``text``."""
    return [w for c in cards for w in (str(c), c.name) if re.search(rf"(?<![\w♣♦♥♠]){re.escape(w)}(?!\w)", text)]


def check_screen(page, page_checks, where: str) -> None:
    """Nothing wider than the screen, every target finger-sized, no serious axe finding."""
    width = page.viewport_size["width"]
    assert page_checks.too_wide(page) == [], where
    assert page_checks.small_targets(page, ".cj-friend", 44 if width < 600 else 24) == [], where
    page_checks.assert_accessible(page, f"the table for two {where}")


def press(page, locator, pointer: str) -> None:
    """Tap on a touch screen, click with a mouse."""
    locator.tap() if pointer == "tap" else locator.click()


def wait_for(page, mirror: Friend) -> None:
    """Until the page shows the mirror's screen."""
    phase = "pass" if mirror.hidden else ("over" if mirror.finished else "play")
    seat = -1 if mirror.finished else mirror.to_play
    page.wait_for_selector(f'.cj-friend-table[data-phase="{phase}"][data-seat="{seat}"]'
                           f'[data-plays="{len(mirror.state.plays)}"]', state="attached")


def check_hidden(page, mirror: Friend) -> None:
    """The pass screen: neither hand in the DOM, the visible text or the accessibility tree."""
    hidden = secrets(mirror)
    assert page.locator(".cj-play, [data-card]").count() == 0
    assert leaks(page.evaluate(_DOM_TEXT_JS), hidden) == []
    assert leaks(page.locator("body").inner_text(), hidden) == []
    assert leaks(page.locator("body").aria_snapshot(), hidden) == []
    screen = mirror.pass_screen()
    assert page.locator(".cj-pass-title").inner_text() == screen.title
    assert page.locator(".cj-pass-lines li").all_inner_texts() == list(screen.lines)


def play_turn(page, mirror: Friend, pointer: str) -> None:
    """The player to play plays the mirror's first legal card, by pointer or by keys."""
    seat = mirror.to_play
    hand = [c.code for c in mirror.state.hand(seat)]
    shown = page.locator(".cj-you .cj-play").evaluate_all("(bs) => bs.map((b) => b.dataset.card)")
    assert shown == hand
    card = mirror.state.legal_cards()[0]
    if seat == KEYS:
        focus = page.evaluate(_FOCUS_JS)
        assert focus and "cj-play" in focus[0], f"the keyboard is not in the hand: {focus}"
        at, want = hand.index(focus[1]), hand.index(card.code)
        for _ in range((want - at) % len(hand)):
            page.keyboard.press("ArrowRight")
        assert page.evaluate(_FOCUS_JS)[1] == card.code
        page.keyboard.press("Enter" if len(mirror.state.plays) % 4 else " ")
    else:
        press(page, page.locator(f'.cj-you .cj-play[data-card="{card.code}"]'), pointer)
    mirror.play(card)


def reveal(page, mirror: Friend, pointer: str) -> None:
    """The next player takes the screen: Enter on the focused button, or a tap or click on it."""
    button = page.locator(".cj-pass-go")
    assert button.inner_text() == f"I am {NAMES[mirror.to_play]}: show my cards"
    if mirror.to_play == KEYS:
        page.wait_for_function("() => document.activeElement && document.activeElement.matches('.cj-pass-go')")
        page.keyboard.press("Enter")
    else:
        press(page, button, pointer)
    mirror.reveal()


@pytest.mark.parametrize("screen_page", ["phone"], indirect=True)
def test_two_people_play_a_whole_deal_at_one_page(lessons, screen_page, page_checks, page_guard):
    page = screen_page
    page.goto(lessons.url_for(NOTEBOOK.name), wait_until="load")
    page.wait_for_selector(".cj-friend-start", timeout=90_000)
    names = page.locator(".cj-friend-name input")
    for k, name in enumerate(NAMES):
        names.nth(k).fill(name)
    seed = int(page.locator(".cj-seed input").input_value())
    check_screen(page, page_checks, "before the deal (390 px)")
    press(page, page.locator(".cj-friend-start"), "tap")
    mirror = Friend(NAMES, seed=seed)

    pointer, checked = "tap", set()
    while not mirror.finished:
        wait_for(page, mirror)
        if len(mirror.state.plays) >= mirror.rules.tricks and pointer == "tap":
            # Half way: the same page at a desk's width, with a mouse.
            page.set_viewport_size({"width": 1280, "height": 800})
            pointer = "click"
        if mirror.hidden:
            check_hidden(page, mirror)
            if (pointer, "pass") not in checked:
                check_screen(page, page_checks, f"between turns ({page.viewport_size['width']} px)")
                checked.add((pointer, "pass"))
            reveal(page, mirror, pointer)
        else:
            if (pointer, "play") not in checked:
                check_screen(page, page_checks, f"on a player's turn ({page.viewport_size['width']} px)")
                checked.add((pointer, "play"))
            play_turn(page, mirror, pointer)
    wait_for(page, mirror)
    assert checked == {(p, s) for p in ("tap", "click") for s in ("pass", "play")}

    # The end: the score sheet as the engine scored the deal, then both players' review.
    sheet = page.locator(".cj-sheet-slot .cj-sheet")
    sheet.wait_for()
    for seat, pips in enumerate(mirror.result.pips):
        assert int(sheet.locator(f'.cj-seat-values[data-seat="{seat}"] .cj-total').inner_text()) == pips
    page.locator(".cj-review-deal").click()
    page.locator(".cj-friend-review-name").nth(1).wait_for(timeout=60_000)
    reviews = mirror.review(int(LESSONS_ENV["CALIJACK_REVIEW_SAMPLES"]))  # the shared server's guesses
    boards = page.locator(".cj-review-board .cj-board-strip")
    for seat in (0, 1):
        assert boards.nth(seat).locator(".cj-board-chip").count() == len(reviews[seat])
    assert page.locator(".cj-message").inner_text().startswith("The review is ready: Ann: ")
    check_screen(page, page_checks, "at the end, reviewed (1280 px)")
    page_guard.assert_clean("after a whole deal for two")


@pytest.fixture(autouse=True)
def _notebook_exists():
    assert NOTEBOOK.is_file(), f"{NOTEBOOK} is missing"
