"""Draw the web app's icons (book/_offline/static/cj-icon-*.png) from the favicon, once.

    .venv/bin/python book/_offline/make_icons.py

The icons are committed (a build needs no browser); run this again only when
``book/_assets/favicon.svg`` changes. Debian's Chromium draws them, through Playwright:

- ``cj-icon-192.png``, ``cj-icon-512.png``: the favicon itself, for the home screen;
- ``cj-icon-maskable-512.png``: the spade on a full white square, small enough for the
  round or squircle mask a phone may cut (the middle 80% is safe).
"""

from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
SVG = (HERE.parent / "_assets" / "favicon.svg").read_text(encoding="utf-8")
MASKABLE = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#fff"/>'
            '<g transform="translate(14.4 14.4) scale(0.55)">' + SVG.split("</title>", 1)[1].replace("</svg>", "")
            + "</g></svg>")


def draw(page, svg: str, size: int, out: Path) -> None:
    page.set_viewport_size({"width": size, "height": size})
    page.set_content(f'<style>html,body{{margin:0;background:transparent}}svg{{display:block;width:{size}px;'
                     f'height:{size}px}}</style>{svg}')
    page.screenshot(path=str(out), omit_background=True)


with sync_playwright() as pw:
    browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
    page = browser.new_page()
    for size in (192, 512):
        draw(page, SVG, size, HERE / "static" / f"cj-icon-{size}.png")
    draw(page, MASKABLE, 512, HERE / "static" / "cj-icon-maskable-512.png")
    browser.close()
