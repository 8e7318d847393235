"""How a message quotes a value it was given: on one line, and at most about 80 characters.

A refusal names what it refuses (``'Z♥' is not a card``), but the value may be hostile: a
string of ten million characters, a number of five thousand digits (whose ``repr`` Python
refuses), a list nested a thousand deep or holding itself, a file name with a newline in
it. Every message of the engine quotes such values through :func:`quoted`, so a message
stays one readable line whatever it was given. This module imports nothing of the package:
the lowest layers (cards, rules) use it too.
"""

from __future__ import annotations

import reprlib

__all__ = ["LIMIT", "quoted", "quoted_path", "one_line"]

LIMIT = 80
"""The most characters of a value a message quotes."""

_LONG_INT_BITS = 130  # about 40 digits: a longer number is described, not written out


class _Short(reprlib.Repr):
    """``reprlib`` bounds containers and nesting; strings and numbers get a bound that says what was cut."""

    def __init__(self):
        super().__init__()
        self.maxlevel = 3
        self.maxdict = self.maxlist = self.maxtuple = self.maxset = self.maxfrozenset = 4
        self.maxdeque = self.maxarray = 4
        self.maxstring = 48
        self.maxother = 48

    def repr_str(self, x: str, level: int) -> str:
        if len(x) <= self.maxstring:
            return repr(x)
        head = repr(x[:self.maxstring])
        return f"{head[:-1]}…{head[-1]} ({len(x):,} characters)"

    def repr_bytes(self, x: bytes, level: int) -> str:
        if len(x) <= self.maxstring:
            return repr(x)
        head = repr(x[:self.maxstring])
        return f"{head[:-1]}…{head[-1]} ({len(x):,} bytes)"

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() <= _LONG_INT_BITS:
            return repr(x)
        # repr() of a number over 4300 digits raises ValueError; say its size instead.
        digits = int((x.bit_length() - 1) * 0.30102999566398) + 1
        return f"a {'negative ' if x < 0 else ''}whole number of about {digits:,} digits"


_SHORT = _Short()


def one_line(text: str, limit: int | None = None) -> str:
    """``text`` with every character that is not printable escaped (newlines too), cut to ``limit``."""
    if not text.isprintable():
        text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                       for c in text)
    if limit is not None and len(text) > limit:
        text = text[:limit - 1] + "…"
    return text


def quoted(value: object, limit: int = LIMIT) -> str:
    """``value`` as a message quotes it: its ``repr``, on one line, at most ``limit`` characters."""
    try:
        text = _SHORT.repr(value)
    except Exception:  # a hostile __repr__: name the type, show nothing of it
        text = f"<{type(value).__name__}>"
    return one_line(text, limit)


def quoted_path(path: str, limit: int = LIMIT) -> str:
    """A file name as a message quotes it: on one line, and when long, its end (where the name is)."""
    text = one_line(repr(path[-limit:]))
    return text if len(path) <= limit else f"{text[0]}…{text[1:]}"
