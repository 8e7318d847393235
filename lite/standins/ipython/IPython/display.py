"""``IPython.display``'s two functions ipywidgets uses, as IPython's behave with no shell."""

from __future__ import annotations

import sys


def display(*objs, **kwargs) -> None:
    """Print each object, as IPython's ``display`` does where no IPython shell runs."""
    print(*objs)


def clear_output(wait: bool = False) -> None:
    """Clear the current line, as IPython's ``clear_output`` does with no shell (its very
    prints: two, both to standard output)."""
    print("\033[2K\r", end="")
    sys.stdout.flush()
    print("\033[2K\r", end="")
    sys.stderr.flush()
