"""The string type every renderer returns, and the small helpers they share."""

from __future__ import annotations

from html import escape

from .. import text

__all__ = ["Html", "esc", "seat_names"]


class Html(str):
    """An HTML or SVG string that shows itself in a notebook."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        """The string itself, for Jupyter's rich display."""
        return str(self)


def esc(text: object) -> str:
    """``text`` escaped for HTML text and attribute values."""
    return escape(str(text), quote=True)


def seat_names(players: int, viewer: int = 0, names=None) -> tuple[str, ...]:
    """Names per seat: ``names`` if given, else the narrator's ("You", "Opponent"; "Left", "Right")."""
    if names is not None:
        names = tuple(str(n) for n in names)
        if len(names) != players:
            raise ValueError(f"names must give one name per seat ({players}), not {len(names)}")
        return names
    return text.seat_names(players, viewer)
