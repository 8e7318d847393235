"""Serve a folder on 127.0.0.1 the way a real static host does: compressed, typed, cached.

    python -m calijack.serve.static _build/html --port 8000

The built book (and the live in-browser book beside it) are static files. Python's
``http.server`` sends them uncompressed, with whatever MIME types the machine's
``/etc/mime.types`` happens to know and no cache headers, so a page there weighs three
times what it weighs on any real host. Here `WhiteNoise <https://whitenoise.readthedocs.io>`_
serves them as a host does, under the `waitress <https://docs.pylonsproject.org/projects/waitress/>`_
WSGI server (pure Python, a pool of threads: JupyterLite asks for dozens of files at once):

- **Compression, done once when the book is built.** :func:`precompress` (the book build
  calls it) writes ``NAME.br`` and ``NAME.gz`` beside each file worth compressing (text,
  JavaScript, JSON, SVG, WebAssembly, …), with WhiteNoise's own compressor. The server sends
  the smallest the browser accepts, Brotli before gzip before the file itself, with
  ``Vary: Accept-Encoding``. A twin older than its file is ignored; a folder that was never
  precompressed is sent as it is.
- **MIME types** from WhiteNoise's table, whatever the machine knows: among them
  ``.wasm`` → ``application/wasm`` and ``.mjs`` → ``text/javascript`` (Pyodide hangs
  without them), and ``charset=utf-8`` on text.
- **Cache headers.** A versioned URL (a ``?v=``/``?digest=`` query, as Sphinx and the theme
  write, JupyterLite's ``?_=``, or a content hash in the file name) is ``immutable`` for a
  year; everything else is ``no-cache`` and revalidated with ``ETag``/``Last-Modified``
  (answered by 304). Byte ranges are answered (206).
- Folders serve their ``index.html`` (``folder/index.html`` too, its query kept: the live
  book opens ``lite/play/index.html?code=…``); there are no folder listings, dot-files are
  not served, and nothing outside the folder is reachable (WhiteNoise serves only the files
  it found there).

The folder is read once, when the server starts: after a rebuild, start it again.
:func:`make_app`, :func:`make_server` and :func:`serving` are the API; ``calijack.serve``
(``make serve``), the tests and the benchmarks use them.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import logging
import os
import re
import shutil
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import parse_qs

import waitress
from waitress import wasyncore
from whitenoise import WhiteNoise
from whitenoise.base import scantree
from whitenoise.compress import Compressor

HOST = "127.0.0.1"
# Worker threads: a cold "Play live" asks for about a hundred files, a few at a time per
# connection; the files themselves are sent by waitress's main loop, not by these threads.
THREADS = 8

# Types WhiteNoise's table lacks that the book has (the rest: .wasm, .mjs, .woff2, .svg, …).
EXTRA_TYPES = {
    ".ipynb": "application/json",
    ".map": "application/json",
    ".md": "text/markdown",
    ".py": "text/x-python",
    ".whl": "application/zip",
    ".inv": "application/octet-stream",
}
# Text that is not text/*: it gets charset=utf-8 too (WhiteNoise adds it to text/* only).
UTF8_TYPES = {"application/json", "application/xml", "image/svg+xml"}
# Not worth compressing: WhiteNoise's list (images, fonts, compressed archives, video), less
# ``zip``: the live site's wheels and standard library zip are stored archives, which Brotli
# makes a third smaller than deflating their files one by one (lite/start_split.py). A zip that
# is deflated already gets no twin: the compressor keeps one only where it saves 5 % or more.
SKIP_COMPRESS = tuple(ext for ext in Compressor.SKIP_COMPRESS_EXTENSIONS if ext != "zip")

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
TWINS = (".br", ".gz")


def _versioned(query: str) -> bool:
    return bool(VERSION_PARAMS & parse_qs(query).keys())


def cache_control(url_path: str, query: str) -> str:
    """``immutable`` for a versioned URL (``?v=``, ``?digest=``, hashed name), else ``no-cache``."""
    if _versioned(query) or HASHED_NAME.search(url_path.rsplit("/", 1)[-1]):
        return IMMUTABLE
    return REVALIDATE


def _headers(headers, path: str, url: str) -> None:
    """WhiteNoise's per-file hook: charset on all text, the cache rule, no sniffing."""
    ctype = headers["Content-Type"].split(";")[0]
    if ctype.startswith("text/") or ctype in UTF8_TYPES:
        headers["Content-Type"] = f"{ctype}; charset=utf-8"
    headers["Cache-Control"] = cache_control(url, "")
    headers["X-Content-Type-Options"] = "nosniff"


