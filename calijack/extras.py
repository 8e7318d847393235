"""The optional parts of calijack, and the extra of ``pyproject.toml`` that brings each.

The engine needs only the standard library (and tqdm). A part that needs more calls
:func:`require` before importing it, so that importing the part without its extra says, in
one sentence, what to install, instead of an ImportError from deep inside a dependency.
"""

from __future__ import annotations

from importlib.util import find_spec

# Each extra: the modules its parts import (pyproject.toml names their distributions).
EXTRAS = {
    "widgets": ("ipywidgets", "anywidget"),
    "lessons": ("voila", "jupyter_server", "whitenoise", "waitress"),
    "lab": ("jupyterlab",),
}


class MissingExtra(ImportError):
    """A part of calijack was imported without the extra it needs."""


def require(extra: str, part: str) -> None:
    """Raise :class:`MissingExtra` naming ``extra`` if a module it brings is not installed."""
    missing = [name for name in EXTRAS[extra] if find_spec(name) is None]
    if missing:
        raise MissingExtra(f"{part} needs the '{extra}' extra: pip install 'calijack[{extra}]' "
                           f"({' and '.join(missing)} not installed)", name=missing[0])
