"""The one stylesheet (``calijack/static/calijack.css``) and the fragment wrapper that carries it.

The same file styles the render layer's fragments in the static book and the lessons (inlined
once per fragment, so a fragment shows itself anywhere, even with no server behind it), and the
sandbox's live table widget (which loads it as anywidget's ``_css``).
"""

from __future__ import annotations

import re
from importlib import resources

from .base import Html, esc

__all__ = ["CSS", "CSS_PATH", "fragment"]

# A Traversable inside the installed package (a plain file in a wheel, an editable install or
# Pyodide's site-packages alike).
CSS_PATH = resources.files("calijack").joinpath("static", "calijack.css")
# Inlined in every fragment, so without its comments and line breaks.
CSS = re.sub(r"/\*.*?\*/|\n\s*", "", CSS_PATH.read_text(encoding="utf-8"), flags=re.S)


def fragment(inner: str, classes: str, label: str | None = None, *, css: bool = True) -> Html:
    """``inner`` wrapped in a ``cj-root`` div, with the stylesheet unless ``css=False``.

    ``css=False`` is for a page that already holds the stylesheet (the sandbox's live table).
    """
    aria = f' role="group" aria-label="{esc(label)}"' if label else ""
    style = f"<style>{CSS}</style>" if css else ""
    return Html(f'<div class="cj-root {classes}"{aria}>{style}{inner}</div>')
