"""The live book: "Play live" on the built book's lesson pages runs Python in the browser.

Every test serves the built book (``make book`` builds its live part, ``lite/``) on
127.0.0.1 and drives Chromium; the ``page`` fixture fails a test on any console error and on
any request that leaves 127.0.0.1. The sandbox is checked with the Voilà tests' own helpers
(``test_sandbox``), against a mirror :class:`~calijack.play.Session` on the same seed.
"""

from __future__ import annotations

import gzip
import json
import math
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
from playwright.sync_api import expect

from calijack import progress
from calijack.play import Session
from calijack.serve.static import TWINS
import test_sandbox
from conftest import (BOOK_HTML, LIVE_SETUP, REPO, REVIEW_SAMPLES, exercise_static_demos, select_position,
                      wait_for_widgets)
from test_sandbox import SEED, every_card_is_legal, play_while, settle

# The Voilà tests' way of playing a card: press_card since the card table (issue 9).
click_card = getattr(test_sandbox, "press_card", None) or test_sandbox.click_card

START_MS = 240_000  # Python's start in the browser; generous, the machine is shared
LESSONS = ["01_cards", "02_deal", "03_legal_play", "04_drawing", "05_scoring", "06_worked_example"]
LITE = BOOK_HTML / "lite"


def open_lesson(page, book_site, lesson: str) -> list[str]:
    """Open a lesson page; return the URLs it requested (none of the live site's)."""
    # The page before goes first: a live lesson it held may still be making its copy of Python
    # (lite/kernel/keep.mjs, which fetches the interpreter), and what that fetches while the
    # next page loads is not the next page's.
    page.goto("about:blank")
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(book_site.url_for(f"notebooks/{lesson}.html"), wait_until="load")
    wait_for_widgets(page)
    page.locator(".cj-live-button").wait_for()
    return requested


def start_live(page, book_site, lesson: str, kept: bool | None = False):
    """Press "Play live" on a lesson page; return the frame holding the live lesson. ``kept``:
    this browser keeps a started Python from an earlier start, so no wheel is fetched (None:
    kept but not usable, the wheels may be fetched or not)."""
    requested = open_lesson(page, book_site, lesson)
    assert not [url for url in requested if "/lite/" in url], "the live site was fetched on load"
    page.locator(".cj-live-button").click()
    status = page.locator(".cj-live-status")
    if kept is False:
        expect(status).to_contain_text("Loading Python…")
    expect(status).to_contain_text("Live:", timeout=START_MS)
    wheels = [url for url in requested if url.endswith(".whl")]
    if kept is not None:
        assert bool(wheels) != kept, wheels
    frame_element = page.locator("iframe.cj-live-frame")
    expect(frame_element).to_be_visible()
    # The static demo it replaced is hidden, in place.
    assert page.locator(".cj-live + .cell[hidden]").count() == 1
    frame = frame_element.element_handle().content_frame()
    # The lesson's last cell alone shows, its output without its code.
    assert frame.locator(".cj-play-cell").filter(visible=True).count() == 1
    assert "import " not in frame.locator("#cj-play").inner_text()
    return frame


