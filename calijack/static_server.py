"""Serve a folder on 127.0.0.1 the way a real static host does: compressed, typed, cached.

    python -m calijack.static_server _build/html --port 8000

The built book (and the live in-browser book beside it) are static files. Python's
``http.server`` sends them uncompressed, with whatever MIME types the machine's
``/etc/mime.types`` happens to know and no cache headers, so a page there weighs three
times what it weighs on any real host. This server adds what a host adds:

- **Compression.** Text-like files (HTML, CSS, JavaScript, JSON, SVG, WebAssembly, …) are
  sent gzip-encoded to clients that accept it: from a precompressed ``NAME.gz`` beside the
  file when one is there and not older than it, otherwise compressed once and kept in a
  bounded in-memory cache. ``Vary: Accept-Encoding`` says so to caches.
- **MIME types** from a fixed table, whatever the machine knows: among them
  ``.wasm`` → ``application/wasm`` and ``.mjs`` → ``text/javascript`` (Pyodide hangs
  without them), and ``charset=utf-8`` on text.
- **Cache headers.** A versioned URL (a ``?v=``/``?digest=`` query, as Sphinx and the theme
  write, JupyterLite's ``?_=``, or a content hash in the file name) is ``immutable`` for a
  year; everything else is ``no-cache`` and revalidated with ``ETag``/``Last-Modified``
  (answered by 304).
- Folders serve their ``index.html``; there are no folder listings, and nothing outside the
  folder is reachable.

``make_server`` and ``serving`` are the API; ``calijack.serve`` (``make serve``) and the
tests use them.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import email.utils
import gzip
import http.server
import io
import os
import re
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

HOST = "127.0.0.1"

# Fixed, so that a machine without /etc/mime.types (or an old Python) serves the same types.
MIME_TYPES = {
    ".html": "text/html",
    ".htm": "text/html",
    ".css": "text/css",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".cjs": "text/javascript",
    ".json": "application/json",
    ".map": "application/json",
    ".ipynb": "application/json",
    ".txt": "text/plain",
    ".md": "text/markdown",
    ".py": "text/x-python",
    ".xml": "application/xml",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".ico": "image/x-icon",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
    ".eot": "application/vnd.ms-fontobject",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".tar": "application/x-tar",
    ".gz": "application/gzip",
    ".pdf": "application/pdf",
    ".inv": "application/octet-stream",
}
DEFAULT_TYPE = "application/octet-stream"
# Types worth compressing (fonts like woff2 and images are compressed already).
COMPRESSIBLE = {
    "text/html", "text/css", "text/javascript", "application/json", "text/plain",
    "text/markdown", "text/x-python", "application/xml", "image/svg+xml", "application/wasm",
    "font/ttf", "font/otf", "application/vnd.ms-fontobject", "application/x-tar",
    "application/octet-stream", "image/x-icon",
}
MIN_COMPRESS = 512  # bytes: below this the gzip header outweighs the gain
CACHE_BYTES = 192 * 2**20  # compressed bodies kept in memory, least recently used dropped

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
# JupyterLite's "?_=<build hash>" on its own bootstrap files counts as a version too.
VERSION_PARAMS = {"v", "digest", "_"}
# A content hash in a file name: webpack's "1551f4f60c37af51121f.woff2", myst-nb's
# "mystnb.<sha256>.css", and the short hash JupyterLite's bundler puts between the chunk's
# name and its extension ("8068.e565cfb.js", "jlab_core.a86436d.js"): 7 or more hex digits,
# at least one of them a letter, so a plain number ("app.2024.js") is not taken for one.
HASHED_NAME = re.compile(r"(?:^|[.\-_])[0-9a-f]{16,}(?=[.\-_])"
                         r"|\.(?=[0-9]*[a-f])[0-9a-f]{7,15}\.(?:js|css|wasm|woff2?)$")


def content_type(path: str | os.PathLike) -> str:
    """The Content-Type header for a file name (``charset=utf-8`` on text)."""
    ctype = MIME_TYPES.get(Path(path).suffix.lower(), DEFAULT_TYPE)
    if ctype.startswith("text/") or ctype in {"application/json", "image/svg+xml",
                                              "application/xml"}:
        return ctype + "; charset=utf-8"
    return ctype


def cache_control(url_path: str, query: str) -> str:
    """``immutable`` for a versioned URL (``?v=``, ``?digest=``, hashed name), else ``no-cache``."""
    if VERSION_PARAMS & parse_qs(query).keys():
        return IMMUTABLE
    if HASHED_NAME.search(url_path.rsplit("/", 1)[-1]):
        return IMMUTABLE
    return REVALIDATE


class _GzipCache:
    """Compressed bodies by (path, mtime, size), least recently used dropped past a byte budget."""

    def __init__(self, budget: int = CACHE_BYTES) -> None:
        self.budget = budget
        self.used = 0
        self.items: collections.OrderedDict[tuple, bytes] = collections.OrderedDict()
        self.lock = threading.Lock()

    def get(self, path: str, stat: os.stat_result) -> bytes:
        key = (path, stat.st_mtime_ns, stat.st_size)
        with self.lock:
            body = self.items.get(key)
            if body is not None:
                self.items.move_to_end(key)
                return body
        with open(path, "rb") as f:
            # mtime=0: the same file always gives the same bytes (and the same ETag).
            body = gzip.compress(f.read(), compresslevel=6, mtime=0)
        with self.lock:
            if key not in self.items and len(body) <= self.budget:
                self.items[key] = body
                self.used += len(body)
                while self.used > self.budget:
                    _, old = self.items.popitem(last=False)
                    self.used -= len(old)
        return body


class StaticHandler(http.server.SimpleHTTPRequestHandler):
    """GET/HEAD of one folder's files, compressed, typed and with cache headers."""

    protocol_version = "HTTP/1.1"  # keep-alive, as a real host
    gzip_cache = _GzipCache()
    quiet = True

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - stdlib signature
        if not self.quiet:
            super().log_message(format, *args)

    def send_head(self):  # noqa: C901 - one request's decisions, in order
        """Headers for the request; returns a readable body (or None when already answered)."""
        parts = urlsplit(self.path)
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            if not parts.path.endswith("/"):
                self.send_response(301)
                self.send_header("Location", parts._replace(path=parts.path + "/").geturl())
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            path = os.path.join(path, "index.html")
        # Dot-files (Sphinx's .buildinfo, …) are not part of the site.
        if not os.path.isfile(path) or os.path.basename(path).startswith("."):
            self.send_error(404, "File not found")
            return None
        stat = os.stat(path)
        ctype = content_type(path)
        encoding = None
        if (
            ctype.split(";")[0] in COMPRESSIBLE
            and stat.st_size >= MIN_COMPRESS
            and "gzip" in self.headers.get("Accept-Encoding", "").lower()
        ):
            encoding = "gzip"
        etag = f'"{stat.st_mtime_ns:x}-{stat.st_size:x}{"-gz" if encoding else ""}"'
        headers = {
            "Content-Type": ctype,
            "Cache-Control": cache_control(parts.path, parts.query),
            "ETag": etag,
            "Last-Modified": email.utils.formatdate(stat.st_mtime, usegmt=True),
            "X-Content-Type-Options": "nosniff",
        }
        if ctype.split(";")[0] in COMPRESSIBLE:
            headers["Vary"] = "Accept-Encoding"
        if self._not_modified(etag, stat.st_mtime):
            self.send_response(304)
            for key in ("Cache-Control", "ETag", "Vary"):
                if key in headers:
                    self.send_header(key, headers[key])
            self.end_headers()
            return None
        if encoding:
            twin = path + ".gz"
            if os.path.isfile(twin) and os.stat(twin).st_mtime_ns >= stat.st_mtime_ns:
                body = open(twin, "rb")  # noqa: SIM115 - closed by SimpleHTTPRequestHandler
                length = os.fstat(body.fileno()).st_size
            else:
                data = self.gzip_cache.get(path, stat)
                body = io.BytesIO(data)
                length = len(data)
            headers["Content-Encoding"] = "gzip"
        else:
            body = open(path, "rb")  # noqa: SIM115 - closed by SimpleHTTPRequestHandler
            length = stat.st_size
        self.send_response(200)
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(length))
        self.end_headers()
        return body

    def list_directory(self, path):
        """No folder listings (a published site does not have them)."""
        self.send_error(404, "File not found")
        return None

    def _not_modified(self, etag: str, mtime: float) -> bool:
        match = self.headers.get("If-None-Match")
        if match is not None:
            return etag in {tag.strip() for tag in match.split(",")} or match.strip() == "*"
        since = self.headers.get("If-Modified-Since")
        if since:
            with contextlib.suppress(TypeError, ValueError, IndexError, OverflowError):
                when = email.utils.parsedate_to_datetime(since)
                return int(mtime) <= when.timestamp()
        return False


