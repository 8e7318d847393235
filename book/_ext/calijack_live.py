"""Sphinx extension: "Play live" on every lesson page, and the live site copied into the book.

The live site (the live lesson's page on JupyterLite's Pyodide kernel, built by ``lite/build_lite.py`` into
``_build/lite``; ``make book`` runs it first) is copied into the HTML output as ``lite/``.
Each lesson page (``notebooks/NN_name``) gets ``calijack-live.js`` and ``calijack-live.css``
(from ``book/_live``) with two data attributes: where the live site is, relative to the page,
and the lesson's name. The script adds a "Play live" button above the page's main demo; no
byte of the live site is fetched before the reader presses it.

A build without ``_build/lite`` fails with a warning that says how to make it (the book is
built with warnings as errors).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util import logging

LOGGER = logging.getLogger(__name__)
STATIC = Path(__file__).resolve().parent.parent / "_live"
LITE_DIR = "lite"
LESSON_PREFIX = "notebooks/"


def _lite_source(app: Sphinx) -> Path:
    return Path(app.confdir) / "_build" / LITE_DIR


def _add_static(app: Sphinx, config) -> None:
    config.html_static_path.append(str(STATIC))
    # What the pages' script tags depend on, read once: the download the live site weighs, and
    # a digest of the script and its stylesheet. Both are "html" config values: when one
    # changes, Sphinx writes every page again, so an incremental build never serves a page
    # that points at an older script or says an older size.
    config.calijack_live_download_mb = download_mb(_lite_source(app))
    digest = hashlib.sha256()
    for path in sorted(STATIC.iterdir()):
        digest.update(path.name.encode() + path.read_bytes())
    config.calijack_live_digest = digest.hexdigest()[:16]


def download_mb(lite: Path) -> int | None:
    """Megabytes (gzip, rounded up) of Python and its packages, from the live site's
    ``lessons.json``: what the "Play live" button says the reader will download once."""
    try:
        runtime = json.loads((lite / "lessons.json").read_text(encoding="utf-8"))["runtime"]
        return math.ceil(sum(item["gzip_bytes"] for item in runtime) / 1e6)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _page(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Give lesson pages the live script, told where the live site is, which lesson this is,
    and how much Python weighs."""
    if not pagename.startswith(LESSON_PREFIX) or doctree is None:
        return
    lite = context["pathto"](LITE_DIR + "/index.html", 1).rsplit("index.html", 1)[0]
    lesson = pagename[len(LESSON_PREFIX):]
    attributes = {"data-lite": lite, "data-lesson": lesson}
    if app.config.calijack_live_download_mb is not None:
        attributes["data-download-mb"] = str(app.config.calijack_live_download_mb)
    app.add_css_file("calijack-live.css")
    app.add_js_file("calijack-live.js", loading_method="defer", **attributes)


def _copy_lite(app: Sphinx, exception: Exception | None) -> None:
    """Copy the live site into the HTML output (hard links where the file system allows)."""
    if exception is not None or app.builder.format != "html":
        return
    source = _lite_source(app)
    if not (source / "lessons.json").is_file():
        LOGGER.warning("the live lessons are not built (%s/lessons.json is missing): run "
                       "`make book`, or `python lite/build_lite.py` before jupyter-book",
                       source, type="calijack", subtype="live")
        return
    target = Path(app.outdir) / LITE_DIR
    if target.exists():
        shutil.rmtree(target)

    def link_or_copy(src: str, dst: str) -> None:
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    shutil.copytree(source, target, copy_function=link_or_copy)


def setup(app: Sphinx) -> dict:
    """Register the extension, and calijack_offline (the service worker that keeps the book,
    and this live site once played, for reading with no network)."""
    app.setup_extension("calijack_offline")
    app.add_config_value("calijack_live_digest", "", "html")
    app.add_config_value("calijack_live_download_mb", None, "html")
    app.connect("config-inited", _add_static)
    app.connect("html-page-context", _page)
    app.connect("build-finished", _copy_lite)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