def test_the_live_sandbox_plays_a_whole_deal_by_clicks(book_site, page, page_guard):
    page.add_init_script(LIVE_SETUP)  # the lessons' test settings: shorter pauses, fewer guesses
    scripts: list[str] = []
    page.on("request", lambda request: scripts.append(request.url)
            if urlsplit(request.url).path.endswith((".js", ".mjs")) else None)
    frame = start_live(page, book_site, "07_sandbox")
    mirror = Session(seed=SEED)
    settle(frame, mirror)
    # The live page is a worker with Python in it and the book's own widget manager: of the
    # live site's scripts, only the page's, the worker's (its start, Python) and anywidget's
    # front end are loaded on the way to the first card; no kernel, no JupyterLite app.
    assert any("/lite/play/play.mjs" in url for url in scripts), scripts
    live = {urlsplit(url).path.split("/lite/", 1)[1] for url in scripts if "/lite/" in url}
    assert live == {"play/play.mjs", "static/calijack/start.mjs", "static/calijack/python.mjs",
                    "static/calijack/anywidget.js", "static/pyodide/pyodide.mjs",
                    "static/pyodide/pyodide.asm.mjs"}, live
    assert not (LITE / "build").exists() and not (LITE / "repl").exists()

    # Play until some card may not be played; click it: explained, and nothing played.
    play_while(frame, mirror, every_card_is_legal)
    refused = next(v for v in mirror.verdicts() if not v.legal)
    plays = frame.locator(".cj-sandbox-table").get_attribute("data-plays")
    click_card(frame, refused.card)
    frame.locator(".cj-message .cj-reason").wait_for()
    assert frame.locator(".cj-message").inner_text().strip() == f"{refused.card} cannot be played. {refused.reason}"
    assert frame.locator(".cj-sandbox-table").get_attribute("data-plays") == plays
    settle(frame, mirror)

    # Undo takes back the learner's last card and the computer's answer: pressed with Enter
    # (in JupyterLab's REPL its shortcuts took Enter; the live page leaves it to the button).
    before = len(mirror.state.plays)
    frame.locator(".cj-undo").press("Enter")
    mirror.undo()
    assert len(mirror.state.plays) < before
    settle(frame, mirror)
    expect(frame.locator(".cj-message")).to_contain_text("Took back your last card")

    # On to the end of the deal: the score sheet, as the engine scores it.
    play_while(frame, mirror, lambda m: not m.finished)
    sheet = frame.locator(".cj-score, .cj-sheet-slot .cj-sheet")  # the sheet before/after issue 9
    sheet.wait_for()
    assert "Score sheet" in sheet.inner_text()
    result = mirror.state.result()
    for award in result.awards:
        row = sheet.locator(f'.cj-award[data-point="{award.name}"]')
        seat = row.locator("[data-seat]").first.get_attribute("data-seat")
        assert seat == ("" if award.seat is None else str(award.seat))
    for seat, pips in enumerate(result.pips):
        assert int(sheet.locator(f'.cj-seat-values[data-seat="{seat}"] .cj-total').inner_text()) == pips
    page_guard.assert_clean("after a whole live deal")

    # The coach runs in the browser's Python too: "Review this deal" rates each of the
    # learner's 26 plays, the mistakes marked as the engine marks them (same seed and guesses).
    frame.locator(".cj-review-deal").click()
    frame.wait_for_selector('.cj-board[data-steps="26"]', timeout=START_MS)
    reviews = mirror.review(REVIEW_SAMPLES)
    chips = frame.locator(".cj-board .cj-board-chip")
    assert chips.count() == 26
    marked = [k for k in range(26) if "cj-board-bad" in (chips.nth(k).get_attribute("class") or "")]
    assert marked == [k for k, r in enumerate(reviews) if r.mistake]
    assert frame.locator(".cj-board .cj-board-summary").inner_text().strip()
    # The review board's buttons and the ipywidgets buttons answer Enter too, once each.
    position = frame.locator(".cj-board .cj-board-pos")
    expect(position).to_have_text(re.compile(r"^Play \d+ of 26$"))
    first = int(position.inner_text().split()[1])  # the board opens at the first mistake
    there, back = ("next", "prev") if first < 26 else ("prev", "next")
    frame.locator(f".cj-board-{there}").press("Enter")
    expect(position).to_have_text(f"Play {first + 1 if there == 'next' else first - 1} of 26")
    frame.locator(f".cj-board-{back}").press("Enter")
    expect(position).to_have_text(f"Play {first} of 26")
    frame.locator(".cj-new-deal").press("Enter")
    expect(frame.locator(".cj-sandbox-table")).to_have_attribute("data-plays", re.compile(r"^[0-3]$"))
    assert_no_traceback(frame)
    page_guard.assert_clean("after reviewing the live deal")


def assert_no_traceback(frame) -> None:
    """No error under the lesson, printed or raised: every widget message from the page reached
    Python as it means it (a cleared choice is None there, not Pyodide's jsnull, which traitlets
    refuse with a traceback the learner would read). A lesson's own printed lines may stay."""
    errors = frame.locator(".cj-play-error")
    assert errors.count() == 0, errors.first.inner_text()[:400]
    printed = "\n".join(frame.locator(".cj-play-stream").all_inner_texts())
    assert not re.search(r"Traceback|Error\b|exception", printed), printed[:400]