class _Site(WhiteNoise):
    """WhiteNoise over one folder, read once: dot-files and stale twins left out, and
    ``folder/index.html`` served under its own name as well as ``folder/``."""

    def update_files_dictionary(self, root: str, prefix: str) -> None:
        found = dict(scantree(root))
        for path, stat in list(found.items()):
            name = path[len(root):]
            # Dot-files (Sphinx's .buildinfo, …) are not part of the site.
            if any(part.startswith(".") for part in name.split(os.sep)):
                del found[path]
            # A twin older than its file was written before the file changed. (Floats: the
            # compressor gives a twin its file's time as a float, exact only to a float.)
            elif path[-3:] in TWINS and path[:-3] in found and stat.st_mtime < found[path[:-3]].st_mtime:
                del found[path]
        for path in found:
            self.add_file_to_dictionary(prefix + path[len(root):].replace(os.sep, "/"), path,
                                        stat_cache=found)

    def add_file_to_dictionary(self, url: str, path: str, stat_cache=None) -> None:
        super().add_file_to_dictionary(url, path, stat_cache=stat_cache)
        # WhiteNoise redirects "folder/index.html" to "folder/", which drops the query.
        if url.endswith("/" + self.index_file) and url[:-len(self.index_file)] in self.files:
            self.files[url] = self.files[url[:-len(self.index_file)]]


def _not_found(environ, start_response) -> Iterable[bytes]:
    body = b"<!DOCTYPE html><title>Not found</title><p>Not found.</p>\n"
    start_response("404 Not Found", [("Content-Type", "text/html; charset=utf-8"),
                                     ("Content-Length", str(len(body))),
                                     ("Cache-Control", REVALIDATE)])
    return [body]


def make_app(root: str | os.PathLike, *, log: bool = False) -> Callable:
    """The WSGI application serving ``root`` (see the module docstring); ``log``: one line
    per request on standard output."""
    site = _Site(_not_found, root=str(Path(root).resolve()), index_file=True, max_age=None,
                 allow_all_origins=False, mimetypes=EXTRA_TYPES, add_headers_function=_headers)

    def app(environ, start_response):
        query = environ.get("QUERY_STRING", "")

        def respond(status, headers, exc_info=None):
            if query:  # WhiteNoise decides by the path alone
                headers = [_with_query(name, value, status, query) for name, value in headers]
            if log:
                print(f'{environ["REQUEST_METHOD"]} {environ.get("PATH_INFO", "")} {status[:3]}',
                      flush=True)
            return start_response(status, headers, exc_info)

        return site(environ, respond)

    return app


def _with_query(name: str, value: str, status: str, query: str) -> tuple[str, str]:
    """A header of a response to a URL with ``query``: a versioned URL is immutable, and a
    redirect (a folder without its slash) keeps the query."""
    if name == "Cache-Control" and status[:3] in {"200", "206", "304"}:
        return name, IMMUTABLE if _versioned(query) else value
    if name == "Location" and status[:3] == "302":
        return name, f"{value}?{query}"
    return name, value


def make_server(app: Callable, port: int = 0, host: str = HOST):
    """A waitress server for the WSGI ``app`` on ``host:port`` (0: a free port), not started:
    ``server.run()`` serves, ``server.effective_port`` is the port. Raises ``OSError`` if the
    port is taken."""
    # "Task queue depth is N" is how waitress says a page asked for many files at once:
    # the normal case for JupyterLite, not something to print.
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    return waitress.create_server(app, host=host, port=port, threads=THREADS, ident="calijack",
                                  map={})


def stop(server, thread: threading.Thread) -> None:
    """Stop a server that ``thread`` runs: its worker threads end their requests, then its
    own loop closes every socket (the listener and the open connections) and ends."""
    server.task_dispatcher.shutdown(timeout=5)
    try:
        server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))
    except OSError:  # the wake-up pipe is gone (seen once: EBADF): close the sockets from here
        wasyncore.close_all(server._map)
    thread.join(timeout=10)


@contextlib.contextmanager
def running(app: Callable, port: int = 0, host: str = HOST) -> Iterator[str]:
    """Serve the WSGI ``app`` in a background thread; yields the root URL (ending in "/")."""
    server = make_server(app, port, host)
    thread = threading.Thread(target=server.run, name=f"serve {host}:{server.effective_port}",
                              daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.effective_port}/"
    finally:
        stop(server, thread)


def serving(root: str | os.PathLike, port: int = 0, host: str = HOST) -> contextlib.AbstractContextManager[str]:
    """Serve the folder ``root`` in a background thread; yields the root URL (ending in "/")."""
    return running(make_app(root), port, host)


