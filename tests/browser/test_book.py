"""Every page of the built book, in Chromium, as a reader sees it.

For each content page (discovered from _build/html; search and genindex skipped): no console
error, no request off 127.0.0.1 (the ``page`` fixture), no widget code fetched before the reader
is at work and each demo's picture holding the live widget's room (test_book_speed's check, at
this page's 1280 px), every embedded widget rendered, every static demo answers its control, images have text alternatives, heading levels never skip,
and axe-core finds no serious or critical violation.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from test_book_speed import VIEW, picture_room_problems, record_requests  # (beside this file)

pytestmark = pytest.mark.browser


def open_book_page(page, book_site, book_page: str) -> None:
    page.goto(book_site.url_for(book_page), wait_until="load")
    html = (book_site.root / book_page).read_text(encoding="utf-8", errors="replace")
    refresh = re.search(r'http-equiv="refresh"[^>]*url=([^"]+)"', html, re.IGNORECASE)
    if refresh:  # Jupyter Book's index.html redirects to the root page: follow it.
        target = refresh.group(1).strip().split("#")[0]
        page.wait_for_url(re.compile(re.escape(target) + "$"))
        page.wait_for_load_state("load")


def test_page(page, page_guard, page_checks, book_site, book_page):
    urls = record_requests(page)
    open_book_page(page, book_site, book_page)
    if VIEW in (book_site.root / book_page).read_text(encoding="utf-8", errors="replace"):
        problems = picture_room_problems(page, book_page, urls)
        assert not problems, "\n".join(problems)
    views = page_checks.wait_for_widgets(page)
    demos = page_checks.exercise_static_demos(page, book_page)
    assert demos <= views, f"{book_page}: {demos} static demos but {views} widget views"
    missing = page_checks.missing_text_alternatives(page)
    assert not missing, f"{book_page}: images without a text alternative:\n" + "\n".join(missing)
    page_checks.assert_headings_do_not_skip(page, book_page)
    page_checks.assert_no_broken_widgets(page)
    page_checks.assert_accessible(page, book_page)  # axe-core: no serious or critical violation
    page_guard.assert_clean(book_page)


def test_the_back_to_top_button_shown_on_scrolling_up_is_readable(screen_page, page_checks, book_site, page_guard):
    # The theme shows it only while the reader scrolls back up, past the header, and only below
    # 1200 px (sphinx-book-theme hides it on wider screens): an audit of a page as it loads
    # never sees it.
    page = screen_page
    open_book_page(page, book_site, "book/strategy.html")
    page.evaluate("window.scrollTo(0, 3000)")
    page.wait_for_function("() => window.oldScroll > 2000")  # the theme has seen the page go down
    down = page.evaluate("window.scrollY")
    box = page.locator("article.bd-article").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, 400)      # over the text, not a sidebar
    page.mouse.wheel(0, -400)                                # and now up
    page.wait_for_function("(down) => window.scrollY < down", arg=down)
    button = page.locator("#pst-back-to-top")
    if page.screen == "desk":
        page.wait_for_function("() => document.getElementById('pst-back-to-top').style.display === 'block'")
        expect(button).to_be_hidden()
        return
    button.wait_for(state="visible")
    page_checks.assert_accessible(page, f"the back-to-top button ({page.screen})", context="#pst-back-to-top")
    button.tap()
    page.wait_for_function("() => window.scrollY === 0")
    page_guard.assert_clean(f"back to top ({page.screen})")


def test_the_book_has_pages(book_site):
    pages = book_site.pages()
    assert "book/intro.html" in pages, pages