def test_the_live_practice_lesson_answers_a_puzzle(book_site, page, page_guard):
    from calijack.puzzles import load

    puzzles = load()
    frame = start_live(page, book_site, "08_practice")
    # Live, the endgame's puzzles (exact values) come from Python once their stage is picked.
    endgame = [p for p in puzzles if p.stage == "endgame"]
    stages = frame.locator(".cj-stage-control button")
    stages.first.wait_for(timeout=START_MS)
    stages.last.click()
    questions = frame.locator(".cj-puzzle").filter(visible=True)
    questions.first.wait_for(timeout=START_MS)
    assert questions.count() == len(endgame)
    puzzle, item = endgame[-1], questions.nth(len(endgame) - 1)
    legal = [str(c) for c in puzzle.state.legal_cards()]
    answer = legal[[c.code for c in puzzle.state.legal_cards()].index(puzzle.answer)]
    buttons = item.locator(".cj-quiz-control button")
    item.scroll_into_view_if_needed()
    assert [buttons.nth(i).inner_text().strip() for i in range(buttons.count())] == legal
    buttons.nth(legal.index(answer)).click()
    shown = item.locator('.cj-quiz-feedback[data-right="true"]').filter(visible=True)
    shown.wait_for()
    assert "Right." in shown.inner_text()
    assert shown.locator(".cj-puzzle-values tbody tr").count() == len(legal)
    # The stars are kept as in the static book: found at the first try, with no hint, 3 of 3.
    expect(item.locator(".cj-progress-mark")).to_have_text("Your best so far: 3 stars of 3.")
    kept = json.loads(page.evaluate("(key) => localStorage.getItem(key)", progress.KEY))
    assert kept["puzzles"][str(puzzle.number)]["best"] == 3, kept["puzzles"]
    assert_no_traceback(frame)
    page_guard.assert_clean("after a live puzzle")


def test_each_live_lesson_answers_its_control(book_site, page, page_guard):
    """Every lesson in turn, in one browser: the first start loads Python, each later one
    restores the Python this browser kept (as a reader going from lesson to lesson does)."""
    for k, lesson in enumerate(LESSONS):
        frame = start_live(page, book_site, lesson, kept=None if k else False)
        # Live mode: the frames come from Python callbacks, not from precomputed stacks.
        demo = frame.locator(".cj-live-demo").first
        demo.wait_for()
        control = demo.locator(".cj-static-control").first
        select_position(control, 1)
        expect(demo.locator('.cj-frame[data-frame="1"]')).to_be_visible()
        select_position(control, 0)
        expect(demo.locator('.cj-frame[data-frame="0"]')).to_be_visible()
        assert_no_traceback(frame)
        page_guard.assert_clean(f"after using live lesson {lesson}")


def test_the_live_friend_table_hides_both_hands_between_turns(book_site, page, page_guard):
    """Play a friend in the reader's browser: the table for two starts, each turn begins behind
    the pass screen (no unseen card in the frame's DOM, text or accessibility tree), and a
    revealed hand plays, as the engine's own game on the same deal does."""
    from calijack.friend import Friend
    from test_pass_and_play import check_hidden

    frame = start_live(page, book_site, "09_friend")
    frame.locator(".cj-friend-start").wait_for(timeout=START_MS)
    names = frame.locator(".cj-friend-name input")
    mirror = Friend((names.nth(0).input_value(), names.nth(1).input_value()),
                    seed=int(frame.locator(".cj-seed input").input_value()))
    frame.locator(".cj-friend-start").click()
    for _ in range(2):  # two turns: each player reveals, then plays the first legal card
        frame.wait_for_selector(f'.cj-friend-table[data-phase="pass"][data-seat="{mirror.to_play}"]'
                                f'[data-plays="{len(mirror.state.plays)}"]', state="attached")
        check_hidden(frame, mirror)
        frame.locator(".cj-pass-go").click()
        mirror.reveal()
        frame.wait_for_selector(f'.cj-friend-table[data-phase="play"][data-seat="{mirror.to_play}"]',
                                state="attached")
        card = mirror.state.legal_cards()[0]
        frame.locator(f'.cj-you .cj-play[data-card="{card.code}"]').click()
        mirror.play(card)
    assert_no_traceback(frame)
    page_guard.assert_clean("after two turns at the live table for two")


