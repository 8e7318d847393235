"""Browser harness: Debian's Chromium driven by Playwright (sync API), on 127.0.0.1 only.

Fixtures (see each docstring):

- ``browser``       (session)  the Chromium ``Browser``; FAILS if Debian's headless Chromium
                    (``/usr/bin/chromium-headless-shell``) is missing.
- ``page``          (function) a fresh ``Page`` in its own context, guarded: any console error,
                    uncaught page error or request to a host other than 127.0.0.1 fails the
                    test at teardown (off-site requests are also aborted, nothing leaves).
- ``screen_page``   (function) like ``page``, once at 390x844 with touch and once at 1280x800.
- ``new_page``      (function) factory: ``new_page()`` -> one more guarded page in its own
                    context (another learner); same checks as ``page``, same ``page_guard``.
- ``page_guard``    (function) the ``PageGuard`` watching ``page``: ``.console_errors``,
                    ``.page_errors``, ``.offsite_requests``, ``.problems()``,
                    ``.assert_clean()`` to check mid-test.
- ``book_site``     (session)  the built book (``_build/html``) served as a real host does on
                    127.0.0.1: ``.url``, ``.root``, ``.url_for(relpath)``, ``.pages()``.
- ``page_checks``   (function) the shared checks: ``wait_for_widgets``,
                    ``exercise_static_demos``, ``missing_text_alternatives``,
                    ``assert_headings_do_not_skip``, … (see its docstring).
- ``static_site``   (function) factory: ``static_site(folder) -> url`` serves any folder
                    on 127.0.0.1 (e.g. a page written by a test) until the test ends.
- ``voila_app``     (function) factory: ``voila_app(notebook, *extra_args, timeout=90,
                    **options)`` starts ``voila NOTEBOOK`` on 127.0.0.1 and a free port (with
                    ``calijack.serve.voila_command``'s options), waits until it
                    answers, returns a ``VoilaApp`` (``.url``, ``.port``, ``.log_text()``),
                    and stops it at teardown.
- ``lessons``       (session)  one Voilà over notebooks/ (tree mode) per worker, shared by the
                    tests that need no server of their own: ``lessons.url_for(name)``.

The environment variable ``CALIJACK_CHROMIUM`` overrides the browser path and
``CALIJACK_BOOK_HTML`` the built book folder.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from a11y_checks import assert_accessible, axe_violations, small_targets, too_wide  # noqa: E402  (beside this file)
from calijack.serve import (
    VOILA_PROBE,
    free_port,
    stop_process_group,
    voila_command,
    voila_env,
    wait_for_http,
)
from calijack.serve.static import serving

REPO = Path(__file__).resolve().parents[2]
# Debian's chrome-headless-shell: the same Chromium (one source package, one version) without the
# desktop browser's window and UI, as Playwright itself runs headless tests. On this project's
# 2-core machines it costs about a quarter less CPU per test than `chromium --headless`, where
# the browser tests spend most of their time. (The benchmarks in bench/ time the full browser.)
CHROMIUM = Path(os.environ.get("CALIJACK_CHROMIUM", "/usr/bin/chromium-headless-shell"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
BOOK_HTML = Path(os.environ.get("CALIJACK_BOOK_HTML", REPO / "_build" / "html"))
ALLOWED_HOST = "127.0.0.1"


def _voila_startup_timeout() -> int:
    """Voilà's own limit for a lesson's kernel to start, as calijack's configuration sets it."""
    from traitlets.config.loader import PyFileConfigLoader

    from calijack.serve import JUPYTER_CONFIG

    return int(PyFileConfigLoader("voila.py", path=str(JUPYTER_CONFIG)).load_config()
               .VoilaExecutor.startup_timeout)


# What a navigation to a lesson may take (see _guarded_page).
VOILA_STARTUP_TIMEOUT = _voila_startup_timeout()
# Pages of the built book that are not content: Sphinx's search and index pages.
NON_CONTENT_PAGES = {"search.html", "genindex.html", "py-modindex.html"}


