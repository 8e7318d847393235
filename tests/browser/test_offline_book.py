"""The book with no network: after one visit and one "Play live", chapters and live lessons
open offline; a new build takes over cleanly; a phone can install the book.

The service worker comes from ``book/_ext/calijack_offline.py`` (Workbox, see its docstring).
Every other browser test blocks service workers (``conftest._guarded_page``); these allow
them. "Offline" here is the book's server stopped and the browser context set offline, so
nothing at all can answer; the guard still fails a test on any console error and on any
request that leaves 127.0.0.1.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from calijack.play import Session
from calijack.serve.static import serving
from conftest import (BOOK_HTML, CHROMIUM, CHROMIUM_ARGS, REPO, _guarded_page, exercise_static_demos,
                      serve_folder, wait_for_widgets)
from test_sandbox import SEED, first_legal, press_card, settle

sys.path.insert(0, str(REPO / "book" / "_ext"))
import calijack_offline  # noqa: E402  (book/_ext: the build step under test)

START_MS = 240_000  # Python's start in the browser; generous, the machine is shared
CONTROLLED = "() => navigator.serviceWorker.controller !== null"
LIVE_CACHE_FILES = """async (file) => {
  for (const name of await caches.keys()) {
    if (!name.startsWith("calijack-live-")) continue;
    const keys = await (await caches.open(name)).keys();
    if (keys.some((request) => new URL(request.url).pathname.endsWith(file))) return true;
  }
  return false;
}"""
CACHE_NAMES = "async () => await caches.keys()"


def offline_context(browser, page_guard, **options):
    """A guarded context and page in which the book's service worker may run."""
    return _guarded_page(browser, page_guard, service_workers="allow", **options)


def play_live(page, timeout: int = START_MS):
    """Press "Play live" on the open lesson page; the frame of the live lesson once it is up."""
    page.locator(".cj-live-button").click()
    expect(page.locator(".cj-live-status")).to_contain_text("Live:", timeout=timeout)
    return page.locator("iframe.cj-live-frame").element_handle().content_frame()


def test_after_one_visit_and_one_play_live_the_book_works_with_no_network(browser, page_guard):
    context, page = offline_context(browser, page_guard)
    said: list[str] = []
    page.on("console", lambda message: said.append(message.text))
    try:
        with serve_folder(BOOK_HTML) as url:
            page.goto(url + "notebooks/03_legal_play.html")
            page.wait_for_function(CONTROLLED, timeout=120_000)  # the whole book is stored
            play_live(page)
            # The started Python is kept, and anywidget's front end (the sandbox needs it).
            for _ in range(600):
                if any("kept a started Python" in text for text in said) and \
                        page.evaluate(LIVE_CACHE_FILES, "anywidget.js"):
                    break
                page.wait_for_timeout(200)
            else:
                pytest.fail(f"the live runtime was not kept for offline use; console: {said[-10:]}")
        # The server is gone, and the browser is offline: nothing can answer.
        context.set_offline(True)

        # A lesson never opened before, played live: its first card plays.
        page.goto(url + "notebooks/07_sandbox.html")
        frame = play_live(page)
        mirror = Session(seed=SEED)
        settle(frame, mirror)
        card = first_legal(mirror)
        press_card(frame, card)
        mirror.play(card)
        settle(frame, mirror)
        assert not [text for text in said if "fetched" in text and "calijack:" in text], said

        # A chapter: it renders, and its demo answers the reader.
        page.goto(url + "book/03_legal_play.html")
        assert wait_for_widgets(page) >= 1
        assert exercise_static_demos(page, "book/03_legal_play.html") >= 1
        assert not page.locator(".cj-offline-line").count(), "a message about offline reading was shown"
    finally:
        context.close()
    page_guard.assert_clean("offline")


TINY_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<link rel="manifest" href="manifest.webmanifest">
<script defer src="_static/calijack-offline.js" data-sw="sw.js"
  data-workbox-window="_static/workbox-window.prod.umd.js"></script></head>
