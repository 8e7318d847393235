"""Frames that share their drawings: each card drawing and the stylesheet stored once.

A demo, a review or a practice set is many frames of HTML from the render layer, and a card
drawn by it is a few kilobytes of SVG. :class:`Sheet` stores each distinct drawing once (in
``<defs>``) and lets every frame point at it with ``<use>``; the outer ``<svg>`` (its class,
``aria-label``, ``data-card`` and size) stays as the render layer made it. The stylesheet is
likewise kept once, in the sheet, instead of once per frame. Pure strings: the widgets and the
class service's pages use the same sheet.
"""

from __future__ import annotations

import hashlib
import re

from .style import CSS

__all__ = ["Sheet", "SHEET_CLASS"]

SHEET_CLASS = "cj-sheet-defs"
# A card (or any drawing) from the render layer: the outer tag, an optional title, the body.
_SVG = re.compile(r"(<svg\b[^>]*>)(<title>.*?</title>)?(.*?)</svg>", re.DOTALL)
_STYLE = "<style>" + CSS + "</style>"
# Bodies shorter than this are cheaper inline than as a reference.
_MIN_BODY = 160


class Sheet:
    """The drawings and styles shared by the frames of one demo, each stored once."""

    def __init__(self) -> None:
        self._defs: dict[str, str] = {}

    def compact(self, fragment: str) -> str:
        """``fragment`` with its stylesheet dropped and each drawing's body replaced by a ``<use>``."""
        out = fragment.replace(_STYLE, "")
        return _SVG.sub(self._use, out)

    def _use(self, match: re.Match) -> str:
        head, title, body = match.group(1), match.group(2) or "", match.group(3)
        if len(body) < _MIN_BODY:
            return match.group(0)
        key = "cj-d" + hashlib.blake2b(body.encode(), digest_size=5).hexdigest()
        self._defs.setdefault(key, body)
        # Inline SVG in HTML needs no namespace declaration: one less copy per card.
        head = head.replace(' xmlns="http://www.w3.org/2000/svg"', "")
        return f'{head}{title}<use href="#{key}"/></svg>'

    @property
    def size(self) -> int:
        """How many distinct drawings are stored."""
        return len(self._defs)

    def html(self) -> str:
        """The styles and the ``<defs>`` the frames refer to (invisible on the page)."""
        defs = "".join(f'<g id="{key}">{body}</g>' for key, body in self._defs.items())
        # Not displayed: a <use> draws a copy of its drawing wherever it stands, and a drawing
        # in a displayed <defs> is styled and laid out for nothing (a Practice page's four
        # sheets hold some 5000 elements: half its DOM, and much of its blocking time).
        return (f'<div class="{SHEET_CLASS}" aria-hidden="true" style="display:none">'
                f'<style>{CSS}</style>'
                f'<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"><defs>{defs}'
                "</defs></svg></div>")
