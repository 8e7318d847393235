"""Sphinx extension: the build's last step writes Brotli and gzip twins of the site's files.

Beside each file worth compressing (pages, scripts, styles, JSON, SVG, the live part's
WebAssembly, …) go ``NAME.br`` and ``NAME.gz``, compressed once at the best settings, so a
host that serves precompressed files sends them as they are: ``make serve``
(``calijack.serve.static``, WhiteNoise), nginx with ``gzip_static``/``brotli_static``,
Netlify, … (book/publishing.md). ``calijack.serve.static.precompress`` does it;
the twins are kept by content in ``_build/precompressed``, so a build that copies the live
site in again compresses nothing it compressed before.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.util import logging

from calijack.serve.static import precompress

LOGGER = logging.getLogger(__name__)


def _on_build_finished(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    count = precompress(outdir, cache=outdir.parent / "precompressed")
    LOGGER.info("precompress: %d files compressed (Brotli and gzip twins)", count)


def setup(app):
    """Register the hook, after every other step that writes into the output (calijack_live's
    copy of the live site, calijack_speed's trimming at 900)."""
    app.connect("build-finished", _on_build_finished, priority=990)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