def precompress(root: str | os.PathLike, *, cache: str | os.PathLike | None = None,
                quiet: bool = True) -> int:
    """Write ``NAME.br`` and ``NAME.gz`` beside each file of ``root`` worth compressing, where
    they save 5 % or more (WhiteNoise's compressor: Brotli at its best, gzip at 9). A file
    with a twin as new as itself is left alone (the twins get their file's time).

    ``cache``, a folder (one for each ``root``), keeps the twins by their file's content, so
    a file written again with the same bytes (the live site, which every book build copies in
    anew) takes them from there; Brotli's best is slow (about 70 s of processor time for the
    whole site). Entries no file of ``root`` has any more are dropped, and so are the twins
    it wrote last time whose file is gone. Returns the number of files compressed."""
    compressor = Compressor(extensions=SKIP_COMPRESS, quiet=quiet)
    files = []
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [name for name in subfolders if not name.startswith(".")]
        # Dot-files are not served; twins (.br, .gz) are among the names skipped.
        files += [os.path.join(folder, name) for name in names
                  if not name.startswith(".") and compressor.should_compress(name)]
    # Largest first: Brotli's best takes the best part of a minute on the live site's
    # interpreter (9.6 MB) alone; begun last, it would finish alone long after the rest.
    todo = sorted((path for path in files if not _fresh_twin(path)), key=os.path.getsize, reverse=True)
    if cache is None:
        _in_parallel(compressor.compress, todo)
        return len(todo)
    cache = Path(cache)
    cache.mkdir(parents=True, exist_ok=True)
    # The twins the last run left beside root's files: those whose file is gone since (a state
    # file an incremental build dropped) go too, or they would pile up in the site.
    manifest = cache / "twins.txt"
    if manifest.is_file():
        for name in manifest.read_text(encoding="utf-8").splitlines():
            twin = os.path.join(root, name)
            if os.path.isfile(twin) and not os.path.exists(twin[:-3]):
                os.unlink(twin)
    key = {path: hashlib.sha256(Path(path).read_bytes()).hexdigest() for path in files}
    new = {key[path]: path for path in todo if not (cache / key[path]).is_dir()}
    _in_parallel(compressor.compress, new.values())
    for digest, path in new.items():
        entry = cache / f"{digest}.partial"  # an entry appears whole, or not at all
        entry.mkdir(exist_ok=True)
        for twin in TWINS:
            if os.path.isfile(path + twin):
                shutil.copyfile(path + twin, entry / twin)
        entry.rename(cache / digest)
    for path in todo:
        if new.get(key[path]) != path:
            for twin in (cache / key[path]).iterdir():
                shutil.copyfile(twin, path + twin.name)
                stat = os.stat(path)
                os.utime(path + twin.name, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    kept = set(key.values())
    for entry in cache.iterdir():
        if entry.is_dir() and entry.name not in kept:
            shutil.rmtree(entry)
    manifest.write_text("".join(os.path.relpath(path + twin, root) + "\n" for path in files
                                for twin in TWINS if os.path.isfile(path + twin)), encoding="utf-8")
    return len(new)


def _fresh_twin(path: str) -> bool:
    mtime = os.stat(path).st_mtime
    return any(os.path.isfile(path + twin) and os.stat(path + twin).st_mtime >= mtime
               for twin in TWINS)


def _in_parallel(work: Callable, items: Iterable) -> None:
    with ThreadPoolExecutor(max_workers=os.cpu_count()) as pool:
        list(pool.map(work, items))  # list(): raise the first error


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m calijack.serve.static FOLDER [--port N]``: serve until Ctrl-C;
    ``--precompress`` writes the compressed twins first."""
    parser = argparse.ArgumentParser(
        prog="python -m calijack.serve.static",
        description="Serve a folder on 127.0.0.1 with compression, MIME types and cache headers.",
    )
    parser.add_argument("folder", type=Path)
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--precompress", action="store_true",
                        help="write NAME.br and NAME.gz beside the files first (the book build does)")
    parser.add_argument("--log", action="store_true", help="print one line per request")
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        print(f"calijack.serve.static: {args.folder} is not a folder", file=sys.stderr)
        return 2
    if args.precompress:
        print(f"Compressed {precompress(args.folder)} files", flush=True)
    try:
        server = make_server(make_app(args.folder, log=args.log), args.port)
    except OSError as exc:
        print(f"calijack.serve.static: cannot listen on {HOST}:{args.port}: {exc.strerror}",
              file=sys.stderr)
        return 1
    print(f"Serving {args.folder.resolve()} on http://{HOST}:{server.effective_port}/ "
          "(Ctrl-C stops)", flush=True)
    server.run()  # returns on Ctrl-C, once waitress has closed its sockets
    return 0


if __name__ == "__main__":
    sys.exit(main())