def test_the_play_live_note_gives_the_download_the_build_measured():
    """Each lesson page tells the reader how much Python weighs: the gzip size of the live
    site's runtime and wheels as the build measured them (it said "about 10 MB", a guess)."""
    runtime = LITE / "static" / "pyodide"
    assert runtime.is_dir(), "the book is not built with its live part: run `make book`"
    want = math.ceil(sum(len(gzip.compress(p.read_bytes(), 6)) for p in runtime.iterdir()
                         if p.suffix not in TWINS) / 1e6)
    assert 5 <= want <= 15, want  # issue 8's budget for the whole cold download is 15 MB gzip
    for lesson in ("07_sandbox", "03_legal_play"):
        html = (BOOK_HTML / "notebooks" / f"{lesson}.html").read_text(encoding="utf-8")
        tag = re.search(r"<script[^>]*calijack-live\.js[^>]*>", html).group(0)
        assert f'data-download-mb="{want}"' in tag, tag


def test_play_live_before_the_widget_code_has_loaded_still_plays_live(book_site, page, page_guard):
    """The book loads a page's widget code only once the reader comes near a demo (issue 14):
    "Play live" pressed first, with only the demo's picture on the page, gives the live lesson."""
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(book_site.url_for("notebooks/03_legal_play.html"), wait_until="load")
    button = page.locator(".cj-live-button")
    button.wait_for()
    assert page.locator(".cj-demo-placeholder").count() >= 1, "no picture of the demo"
    assert not [url for url in requested if "/jupyter-widgets-" in url or "/lite/" in url], requested
    button.click()
    status = page.locator(".cj-live-status")
    expect(status).to_contain_text("Live:", timeout=START_MS)
    assert page.locator(".cj-live + .cell[hidden]").count() == 1
    frame = page.locator("iframe.cj-live-frame").element_handle().content_frame()
    demo = frame.locator(".cj-live-demo").first
    demo.wait_for()
    select_position(demo.locator(".cj-static-control").first, 1)
    expect(demo.locator('.cj-frame[data-frame="1"]')).to_be_visible()
    assert page.locator("iframe.cj-live-frame").count() == 1
    page_guard.assert_clean("after Play live pressed before the widgets loaded")


def test_without_webassembly_it_says_so_and_the_demo_stays(book_site, page):
    page.add_init_script("delete window.WebAssembly;")
    requested = open_lesson(page, book_site, "03_legal_play")
    page.locator(".cj-live-button").click()
    expect(page.locator(".cj-live-status")).to_contain_text("no WebAssembly")
    expect(page.locator(".cj-live-status")).to_contain_text("The demo below still works.")
    assert not [url for url in requested if "/lite/" in url]
    assert exercise_static_demos(page, "03_legal_play") == 1


def test_a_blocked_file_is_said_in_plain_words_and_the_demo_stays(book_site, page, page_guard):
    # A host that refuses one file. (A context route: the guard's catch-all is one too, and
    # the last registered is asked first.)
    page.context.route("**/static/pyodide/pyodide.asm.wasm",
                       lambda route: route.fulfill(status=403, body="blocked by the host"))
    open_lesson(page, book_site, "02_deal")
    page.locator(".cj-live-button").click()
    status = page.locator(".cj-live-status")
    expect(status).to_contain_text("could not be loaded: static/pyodide/pyodide.asm.wasm (403",
                                   timeout=60_000)
    expect(status).to_contain_text("The demo below still works.")
    assert page.locator("iframe.cj-live-frame").count() == 0
    assert page.locator(".cj-live-button").inner_text() == "Try again"
    assert exercise_static_demos(page, "02_deal") == 1
    # The one error the browser logs is the blocked file's own.
    blocked = [e for e in page_guard.console_errors if "status of 403" in e]
    assert blocked, page_guard.console_errors
    for error in blocked:
        page_guard.console_errors.remove(error)


def kernel_cache() -> str:
    """The Cache Storage name the built site keeps its started Python under, as the build
    told the "Play live" script (``lessons.json``)."""
    return json.loads((LITE / "lessons.json").read_text())["python_cache"]


