"""The static book ships only the widget code its demos need: ipywidgets 8's modules.

The html-manager's bundle also holds ipywidgets 7's modules (``base7``, ``controls7``: 825 KB)
for third-party widgets of the old protocol. The book leaves them out; this says why that is
safe: every widget model the built book renders is of protocol 2, from the two modules the
loader maps.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import vendor_widgets  # noqa: E402

WIDGETS_JS = ROOT / "book" / "_widgets_js"
BOOK_HTML = Path(os.environ.get("CALIJACK_BOOK_HTML", ROOT / "_build" / "html"))
NEEDED = {("@jupyter-widgets/base", "2"), ("@jupyter-widgets/controls", "2")}


def models(book: Path) -> list[tuple[str, str, str]]:
    """(file, module, major version) of every model and view in the book's widget state."""
    found = []
    for path in sorted((book / "_static" / "cj-widget-state").glob("*.json")):
        for model in json.loads(path.read_text(encoding="utf-8"))["state"].values():
            state = model["state"]
            found.append((path.name, model["model_module"], model["model_module_version"].split(".")[0]))
            if state.get("_view_name"):
                found.append((path.name, state["_view_module"], state["_view_module_version"].split(".")[0]))
    return found


@pytest.mark.built_book
def test_every_widget_of_the_book_is_of_ipywidgets_8():
    if not (BOOK_HTML / "index.html").is_file():
        pytest.fail(f"The book is not built: {BOOK_HTML}/index.html is missing. Build it with "
                    "`make book`; `make test` does it.", pytrace=False)
    found = models(BOOK_HTML)
    assert len(found) > 1000  # the chapters' demos, all of them
    assert not [m for m in found if (m[1], m[2]) not in NEEDED], sorted(
        {m for m in found if (m[1], m[2]) not in NEEDED})


def test_the_old_protocol_is_not_shipped():
    loader = (WIDGETS_JS / "cj-widget-loader.js").read_text(encoding="utf-8")
    mapped = dict(re.findall(r'"(@jupyter-widgets/[\w-]+)": "([\w-]+)"', loader))
    assert set(mapped) == {"@jupyter-widgets/base", "@jupyter-widgets/controls",
                           "@jupyter-widgets/html-manager"}
    assert set(mapped) == set(vendor_widgets.MODULES)
    assert not list(WIDGETS_JS.glob("jupyter-widgets-*7.js"))