def _runs_long(item: pytest.Item) -> bool:
    """A test that starts a server or a Python of its own (Voilà, a hub, JupyterLab, Python in the
    browser): 10 to 50 s. A test of the static book's pages takes a few seconds."""
    return (bool({"voila_app", "lessons", "hub"} & set(getattr(item, "fixturenames", ())))
            or any(word in item.path.name for word in ("live", "hub", "classroom", "first_visit", "offline", "lab")))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in tests/browser drives the browser: mark it, whatever the test file says.

    ``make test`` hands the browser tests out one at a time (``--dist loadgroup``; the tests
    that share a server of their module carry ``xdist_group``), in this order: the long ones
    first, the short pages last, so that the two workers finish together."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.browser)
    items.sort(key=lambda item: not (here in item.path.parents and _runs_long(item)))


# --------------------------------------------------------------------------------------
# The book on disk


def book_pages(root: Path = BOOK_HTML) -> list[str]:
    """Every content page of the built book, as a path relative to ``root`` (posix)."""
    if not root.is_dir():
        return []
    pages = []
    for path in sorted(root.rglob("*.html")):
        rel = path.relative_to(root)
        # lite/ is the live lessons' JupyterLite site (tests/browser/test_live_book.py), not a page.
        if rel.parts[0] in {"_static", "_sources", "_images", "_downloads", "lite"}:
            continue
        if rel.as_posix() in NON_CONTENT_PAGES:
            continue
        pages.append(rel.as_posix())
    return pages


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """A test that fails with Voilà servers of its own (``voila_app``) shows the end of each one's
    log beside the failure: a page that never loads then names what the server was doing."""
    report = yield
    if report.failed and report.when == "call":
        for k, app in enumerate(getattr(item, "voila_apps", ())):
            report.sections.append((f"Voilà server {k + 1} ({app.url}), the end of its log",
                                    app.log_text()[-6000:] or "(empty)"))
    return report


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrize ``book_page`` with every content page of the built book.

    If the book is not built, a single placeholder id is used; the test then fails through
    ``book_site`` with a clear message (never silently collects zero tests).
    """
    if "book_page" in metafunc.fixturenames:
        pages = book_pages()
        metafunc.parametrize("book_page", pages or ["<book not built>"], ids=str)


# --------------------------------------------------------------------------------------
# Browser


@pytest.fixture(scope="session")
def _playwright() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(_playwright):
    """Debian's headless Chromium (``CHROMIUM``). Missing browser = test failure."""
    if not CHROMIUM.exists():
        pytest.fail(
            f"Chromium not found at {CHROMIUM}: install Debian's headless browser with "
            "`apt-get install -y chromium-headless-shell` (or `make chromium`); Playwright cannot download "
            "one here. Set CALIJACK_CHROMIUM to use another binary.",
            pytrace=False,
        )
    browser = _playwright.chromium.launch(
        executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
    )
    yield browser
    browser.close()


@dataclasses.dataclass
class PageGuard:
    """What a page did wrong: console errors, uncaught exceptions, off-site requests."""

    console_errors: list[str] = dataclasses.field(default_factory=list)
    page_errors: list[str] = dataclasses.field(default_factory=list)
    offsite_requests: list[str] = dataclasses.field(default_factory=list)

    def problems(self) -> list[str]:
        return (
            [f"console error: {m}" for m in self.console_errors]
            + [f"uncaught page error: {m}" for m in self.page_errors]
            + [f"request off 127.0.0.1 (aborted): {u}" for u in self.offsite_requests]
        )

    def assert_clean(self, where: str = "") -> None:
        """Fail now if anything was recorded (then forget it: teardown reports only news)."""
        problems = self.problems()
        if problems:
            self.console_errors.clear()
            self.page_errors.clear()
            self.offsite_requests.clear()
            head = f"the page {where} " if where else "the page "
            pytest.fail(
                head + "logged errors or left 127.0.0.1:\n  " + "\n  ".join(problems),
                pytrace=False,
            )


