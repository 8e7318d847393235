"""Sphinx extension: the book works with no network after one visit, and a phone can install it.

Set up by ``calijack_live`` (``app.setup_extension``). What it adds, from ``book/_offline``:

- **Every page** gets ``calijack-offline.js``, started once the page is idle or at the reader's
  first touch (``calijack_idle``; see the script's header): it registers the book's service
  worker through Workbox's window library (loaded then), tells the reader
  in one line when a new version is ready (and reloads into it on request), and says so when
  offline reading is off. Each page also links the web app manifest.
- **After the build** (:func:`build_offline`, also used on its own by the tests on a small
  site):

  - ``manifest.webmanifest``: the book's name, its icons (``book/_offline/static``), its
    start page, shown standalone: a phone can add the book to its home screen;
  - ``sw.js``: the service worker, generated with Workbox (``workbox-build``, pinned in
    ``book/_offline/package-lock.json``, installed with ``npm ci`` once per lock into
    ``_build/offline-cache``; ``build_sw.mjs`` has the settings). It precaches every page and
    static file of this build (a reader never mixes two builds: Workbox serves the pages of
    the build that installed it until the reader takes the new one), and keeps each file of
    the live runtime (``lite/``) the first time it is fetched, in a cache named by this
    build. ``calijack-sw-extra.js`` (imported by ``sw.js``) deletes the live runtime and the
    started Python an older build kept.

The service worker's scope is the book's folder: the Voila lessons, served from another
origin, never get it.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util import logging

from calijack_idle import add_idle_script  # book/_ext is on sys.path (Jupyter Book's local_extensions)
from site_trim import MAP_COMMENT

LOGGER = logging.getLogger(__name__)
OFFLINE = Path(__file__).resolve().parent.parent / "_offline"
STATIC = OFFLINE / "static"
SCRIPT = "calijack-offline.js"
WORKBOX_WINDOW = "workbox-window.prod.umd.js"
MANIFEST = "manifest.webmanifest"
WORKER = "sw.js"
EXTRA = "calijack-sw-extra.js"
THEME_COLOR = "#1b1b1b"
BOOK_NAME = "California Jack"


class OfflineBuildError(RuntimeError):
    """The service worker could not be made; the message says why."""


def _add_static(app: Sphinx, config) -> None:
    config.html_static_path.append(str(STATIC))


def _page(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Every page: the offline script (told where the worker and Workbox's library are) and
    the manifest."""
    def rel(path: str) -> str:
        return context["pathto"](path, 1)

    add_idle_script(app, SCRIPT, **{"data-sw": rel(WORKER), "data-workbox-window": rel("_static/" + WORKBOX_WINDOW)})
    context["metatags"] = context.get("metatags", "") + (
        f'\n<link rel="manifest" href="{rel(MANIFEST)}" />'
        f'\n<meta name="theme-color" content="{THEME_COLOR}" />'
        f'\n<link rel="apple-touch-icon" href="{rel("_static/cj-icon-192.png")}" />')


def start_page(site: Path) -> str:
    """The page a reader starts on: where the root ``index.html`` sends the reader (Jupyter
    Book's root page only redirects to the first chapter), else that page itself."""
    try:
        html = (site / "index.html").read_text(encoding="utf-8")
    except OSError:
        return "index.html"
    found = re.search(r'http-equiv="Refresh" content="0; url=([^"]+)"', html, re.IGNORECASE)
    return found.group(1) if found else "index.html"