def console_texts(page) -> list[str]:
    """Every console message of the page and its workers from now on, as text, in order."""
    texts: list[str] = []
    page.on("console", lambda message: texts.append(message.text))
    return texts


def wait_for_text(page, texts: list[str], needle: str, timeout_ms: int = START_MS) -> str:
    """The first console message containing ``needle``, waiting for it up to ``timeout_ms``."""
    waited = 0
    while waited < timeout_ms:
        found = [t for t in texts if needle in t]
        if found:
            return found[0]
        page.wait_for_timeout(200)
        waited += 200
    raise AssertionError(f"no console message with {needle!r} in {timeout_ms} ms; saw {texts[-20:]}")


def open_play(page, site_url: str, code: str) -> None:
    """Open the live lesson's page of the site at ``site_url`` (a fresh page, so a fresh Python)
    running ``code``, as "Play live" opens it."""
    page.goto(f"{site_url}lite/play/index.html?{urlencode([('code', code)])}")


def play_print(page, book_site, code: str, marker: str) -> str:
    """Run ``code`` in the live lesson's page; return what it printed after ``marker``."""
    open_play(page, book_site.url, code)
    out = page.locator(".cj-play-stream", has_text=marker)
    out.wait_for(timeout=START_MS)
    return out.inner_text().split(marker, 1)[1].strip()


def test_a_lesson_cell_that_fails_stops_the_live_page_with_its_error_in_words(book_site, page, page_guard):
    """The live worker's runner (lite/kernel/live.py): what a cell prints comes out, a cell
    that raises stops the page with the error's last line (what the book's "Play live" shows
    the reader), and its traceback is the cell's own, not the runner's or Pyodide's."""
    open_play(page, book_site.url, "print('CJ-BEFORE')\ndef f():\n    return 1 / 0\nf()")
    main = page.locator("#cj-play")
    expect(main).to_have_attribute("data-state", "error", timeout=START_MS)
    assert main.get_attribute("data-error") == "ZeroDivisionError: division by zero"
    assert page.locator(".cj-play-stream").inner_text().strip() == "CJ-BEFORE"
    traceback = page.locator(".cj-play-error").inner_text()
    assert 'File "<cell>", line 4' in traceback and "line 3, in f" in traceback, traceback
    assert "_calijack_live" not in traceback and "pyodide" not in traceback, traceback
    page_guard.assert_clean("after a failing cell")


def test_a_second_start_takes_the_python_this_browser_kept(book_site, page, page_guard):
    """The first "Play live" keeps a started Python (a memory snapshot and the packages' files)
    in the browser's Cache Storage; the next start in that browser restores it instead of
    loading and importing everything again, and the lesson works the same."""
    texts = console_texts(page)
    start_live(page, book_site, "03_legal_play")
    wait_for_text(page, texts, "kept a started Python in this browser")
    frame = page.locator("iframe.cj-live-frame").element_handle().content_frame()
    assert kernel_cache() in frame.evaluate("() => caches.keys()")
    assert not [t for t in texts if "restored from this browser" in t]
    # The copy is made by a worker of its own once the lesson is up, not by the lesson's start.
    assert frame.locator("#cj-play").get_attribute("data-python") == "started"

    texts.clear()
    frame = start_live(page, book_site, "03_legal_play", kept=True)
    wait_for_text(page, texts, "Python restored from this browser's copy")
    assert frame.locator("#cj-play").get_attribute("data-python") == "restored"
    demo = frame.locator(".cj-live-demo").first
    demo.wait_for()
    select_position(demo.locator(".cj-static-control").first, 1)
    expect(demo.locator('.cj-frame[data-frame="1"]')).to_be_visible()
    assert not [t for t in texts if "calijack:" in t and "could not" in t], texts
    page_guard.assert_clean("after a start from the kept Python")


