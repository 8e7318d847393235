"""Phone networks for ``bench/live.py``, and the table of what a cold "Play live" downloads.

- :func:`emulate`: Chromium's own network emulation (CDP ``Network.emulateNetworkConditions``
  after ``Network.enable``) on the page, which also holds for the frames and workers it
  starts (checked: a worker's fetch of the 1.9 MB standard library takes 9.8 s on "Slow 4G"),
  and, on request, the browser's cache switched off (``Network.setCacheDisabled``). The
  networks are DevTools' and Lighthouse's:

  - ``fast4g``: 9 Mbit/s down, 1.5 Mbit/s up, 60 ms latency ("Fast 4G");
  - ``slow4g``: 1.6 Mbit/s down, 0.75 Mbit/s up, 150 ms latency ("Slow 4G", Lighthouse's
    mobile preset);
  - ``none``: no emulation (127.0.0.1 as it is).

- :class:`SentLog` and :func:`file_table`: every response the server sent during a start,
  counted at the server (a page and the book's service worker both fetch; the browser's own
  tally misses the worker's), with the file's own size, the bytes sent (and their
  ``Content-Encoding``: ``make serve`` sends the Brotli twins), and what needs the file: for
  the Python archives, the chain of imports that first took a module from it, as the build
  recorded it (``lite/pyc_in_pyodide.py``: ``_build/lite-cache/start-report.json``).
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[1]
START_REPORT = ROOT / "_build" / "lite-cache" / "start-report.json"
# Name: (download Mbit/s, upload Mbit/s, latency ms); None: no emulation.
NETWORKS = {"none": None, "fast4g": (9.0, 1.5, 60), "slow4g": (1.6, 0.75, 150)}
# What needs a file of the live site, by where it is (the first that matches).
NEEDED_BY = (
    ("lite/static/pyodide/pyodide.asm.", "Python itself (the WebAssembly interpreter and its loader)"),
    ("lite/static/pyodide/pyodide.mjs", "Pyodide's loader"),
    ("lite/static/pyodide/pyodide-lock.json", "Pyodide: the list of packages to load"),
    ("lite/static/calijack/rest/", "a module the start does not import (fetched on demand)"),
    ("lite/static/calijack/", "the live worker, its kept Python and runner (lite/kernel), anywidget's front end"),
    ("lite/play/", "the live lesson's page (lite/play/)"),
    ("lite/lessons.json", "Play live: the lessons' code, the runtime's sizes"),
    ("_static/", "the book's widget manager (its demos use it too)"),
    ("lite/", "the live site"),
)


def emulate(context, page, network: str, cache_disabled: bool = False):
    """Emulate ``network`` (a key of :data:`NETWORKS`) for ``page``; returns the CDP session
    (keep it: the emulation lasts as long as the session)."""
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    if cache_disabled:
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    conditions = NETWORKS[network]
    if conditions:
        down, up, latency = conditions
        cdp.send("Network.emulateNetworkConditions", {
            "offline": False, "latency": latency,
            "downloadThroughput": down * 1e6 / 8, "uploadThroughput": up * 1e6 / 8})
    return cdp


def needed_by(path: str, report: dict) -> str:
    """What needs the site's file ``path`` (relative to the book's root)."""
    name = path.rsplit("/", 1)[-1]
    if name == "python_stdlib.zip":
        return f"Python's standard library, cut to what the start imports ({report.get('modules', '?')} modules in all)"
    if path.startswith("lite/static/pyodide/") and name.endswith(".whl"):
        for archive, chain in report.get("needed_by", {}).items():
            if archive.split("-")[0].lower() == name.split("-")[0].lower() or archive == name:
                return "import " + chain
        return "loaded with Python (a dependency of the lessons' packages)"
    return next((label for prefix, label in NEEDED_BY if path.startswith(prefix)), "the book's page")


class SentLog:
    """What a WSGI app sends: ``(path, body bytes, Content-Encoding)`` per response; and, once
    :meth:`pace` names a network, every response sent at that network's pace.

    Why the server paces, and not Chromium's emulation alone: a page that the book's service
    worker controls fetches through the worker, and the worker's own fetches are not slowed by
    the page's ``Network.emulateNetworkConditions`` (a cold "Play live" on "Slow 4G" took 4.5 s
    for 8 MB, which 1.6 Mbit/s cannot carry). So the link is modelled here, where every byte
    passes: each response waits the network's latency before its first byte, and all of them
    share one downlink of the network's speed, first come first served, in 16 KB pieces.
    """

    PIECE = 16 * 1024

    def __init__(self) -> None:
        self._rows: list[tuple[str, int, str]] = []
        self._lock = threading.Lock()
        self._link: tuple[float, float] | None = None  # (bytes a second, latency in seconds)
        self._free_at = 0.0                             # when the shared downlink is next free

    def pace(self, network: str) -> None:
        """Send at the pace of ``network`` (a key of :data:`NETWORKS`; ``"none"``: at once)."""
        conditions = NETWORKS[network]
        self._link = None if conditions is None else (conditions[0] * 1e6 / 8, conditions[2] / 1000)

    def _send(self, size: int, rate: float) -> None:
        """Wait until ``size`` bytes have gone down the shared link, after what is queued on it."""
        with self._lock:
            now = time.monotonic()
            done = self._free_at = max(now, self._free_at) + size / rate
        time.sleep(done - now)

    def wrap(self, app):
        """``app``, each response's body counted as it goes out."""
        def counted(environ, start_response):
            encoding = []

            def note(status, headers, exc_info=None):
                encoding.extend(v for k, v in headers if k.lower() == "content-encoding")
                return start_response(status, headers, exc_info)

            body = app(environ, note)
            size, link = 0, self._link
            try:
                if link:
                    time.sleep(link[1])
                for chunk in body:
                    size += len(chunk)
                    if not link:
                        yield chunk
                        continue
                    for at in range(0, len(chunk), self.PIECE):
                        piece = chunk[at:at + self.PIECE]
                        self._send(len(piece), link[0])
                        yield piece
            finally:
                if hasattr(body, "close"):
                    body.close()
                with self._lock:
                    self._rows.append((environ.get("PATH_INFO", ""), size, "".join(encoding)))
        return counted

    def clear(self) -> None:
        with self._lock:
            self._rows.clear()

    def taken(self) -> list[tuple[str, int, str]]:
        with self._lock:
            return list(self._rows)


