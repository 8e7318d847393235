"""Progress that lasts, in the static book (no Python in the page): quick checks and puzzle
stars remembered, the "Your progress" page, Download / Load / Reset, and every bad case
(a damaged, foreign or too-new document, a bad file, storage that is blocked or full) told in
one sentence with no console error (the ``page`` fixtures fail a test on any).

The store's script here is the file the build wrote; the first tests hold it to Python: it is
``calijack.progress.page_script()`` itself, and it reads documents as ``calijack.progress.read``.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from calijack import progress
from calijack.play import Session
from calijack.puzzles import load as load_puzzles
from conftest import BOOK_HTML, REPO
from test_progress import DRILLS, one_past_each_limit  # tests/test_progress.py: the schema's limits, queue entries

CHECKS_PAGE = "book/03_legal_play.html"
PRACTICE = "book/practice.html"
PROGRESS = "book/progress.html"
KEY = progress.KEY
GAME_ID = "0123456789abcdef"


def open_book_page(page, book_site, path: str) -> None:
    page.goto(book_site.url_for(path), wait_until="load")
    page.wait_for_function("() => !!window.calijackProgress")


def open_progress(page, book_site) -> None:
    open_book_page(page, book_site, PROGRESS)
    page.locator('#cj-progress[data-ready="1"]').wait_for(state="attached")


def kept(page) -> dict | None:
    text = page.evaluate(f"() => localStorage.getItem({json.dumps(KEY)})")
    return None if text is None else json.loads(text)


def finished_entry(seed: int = 7) -> tuple[dict, Session]:
    """A finished deal as the sandbox has the store keep it (``when`` is the store's)."""
    session = Session(seed=seed, opponent="casual")
    rng = random.Random(seed)
    while not session.finished:
        session.play(rng.choice(session.state.legal_cards()))
    return progress.deal_entry(session, GAME_ID), session


def seed_store(page, book_site) -> dict:
    """Some of everything kept, through the store's own calls (as the pages make them)."""
    entry, _ = finished_entry()
    game = progress.game_entry(Session(seed=11, opponent="random"), "fedcba9876543210")
    open_book_page(page, book_site, PROGRESS)
    page.evaluate("""([entry, game]) => {
      const s = window.calijackProgress;
      s.answerCheck("book/03_legal_play#1", true); s.answerCheck("book/03_legal_play#2", false);
      s.answerCheck("book/04_drawing#4", true);
      s.puzzlePick(2, true); s.puzzleHint(5); s.puzzlePick(5, true);
      s.finishDeal(entry, null); s.saveGame(game);
    }""", [entry, game])
    return kept(page)


def section_texts(page) -> dict:
    sections = page.locator(".cj-progress-section[data-section]")
    return {sections.nth(k).get_attribute("data-section"): sections.nth(k).inner_text()
            for k in range(sections.count())}


# -- the script is Python's ---------------------------------------------------------------------

def test_the_book_ships_the_script_python_makes():
    shipped = (BOOK_HTML / "_static" / "calijack-progress.js").read_text(encoding="utf-8")
    assert shipped == progress.page_script(), "rebuild the book: _static/calijack-progress.js is not page_script()"


def documents_for_the_page() -> list[str]:
    """Texts the page and Python must read alike: good ones, damaged ones, odd ones."""
    entry, _ = finished_entry(3)
    good = progress.empty()
    good["checks"]["book/03_legal_play#1"] = {"first": True, "solved": True}
    good["deals"] = [dict(entry, when="2026-12-01T10:00:00Z")]
    good["game"] = dict(progress.game_entry(Session(seed=5), GAME_ID), saved="2026-12-01T10:00:00Z")
    good["drills"] = [dict(DRILLS[0], step=1, due="2026-12-02")]
    version_1 = {key: value for key, value in good.items() if key != "drills"}
    texts = [json.dumps(good), json.dumps(progress.empty()), "", "{", "null", "[]", '"x"',
             json.dumps(dict(good, version=1)), json.dumps(dict(version_1, version=1)), json.dumps(dict(good, version=1.0)), json.dumps(dict(good, version="1")),
             json.dumps(dict(good, extra=1)), "[" * 5000 + "]" * 5000, "\ufeff" + json.dumps(good)]
    rng = random.Random(20)
    for _ in range(300):  # one part of the good document replaced by something else
        doc = json.loads(json.dumps(good))
        parent, key = doc, rng.choice(list(doc))
        while isinstance(parent[key], (dict, list)) and parent[key] and rng.random() < 0.7:
            parent = parent[key]
            key = rng.choice(list(parent)) if isinstance(parent, dict) else rng.randrange(len(parent))
        parent[key] = rng.choice([None, True, 0, -1, 1.5, 10**12, "", "é" * 3, "7C", [], {}, [1], {"a": 1},
                                  "2026-12-01T10:00:00Z", "0123456789abcdef/1", "x" * 90])
        texts.append(json.dumps(doc, ensure_ascii=rng.random() < 0.5))
    texts += [json.dumps(doc) for doc in one_past_each_limit().values()]
    return texts


def python_verdict(text: str) -> str:
    try:
        return "ok:" + json.dumps(progress.read(text), sort_keys=True)
    except progress.ProgressError as error:
        return "refused" if error.kind in ("not_json", "foreign") else f"refused:{error.kind}"


def test_the_page_reads_every_document_as_python_does(page, book_site, page_guard):
    open_book_page(page, book_site, PROGRESS)
    texts = documents_for_the_page()
    verdicts = page.evaluate("""(texts) => texts.map((text) => {
      const got = window.calijackProgress.parse(text);
      if (got.doc) return "ok:" + JSON.stringify(got.doc);
      return ["not_json", "foreign"].includes(got.kind) ? "refused" : "refused:" + got.kind;
    })""", texts)
    for text, theirs in zip(texts, verdicts):
        ours = python_verdict(text)
        if theirs.startswith("ok:"):
            theirs = "ok:" + json.dumps(json.loads(theirs[3:]), sort_keys=True)
        assert theirs == ours, text[:300]
    assert sum(v.startswith("ok:") for v in verdicts) >= 3 and sum(v != "refused" and v.startswith("refused")
                                                                  for v in verdicts) >= 50
    page_guard.assert_clean(PROGRESS)


# -- quick checks ---------------------------------------------------------------------------------

def right_answers(page, page_checks, count: int) -> list[int]:
    """The right answer of each of the page's first ``count`` quick checks, found by trying every
    answer (a question draws only the feedback chosen); then the store is emptied again."""
    rights = []
    for q in range(count):
        question = page.locator(".cj-quiz .cj-quiz-question").nth(q)
        buttons = question.locator(".cj-quiz-control button")
        for b in range(buttons.count()):
            buttons.nth(b).click()
            shown = question.locator(f'.cj-frame[data-frame="{b}"] .cj-quiz-feedback')
            shown.wait_for()
            if shown.get_attribute("data-right") == "true":
                rights.append(b)
    page.evaluate("() => localStorage.clear()")
    page.reload(wait_until="load")
    page_checks.wait_for_widgets(page)
    return rights


def puzzle_answer(number: int) -> int:
    """The index of puzzle ``number``'s answer among its card buttons (the legal cards, in order)."""
    puzzle = next(p for p in load_puzzles() if p.number == number)
    return [c.code for c in puzzle.state.legal_cards()].index(puzzle.answer)


def test_a_quick_check_answered_is_remembered_and_counted(page, page_checks, book_site, page_guard):
    open_book_page(page, book_site, CHECKS_PAGE)
    page_checks.wait_for_widgets(page)
    rights = right_answers(page, page_checks, 3)
    questions = page.locator(".cj-quiz .cj-quiz-question")
    first, second = questions.nth(0), questions.nth(1)
    buttons = first.locator(".cj-quiz-control button")
    buttons.nth((rights[0] + 1) % buttons.count()).click()      # wrong at the first try
    buttons.nth(rights[0]).click()
    second.locator(".cj-quiz-control button").nth(rights[1]).click()
    expect(second.locator(".cj-progress-mark")).to_have_text(progress.TEXTS["check_first"])
    third = questions.nth(2)
    third.locator("details.cj-quiz-answer summary").click()          # the answer read first
    third.locator(".cj-quiz-control button").nth(rights[2]).click()
    expect(third.locator(".cj-progress-mark")).to_have_text(progress.TEXTS["check_later"])
    assert kept(page)["checks"] == {"book/03_legal_play#1": {"first": False, "solved": True},
                                    "book/03_legal_play#2": {"first": True, "solved": True},
                                    "book/03_legal_play#3": {"first": False, "solved": True}}
    page.reload(wait_until="load")
    page_checks.wait_for_widgets(page)
    expect(questions.nth(0).locator(".cj-progress-mark")).to_have_text(progress.TEXTS["check_later"])
    expect(questions.nth(1).locator(".cj-progress-mark")).to_have_text(progress.TEXTS["check_first"])
    assert questions.nth(3).locator(".cj-progress-mark").count() == 0
    open_progress(page, book_site)
    row = page.locator('.cj-progress-section[data-section="checks"] li[data-page="book/03_legal_play"]')
    expect(row).to_contain_text("3 of 4 answered, 1 right at the first try")
    page_guard.assert_clean("after answering quick checks")


def test_answers_given_before_the_store_script_starts_are_counted(page, page_checks, book_site, page_guard):
    """The store's script starts when the page is idle or at the first touch (issue 34): answers
    given before it runs (here it is held back, as on a slow link) are kept and counted."""
    open_book_page(page, book_site, CHECKS_PAGE)
    page_checks.wait_for_widgets(page)
    rights = right_answers(page, page_checks, 2)
    held = []

    def hold(route) -> None:
        held.append(route)

    page.route("**/_static/calijack-progress.js*", hold)
    page.reload(wait_until="load")
    page_checks.wait_for_widgets(page)
    questions = page.locator(".cj-quiz .cj-quiz-question")
    first, second = questions.nth(0), questions.nth(1)
    buttons = first.locator(".cj-quiz-control button")
    buttons.nth((rights[0] + 1) % buttons.count()).click()      # wrong at the first try
    first.locator(f'.cj-frame[data-frame="{(rights[0] + 1) % buttons.count()}"] .cj-quiz-feedback').wait_for()
    buttons.nth(rights[0]).click()
    second.locator(".cj-quiz-control button").nth(rights[1]).click()
    second.locator(f'.cj-frame[data-frame="{rights[1]}"] .cj-quiz-feedback').wait_for()
    assert page.evaluate("() => !window.calijackProgress"), "the store's script ran before it was let through"
    assert held, "the answers did not start the store's script"
    held[-1].continue_()
    page.unroute("**/_static/calijack-progress.js*")
    page.wait_for_function("() => !!window.calijackProgress")
    expect(second.locator(".cj-progress-mark")).to_have_text(progress.TEXTS["check_first"])
    expect(first.locator(".cj-progress-mark")).to_have_text(progress.TEXTS["check_later"])
    assert kept(page)["checks"] == {"book/03_legal_play#1": {"first": False, "solved": True},
                                    "book/03_legal_play#2": {"first": True, "solved": True}}
    page_guard.assert_clean("answers before the store's script")


# -- puzzles --------------------------------------------------------------------------------------

def test_a_puzzle_solved_with_a_hint_gets_2_stars_and_without_3(page, page_checks, book_site, page_guard):
    open_book_page(page, book_site, PRACTICE)
    page_checks.wait_for_widgets(page)

    def puzzle(number):
        return page.locator(f".cj-puzzle-n-{number}")

    def pick(number, right: bool):
        item = puzzle(number)
        item.scroll_into_view_if_needed()
        buttons = item.locator(".cj-quiz-control button")
        index = puzzle_answer(number)
        buttons.nth(index if right else (index + 1) % buttons.count()).click()
        item.locator(".cj-quiz-feedback").filter(visible=True).wait_for()

    hinted = puzzle(1)
    hinted.scroll_into_view_if_needed()
    hinted.locator(".cj-puzzle-hint button").click()
    expect(hinted.locator(".cj-puzzle-hint-text").filter(visible=True)).to_contain_text("Hint: ")
    pick(1, True)
    pick(2, True)
    pick(3, False)
    pick(3, False)
    pick(3, True)
    pick(3, True)                                        # after the answer: counts no more
    pick(4, False)                                       # a wrong pick: not solved yet
    puzzle(5).locator("details.cj-quiz-answer summary").click()   # the answer read first
    pick(5, True)
    expect(puzzle(1).locator(".cj-progress-mark")).to_have_text("Your best so far: 2 stars of 3.")
    expect(puzzle(2).locator(".cj-progress-mark")).to_have_text("Your best so far: 3 stars of 3.")
    expect(puzzle(3).locator(".cj-progress-mark")).to_have_text("Your best so far: 1 star of 3.")
    stored = kept(page)["puzzles"]
    assert {n: stored[n]["best"] for n in stored} == {"1": 2, "2": 3, "3": 1, "4": 0, "5": 1}
    assert stored["4"]["tries"] == 1
    open_progress(page, book_site)
    stars = page.locator(".cj-progress-stars li[data-puzzle] .cj-stars")
    assert stars.count() == len(progress_puzzles())
    got = {page.locator(".cj-progress-stars li").nth(k).get_attribute("data-puzzle"): stars.nth(k).get_attribute("data-stars")
           for k in range(5)}
    assert got == {"1": "2", "2": "3", "3": "1", "4": "0", "5": "1"}
    solved = sum(1 for n in stored if stored[n]["best"] > 0)      # 1, 2, 3 and 5 (after its answer was read)
    expect(page.locator('.cj-progress-section[data-section="puzzles"]')).to_contain_text(
        f"{solved} of {len(progress_puzzles())} puzzles solved: {sum(s['best'] for s in stored.values())} stars")
    page_guard.assert_clean("after solving puzzles")


def progress_puzzles():
    return json.loads((BOOK_HTML / "_static" / "calijack-progress-book.json").read_text())["puzzles"]


# -- the progress page: download, load, reset ------------------------------------------------------

def test_downloaded_progress_loads_in_another_browser_the_same(page, new_page, book_site, tmp_path, page_guard):
    doc = seed_store(page, book_site)
    open_progress(page, book_site)
    before = section_texts(page)
    assert "Playing to a trick: 2 of 4 answered, 1 right at the first try" in before["checks"]
    with page.expect_download() as info:
        page.locator(".cj-download-progress").click()
    saved = tmp_path / info.value.suggested_filename
    info.value.save_as(saved)
    assert saved.name.startswith("calijack-progress-") and progress.read(saved.read_text()) == doc
    assert subprocess.run([sys.executable, "-m", "calijack.progress", "check", str(saved)],
                          capture_output=True, cwd=REPO).returncode == 0

    other = new_page()                                   # another browser: nothing kept yet
    open_progress(other, book_site)
    assert kept(other) is None
    assert section_texts(other) != before
    bad = tmp_path / "not-progress.json"
    bad.write_text('{"rules": {}, "dealer": 0}')
    other.locator(".cj-load-input").set_input_files(bad)
    expect(other.locator(".cj-progress-told")).to_have_text(
        f"not-progress.json cannot be loaded: {progress.TEXTS['reason_foreign']}. Nothing was changed.")
    assert kept(other) is None
    other.locator(".cj-load-input").set_input_files(saved)
    dialog = other.locator("dialog.cj-confirm[open]")
    expect(dialog).to_contain_text(f"Replace the progress kept in this browser with the one in {saved.name}?")
    dialog.locator(".cj-confirm-yes").click()
    expect(other.locator(".cj-progress-told")).to_have_text(f"Progress loaded from {saved.name}.")
    assert kept(other) == doc
    assert section_texts(other) == before
    page_guard.assert_clean("after download and load")


def replayed_points(page, deal, folder) -> list[int]:
    """Press a past deal's Download record, and have ``calijack replay`` read the file: its points."""
    with page.expect_download() as info:
        deal.locator(".cj-download-record").click()
    record = folder / "deal.json"
    info.value.save_as(record)
    done = subprocess.run([sys.executable, "-m", "calijack", "replay", str(record), "--json"],
                          capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["result"]["points"]


def test_a_finished_deal_downloads_as_a_record_that_replays(page, book_site, tmp_path):
    seed_store(page, book_site)
    _, session = finished_entry()
    open_progress(page, book_site)
    deal = page.locator(".cj-progress-deal")
    assert deal.count() == 1
    mine, theirs = session.result.points
    expect(deal).to_contain_text(f"against the Casual computer player: you scored {mine}, the computer {theirs}.")
    assert replayed_points(page, deal, tmp_path) == [mine, theirs]
    review = deal.locator(".cj-review-link")
    assert review.get_attribute("href") == f"../notebooks/07_sandbox.html?review={GAME_ID}%2F1"
    table = page.locator('.cj-progress-section[data-section="opponents"] tr[data-opponent="casual"] td')
    assert [table.nth(k).inner_text() for k in range(5)] == ["1", str(mine), str(theirs), "0", "0"]


def test_reset_clears_one_section_after_a_confirmation(page, book_site):
    doc = seed_store(page, book_site)
    # Deals against a classmate come from the hub's tables (the class service), not this page.
    doc["people"] = {"totals": {"bo": {"deals": 2, "for": 5, "against": 3, "won": 0, "lost": 0}}, "deals": []}
    open_progress(page, book_site)
    page.evaluate("(doc) => window.calijackProgress.replace(doc)", doc)
    people = page.locator('.cj-progress-section[data-section="people"] tr[data-classmate="bo"] td')
    assert [people.nth(k).inner_text() for k in range(5)] == ["2", "5", "3", "0", "0"]
    for section in progress.SECTIONS:
        page.evaluate("(doc) => window.calijackProgress.replace(doc)", doc)
        page.locator(f".cj-reset-{section}").click()
        page.locator("dialog.cj-confirm[open] .cj-confirm-no").click()     # Cancel: nothing changes
        assert kept(page) == doc
        page.locator(f".cj-reset-{section}").click()
        page.locator("dialog.cj-confirm[open] .cj-confirm-yes").click()
        expect(page.locator(".cj-progress-told")).to_contain_text("reset.")
        after = kept(page)
        assert after[section] == progress.SECTIONS[section].empty, section
        assert {k: v for k, v in after.items() if k != section} == {k: v for k, v in doc.items() if k != section}


def test_reset_all_by_keyboard_on_a_phone_and_a_desk(screen_page, page_checks, book_site, page_guard):
    page = screen_page
    seed_store(page, book_site)
    open_progress(page, book_site)
    # The theme's closed side drawers wait off-screen at 390 px: what must fit is the page's
    # width and the progress app itself.
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    outside = page.evaluate("""(width) => Array.from(document.querySelectorAll("#cj-progress *"))
      .filter((el) => el.checkVisibility() && !el.closest(".cj-progress-scroll, .cj-sr-only"))
      .map((el) => [el.tagName, el.className, el.getBoundingClientRect()])
      .filter(([, , box]) => box.width && (box.left < -1 || box.right > width + 1))
      .map(([tag, cls]) => tag + "." + cls)""", page.viewport_size["width"])
    assert outside == [], page.screen
    box = page.locator("#cj-progress").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"], box
    least = 44 if page.screen == "phone" else 24
    assert page_checks.small_targets(page, "#cj-progress", least) == [], page.screen
    page_checks.assert_accessible(page, f"the progress page ({page.screen})")
    if page.screen == "phone":                                          # a finger: open, then Cancel
        page.locator(".cj-reset-puzzles").tap()
        page.locator("dialog.cj-confirm[open] .cj-confirm-no").tap()
        expect(page.locator("dialog.cj-confirm[open]")).to_have_count(0)
        assert kept(page)["puzzles"]
    reset = page.locator(".cj-progress-actions .cj-reset-all")
    reset.focus()
    page.keyboard.press("Enter")
    dialog = page.locator("dialog.cj-confirm[open]")
    expect(dialog).to_be_visible()
    assert page.evaluate("() => document.activeElement.className").endswith("cj-confirm-no")
    page_checks.assert_accessible(page, f"the progress page's confirmation ({page.screen})")
    page.keyboard.press("Escape")                                       # closed: nothing changes
    expect(dialog).to_have_count(0)
    assert kept(page) is not None
    reset.focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")                                          # Cancel, then Reset
    page.keyboard.press("Enter")
    expect(page.locator(".cj-progress-told")).to_have_text(progress.TEXTS["done_all"])
    assert kept(page) is None
    expect(page.locator('.cj-progress-section[data-section="deals"]')).to_contain_text(progress.TEXTS["deals_none"])
    page_guard.assert_clean(f"after Reset all ({page.screen})")


# -- bad data ----------------------------------------------------------------------------------

@pytest.mark.parametrize("stored, reason", [
    ("{not json", "reason_not_json"),
    ('{"some": "other site data"}', "reason_foreign"),
    (json.dumps(dict(progress.empty(), version=progress.VERSION + 1)), "reason_too_new"),
    (json.dumps(dict(progress.empty(), deals=[{"id": "x"}])), "reason_schema"),
])
def test_a_document_that_cannot_be_read_is_said_kept_and_reset(stored, reason, page, page_checks, book_site,
                                                               page_guard, tmp_path):
    open_book_page(page, book_site, PROGRESS)
    page.evaluate("([key, text]) => localStorage.setItem(key, text)", [KEY, stored])
    open_progress(page, book_site)
    alert = page.locator(".cj-progress-unreadable")
    expect(alert).to_contain_text("Your saved progress could not be read: ")
    head = progress.TEXTS[reason].split("{")[0]
    expect(alert).to_contain_text(head)
    with page.expect_download() as info:                                 # nothing is lost
        alert.locator(".cj-download-raw").click()
    info.value.save_as(tmp_path / "as-is.json")
    assert (tmp_path / "as-is.json").read_text() == stored
    # Pages go on working; what is answered is not kept, and the document is not written over
    # (the same for every case: one case is enough).
    if reason == "reason_not_json":
        open_book_page(page, book_site, CHECKS_PAGE)
        page_checks.wait_for_widgets(page)
        question = page.locator(".cj-quiz .cj-quiz-question").first
        question.locator(".cj-quiz-control button").first.click()
        expect(question.locator(".cj-quiz-feedback").filter(visible=True)).to_be_visible()
        expect(page.locator(".cj-quiz > .cj-progress-note")).to_have_text(progress.TEXTS["note_unreadable"])
        open_progress(page, book_site)
    assert page.evaluate("(key) => localStorage.getItem(key)", KEY) == stored
    page.locator(".cj-progress-unreadable .cj-reset-all").click()
    page.locator("dialog.cj-confirm[open] .cj-confirm-yes").click()
    expect(page.locator(".cj-progress-unreadable")).to_have_count(0)
    expect(page.locator('.cj-progress-section[data-section="checks"]')).to_be_visible()
    assert kept(page) is None
    page_guard.assert_clean("with an unreadable document")


BLOCKED = """Object.defineProperty(window, "localStorage", {configurable: true,
  get() { throw new DOMException("The operation is insecure.", "SecurityError"); }});"""
# Full: the progress document does not fit in what is left (the theme's few bytes still do).
FULL = """(() => { const set = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    if (key === %s) throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    return set.call(this, key, value); }; })();""" % json.dumps(KEY)


@pytest.mark.parametrize("broken, note", [(BLOCKED, "note_blocked"), (FULL, "note_full")])
def test_storage_that_throws_costs_only_a_note(broken, note, page, page_checks, book_site, page_guard):
    page.add_init_script(broken)
    open_book_page(page, book_site, CHECKS_PAGE)
    page_checks.wait_for_widgets(page)
    question = page.locator(".cj-quiz .cj-quiz-question").first
    question.locator(".cj-quiz-control button").first.click()
    expect(question.locator(".cj-quiz-feedback").filter(visible=True)).to_be_visible()
    expect(page.locator(".cj-quiz > .cj-progress-note")).to_have_text(progress.TEXTS[note])
    # This visit still shows what was answered.
    expect(question.locator(".cj-progress-mark")).to_have_count(1)
    open_progress(page, book_site)
    if note == "note_blocked":
        expect(page.locator("#cj-progress > .cj-progress-note")).to_have_text(progress.TEXTS[note])
    else:  # reading works; the first change the page tries to keep says it was not kept
        page.locator(".cj-reset-checks").click()
        page.locator("dialog.cj-confirm[open] .cj-confirm-yes").click()
        expect(page.locator(".cj-progress-told")).to_have_text(
            progress.TEXTS["not_kept"].replace("{note}", progress.TEXTS[note]))
    page_guard.assert_clean("with storage that throws")