def test_each_restored_python_draws_its_own_random_numbers(book_site, page, page_guard):
    """The snapshot holds the random generator of the start that made it; each restore seeds
    it afresh, or every reader would be dealt the same "random" deals on every visit."""
    texts = console_texts(page)
    code = "import random\nprint('CJ-RANDOM', random.getrandbits(64))"
    first = play_print(page, book_site, code, "CJ-RANDOM")
    wait_for_text(page, texts, "kept a started Python in this browser")
    restored = [play_print(page, book_site, code, "CJ-RANDOM") for _ in range(2)]
    assert len([t for t in texts if "Python restored from this browser's copy" in t]) == 2, texts
    assert len({first, *restored}) == 3, (first, restored)
    page_guard.assert_clean("after three starts of the live page")


def test_the_start_is_compiled_small_but_calijack_keeps_its_docstrings_and_asserts(book_site, page, page_guard):
    """The start's bytecode as the build made it (lite/pyc_in_pyodide.py, lite/pyodide_run.mjs):
    no docstrings and no column ranges for the standard library and the kernel's packages;
    calijack's own modules keep their docstrings and their asserts."""
    code = ("import json, calijack.core as core, calijack.players.drive as drive\n"
            "def strings(code):\n"
            "    for c in code.co_consts:\n"
            "        yield from strings(c) if hasattr(c, 'co_consts') else [c] if isinstance(c, str) else []\n"
            "kept = any('chose an illegal card' in s for s in strings(drive.__loader__.get_code('calijack.players.drive')))\n"
            "print('CJ-PYC', json.dumps.__doc__ is None, list(json.dumps.__code__.co_positions())[0][2] is None,"
            " core.__doc__ is not None, kept)")
    assert play_print(page, book_site, code, "CJ-PYC") == "True True True True"
    page_guard.assert_clean("after the compiled start's check")


def test_a_damaged_copy_of_python_is_replaced_and_the_lesson_still_starts(book_site, page, page_guard):
    texts = console_texts(page)
    play_print(page, book_site, "print('CJ-UP', 1)", "CJ-UP")
    wait_for_text(page, texts, "kept a started Python in this browser")
    damaged = page.evaluate("""async (name) => {
      const cache = await caches.open(name);
      const keys = (await cache.keys()).map((request) => request.url);
      const memory = keys.find((url) => url.endsWith("python-memory.bin"));
      await cache.put(memory, new Response(new Uint8Array(1 << 16)));
      return keys.length;
    }""", kernel_cache())
    assert damaged == 2
    texts.clear()
    frame = start_live(page, book_site, "02_deal", kept=None)  # kept, but damaged
    warning = wait_for_text(page, texts, "could not be used; starting afresh")
    assert "invalid magic number" in warning, warning
    wait_for_text(page, texts, "kept a started Python in this browser")
    demo = frame.locator(".cj-live-demo").first
    demo.wait_for()
    select_position(demo.locator(".cj-static-control").first, 1)
    expect(demo.locator('.cj-frame[data-frame="1"]')).to_be_visible()
    page_guard.assert_clean("after a start with a damaged copy")


def test_the_network_gone_while_python_is_kept_is_one_warning_and_the_lesson_plays_on(book_site, page, page_guard):
    """The network goes while the keeper (lite/kernel/keep.mjs) starts its own Python: Pyodide
    asks for its interpreter before it waits for it, and would leave the failure unhandled (an
    error on the page) and then wait forever. The copy is not made, that is one warning, the
    keeper ends, and the lesson plays on."""
    texts = console_texts(page)
    cut = {"off": False}

    def keeper_begins(route):  # the network goes as the keeper's script is asked for
        cut["off"] = True
        route.continue_()

    page.context.route("**/static/calijack/keep.mjs*", keeper_begins)
    page.context.route("**/lite/static/pyodide/*.{wasm,zip,whl}",
                       lambda route: route.abort("internetdisconnected") if cut["off"] else route.continue_())
    frame = start_live(page, book_site, "03_legal_play")
    warning = wait_for_text(page, texts, "could not keep a started Python", timeout_ms=60_000)
    for _ in range(50):  # the keeper answers, and the live page ends it
        if not [w for w in page.workers if "/keep.mjs" in w.url]:
            break
        page.wait_for_timeout(100)
    assert not [w.url for w in page.workers if "/keep.mjs" in w.url], "the keeper is still running"
    assert "a file Python needs could not be downloaded (Failed to fetch)" in warning, warning
    assert not [t for t in texts if "kept a started Python in this browser" in t], texts
    assert frame.evaluate("async (name) => (await (await caches.open(name)).keys()).length", kernel_cache()) == 0
    demo = frame.locator(".cj-live-demo").first
    select_position(demo.locator(".cj-static-control").first, 1)
    expect(demo.locator('.cj-frame[data-frame="1"]')).to_be_visible()
    page_guard.assert_clean("after the network went while Python was being kept")


