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

__all__ = ["Sheet", "SHEET_CLASS", "share_page"]

SHEET_CLASS = "cj-sheet-defs"
# A card (or any drawing) from the render layer: the outer tag, an optional title, the body.
_SVG = re.compile(r"(<svg\b[^>]*>)(<title>.*?</title>)?(.*?)</svg>", re.DOTALL)
_STYLE = "<style>" + CSS + "</style>"
# Bodies shorter than this are cheaper inline than as a reference.
_MIN_BODY = 160
# A sheet already in a page (a demo's picture holds its demo's sheet), its drawings, and a reference.
_SHEET_DIV = re.compile(rf'<div class="{SHEET_CLASS}"[^>]*>.*?<defs>(.*?)</defs></svg></div>', re.DOTALL)
_DEF = re.compile(r'<g id="(cj-d[0-9a-f]{10})">(.*?)</g>(?=<g id="cj-d[0-9a-f]{10}">|\Z)', re.DOTALL)
_REF = re.compile(r'<use href="#(cj-d[0-9a-f]{10})"/>')


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
        # A drawing that defines names (a sheet's own <defs>, ids) is left as it stands.
        if len(body) < _MIN_BODY or "<defs" in body or ' id="' in body:
            return match.group(0)
        key = "cj-d" + hashlib.blake2b(body.encode(), digest_size=5).hexdigest()
        self._defs.setdefault(key, body)
        # Inline SVG in HTML needs no namespace declaration: one less copy per card.
        head = head.replace(' xmlns="http://www.w3.org/2000/svg"', "")
        return f'{head}{title}<use href="#{key}"/></svg>'

    def adopt(self, page: str) -> str:
        """``page`` without the sheets it holds (:meth:`html`'s), their drawings now stored here."""

        def take(match: re.Match) -> str:
            for key, drawing in _DEF.findall(match.group(1)):
                self._defs.setdefault(key, drawing)
            return ""

        return _SHEET_DIV.sub(take, page)

    @property
    def size(self) -> int:
        """How many distinct drawings are stored."""
        return len(self._defs)

    def html(self, only: set[str] | None = None) -> str:
        """The styles and the ``<defs>`` the frames refer to (invisible on the page); with
        ``only``, the drawings of those names alone."""
        defs = "".join(f'<g id="{key}">{body}</g>' for key, body in self._defs.items()
                       if only is None or key in only)
        # Not displayed: a <use> draws a copy of its drawing wherever it stands, and a drawing
        # in a displayed <defs> is styled and laid out for nothing (a Practice page's four
        # sheets hold some 5000 elements: half its DOM, and much of its blocking time).
        return (f'<div class="{SHEET_CLASS}" aria-hidden="true" style="display:none">'
                f'<style>{CSS}</style>'
                f'<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"><defs>{defs}'
                "</defs></svg></div>")


def share_page(body: str) -> str:
    """A whole page's HTML (a chapter of the book) with each drawing and the stylesheet stored once.

    A chapter shows cards in many outputs and demo pictures, each with the stylesheet and each
    card drawn in full (chapter 3: 89 drawings, 1,400 elements, and 24 copies of the
    stylesheet). Here each drawing goes to one sheet at the top of the page and every card
    points at it; the sheets the demos' pictures bring are merged into it, keeping only the
    drawings the page shows (a demo's live widget brings its own sheet when it starts).
    A page without drawings or stylesheet is returned as it is.
    """
    sheet = Sheet()
    rest = sheet.compact(sheet.adopt(body))
    used = set(_REF.findall(rest))
    if not used and _STYLE not in body:
        return body
    return sheet.html(only=used) + rest