def _is_offsite(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme in {"data", "blob", "about", "javascript", "chrome-extension"}:
        return False
    return parts.hostname != ALLOWED_HOST


@pytest.fixture
def page_guard() -> PageGuard:
    return PageGuard()


def _guarded_page(browser, page_guard: PageGuard, **context_options):
    """A page in a new context (1280x900 unless ``viewport`` is given) whose console errors,
    uncaught errors and off-site requests (aborted) go to ``page_guard``; returns (context, page).
    The book's service worker is blocked unless ``service_workers="allow"`` is given: each new
    context would otherwise store the whole book again while the test runs (the offline tests,
    tests/browser/test_offline_book.py, allow it)."""
    context_options.setdefault("viewport", {"width": 1280, "height": 900})
    context_options.setdefault("service_workers", "block")
    context = browser.new_context(**context_options)
    if context_options["service_workers"] == "block":
        # Registering never completes (as while a browser is still deciding), so no page says
        # "Offline reading is off" over the test.
        context.add_init_script("if (navigator.serviceWorker) navigator.serviceWorker.register = "
                                "() => new Promise(() => {});")

    def route(route_obj, request) -> None:
        if _is_offsite(request.url):
            route_obj.abort()
        else:
            route_obj.continue_()

    context.route("**/*", route)
    return context, guard_page(context.new_page(), page_guard)


def guard_page(pg, page_guard: PageGuard):
    """``pg`` (a new page) with the guard's timeouts, and its console errors, uncaught errors and
    off-site requests going to ``page_guard``: a second page of one browser (one context) too."""
    pg.set_default_timeout(15_000)
    # A navigation gets what the lesson server gives a lesson to start (Voilà's page is sent as
    # its cells run: VoilaExecutor.startup_timeout, calijack/serve/jupyter_config/voila.py), not
    # a limit set by how fast this machine is: on a slow, busy one a Voilà page took over 15 s
    # to load (CI after issue 23, and two test files at a time since issue 36).
    pg.set_default_navigation_timeout(VOILA_STARTUP_TIMEOUT * 1000)

    def on_console(msg) -> None:
        if msg.type == "error":
            loc = msg.location or {}
            where = f" ({loc.get('url')}:{loc.get('lineNumber')})" if loc.get("url") else ""
            page_guard.console_errors.append(msg.text + where)

    def on_request(request) -> None:
        if _is_offsite(request.url):
            page_guard.offsite_requests.append(request.url)

    def on_page_error(exc) -> None:
        # The message, and where it was thrown (the stack's first frame, if the browser gave one).
        frames = [line.strip() for line in (getattr(exc, "stack", "") or "").splitlines()[1:]]
        page_guard.page_errors.append(str(exc) + (f" ({frames[0]})" if frames else ""))

    pg.on("console", on_console)
    pg.on("pageerror", on_page_error)
    pg.on("request", on_request)
    return pg


@pytest.fixture
def page(browser, page_guard: PageGuard):
    """A fresh page (own context, 1280x900) whose errors and off-site requests fail the test.

    Off-site requests are recorded and aborted (nothing leaves the machine). At teardown the
    test fails if anything was recorded; call ``page_guard.assert_clean()`` to check earlier.
    """
    context, pg = _guarded_page(browser, page_guard, viewport={"width": 1280, "height": 900})
    yield pg
    try:
        context.close()
    finally:
        page_guard.assert_clean("at teardown")


# The two screens every page must work on: a phone held upright (touch) and a laptop.
SCREENS = {
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
              "device_scale_factor": 2},
    "desk": {"viewport": {"width": 1280, "height": 800}},
}


@pytest.fixture(params=list(SCREENS))
def screen_page(request, browser, page_guard: PageGuard):
    """Like ``page``, once per screen of ``SCREENS`` (390x844 touch, 1280x800); ``.screen`` names it."""
    context, pg = _guarded_page(browser, page_guard, **SCREENS[request.param])
    pg.screen = request.param
    yield pg
    try:
        context.close()
    finally:
        page_guard.assert_clean("at teardown")