def test_the_network_gone_as_python_starts_is_said_in_words_and_the_demo_stays(book_site, page, page_guard):
    """The book's page has its copy of the interpreter, and the network goes before the lesson's
    worker asks for it (the page asks first: the frame's scripts come before the worker's own
    request). Pyodide would leave that failure unhandled and wait for ever; the reader is told,
    the static demo stays, and "Try again" is offered."""
    asked: list[str] = []

    def second_goes(route):  # the page's request for the interpreter comes; the worker's does not
        asked.append(route.request.url)
        if len(asked) > 1:
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.context.route("**/lite/static/pyodide/pyodide.asm.wasm", second_goes)
    open_lesson(page, book_site, "03_legal_play")
    page.locator(".cj-live-button").click()
    status = page.locator(".cj-live-status")
    expect(status).to_contain_text("The lesson stopped with an error: a file Python needs could not be "
                                   "downloaded (Failed to fetch).", timeout=60_000)
    expect(status).to_contain_text("The demo below still works.")
    assert len(asked) == 2, asked
    assert page.locator("iframe.cj-live-frame").count() == 0
    assert page.locator(".cj-live-button").inner_text() == "Try again"
    assert exercise_static_demos(page, "03_legal_play") == 1
    page_guard.assert_clean("after the network went as Python started")


PROBE_JS = """function render({ model, el }) {
  const button = document.createElement("button");
  button.className = "cj-probe-button";
  button.textContent = "probe";
  const reply = document.createElement("span");
  reply.className = "cj-probe-reply";
  button.addEventListener("click", () => { model.set("clicks", model.get("clicks") + 1); model.save_changes(); });
  model.on("change:reply", () => { reply.textContent = model.get("reply"); });
  el.append(button, reply);
}
export default { render };
"""
PROBE_PY = '''import pathlib
import anywidget
import traitlets


class Probe(anywidget.AnyWidget):
    _esm = pathlib.Path(__file__).parent / "probe.js"
    clicks = traitlets.Int(0).tag(sync=True)
    reply = traitlets.Unicode("").tag(sync=True)

    @traitlets.observe("clicks")
    def _answer(self, change):
        self.reply = f"python saw {change['new']}"
'''


def test_an_anywidget_from_a_wheel_renders_and_round_trips_a_click(tmp_path, static_site, page, page_guard):
    """The live Python carries anywidget and the site its extension: an ES module shipped as a file
    inside a wheel (as the sandbox's table will be) draws itself, and a click reaches Python."""
    import build_lite_module as build_lite

    source = tmp_path / "probe"
    (source / "cjprobe").mkdir(parents=True)
    (source / "cjprobe" / "__init__.py").write_text(PROBE_PY)
    (source / "cjprobe" / "probe.js").write_text(PROBE_JS)
    (source / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n'
        '[project]\nname = "cjprobe"\nversion = "0.1"\ndependencies = ["anywidget"]\n'
        '[tool.setuptools.package-data]\ncjprobe = ["*.js"]\n')
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--wheel-dir", str(tmp_path / "dist"), str(source)], check=True, capture_output=True)
    (wheel,) = (tmp_path / "dist").glob("cjprobe-*.whl")
    site = tmp_path / "site" / "lite"
    shutil.copytree(LITE, site, copy_function=os.link)
    # The live page draws with the book's widget manager, beside the live site.
    shutil.copytree(BOOK_HTML / "_static", site.parent / "_static", copy_function=os.link)
    runtime = site / "static" / "pyodide"
    shutil.copy2(wheel, runtime / wheel.name)
    lock_path = runtime / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text())
    lock["packages"]["cjprobe"] = build_lite.wheel_entry(runtime / wheel.name)
    lock_path.unlink()  # a hard link to the book's: write a new file
    lock_path.write_text(json.dumps(lock))
    # The worker's Python loads every package its settings list (python.mjs's CONFIG, a JSON
    # object the build writes in): the probe's too. Its compressed twins would be the old text.
    start = site / "static" / "calijack" / "python.mjs"
    text = start.read_text()
    assert text.count('"packages": [') == 1, "python.mjs no longer lists its packages in CONFIG"
    for twin in [start, *start.parent.glob(start.name + ".*")]:
        twin.unlink()
    start.write_text(text.replace('"packages": [', '"packages": ["cjprobe", '))

    open_play(page, static_site(tmp_path / "site"), "from cjprobe import Probe\nProbe()")
    button = page.locator(".cj-probe-button")
    button.wait_for(timeout=START_MS)
    for clicks in (1, 2):
        button.click()
        expect(page.locator(".cj-probe-reply")).to_have_text(f"python saw {clicks}")
    page_guard.assert_clean("after the anywidget probe")


