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

    def _cut(self, head: str, length: int, unit: str, whole: bool) -> str:
        # Escapes (\\x01, \\u2028) can make even a short value's repr long: cut that too.
        if whole and len(head) <= self.maxstring + 3:
            return head
        return f"{head[:-1][:self.maxstring + 2]}…{head[-1]} ({length:,} {unit})"

    def repr_str(self, x: str, level: int) -> str:
        return self._cut(repr(x[:self.maxstring]), len(x), "characters", len(x) <= self.maxstring)

    def repr_bytes(self, x: bytes, level: int) -> str:
        return self._cut(repr(x[:self.maxstring]), len(x), "bytes", len(x) <= self.maxstring)

    def repr_int(self, x: int, level: int) -> str:
        bits = x.bit_length()
        if bits <= _LONG_INT_BITS:
            return repr(x)
        # repr() of a number over 4300 digits raises ValueError; say its size instead. The
        # estimate is the count or one short; one power of ten settles it, when that is cheap.
        digits, about = int((bits - 1) * 0.30102999566398) + 1, "about "
        if bits <= 100_000:
            digits += abs(x) >= 10 ** digits
            about = ""
        return f"a {'negative ' if x < 0 else ''}whole number of {about}{digits:,} digits"


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
    if len(path) <= limit and len(text) <= limit:
        return text
    quote, inner = text[0], text[1:-1]
    return f"{quote}…{inner[-(limit - 3):]}{quote}"  # escapes may have made the tail longer