@pytest.fixture
def new_page(browser, page_guard: PageGuard):
    """Factory: ``new_page()`` -> one more guarded page in a context of its own (another
    learner, another browser); what goes wrong in any of them fails the test like ``page``."""
    contexts = []

    def make():
        context, pg = _guarded_page(browser, page_guard)
        contexts.append(context)
        return pg

    yield make
    try:
        for context in contexts:
            context.close()
    finally:
        page_guard.assert_clean("at teardown")


# --------------------------------------------------------------------------------------
# Page checks shared by the tests (also usable on a Voilà page): the ``page_checks`` fixture.

WIDGET_VIEW = 'script[type="application/vnd.jupyter.widget-view+json"]'
BROKEN_WIDGET_TEXT = ("Loading widget", "Error displaying widget", "model not found")

# True once every widget-view script tag has a rendered view in the subarea before it
# (that is how @jupyter-widgets/html-manager renders embedded widgets in the static book).
_ALL_WIDGETS_RENDERED_JS = """
(selector) => Array.from(document.querySelectorAll(selector)).every((tag) => {
  const area = tag.previousElementSibling;
  return !!area && area.classList.contains("widget-subarea") && area.childElementCount > 0;
})
"""

_SCROLL_TO_DEMOS_JS = """
async (selector) => {
  for (const tag of document.querySelectorAll(selector)) {
    (tag.closest(".cj-demo") || tag.parentElement).scrollIntoView({block: "center"});
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  }
}
"""

_VISIBLE_FRAMES_JS = """
(demo) => Array.from(demo.querySelectorAll(".cj-frame"))
  .filter((el) => el.checkVisibility())
  .map((el) => el.dataset.frame)
"""

_FRAME_SHOWN_JS = """
([demo, want]) => Array.from(demo.querySelectorAll(".cj-frame"))
  .filter((el) => el.checkVisibility()).map((el) => el.dataset.frame).join() === want
"""

# Headings exposed to readers (not display:none, not aria-hidden), in document order.
_HEADINGS_JS = """
() => Array.from(document.querySelectorAll("h1, h2, h3, h4, h5, h6"))
  .filter((h) => h.checkVisibility() && !h.closest('[aria-hidden="true"]'))
  .map((h) => [Number(h.tagName[1]), h.textContent.trim().slice(0, 60)])
"""

# <img> and role="img" elements exposed to assistive technology without a text alternative.
_MISSING_ALT_JS = """
() => {
  const problems = [];
  const hidden = (el) => !!el.closest('[aria-hidden="true"]');
  const labelledby = (el) => (el.getAttribute("aria-labelledby") || "").split(/\\s+/)
    .filter(Boolean).map((id) => document.getElementById(id))
    .map((ref) => (ref ? ref.textContent.trim() : "")).join(" ").trim();
  for (const img of document.querySelectorAll("img")) {
    if (hidden(img)) continue;
    if (!(img.getAttribute("alt") || "").trim()) problems.push(img.outerHTML.slice(0, 160));
  }
  for (const el of document.querySelectorAll('[role="img"]')) {
    if (hidden(el)) continue;
    const label = (el.getAttribute("aria-label") || "").trim() || labelledby(el);
    if (!label) problems.push(el.outerHTML.slice(0, 160));
  }
  return problems;
}
"""


def wait_for_widgets(page, timeout: float = 20_000) -> int:
    """Scroll to each embedded widget view, wait until all are rendered; return how many.

    Fails if "Loading widget", "Error displaying widget" or "model not found" is shown.
    """
    count = page.locator(WIDGET_VIEW).count()
    if count:
        # The book fetches widget code only once a reader, at work on the page, comes near
        # a demo: scroll to each demo and move the mouse, as a reader would (harmless where
        # widgets render at once, as in Voilà).
        page.evaluate(_SCROLL_TO_DEMOS_JS, WIDGET_VIEW)
        page.mouse.move(2, 2)
        page.mouse.move(4, 4)
        try:
            page.wait_for_function(_ALL_WIDGETS_RENDERED_JS, arg=WIDGET_VIEW, timeout=timeout)
        except Exception:
            pytest.fail(f"{count} embedded widget view(s), not all rendered in "
                        f"{timeout / 1000:.0f} s", pytrace=False)
    assert_no_broken_widgets(page)
    return count


