"""A lesson's progress keeper: the quick checks and puzzles answered in a lesson are remembered.

The book's pages keep their answers through the progress store's page script; a lesson served
by Voilà (or opened in JupyterLab or the live book) has no such script, so this small anywidget
brings the same two files (:func:`calijack.progress.page_script`, run once per page) and
watches the page under the book page's name. On the class's hub it keeps the store in step
with the class service, as the sandbox's table does (:data:`.table.CLASS_URL_ENV`). It shows
one line: that the progress stays in this browser (no class), or why it is not being kept.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import anywidget
import traitlets

from ..progress import page_script
from .table import CLASS_URL_ENV

__all__ = ["LessonProgress"]

HERE = Path(__file__).resolve().parent
_PAGE = re.compile(r"book/[0-9a-z_]+")


class LessonProgress(anywidget.AnyWidget):
    """Remember the quick checks and puzzles of this lesson under ``page`` (``"book/03_legal_play"``:
    the book's page they also appear on)."""

    _esm = page_script() + "\n" + (HERE / "lesson_progress.js").read_text(encoding="utf-8")

    page = traitlets.Unicode("").tag(sync=True)
    class_url = traitlets.Unicode(os.environ.get(CLASS_URL_ENV, "")).tag(sync=True)

    def __init__(self, page: str, **kwargs) -> None:
        if not isinstance(page, str) or not _PAGE.fullmatch(page):
            raise ValueError(f"page must name a page of the book, such as 'book/03_legal_play', not {page!r}")
        super().__init__(page=page, **kwargs)
