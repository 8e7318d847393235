"""``make serve``'s command, whole: the book compressed beside Voilà's lessons, and Ctrl-C stops both.

The lessons themselves are tested in the browser (tests/browser/test_classroom.py); here the
command runs over a two-file book and an empty lessons folder, with no kernel pre-heated.
"""

from __future__ import annotations

import brotli
import re
import signal
import subprocess
import sys
import time
import urllib.request

from calijack.serve import free_port
from calijack.serve.static import precompress

PAGE = "<!DOCTYPE html><title>Book</title>" + "<p>California Jack</p>" * 100


def test_make_serve_serves_the_book_compressed_and_stops_on_ctrl_c(tmp_path):
    book, lessons = tmp_path / "book", tmp_path / "lessons"
    book.mkdir()
    lessons.mkdir()
    (book / "index.html").write_text(PAGE, encoding="utf-8")
    precompress(book)
    book_port, voila_port = free_port(), free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "calijack.serve", "--book", str(book), "--notebooks", str(lessons),
         "--book-port", str(book_port), "--voila-port", str(voila_port),
         "--pool-size", "0", "--sandbox-pool", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        said = []
        deadline = time.monotonic() + 180
        while not any("Press Ctrl-C" in line for line in said):
            assert time.monotonic() < deadline and proc.poll() is None, "".join(said)
            said.append(proc.stdout.readline())
        text = "".join(said)
        assert f"The book:     http://127.0.0.1:{book_port}/" in text
        assert re.search(rf"The lessons:  http://127\.0\.0\.1:{voila_port}/\n", text), text
        request = urllib.request.Request(f"http://127.0.0.1:{book_port}/",
                                         headers={"Accept-Encoding": "gzip, br"})
        with urllib.request.urlopen(request, timeout=30) as resp:
            assert resp.headers["Content-Encoding"] == "br"
            assert brotli.decompress(resp.read()).decode() == PAGE
        with urllib.request.urlopen(f"http://127.0.0.1:{voila_port}/voila/static/voila.js",
                                    timeout=30) as resp:
            assert resp.status == 200
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 0, proc.stdout.read()
    finally:
        proc.kill()
        proc.wait()
