"""Cards, hands, the table and score sheets as self-contained HTML/SVG strings.

Pure functions that return :class:`Html` (a ``str`` that shows itself in a notebook): no
IPython, no ipywidgets, no external fonts or images. The engine imports this package lazily
from its ``_repr_html_`` methods only.
"""

from .base import Html
from .cardsvg import card_html, card_svg, suit_svg
from .sheet import score_sheet_html
from .table import hand_html, table_html, trick_html

__all__ = ["Html", "card_svg", "card_html", "suit_svg", "hand_html", "trick_html", "table_html",
           "score_sheet_html"]