def assert_no_broken_widgets(page) -> None:
    body = page.locator("body").inner_text()
    for text in BROKEN_WIDGET_TEXT:
        if text in body:
            pytest.fail(f"{text!r} is shown on the page: a widget did not render", pytrace=False)


def _positions(control) -> list[int]:
    if "widget-slider" in (control.get_attribute("class") or ""):
        handle = control.locator('[role="slider"]').first
        lo = round(float(handle.get_attribute("aria-valuemin")))
        hi = round(float(handle.get_attribute("aria-valuemax")))
        return list(range(lo, hi + 1))
    return list(range(control.locator("button").count()))


def select_position(control, target: int) -> None:
    """Move a ``.cj-static-control`` to ``target`` as a reader would.

    Slider: focus its handle and press ArrowRight/ArrowLeft. Toggle buttons: click the button.
    """
    classes = control.get_attribute("class") or ""
    if "widget-slider" in classes:
        handle = control.locator('[role="slider"]').first
        handle.focus()
        current = round(float(handle.get_attribute("aria-valuenow")))
        key = "ArrowRight" if target > current else "ArrowLeft"
        for _ in range(abs(target - current)):
            handle.press(key)
    elif "widget-toggle-buttons" in classes:
        control.locator("button").nth(target).click()
    else:
        pytest.fail(f"unknown static demo control (class={classes!r})", pytrace=False)


def exercise_static_demos(page, where: str = "") -> int:
    """Drive every ``.cj-static-demo`` on the page through all its positions; return how many.

    For each demo: exactly one ``.cj-frame`` is visible; selecting each other position (then
    the first one again) shows the ``.cj-frame`` whose ``data-frame`` is that position.
    """
    demos = page.locator(".cj-static-demo")
    where = f" on {where}" if where else ""
    for d in range(demos.count()):
        demo = demos.nth(d)
        demo.scroll_into_view_if_needed()
        control = demo.locator(".cj-static-control").first
        positions = _positions(control)
        start = demo.evaluate(_VISIBLE_FRAMES_JS)
        if len(start) != 1:
            pytest.fail(f"demo {d}{where}: visible frames {start}, expected exactly one",
                        pytrace=False)
        order = [p for p in positions if str(p) != start[0]] + [int(start[0])]
        if len(positions) > 1 and len(order) != len(positions):
            pytest.fail(f"demo {d}{where}: frame {start[0]} is shown but the control offers "
                        f"positions {positions}", pytrace=False)
        for target in order:
            select_position(control, target)
            try:
                page.wait_for_function(
                    _FRAME_SHOWN_JS, arg=[demo.element_handle(), str(target)], timeout=5_000
                )
            except Exception:
                pytest.fail(
                    f"demo {d}{where}: after selecting position {target} the visible frame is "
                    f"{demo.evaluate(_VISIBLE_FRAMES_JS)}, expected ['{target}']",
                    pytrace=False,
                )
    return demos.count()


def missing_text_alternatives(page) -> list[str]:
    """``<img>`` without alt, ``role="img"`` without aria-label(ledby); aria-hidden ones skipped."""
    return page.evaluate(_MISSING_ALT_JS)


def heading_outline(page) -> list[tuple[int, str]]:
    """``[(level, text), ...]`` of the headings a reader can see, in document order."""
    return [tuple(h) for h in page.evaluate(_HEADINGS_JS)]


def assert_headings_do_not_skip(page, where: str = "") -> None:
    outline = heading_outline(page)
    if not outline:
        pytest.fail(f"{where or 'the page'} has no visible heading", pytrace=False)
    previous = 0
    for level, text in outline:
        if level > previous + 1:
            pytest.fail(f"{where or 'the page'}: heading level jumps from h{previous} to "
                        f"h{level} at {text!r} (outline: {outline})", pytrace=False)
        previous = level