<body><main><h1 id="says">{title}</h1></main></body></html>"""


def tiny_build(site: Path, build: int, old_page: bool) -> None:
    """A small book made by the same step as the real one (:func:`calijack_offline.build_offline`):
    two pages that name their build, a page only the first build has, a live part."""
    static = site / "_static"
    static.mkdir(parents=True, exist_ok=True)
    for path in calijack_offline.STATIC.iterdir():
        shutil.copy2(path, static / path.name)
    (site / "index.html").write_text(TINY_PAGE.format(title=f"Build {build}"))
    (site / "other.html").write_text(TINY_PAGE.format(title=f"Other page, build {build}"))
    old = site / "old.html"
    if old_page:
        old.write_text(TINY_PAGE.format(title="A page of the first build only"))
    else:
        old.unlink(missing_ok=True)
    (site / "lite").mkdir(exist_ok=True)
    (site / "lite" / "lessons.json").write_text(json.dumps({"python_cache": f"calijack-python-build{build}"}))
    (site / "lite" / "app.js").write_text(f"// the live app of build {build}\n")
    calijack_offline.build_offline(site, REPO / "_build" / "offline-cache")


def test_a_new_build_takes_over_on_reload_and_the_old_caches_are_gone(browser, page_guard, tmp_path):
    site = tmp_path / "site"
    tiny_build(site, 1, old_page=True)
    context, page = offline_context(browser, page_guard)
    try:
        with serve_folder(site) as url:
            page.goto(url + "index.html")
            page.wait_for_function(CONTROLLED, timeout=60_000)
            # The live part, as a first "Play live" keeps it, and a kept Python.
            assert page.evaluate("async () => (await fetch('lite/app.js')).text()") == "// the live app of build 1\n"
            page.evaluate("async () => (await caches.open('calijack-python-build1')).put('x', new Response('1'))")
            before = page.evaluate(CACHE_NAMES)
            old_live = [name for name in before if name.startswith("calijack-live-")]
            assert len(old_live) == 1 and "calijack-python-build1" in before, before

        # The host gets the second build (the server reads its folder when it starts: it is
        # started again, on the same address).
        tiny_build(site, 2, old_page=False)
        with serving(site, urlsplit(url).port):
            page.reload()
            line = page.locator(".cj-offline-line")
            expect(line).to_contain_text("A new version of this book is ready.", timeout=60_000)
            # Until the reader takes it, every page is the first build's: nothing mixed.
            expect(page.locator("#says")).to_have_text("Build 1")
            page.goto(url + "other.html")
            expect(page.locator("#says")).to_have_text("Other page, build 1")
            expect(line).to_contain_text("A new version of this book is ready.", timeout=30_000)

            line.get_by_role("button", name="Reload").click()
            expect(page.locator("#says")).to_have_text("Other page, build 2", timeout=30_000)
            page.wait_for_function(CONTROLLED)
            after = page.evaluate(CACHE_NAMES)
            assert not set(old_live) & set(after), after
            assert "calijack-python-build1" not in after, after
            assert page.evaluate("async () => !(await caches.match('old.html', {ignoreSearch: true}))")
            assert page.evaluate("async () => (await fetch('lite/app.js')).text()") == "// the live app of build 2\n"
            page.goto(url + "index.html")
            expect(page.locator("#says")).to_have_text("Build 2")
            assert not page.locator(".cj-offline-line").count()
    finally:
        context.close()
    page_guard.assert_clean("across two builds")


def test_storage_refused_says_offline_reading_is_off_and_the_book_works(browser, book_site, page_guard):
    context, page = offline_context(browser, page_guard)
    try:
        cdp = context.new_cdp_session(page)
        origin = book_site.url.rstrip("/")
        # A full disk, as the browser sees it: room for a few hundred kilobytes only.
        cdp.send("Storage.overrideQuotaForOrigin", {"origin": origin, "quotaSize": 300_000})
        page.goto(book_site.url_for("book/03_legal_play.html"))
        line = page.locator(".cj-offline-line")
        expect(line).to_contain_text("Offline reading is off", timeout=120_000)
        expect(line).to_contain_text("The book works online as usual.")
        assert page.evaluate("() => navigator.serviceWorker.controller") is None
        assert wait_for_widgets(page) >= 1
        assert exercise_static_demos(page, "book/03_legal_play.html") >= 1
        line.get_by_role("button", name="Hide").click()
        expect(line).to_have_count(0)
    finally:
        context.close()
    page_guard.assert_clean("with storage refused")


def test_the_voila_lessons_get_no_service_worker(browser, book_site, lessons, page_guard):
    context, page = offline_context(browser, page_guard)
    try:
        page.goto(book_site.url_for("book/intro.html"))
        page.wait_for_function(CONTROLLED, timeout=120_000)
        scripts: list[str] = []
        page.on("request", lambda request: scripts.append(request.url) if request.url.endswith(".js") else None)
        page.goto(lessons.url_for("01_cards.ipynb"))
        page.locator(".jupyter-widgets").first.wait_for(timeout=90_000)
        assert page.evaluate("() => navigator.serviceWorker.controller") is None
        assert page.evaluate("async () => (await navigator.serviceWorker.getRegistrations()).length") == 0
        assert not [u for u in scripts if "calijack-offline" in u or u.endswith("/sw.js")], scripts
    finally:
        context.close()
    page_guard.assert_clean("on a Voila lesson")


def test_a_phone_can_install_the_book(_playwright, book_site):
    """Chromium's own installability check (what Lighthouse's "installable" audit asked),
    in a normal profile: a private one is never installable."""
    profile = tempfile.mkdtemp(prefix="cj-install-")
    context = _playwright.chromium.launch_persistent_context(
        profile, executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        errors: list[str] = []
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        page.goto(book_site.url_for("book/intro.html"))
        page.wait_for_function(CONTROLLED, timeout=120_000)
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        manifest = json.loads(cdp.send("Page.getAppManifest")["data"])
        assert manifest["name"] == "California Jack" and manifest["display"] == "standalone"
        assert manifest["start_url"] == "./book/intro.html"
        assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}
        assert not errors, errors
    finally:
        context.close()
        shutil.rmtree(profile, ignore_errors=True)