def manifest(name: str, short_name: str, description: str, start: str) -> dict:
    """The web app manifest: name, start page, icons (paths relative to the site's root)."""
    return {
        "name": name, "short_name": short_name, "description": description,
        "start_url": "./" + start, "scope": "./", "display": "standalone",
        "background_color": "#ffffff", "theme_color": THEME_COLOR,
        "icons": [
            {"src": "_static/cj-icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": "_static/cj-icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": "_static/cj-icon-maskable-512.png", "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
        ],
    }


def folder_digest(folder: Path) -> str:
    """A short digest of every file's path and bytes under ``folder`` ("none" if absent)."""
    if not folder.is_dir():
        return "none"
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def workbox(cache: Path) -> Path:
    """The folder where ``npm ci`` installed ``book/_offline``'s lock (once per lock)."""
    npm_dir = cache / "npm"
    lock = OFFLINE / "package-lock.json"
    want = hashlib.sha256(lock.read_bytes()).hexdigest()
    stamp = npm_dir / ".lock-sha256"
    if not (stamp.is_file() and stamp.read_text() == want and (npm_dir / "node_modules" / "workbox-build").is_dir()):
        npm_dir.mkdir(parents=True, exist_ok=True)
        shutil.copy2(OFFLINE / "package.json", npm_dir / "package.json")
        shutil.copy2(lock, npm_dir / "package-lock.json")
        _run(["npm", "ci", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund",
              "--cache", str(cache / "npm-cache")], npm_dir)
        stamp.write_text(want)
    shutil.copy2(OFFLINE / "build_sw.mjs", npm_dir / "build_sw.mjs")
    return npm_dir


def _run(cmd: list[str], cwd: Path) -> str:
    try:
        done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600)
    except FileNotFoundError as exc:
        raise OfflineBuildError(f"{cmd[0]} is not installed ({exc}); see README.md, The two commands") from exc
    if done.returncode != 0:
        raise OfflineBuildError(f"`{' '.join(cmd[:2])}` failed: {done.stderr[-2000:]}")
    return done.stdout


def build_offline(site: Path, cache: Path, name: str = BOOK_NAME, short_name: str = "Calijack",
                  description: str = "Learn and play California Jack, the card game for two.") -> dict:
    """Write the manifest, Workbox's window library and the service worker into ``site``;
    returns Workbox's summary (files precached, bytes) and the live runtime's cache name."""
    site, npm_dir = site.resolve(), workbox(cache.resolve())
    (site / MANIFEST).write_text(json.dumps(manifest(name, short_name, description, start_page(site)), indent=1),
                                 encoding="utf-8")
    static = site / "_static"
    static.mkdir(exist_ok=True)
    # Without its sourceMappingURL comment: the site ships no source maps (site_trim.py). And
    # with no AMD `define` in sight: the offline script loads it when the page is idle, when
    # the widgets' RequireJS may be there, which refuses an anonymous module from a plain script
    # tag ("Mismatched anonymous define()"); so it always takes the global `workbox`.
    library = (npm_dir / "node_modules" / "workbox-window" / "build" / WORKBOX_WINDOW).read_bytes()
    library = library[:-1000] + MAP_COMMENT.sub(b"\n", library[-1000:])
    (static / WORKBOX_WINDOW).write_bytes(b"(function (define) {\n" + library.rstrip() + b"\n}).call(this);\n")
    live_cache = "calijack-live-" + folder_digest(site / "lite")
    try:
        python_cache = json.loads((site / "lite" / "lessons.json").read_text(encoding="utf-8"))["python_cache"]
    except (OSError, ValueError, KeyError):
        python_cache = "calijack-python-none"
    extra = (OFFLINE / "sw-extra.js").read_text(encoding="utf-8")
    for marker, value in (("__LIVE_CACHE__", live_cache), ("__PYTHON_CACHE__", python_cache)):
        if marker not in extra:
            raise OfflineBuildError(f"book/_offline/sw-extra.js has no {marker}")
        extra = extra.replace(marker, value)
    (site / EXTRA).write_text(extra, encoding="utf-8")
    config = npm_dir / "config.json"
    config.write_text(json.dumps({"site": str(site.resolve()), "live_cache": live_cache, "extra_script": EXTRA}))
    summary = json.loads(_run(["node", "build_sw.mjs", str(config)], npm_dir).strip().splitlines()[-1])
    return {**summary, "live_cache": live_cache}


def _build_finished(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    try:
        summary = build_offline(Path(app.outdir), Path(app.confdir) / "_build" / "offline-cache")
    except OfflineBuildError as exc:
        LOGGER.warning("the book's service worker was not made: %s", exc, type="calijack", subtype="offline")
        return
    for warning in summary["warnings"]:
        LOGGER.warning("Workbox: %s", warning, type="calijack", subtype="offline")
    LOGGER.info("service worker: %d files precached (%.1f MB); live runtime kept as %s",
                summary["count"], summary["size"] / 1e6, summary["live_cache"])


def setup(app: Sphinx) -> dict:
    """Register the extension."""
    app.setup_extension("calijack_idle")
    app.connect("config-inited", _add_static)
    app.connect("html-page-context", _page)
    # After calijack_live's copy of the live site and calijack_speed's trims (priority 900).
    app.connect("build-finished", _build_finished, priority=950)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