@pytest.fixture
def page_checks():
    """The shared page checks, as attributes: ``wait_for_widgets(page)``,
    ``assert_no_broken_widgets(page)``, ``exercise_static_demos(page, where)``,
    ``select_position(control, i)``, ``missing_text_alternatives(page)``,
    ``heading_outline(page)``, ``assert_headings_do_not_skip(page, where)``,
    ``axe_violations(page)``, ``assert_accessible(page, where)``, ``too_wide(page)``,
    ``small_targets(page, root)``."""
    import types

    return types.SimpleNamespace(
        wait_for_widgets=wait_for_widgets,
        assert_no_broken_widgets=assert_no_broken_widgets,
        exercise_static_demos=exercise_static_demos,
        select_position=select_position,
        missing_text_alternatives=missing_text_alternatives,
        heading_outline=heading_outline,
        assert_headings_do_not_skip=assert_headings_do_not_skip,
        axe_violations=axe_violations,
        assert_accessible=assert_accessible,
        too_wide=too_wide,
        small_targets=small_targets,
    )


# --------------------------------------------------------------------------------------
# The built book over HTTP


@dataclasses.dataclass(frozen=True)
class BookSite:
    root: Path
    url: str  # ends with "/"

    def url_for(self, relpath: str) -> str:
        return self.url + relpath.lstrip("/")

    def pages(self) -> list[str]:
        return book_pages(self.root)


@contextlib.contextmanager
def serve_folder(folder: Path) -> Iterator[str]:
    """Serve ``folder`` on 127.0.0.1 and a free port as ``make serve`` does (gzip, MIME types,
    cache headers: ``calijack.serve.static``).

    Yields the root URL (ending in "/"); the server stops when the block ends.
    """
    with serving(folder, 0, ALLOWED_HOST) as url:
        yield url


@pytest.fixture(scope="session")
def book_site() -> Iterator[BookSite]:
    """``_build/html`` served by ``calijack.serve.static`` on 127.0.0.1 and a free port."""
    if not (BOOK_HTML / "index.html").is_file():
        pytest.fail(
            f"The book is not built: {BOOK_HTML}/index.html is missing. Build it first with "
            "`make book` (jupyter-book build . -W -n --keep-going); `make test` does it.",
            pytrace=False,
        )
    with serve_folder(BOOK_HTML) as url:
        yield BookSite(root=BOOK_HTML, url=url)


@pytest.fixture
def static_site() -> Iterator[Callable[[Path], str]]:
    """Factory: ``static_site(folder) -> root URL``; each folder served until the test ends."""
    with contextlib.ExitStack() as stack:
        yield lambda folder: stack.enter_context(serve_folder(Path(folder)))


# --------------------------------------------------------------------------------------
# Voilà


@dataclasses.dataclass
class VoilaApp:
    notebook: Path
    port: int
    process: subprocess.Popen
    log_path: Path

    @property
    def url(self) -> str:
        """The root URL; for a single notebook it renders that notebook."""
        return f"http://{ALLOWED_HOST}:{self.port}/"

    def url_for(self, name: str) -> str:
        """The page of the notebook ``name`` of a server in tree mode (a folder of notebooks)."""
        return f"{self.url}voila/render/{name}"

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def stop(self, timeout: float = 15) -> None:
        """SIGTERM to Voilà's own process group (it shuts its kernels down), then SIGKILL."""
        stop_process_group(self.process, timeout=timeout)


def _wait_until_answering(app: VoilaApp, timeout: float) -> None:
    # A static asset answers as soon as the server listens, without starting a kernel
    # (GET / would execute the notebook).
    if wait_for_http(app.url + VOILA_PROBE, timeout, app.process):
        return
    if app.process.poll() is not None:
        pytest.fail(
            f"voila exited with code {app.process.returncode} before answering:\n"
            + app.log_text()[-4000:],
            pytrace=False,
        )
    app.stop()
    pytest.fail(
        f"voila did not answer on {app.url} within {timeout:.0f} s:\n" + app.log_text()[-4000:],
        pytrace=False,
    )


