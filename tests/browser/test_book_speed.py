"""The book opens fast on a phone (issue 14): text first, widgets after, nothing shipped twice.

These tests check behaviour, not timings (the budgets live in ``bench/lighthouse.py``):

- on a chapter the text paints while the widget code is still held back, the demo's picture
  holds its room, and the demo works once its code arrives;
- every demo's picture is exactly as tall as the live widget that replaces it, at phone and
  desktop widths, so nothing below it moves; no widget code is fetched before a demo is near
  (at desktop width inside each page's own test in test_book.py, which opens every page so);
- pages without widgets fetch no widget code at all;
- the theme's icons still show without Font Awesome's script;
- the loader's hook can put something else (a live demo) in a demo's place and back;
- the site ships no source maps.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
CHAPTER = "book/03_legal_play.html"  # the chapter issue 14 measured
WIDGET_CODE = re.compile(r"/_static/(?:require\.js|jupyter-widgets-[\w-]+\.js)")
ANY_WIDGET_FILE = re.compile(r"/_static/(?:require\.js|jupyter-widgets-|cj-widget)")
VIEW = "application/vnd.jupyter.widget-view+json"

# The room a demo takes: its height, and its top relative to the element before it. When
# both stay put, nothing after the demo moves either. (Relative, because the page's later
# sections are laid out only as they come near, so far-off absolute positions are estimates.)
_GEOMETRY_JS = """
(demo) => {
  const box = demo.getBoundingClientRect();
  const cell = demo.closest(".cell") || demo;
  const before = cell.previousElementSibling || cell.parentElement;
  return {height: box.height, offset: box.top - before.getBoundingClientRect().bottom};
}
"""

DRAW_ALL = ".cj-demo-placeholder * { content-visibility: visible !important; }"

# Every visible Font Awesome icon: <i class="fa-…"> elements and ::before/::after glyphs drawn
# with the Font Awesome font. Returns [description, width, glyph, font family] per icon.
_ICONS_JS = """
() => {
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    if (!el.checkVisibility()) continue;
    for (const pseudo of ["::before", "::after"]) {
      const cs = getComputedStyle(el, pseudo);
      if (!/Font Awesome/.test(cs.fontFamily) || ["none", "normal", '""'].includes(cs.content))
        continue;
      const box = el.getBoundingClientRect();
      out.push([el.tagName.toLowerCase() + "." + (el.getAttribute("class") || "") + pseudo,
                box.width, cs.content, cs.fontFamily, cs.fontWeight]);
    }
  }
  return out;
}
"""

_FONTS_LOADED_JS = """
async () => { await document.fonts.ready;
  return Array.from(document.fonts).filter((f) => f.status === "loaded")
    .map((f) => f.family.replace(/["']/g, "") + " " + f.weight); }
"""


def font_file(root, family: str, weight: str):
    """The theme's Font Awesome web font drawing ``family`` at ``weight``."""
    kind = "brands-400" if "Brands" in family else ("solid-900" if weight == "900" else "regular-400")
    return root / "_static" / "vendor" / "fontawesome" / "webfonts" / f"fa-{kind}.woff2"


def font_cmap(path) -> set[int]:
    """The code points a font file draws (the icon fonts are cut to what the site shows)."""
    from fontTools.ttLib import TTFont

    return set(TTFont(str(path)).getBestCmap())


def widget_pages(book_site) -> list[str]:
    """Pages of the built book that embed widget views (read from disk)."""
    return [p for p in book_site.pages()
            if VIEW in (book_site.root / p).read_text(encoding="utf-8", errors="replace")]


def engage(page) -> None:
    """Move the mouse a little, as a reader at the page does (a move to where the pointer
    already is would fire no event)."""
    x = 10 + (engage.count % 50)
    engage.count += 1
    page.mouse.move(x, 12)
    page.mouse.move(x + 3, 15)


engage.count = 0


# Marks the page settled once it has seen where its demos now are: an IntersectionObserver made
# now reports on every demo with the next rendering update, after the loader's own observer
# (made at load, with the same margin) was told of any change; then one more frame. Anything
# the loader does on a scroll, or on load, it has done by then.
_SETTLE_JS = """
() => {
  window.cjSettled = false;
  const demos = document.querySelectorAll(".cj-demo");
  const done = () => requestAnimationFrame(() => { window.cjSettled = true; });
  if (!demos.length) { done(); return; }
  const seen = new IntersectionObserver(() => { seen.disconnect(); done(); },
                                        {rootMargin: "0px 0px 100% 0px"});
  demos.forEach((demo) => seen.observe(demo));
}
"""


def settle(page) -> None:
    """Wait until the page has handled its layout and any scroll (see ``_SETTLE_JS``)."""
    page.evaluate(_SETTLE_JS)
    page.wait_for_function("window.cjSettled === true", timeout=10_000)


def loader_started(page) -> bool:
    """Whether the widget loader has begun to fetch the widget code (it adds require.js at once)."""
    return page.evaluate("""() => !!document.querySelector('script[src*="require.js"]')""")


def wait_for(page, condition, what: str, timeout: float = 10.0) -> None:
    """Let the page run until ``condition()`` holds; fail the test after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"after {timeout:.0f} s: {what}", pytrace=False)
        page.wait_for_timeout(20)  # Playwright's own events (a route held) arrive while it waits


def record_requests(page) -> list[str]:
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    return urls


def test_text_paints_before_any_widget_code(page, page_guard, page_checks, book_site):
    page.set_viewport_size(PHONE)
    urls = record_requests(page)
    held, released = [], []

    def hold(route, request) -> None:
        if released:
            route.continue_()
        else:
            held.append(route)

    page.route(WIDGET_CODE, hold)
    page.goto(book_site.url_for(CHAPTER), wait_until="load")
    settle(page)

    # The text is on screen and painted; no widget code was even asked for.
    assert page.locator("article h1").first.is_visible()
    assert page.locator("article p").first.is_visible()
    paints = page.evaluate("performance.getEntriesByType('paint').map((e) => e.name)")
    assert "first-contentful-paint" in paints, paints
    assert not [u for u in urls if WIDGET_CODE.search(u)] and not loader_started(page), urls
    demo = page.locator(".cj-demo").first
    picture = demo.locator(".cj-demo-placeholder")
    assert picture.locator(".cj-frame").first.is_visible()  # the first frame, as a picture
    page_checks.assert_accessible(page, CHAPTER + " (demo pictures, before any widget code)")

    # A reader moving towards the demo makes the loader ask for the code; while it is held,
    # the page still reads.
    demo.scroll_into_view_if_needed()
    settle(page)
    before = demo.evaluate(_GEOMETRY_JS)
    with page.expect_request(WIDGET_CODE):
        engage(page)
    wait_for(page, lambda: held, "the widget code was requested but not held")
    assert picture.is_visible() and "Loading the demo" in picture.inner_text()
    assert page.locator(".widget-subarea").count() == 0
    assert page.locator("article p").first.text_content().strip()

    released.append(True)
    for route in held:
        route.continue_()
    demo.locator(".cj-static-demo").wait_for(state="visible", timeout=30_000)
    page.wait_for_selector(".cj-demo.cj-demo-ready")
    assert picture.count() == 0
    after = demo.evaluate(_GEOMETRY_JS)
    assert abs(after["height"] - before["height"]) <= 1, (before, after)
    assert abs(after["offset"] - before["offset"]) <= 1, (before, after)
    assert page_checks.exercise_static_demos(page, CHAPTER) == 1
    assert not [u for u in urls if "pyodide" in u.lower()]
    page_guard.assert_clean(CHAPTER)


def test_a_tap_on_a_pictured_option_loads_the_demo_and_is_replayed(page, page_guard, book_site):
    page.set_viewport_size(PHONE)
    page.goto(book_site.url_for(CHAPTER), wait_until="load")
    demo = page.locator(".cj-demo").first
    demo.scroll_into_view_if_needed()
    settle(page)
    assert not loader_started(page) and page.locator(".widget-subarea").count() == 0  # scrolled there, not touched
    option = demo.locator(".cj-demo-placeholder .cj-pic-button").nth(2)
    label = option.inner_text().strip()
    option.click()
    page.wait_for_selector(".cj-demo.cj-demo-ready")
    shown = demo.locator(".cj-static-demo .cj-frame").filter(visible=True)
    assert [f.get_attribute("data-frame") for f in shown.all()] == ["2"]
    pressed = demo.locator(".widget-toggle-button.mod-active")
    assert pressed.count() == 1 and pressed.inner_text().strip() == label
    page_guard.assert_clean(CHAPTER)


def test_a_reader_the_page_cannot_see_starts_a_demo_with_its_button(page, page_guard, book_site):
    # A screen reader in browse mode moves the focus and clicks, but the page gets no key or
    # pointer input: the picture's "Start this demo" button is the way in, shown while focused,
    # and the focus goes on into the live demo.
    page.set_viewport_size(PHONE)
    page.goto(book_site.url_for(CHAPTER), wait_until="load")
    start = page.get_by_role("button", name="Start this demo").first
    start.evaluate("(b) => b.focus()")
    box = start.bounding_box()
    assert box and box["width"] >= 44 and box["height"] >= 44, box  # seen, finger-sized
    settle(page)  # the focus handlers ran as the focus moved; a frame has passed since
    assert not loader_started(page) and page.locator(".widget-subarea").count() == 0  # focus alone loads nothing
    start.evaluate("(b) => b.click()")
    page.wait_for_selector(".cj-demo.cj-demo-ready")
    where = page.evaluate("""() => { const a = document.activeElement;
      return a && a.closest(".cj-demo-ready") ? "live demo" : (a ? a.tagName : "none"); }""")
    assert where == "live demo", where
    page_guard.assert_clean(CHAPTER)


def picture_room_problems(page, name: str, urls: list[str]) -> list[str]:
    """On ``name``, loaded with ``urls`` recording its requests (:func:`record_requests`) and
    not yet touched: no widget code fetched before the reader did anything or on a scroll
    alone, and every demo's picture exactly as tall (and as far from what precedes it) as the
    live widget that replaces it, once the reader is at work. What went wrong, one line each.

    At 1280 px this runs inside each page's own test (tests/browser/test_book.py, which opens
    every page at that width anyway), at 390 px in the test below.
    """
    problems = []
    settle(page)
    early = [u for u in urls if WIDGET_CODE.search(u)] or loader_started(page)
    if early:
        problems.append(f"{name}: widget code fetched before the reader did anything: {early}")
    demos = page.locator(".cj-demo")
    if not demos.count():
        return problems + [f"{name}: widget views but no .cj-demo picture"]
    demos.first.scroll_into_view_if_needed()  # scrolled to, not yet touched
    # Every picture drawn, as it is by the time the reader reaches it: a puzzle's picture
    # far off-screen holds only an estimate of its room until then (content-visibility;
    # tests/browser/test_practice_book.py checks that part).
    page.add_style_tag(content=DRAW_ALL)
    settle(page)
    before = [demos.nth(i).evaluate(_GEOMETRY_JS) for i in range(demos.count())]
    if [u for u in urls if WIDGET_CODE.search(u)] or loader_started(page):
        problems.append(f"{name}: widget code fetched on a scroll alone")
    engage(page)
    page.wait_for_function(
        "n => document.querySelectorAll('.cj-demo.cj-demo-ready').length === n",
        arg=len(before), timeout=30_000)
    after = [demos.nth(i).evaluate(_GEOMETRY_JS) for i in range(demos.count())]
    for i, (b, a) in enumerate(zip(before, after)):
        if abs(a["height"] - b["height"]) > 1 or abs(a["offset"] - b["offset"]) > 1:
            problems.append(f"{name} demo {i}: picture {b}, live widget {a}")
    return problems


def test_each_picture_holds_its_demos_room_on_a_phone(page, page_guard, book_site):
    pages = widget_pages(book_site)
    assert pages, "no page of the book embeds a widget"
    page.set_viewport_size(PHONE)
    urls = record_requests(page)
    problems = []
    for name in pages:
        urls.clear()
        page.goto(book_site.url_for(name), wait_until="load")
        problems += picture_room_problems(page, name, urls)
        page_guard.assert_clean(name)
    assert not problems, "\n".join(problems)


def test_pages_without_widgets_request_no_widget_code(page, page_guard, book_site):
    widgets = set(widget_pages(book_site))
    plain = [p for p in book_site.pages() if p not in widgets and p != "index.html"]
    assert plain, "every page has widgets: nothing to check"
    urls = record_requests(page)
    for name in plain:
        urls.clear()
        page.goto(book_site.url_for(name), wait_until="load")
        page.mouse.wheel(0, 20_000)
        engage(page)
        page.wait_for_load_state("networkidle")
        assert page.locator("article h1").first.is_visible(), name
        fetched = [u for u in urls if ANY_WIDGET_FILE.search(u)]
        assert not fetched, f"{name} fetched widget code: {fetched}"
        page_guard.assert_clean(name)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390px", "1280px"])
def test_theme_icons_show_without_the_font_awesome_script(page, page_guard, book_site, viewport):
    page.set_viewport_size(viewport)
    urls = record_requests(page)
    page.goto(book_site.url_for("book/strategy.html"), wait_until="load")
    assert not [u for u in urls if "fontawesome.js" in u]
    assert page.locator("svg.svg-inline--fa").count() == 0  # nothing rewrote the icons
    # The header's buttons and the sidebars' headings, each with its icon: the sidebar
    # toggle, download, full screen, search, the page's contents.
    for icon in ["fa-bars", "fa-download", "fa-expand", "fa-magnifying-glass", "fa-list"]:
        assert page.locator(f".{icon}").filter(visible=True).count() >= 1, f"no visible {icon}"
    # More icons: the theme switch's other modes, the download menu.
    page.locator(".theme-switch-button").first.click()
    page.locator(".dropdown-download-buttons button").first.click()
    loaded = page.evaluate(_FONTS_LOADED_JS)
    icons = page.evaluate(_ICONS_JS)
    assert len(icons) >= 6, icons
    for where, width, glyph, family, weight in icons:
        assert width > 0, f"{where}: icon has no width"
        fam = "Font Awesome 6 Brands" if "Brands" in family else "Font Awesome 6 Free"
        assert f"{fam} {weight}" in loaded, f"{where}: {fam} {weight} not loaded ({loaded})"
        font = font_file(book_site.root, family, weight)
        assert ord(glyph.strip('"')) in font_cmap(font), f"{where}: {font.name} lacks {glyph!r}"
    # The theme switch shows exactly one of its three icons.
    switch = page.locator(".theme-switch-button i").filter(visible=True)
    assert switch.count() == 1
    page_guard.assert_clean("strategy.html")


def test_loader_hook_replaces_a_demo_in_place_and_back(page, page_guard, book_site):
    """The hook a "Play live" button uses: a node in the demo's place (its room kept), the
    static demo left alone meanwhile, and the static demo back, live, on restore."""
    page.goto(book_site.url_for(CHAPTER), wait_until="load")
    demos = page.evaluate("calijackWidgets.demos().length")
    assert demos >= 1
    during = page.evaluate("""async () => {
      const demo = calijackWidgets.demos()[0];
      const height = demo.getBoundingClientRect().height;
      const live = document.createElement("div");
      live.textContent = "A live demo";
      window.restoreDemo = calijackWidgets.replace(demo, live);
      const held = demo.style.minHeight;
      await calijackWidgets.load();  // the code arrives while the demo is replaced
      return {height, held, shown: demo.contains(live), picture: !!demo.querySelector(".cj-demo-placeholder"),
              widget: !!demo.querySelector(".widget-subarea"),
              view: !!demo.querySelector('script[type="application/vnd.jupyter.widget-view+json"]')};
    }""")
    assert abs(float(during.pop("held").removesuffix("px")) - during.pop("height")) < 0.01
    assert during == {"shown": True, "picture": False, "widget": False, "view": True}, during
    page.evaluate("restoreDemo()")
    page.wait_for_selector(".cj-demo.cj-demo-ready .cj-static-demo")
    assert page.locator(".cj-demo-placeholder").count() == 0
    assert page.get_by_text("A live demo").count() == 0
    assert page.evaluate("calijackWidgets.demos().length") == demos
    page_guard.assert_clean(CHAPTER)


def test_the_site_ships_no_source_maps(book_site):
    maps = [p.relative_to(book_site.root).as_posix() for p in book_site.root.rglob("*.map")]
    assert not maps, maps
    pointing = []
    for path in [*book_site.root.rglob("*.js"), *book_site.root.rglob("*.css")]:
        tail = path.read_bytes()[-300:]
        if re.search(rb"[#@] sourceMappingURL=", tail):
            pointing.append(path.relative_to(book_site.root).as_posix())
    assert not pointing, pointing
    assert not (book_site.root / "_static" / "scripts" / "fontawesome.js").exists()


# The loading notes that lie over something a reader reads or taps: [control's class, texts hit].
_NOTES_OVER_JS = """
() => Array.from(document.querySelectorAll('.cj-quiz .cj-demo-loading')).map((note) => {
  const r = note.getBoundingClientRect();
  const question = note.closest('.cj-quiz-question');
  const hit = Array.from(question.querySelectorAll('.cj-pic-button, summary')).filter((el) => {
    const range = document.createRange();  // the words, not the whole line a summary spans
    range.selectNodeContents(el);
    const b = range.getBoundingClientRect();
    return b.width && !(b.right <= r.left || b.left >= r.right || b.bottom <= r.top || b.top >= r.bottom);
  });
  return hit.map((el) => el.textContent.trim());
}).filter((hits) => hits.length)
"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390px", "1280px"])
def test_a_quick_checks_loading_note_covers_none_of_its_answers(page, page_guard, book_site, viewport):
    page.set_viewport_size(viewport)
    for name in ("book/03_legal_play.html", "book/04_drawing.html"):
        page.goto(book_site.url_for(name), wait_until="load")
        notes = page.locator(".cj-quiz .cj-demo-loading")
        assert notes.count() == 4, name
        expect(notes.first).to_be_visible()
        assert page.evaluate(_NOTES_OVER_JS) == [], name
    page_guard.assert_clean("the quick checks' pictures")


def test_charts_load_when_the_reader_comes_to_them_and_hold_their_room(page, page_guard, book_site):
    """The Strategy chapter's charts are far below its first screen: lazy, sized by the build."""
    page.set_viewport_size(PHONE)
    urls = record_requests(page)
    page.goto(book_site.url_for("book/strategy.html"), wait_until="load")
    charts = page.locator("article img")
    assert charts.count() == 3
    attrs = charts.evaluate_all("imgs => imgs.map(i => [i.loading, i.decoding, i.getAttribute('width'),"
                                " i.getAttribute('height')])")
    assert all(a[:2] == ["lazy", "async"] and int(a[2]) > 0 and int(a[3]) > 0 for a in attrs), attrs
    last = charts.nth(2)
    src = last.evaluate("img => img.src")
    assert src not in urls, "the last chart came with the first screen"
    before = last.bounding_box()["height"]
    last.scroll_into_view_if_needed()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=last.element_handle())
    assert src in urls
    box = last.bounding_box()
    width, height = (int(a) for a in attrs[2][2:])
    assert abs(box["height"] - box["width"] * height / width) < 2, (box, width, height)
    assert abs(box["height"] - before) < 2, "the chart took another height once it came"
    page_guard.assert_clean("book/strategy.html")


def test_search_still_finds_pages_without_the_in_page_search_scripts(page, page_guard, book_site):
    """Pages no longer load the search index (search-as-you-type is off); the search box
    still works: it opens search.html, which loads the index itself."""
    urls = record_requests(page)
    page.goto(book_site.url_for(CHAPTER), wait_until="load")
    assert not [u for u in urls if re.search(r"/(searchindex|_static/searchtools)\.js", u)]
    page.keyboard.press("Control+k")
    box = page.locator("#pst-search-dialog input[name=q]")
    box.wait_for(state="visible")
    box.fill("trump")
    box.press("Enter")
    page.wait_for_url(re.compile(r"search\.html\?q=trump"))
    results = page.locator("#search-results ul.search li a")
    results.first.wait_for(timeout=15_000)
    assert results.count() >= 3
    page_guard.assert_clean("search.html")