def file_table(sent: list[tuple[str, int, str]], book: Path) -> list[dict]:
    """One row per file the server sent (a file sent twice counts twice): path, bytes on disk,
    bytes sent, encoding, what needs it."""
    report = json.loads(START_REPORT.read_text()) if START_REPORT.is_file() else {}
    rows: dict[str, dict] = {}
    for path_info, size, encoding in sent:
        if size <= 0:  # 304 Not Modified: nothing but headers
            continue
        path = unquote(path_info).lstrip("/")
        file = book / path
        row = rows.setdefault(path, {"path": path, "bytes": 0, "sent": 0, "encoding": encoding,
                                     "needed_by": needed_by(path, report)})
        row["bytes"] += file.stat().st_size if file.is_file() else 0
        row["sent"] += size
    return sorted(rows.values(), key=lambda row: -row["sent"])


def render_table(rows: list[dict], top: int = 40) -> list[str]:
    """The table as text: the largest ``top`` rows, then the rest summed by what needs them."""
    lines = [f"{'file':58} {'on disk':>9} {'sent':>9} enc   needed by"]
    for row in rows[:top]:
        lines.append(f"{row['path'][:58]:58} {row['bytes'] / 1e3:8.0f}K {row['sent'] / 1e3:8.0f}K "
                     f"{row['encoding'] or '-':5} {row['needed_by']}")
    rest: dict[str, list[int]] = {}
    for row in rows[top:]:
        total = rest.setdefault(row["needed_by"], [0, 0, 0])
        total[0] += 1
        total[1] += row["bytes"]
        total[2] += row["sent"]
    for label, (count, raw, sent) in sorted(rest.items(), key=lambda item: -item[1][2]):
        lines.append(f"{'(' + str(count) + ' more files)':58} {raw / 1e3:8.0f}K {sent / 1e3:8.0f}K       {label}")
    lines.append(f"{'total: ' + str(len(rows)) + ' files':58} {sum(r['bytes'] for r in rows) / 1e6:7.2f}MB "
                 f"{sum(r['sent'] for r in rows) / 1e6:7.2f}MB")
    return lines
