"""The sandbox lesson in Voilà, clicked as a learner would, checked against the engine.

The test keeps its own :class:`~calijack.play.Session` on the same seed beside the page: the
computer's replies are seeded by position, so after every click the page must show exactly
what the mirror session says. The ``page`` fixture fails the test on any console error or
request off 127.0.0.1.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from calijack.play import Session

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "07_sandbox.ipynb"
SEED = 7  # the notebook's seed: the learner leads the first trick


def open_sandbox(page, voila_app):
    app = voila_app(NOTEBOOK)
    page.goto(app.url, wait_until="load")
    page.wait_for_selector(".cj-sandbox .cj-hand-card", timeout=90_000)
    assert page.locator(".cj-seed input").input_value() == str(SEED)
    return Session(seed=SEED)


def settle(page, mirror: Session) -> None:
    """Wait until the page shows the mirror's position, all steps shown."""
    plays = len(mirror.state.plays)
    page.wait_for_selector(f'.cj-status [data-settled="1"][data-plays="{plays}"]', state="attached")
    page.wait_for_selector(".cj-sandbox:not(.cj-busy)", state="attached")
    page.wait_for_selector(f'.cj-sandbox-table[data-settled="1"][data-plays="{plays}"]', state="attached")
    expect(page.locator(".cj-hand .cj-hand-card")).to_have_text([str(c) for c in mirror.hand])


def first_legal(mirror: Session):
    return next(v.card for v in mirror.verdicts() if v.legal)


def click_card(page, card) -> None:
    page.locator(f".cj-hand .cj-card-{card.code}").click()


def test_play_an_illegal_card_undo_and_a_click_while_busy(voila_app, page, page_guard):
    mirror = open_sandbox(page, voila_app)
    settle(page, mirror)
    legal = {v.card: v.legal for v in mirror.verdicts()}
    assert all(legal.values())  # leading: every card is legal, and highlighted
    assert page.locator(".cj-hand .cj-hand-card.cj-legal").count() == len(legal)

    # Two cards clicked in the same instant: the second arrives while the computer's cards
    # are being shown and is ignored; only the first is played.
    first, second = mirror.hand[:2]
    page.evaluate("""([a, b]) => {
        document.querySelector('.cj-hand .cj-card-' + a).click();
        document.querySelector('.cj-hand .cj-card-' + b).click();
    }""", [first.code, second.code])
    steps = mirror.play(first)
    settle(page, mirror)
    assert second in mirror.hand
    # The second click did reach the kernel, and was counted as ignored.
    assert page.locator(".cj-status [data-ignored]").get_attribute("data-ignored") == "1"
    # The trick, its winner and both draws are on the table.
    table = page.locator(".cj-table-view").inner_text()
    winner = next(s for s in steps if s.kind == "trick")
    assert re.search(r"won by (You|Opponent)", table, re.I)
    draws = [s for s in steps if s.kind == "draw"]
    assert len(draws) == 2
    for step in draws:
        who = "You" if step.seat == 0 else "Opponent"
        assert f"{who} drew {step.card}" in table
    expect(page.locator(".cj-log")).to_contain_text(f"won with {winner.card}")

    # Play on until some card in hand may not be played; click it.
    while all(v.legal for v in mirror.verdicts()):
        card = first_legal(mirror)
        click_card(page, card)
        mirror.play(card)
        settle(page, mirror)
    refused = next(v for v in mirror.verdicts() if not v.legal)
    frame = page.locator(".cj-status [data-frame]").get_attribute("data-frame")
    assert "cj-illegal" in page.locator(f".cj-hand .cj-card-{refused.card.code}").get_attribute("class")
    click_card(page, refused.card)
    page.locator(".cj-message .cj-reason").wait_for()
    shown = page.locator(".cj-message").inner_text().strip()
    assert shown == f"{refused.card} cannot be played. {refused.reason}"
    assert page.locator(".cj-status [data-frame]").get_attribute("data-frame") == frame  # nothing was redrawn
    settle(page, mirror)

    # Undo takes back the learner's last card and the computer's answer.
    before_undo = len(mirror.state.plays)
    page.locator(".cj-undo").click()
    mirror.undo()
    assert len(mirror.state.plays) < before_undo
    settle(page, mirror)
    expect(page.locator(".cj-message")).to_contain_text("Took back your last card")
    page_guard.assert_clean("after playing, an illegal click and undo")


def test_a_whole_deal_by_clicks_ends_with_the_score_sheet(monkeypatch, voila_app, page, page_guard):
    monkeypatch.setenv("CALIJACK_SANDBOX_DELAY", "0.05")  # shorter pauses; same code path
    mirror = open_sandbox(page, voila_app)
    settle(page, mirror)
    assert page.locator(".cj-end").is_hidden()
    while not mirror.finished:
        card = first_legal(mirror)
        click_card(page, card)
        mirror.play(card)
        settle(page, mirror)
    sheet = page.locator(".cj-score")
    sheet.wait_for()
    assert "Score sheet" in sheet.inner_text()
    result = mirror.state.result()
    for award in result.awards:
        row = sheet.locator(f'.cj-award[data-point="{award.name}"]')
        seat = row.locator("[data-seat]").first.get_attribute("data-seat")
        assert seat == ("" if award.seat is None else str(award.seat))
    for seat, pips in enumerate(result.pips):
        total = sheet.locator(f'.cj-seat-values[data-seat="{seat}"] .cj-total').inner_text()
        assert int(total) == pips
    assert page.locator(".cj-next-deal").is_enabled() and page.locator(".cj-hint").is_disabled()

    # Save: the record in the box is this deal, card for card.
    page.locator(".cj-extras").get_by_text("Save or load a record").click()
    page.locator(".cj-save").click()
    record = page.locator(".cj-record textarea")
    page.wait_for_function("() => document.querySelector('.cj-record textarea').value.length > 0")
    assert json.loads(record.input_value()) == mirror.record()
    assert page.locator(".cj-download a").get_attribute("href").startswith("data:application/json")
    # A bad record is refused in plain words.
    record.fill('{"dealer": 0}')
    page.locator(".cj-load").click()
    page.locator(".cj-message .cj-error").wait_for()
    assert page.locator(".cj-message").inner_text().startswith("That record cannot be loaded:")
    page_guard.assert_clean("after a whole deal")


@pytest.fixture(autouse=True)
def _notebook_exists():
    assert NOTEBOOK.is_file(), f"{NOTEBOOK} is missing"