def test_a_second_build_downloads_nothing(tmp_path):
    """The live site again, from the cache of the first build, with every network route cut."""
    dead = "http://127.0.0.1:9"  # nothing listens there: any download attempt fails at once
    env = dict(os.environ, PIP_NO_INDEX="1", npm_config_offline="true", http_proxy=dead,
               https_proxy=dead, HTTP_PROXY=dead, HTTPS_PROXY=dead, no_proxy="", NO_PROXY="")
    out = tmp_path / "lite"
    done = subprocess.run([sys.executable, str(REPO / "lite" / "build_lite.py"), "--out", str(out)],
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "pip download" not in done.stderr and "npm ci" not in done.stderr

    def packages(site: Path) -> dict:
        lock = json.loads((site / "static" / "pyodide" / "pyodide-lock.json").read_text())
        return {name: entry["version"] for name, entry in lock["packages"].items()}

    assert packages(out) == packages(LITE)
    files = lambda site: sorted(p.relative_to(site).as_posix() for p in site.rglob("*")  # noqa: E731
                                if p.is_file() and p.suffix not in TWINS)  # the book adds the twins
    assert files(out) == files(LITE)


def test_a_build_for_a_host_that_does_not_compress_archives_deflates_them(tmp_path):
    """``make book LITE_ARCHIVES=deflated`` (book/publishing.md): the same site, every
    archive of the runtime and every on-demand zip deflated inside; the default build's are
    stored (its host compresses them whole)."""
    out = tmp_path / "lite"
    done = subprocess.run([sys.executable, str(REPO / "lite" / "build_lite.py"), "--out", str(out),
                           "--archives", "deflated"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]

    def archives(site: Path) -> list[Path]:
        return sorted([*(site / "static" / "pyodide").glob("*.whl"), site / "static" / "pyodide" / "python_stdlib.zip",
                       *(site / "static" / "calijack" / "rest").glob("*.zip")])

    def methods(paths) -> set[int]:
        found = set()
        for path in paths:
            with zipfile.ZipFile(path) as archive:
                found |= {info.compress_type for info in archive.infolist() if info.file_size}
        return found

    assert [p.relative_to(out) for p in archives(out)] == [p.relative_to(LITE) for p in archives(LITE)]
    assert methods(archives(out)) == {zipfile.ZIP_DEFLATED}
    assert methods(archives(LITE)) == {zipfile.ZIP_STORED}
    sent = lambda site: sum(p.stat().st_size for p in archives(site))  # noqa: E731
    assert sent(out) < 0.6 * sent(LITE)  # sent as they are, deflated archives are the smaller


@pytest.fixture(autouse=True)
def _live_site_built():
    if not (LITE / "lessons.json").is_file():
        pytest.fail(f"The live site is not built: {LITE}/lessons.json is missing. Build the book "
                    "with `make book` (it runs lite/build_lite.py first).", pytrace=False)


@pytest.fixture(scope="module", autouse=True)
def _build_lite_importable():
    """``lite/build_lite.py`` importable as ``build_lite_module`` (the lock entry of a wheel)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_lite_module", REPO / "lite" / "build_lite.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules["build_lite_module"] = module
    yield
    sys.modules.pop("build_lite_module", None)