def make_server(root: str | os.PathLike, port: int = 0, host: str = HOST, *,
                quiet: bool = True) -> http.server.ThreadingHTTPServer:
    """A threaded server for ``root`` on ``host:port`` (0: a free port); not started yet.

    Raises ``OSError`` if the port is taken.
    """
    folder = str(Path(root).resolve())
    handler = type("Handler", (StaticHandler,), {"quiet": quiet})

    def factory(*args, **kwargs):
        return handler(*args, directory=folder, **kwargs)

    server = http.server.ThreadingHTTPServer((host, port), factory)
    server.daemon_threads = True
    return server


@contextlib.contextmanager
def serving(root: str | os.PathLike, port: int = 0, host: str = HOST) -> Iterator[str]:
    """Serve ``root`` in a background thread; yields the root URL (ending in "/")."""
    server = make_server(root, port, host)
    thread = threading.Thread(target=server.serve_forever, name=f"serve {root}", daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m calijack.static_server FOLDER [--port N]``: serve until Ctrl-C."""
    parser = argparse.ArgumentParser(
        prog="python -m calijack.static_server",
        description="Serve a folder on 127.0.0.1 with gzip, MIME types and cache headers.",
    )
    parser.add_argument("folder", type=Path)
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--log", action="store_true", help="print one line per request")
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        print(f"calijack.static_server: {args.folder} is not a folder", file=sys.stderr)
        return 2
    try:
        server = make_server(args.folder, args.port, quiet=not args.log)
    except OSError as exc:
        print(f"calijack.static_server: cannot listen on {HOST}:{args.port}: {exc.strerror}",
              file=sys.stderr)
        return 1
    print(f"Serving {args.folder.resolve()} on http://{HOST}:{server.server_address[1]}/ "
          "(Ctrl-C stops)", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
