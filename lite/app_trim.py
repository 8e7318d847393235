"""The built REPL app cut to what it needs (issue 24): JupyterLite's build leaves files in
the site that the live book never loads.

``jupyter lite build`` writes, besides the REPL, files for building and for other apps:
the ``doc`` app's pages (which never finish loading: the book builds no ``doc`` app
content), the bundler's ``rspack.config*.js``, ``package.json`` files, the site's JSON schema,
``bootstrap.js`` (the bundler's entry, named only by its config), JupyterLite's own service
worker (its plugin is off: see ``DISABLED_PLUGINS`` in build_lite.py; the book has a service
worker of its own) and JupyterLite's web app manifest with its icons (a REPL inside a frame is
never installed; the book has its own manifest). :func:`trim_app` deletes them, and the
REPL page's link to the manifest.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

UNUSED = ("doc", "rspack.config*.js", "package.json", "*/package.json", "jupyterlite.schema.v*.json",
          "bootstrap.js", "service-worker.js", "build/service-worker.js", "manifest.webmanifest",
          "icon-*.png")
MANIFEST_LINK = re.compile(r'\s*<link rel="manifest" href="[^"]*manifest\.webmanifest">')


def trim_app(site: Path) -> list[str]:
    """Delete the files of :data:`UNUSED` from the built lite ``site``; return their paths."""
    gone = []
    for pattern in UNUSED:
        for path in sorted(site.glob(pattern)):
            if path.is_dir():
                shutil.rmtree(path)
            else:
                path.unlink()
            gone.append(path.relative_to(site).as_posix())
    for page in site.glob("*/index.html"):
        html = page.read_text(encoding="utf-8")
        if MANIFEST_LINK.search(html):
            page.write_text(MANIFEST_LINK.sub("", html), encoding="utf-8")
    return gone
