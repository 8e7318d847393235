"""Sphinx extension: the licence notices travel with every copy of the built book.

The project's licence (``LICENSE``), the list of other projects' files that the site ships
(``THIRD_PARTY.md``) and their licence texts (``licenses/``) are copied to the top of the
built site, so that whoever publishes ``_build/html`` publishes the notices those licences
require. ``tests/test_third_party.py`` checks the list; the built book's copy is checked there
too.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from sphinx.util import logging

LOGGER = logging.getLogger(__name__)
ROOT = Path(__file__).resolve().parents[2]
FILES = ("LICENSE", "THIRD_PARTY.md")
FOLDER = "licenses"


def copy_notices(root: Path, outdir: Path) -> list[str]:
    """Copy the notices from the repository ``root`` into the site ``outdir``; return what was
    copied (paths in the site). A notice missing from the repository is an error."""
    missing = [name for name in (*FILES, FOLDER) if not (root / name).exists()]
    if missing:
        raise FileNotFoundError(f"licence notices missing from the repository: {missing}")
    copied = []
    for name in FILES:
        shutil.copy2(root / name, outdir / name)
        copied.append(name)
    target = outdir / FOLDER
    if target.exists():
        shutil.rmtree(target)  # a text removed from licenses/ leaves the site too
    shutil.copytree(root / FOLDER, target)
    copied += sorted(f"{FOLDER}/{p.name}" for p in target.iterdir())
    return copied


def _on_build_finished(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    copied = copy_notices(ROOT, Path(app.outdir))
    LOGGER.info("notices: %d licence files copied into the site", len(copied))


def setup(app):
    """Register the copy early among the build's last steps, so that the compressed twins
    (precompress, at 990) are made for the notices too."""
    app.connect("build-finished", _on_build_finished, priority=100)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
