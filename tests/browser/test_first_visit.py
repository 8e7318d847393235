"""A reader's first visit (issue 34): "Play live" has the link to itself, then the book is
stored; after a short first visit on a phone's link, the book opens offline.

The book is served as ``make serve`` serves it, every request logged as it arrives, or behind
a link paced at the server's side (``bench/live_network.py``'s ``SentLog``: Chromium's
emulation does not slow the service worker's fetches). A new browser context each: a new reader.
"""

from __future__ import annotations

import json
import sys
import time

from playwright.sync_api import expect

from calijack.serve.static import make_app, running
from conftest import BOOK_HTML, REPO, wait_for_widgets
from test_offline_book import CONTROLLED, START_MS, offline_context

sys.path.insert(0, str(REPO / "bench"))
from live_network import SentLog  # noqa: E402  (bench/: the link paced at the server's side)

SANDBOX = "notebooks/07_sandbox.html"
CHAPTER = "book/03_legal_play.html"
OTHER_CHAPTER = "book/05_scoring.html"
GRACE_S = 0.5
FIRST_VISIT_S = 15  # issue 34: "after a first visit of 15 s on Fast 4G, the book opens offline"


# The interpreter sent at this pace (bytes a second; 2.7 MB in about 1.4 s), the rest at once: on
# a real link it is the longest download, and what else is asked for meanwhile shares the link.
INTERPRETER_PACE = 2e6
# The widget manager too (about a quarter of a second): what is asked for with it comes meanwhile.
PACES = {"/pyodide.asm.wasm": INTERPRETER_PACE, "/jupyter-widgets-html-manager.js": 1e6}


def logged(app, log: list[tuple[float, str]], sent: list[tuple[float, str]] | None = None):
    """``app``, each request noted in ``log`` as ``(time.monotonic(), path)`` when it arrives,
    and in ``sent`` when the last byte of a response with a body has gone (a 304 has none);
    with ``sent``, the interpreter and the widget manager are sent at their :data:`PACES`."""
    def noting(environ, start_response):
        path = environ.get("PATH_INFO", "")
        log.append((time.monotonic(), path))
        body = app(environ, start_response)
        if sent is None:
            return body
        pace = next((bps for ending, bps in PACES.items() if path.endswith(ending)), None)

        def counted():
            size = 0
            try:
                for chunk in body:
                    size += len(chunk)
                    if pace:
                        time.sleep(len(chunk) / pace)
                    yield chunk
            finally:
                if hasattr(body, "close"):
                    body.close()
            if size:
                sent.append((time.monotonic(), path))
        return counted()
    return noting


def first(log: list[tuple[float, str]], ending: str) -> float:
    """When ``log`` first has a path ending with ``ending``."""
    times = [t for t, path in log if path.endswith(ending)]
    assert times, f"nothing ending with {ending!r} was asked for or sent"
    return min(times)


def test_play_live_on_a_first_visit_comes_before_the_books_store(browser, page_guard):
    log: list[tuple[float, str]] = []
    sent: list[tuple[float, str]] = []
    context, page = offline_context(browser, page_guard)
    try:
        with running(logged(make_app(BOOK_HTML), log, sent)) as url:
            page.goto(url + SANDBOX, wait_until="domcontentloaded")
            page.locator(".cj-live-button").click()  # at once: the page may not be idle yet
            pressed = time.monotonic()
            expect(page.locator(".cj-live-status")).to_contain_text("Live:", timeout=START_MS)
            ready = time.monotonic()
            page.wait_for_function(CONTROLLED, timeout=120_000)  # then the book is stored
    finally:
        context.close()
    live = [(t, path) for t, path in log if "/lite/" in path and t <= ready]
    # The book's store: the pages of the book this reader has not opened (only the worker asks).
    store = [(t, path) for t, path in log
             if path.endswith(".html") and "/lite/" not in path and not path.endswith(SANDBOX)]
    assert live, "the live start fetched nothing from lite/"
    assert len(store) >= 20, f"the book was not stored: {store}"
    last_live = max(live)
    # Once "Play live" is pressed, the store waits (the worker hears it within GRACE_S; the few
    # files it had asked for before then come in).
    early = [path for t, path in store if pressed + GRACE_S < t < last_live[0]]
    assert not early, f"the book's store asked for {early[:5]} during the live start (before {last_live[1]})"
    assert [path for t, path in store if t > last_live[0]], "the book's store came before the live start"
    # Within the live start, what Python's start needs first has the link first: no wheel is
    # asked for before the interpreter and the standard library have come, and the widgets'
    # code only once every wheel has (Python has its packages).
    wheels = sorted({path for t, path in log if path.endswith(".whl")})
    listed = json.loads((BOOK_HTML / "lite" / "lessons.json").read_text())["runtime"]
    assert [w.rsplit("/", 1)[1] for w in wheels] == sorted(f["name"] for f in listed if f["name"].endswith(".whl")), \
        f"the live start did not ask for every wheel: {wheels}"
    interpreter = max(first(sent, name) for name in ("/pyodide.asm.wasm", "/python_stdlib.zip"))
    early = [path for t, path in log if path.endswith(".whl") and t < interpreter]
    assert not early, f"wheels asked for before the interpreter had come: {early[:3]}"
    last_wheel = max(first(sent, path) for path in wheels)
    widgets = first(log, "/jupyter-widgets-html-manager.js")
    assert widgets > last_wheel, "the widgets' code was asked for before every wheel had come"
    # anywidget's front end (the card table) is asked for with the manager, not after it came.
    assert first(log, "/anywidget.js") < first(sent, "/jupyter-widgets-html-manager.js"), \
        "anywidget's front end was asked for only once the widget manager had come"
    page_guard.assert_clean("on a first visit with Play live")


def test_after_a_short_first_visit_on_fast_4g_the_book_opens_offline(browser, page_guard):
    link = SentLog()
    link.pace("fast4g")
    context, page = offline_context(browser, page_guard)
    try:
        with running(link.wrap(make_app(BOOK_HTML))) as url:
            began = time.monotonic()
            page.goto(url + CHAPTER)
            page.wait_for_timeout(max(0.0, FIRST_VISIT_S - (time.monotonic() - began)) * 1000)
        # The server is gone, and the browser is offline: nothing can answer.
        context.set_offline(True)
        for chapter in (CHAPTER, OTHER_CHAPTER):
            page.goto(url + chapter)
            expect(page.locator("#main-content h1").first).to_be_attached()  # the page, not an error
            assert wait_for_widgets(page) >= 1, f"{chapter}: no demo drawn offline"
    finally:
        context.close()
    page_guard.assert_clean("offline after a short first visit")