def _start_voila(tmp_path_factory, notebook: str | os.PathLike, *extra_args: str, timeout: float = 90,
                 port: int | None = None, token: str | None = None, env: dict[str, str] | None = None,
                 **options) -> VoilaApp:
    nb = Path(notebook).resolve()
    if not nb.exists():
        pytest.fail(f"voila_app: {nb} does not exist", pytrace=False)
    port = port or free_port()
    log_path = tmp_path_factory.mktemp("voila") / "voila.log"
    # sys.executable -m voila NB --no-browser --Voila.ip=127.0.0.1 --port=PORT, with
    # calijack's Voilà configuration (nothing loaded off-site); see calijack.serve.
    cmd = voila_command(nb, port, extra_args=extra_args, **options)
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            cmd,
            cwd=nb if nb.is_dir() else nb.parent,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=voila_env({**os.environ, **(env or {})}, token=token),
            start_new_session=True,  # own process group: stop() ends Voilà + kernels
        )
    app = VoilaApp(notebook=nb, port=port, process=process, log_path=log_path)
    try:
        _wait_until_answering(app, timeout)
    except BaseException:
        app.stop()
        raise
    return app


@pytest.fixture
def voila_app(tmp_path_factory, request) -> Iterator[Callable[..., VoilaApp]]:
    """Factory: ``voila_app(notebook, *extra_args, timeout=90, port=None, token=None,
    **options) -> VoilaApp``.

    Runs ``sys.executable -m voila NOTEBOOK --no-browser --Voila.ip=127.0.0.1 --port=FREE``
    with calijack's Voilà configuration (``calijack.serve.voila_command`` and ``voila_env``;
    ``options`` are ``voila_command``'s, e.g. ``pool_sizes=``, ``max_learners=``; plus
    ``extra_args``, e.g. ``"--theme=dark"``; ``token`` asks for that token) in the notebook's
    folder, waits until the server answers, and stops it (and its kernels) at teardown.
    ``notebook`` may also be a folder (Voilà's tree mode); ``port`` reuses a port (a restarted
    server). Open ``app.url`` in ``page``; the server's log is ``app.log_text()``.
    The kernels see the test's environment as it is when the server starts (``monkeypatch``).
    A test that needs nothing of its own uses ``lessons`` instead: one server for them all.
    """
    started: list[VoilaApp] = []
    request.node.voila_apps = started  # a failing test's report shows their logs (pytest_runtest_makereport)

    def start(notebook: str | os.PathLike, *extra_args: str, **kwargs) -> VoilaApp:
        app = _start_voila(tmp_path_factory, notebook, *extra_args, **kwargs)
        started.append(app)
        return app

    yield start
    for app in reversed(started):
        app.stop()


# What the kernels of the shared lesson server are given: the sandbox's pauses shortened (the
# same code path) and the review's guesses fewer. A test that needs the lessons' own values
# starts a server of its own (``voila_app``).
LESSONS_ENV = {"CALIJACK_SANDBOX_DELAY": "0.05", "CALIJACK_REVIEW_SAMPLES": "12"}
REVIEW_SAMPLES = int(LESSONS_ENV["CALIJACK_REVIEW_SAMPLES"])
# The same settings for the live lessons (Pyodide), for a test that plays a whole deal there:
# ``page.add_init_script(LIVE_SETUP)`` before the page opens, and the live page
# (lite/play/play.mjs) runs this Python before the lesson. Its mirror reviews with
# ``REVIEW_SAMPLES`` too.
LIVE_SETUP = "window.calijackLiveSetup = [%s];" % json.dumps(
    "import os; os.environ.update(%r)" % LESSONS_ENV)


@pytest.fixture(scope="session")
def lessons(tmp_path_factory) -> Iterator[VoilaApp]:
    """Voilà over ``notebooks/`` in tree mode, as ``make serve`` serves the lessons, started
    once per test worker with ``LESSONS_ENV``: ``lessons.url_for("07_sandbox.ipynb")``. Each
    page has a kernel of its own, shut down when its page closes."""
    app = _start_voila(tmp_path_factory, REPO / "notebooks", env=LESSONS_ENV)
    yield app
    app.stop()
