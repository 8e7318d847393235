"""Sphinx extension: the book's own scripts that the first paint does not need, started later.

Set up by ``calijack_offline`` (``app.setup_extension``). :func:`add_idle_script` puts a script
in a page as ``<script type="text/x-calijack-idle" src=… data-…>``, which the browser neither
fetches nor runs; every page also gets ``book/_idle/calijack-idle.js`` inline (some 1.5 KB, no
request of its own), which turns each such tag into a real script once the page is idle
(``requestIdleCallback``, at most 3 s after the page's ``load``), or at the reader's first
touch, click or key. It also keeps the clicks and opened answers that come before the
progress script, which takes them when it starts (``calijack/widgets/progress-watch.js``).

Used for the offline script (``calijack_offline``) and the progress store's script on the
chapters and lessons (``calijack_progress``): neither is needed before the text appears.
"""

from __future__ import annotations

import re
from pathlib import Path

from sphinx.application import Sphinx

IDLE_TYPE = "text/x-calijack-idle"
STARTER_FILE = Path(__file__).resolve().parent.parent / "_idle" / "calijack-idle.js"


def starter() -> str:
    """The starter's code as it goes in the page: without its comment lines."""
    text = STARTER_FILE.read_text(encoding="utf-8")
    return "\n".join(line for line in text.splitlines() if not re.match(r"\s*//", line)).strip()


def add_idle_script(app: Sphinx, filename: str, **attributes: str) -> None:
    """Put ``filename`` (of ``_static``) in the page being written, started when the page is idle."""
    app.add_js_file(filename, type=IDLE_TYPE, **attributes)


def _page(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    app.add_js_file(None, body=app.builder.cj_idle_starter, priority=100)


def _builder_inited(app: Sphinx) -> None:
    app.builder.cj_idle_starter = starter()


def setup(app: Sphinx) -> dict:
    """Register the extension."""
    # The starter's text is an "html" config value's: when it changes, every page is written again.
    app.add_config_value("calijack_idle_starter", starter(), "html")
    app.connect("builder-inited", _builder_inited)
    app.connect("html-page-context", _page)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
