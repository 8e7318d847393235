"""Both kinds of static demo (stepper and chooser) work offline in a static page.

Independent of the book build: the test embeds the widget state in a page of its own, loads
the widget JavaScript vendored in book/_widgets_js through the book's loader (the same files
the book serves), and drives each demo as a reader would. This also covers the chooser, which
the book may not use yet, and the module and font paths (the page sits in a sub-folder, like
the book's chapters).
"""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest
from ipywidgets.embed import dependency_state

from calijack.widgets.static import chooser, stepper

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
# The book's _static/ gets both folders (html_static_path in _config.yml): the widget code and
# its loader, and cj-a11y.js, shared with the Voilà template, which the loader fetches too.
STATIC_FOLDERS = (REPO / "book" / "_widgets_js",
                  REPO / "calijack" / "serve" / "jupyter_data" / "voila" / "templates" / "calijack" / "static")

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Static demos</title>
<link rel="icon" href="data:,">
<script defer src="../_static/cj-widget-loader.js"></script>
<script defer src="../_static/cj-widgets.js"></script>
<script type="application/vnd.jupyter.widget-state+json">{state}</script>
</head>
<body>
<main>
<h1>Static demos</h1>
{views}
</main>
</body>
</html>
"""


def write_page(folder: Path, demos) -> Path:
    models = []
    for demo in demos:
        models += [demo, *demo.links]
    state = {"version_major": 2, "version_minor": 0, "state": dependency_state(models)}
    views = "\n".join(
        '<div class="cell_output"><script type="application/vnd.jupyter.widget-view+json">'
        + json.dumps({"version_major": 2, "version_minor": 0, "model_id": demo.model_id})
        + "</script></div>"
        for demo in demos
    )
    (folder / "_static").mkdir()
    for source in STATIC_FOLDERS:
        for path in source.iterdir():
            (folder / "_static" / path.name).symlink_to(path)
    (folder / "chapter").mkdir()
    page = folder / "chapter" / "demos.html"
    page.write_text(
        PAGE.format(state=json.dumps(state).replace("</", "<\\/"), views=views), encoding="utf-8"
    )
    return page


def test_stepper_and_chooser_offline(page, page_guard, page_checks, static_site, tmp_path):
    frames = [f"<p>Frame {i}: {html.escape(text)}</p>" for i, text in enumerate("ABCD")]
    demos = [
        stepper(frames, labels=["a", "b", "c", "d"], description="Step"),
        chooser(frames[:3], ["J♠", "7♥", "A♦"], description="Play"),
    ]
    write_page(tmp_path, demos)
    url = static_site(tmp_path) + "chapter/demos.html"
    page.goto(url, wait_until="load")
    assert page_checks.wait_for_widgets(page) == 2
    assert page_checks.exercise_static_demos(page, "demos.html") == 2
    # The label line follows the slider too.
    slider_demo = page.locator(".cj-static-demo").first
    page_checks.select_position(slider_demo.locator(".cj-static-control"), 2)
    label = slider_demo.locator(".cj-frame-label")
    assert label.evaluate_all("els => els.filter(e => e.checkVisibility())"
                              ".map(e => e.textContent)") == ["c"]
    page_guard.assert_clean("demos.html")


def test_harness_sees_a_broken_demo(page, page_checks, static_site, tmp_path):
    """The demo check really fails when a control is not linked to its frames."""
    demo = chooser(["<p>x</p>", "<p>y</p>"], ["x", "y"])
    demo.links[0].unlink()  # what a demo without its jslink would look like
    demo.links = ()
    write_page(tmp_path, [demo])
    page.goto(static_site(tmp_path) + "chapter/demos.html", wait_until="load")
    page_checks.wait_for_widgets(page)
    with pytest.raises(pytest.fail.Exception, match="after selecting position 1"):
        page_checks.exercise_static_demos(page, "broken.html")
