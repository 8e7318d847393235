"""calijack.static_server: what a real static host sends (compression, types, cache headers)."""

from __future__ import annotations

import gzip
import http.client
import os
from urllib.parse import urlsplit

import pytest

from calijack.static_server import IMMUTABLE, REVALIDATE, cache_control, content_type, serving

TEXT = "<!DOCTYPE html><title>x</title>" + "<p>California Jack</p>" * 200


@pytest.fixture
def site(tmp_path):
    """A small site: pages, scripts, a wasm file, a hashed font, a precompressed twin."""
    (tmp_path / "index.html").write_text(TEXT, encoding="utf-8")
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "index.html").write_text(TEXT, encoding="utf-8")
    (tmp_path / "_static").mkdir()
    (tmp_path / "_static" / "app.js").write_text("console.log(1);\n" * 100)
    (tmp_path / "_static" / "mod.mjs").write_text("export const x = 1;\n" * 100)
    (tmp_path / "_static" / "tiny.js").write_text("1;")
    (tmp_path / "_static" / "py.asm.wasm").write_bytes(b"\0asm" + b"\1" * 4000)
    (tmp_path / "_static" / "1551f4f60c37af51121f.woff2").write_bytes(b"wOF2" * 100)
    big = tmp_path / "_static" / "big.css"
    big.write_text("body{color:red}\n" * 100)
    twin = tmp_path / "_static" / "big.css.gz"
    twin.write_bytes(gzip.compress(b"/* from the twin */"))
    os.utime(twin, ns=(big.stat().st_mtime_ns + 10**9,) * 2)
    (tmp_path / ".buildinfo").write_text("secret-ish")
    with serving(tmp_path) as url:
        yield url


def fetch(url: str, path: str, method: str = "GET", **headers):
    """(status, headers dict with lower-case keys, body bytes) of one request."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.request(method, path, headers=headers)
        resp = conn.getresponse()
        body = resp.read()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, body
    finally:
        conn.close()


def test_text_is_gzipped_for_clients_that_accept_it(site):
    status, headers, body = fetch(site, "/book/index.html", **{"Accept-Encoding": "gzip, br"})
    assert status == 200
    assert headers["content-encoding"] == "gzip"
    assert headers["vary"] == "Accept-Encoding"
    assert int(headers["content-length"]) == len(body) < len(TEXT) / 5
    assert gzip.decompress(body).decode() == TEXT


def test_identity_without_accept_encoding_and_for_tiny_files(site):
    status, headers, body = fetch(site, "/book/index.html")
    assert status == 200 and "content-encoding" not in headers
    assert body.decode() == TEXT
    _, headers, body = fetch(site, "/_static/tiny.js", **{"Accept-Encoding": "gzip"})
    assert "content-encoding" not in headers and body == b"1;"


def test_precompressed_twin_is_sent_when_fresh(site):
    _, headers, body = fetch(site, "/_static/big.css", **{"Accept-Encoding": "gzip"})
    assert headers["content-encoding"] == "gzip"
    assert gzip.decompress(body) == b"/* from the twin */"


@pytest.mark.parametrize(("path", "ctype"), [
    ("/_static/py.asm.wasm", "application/wasm"),
    ("/_static/mod.mjs", "text/javascript; charset=utf-8"),
    ("/_static/app.js", "text/javascript; charset=utf-8"),
    ("/_static/1551f4f60c37af51121f.woff2", "font/woff2"),
    ("/book/", "text/html; charset=utf-8"),
])
def test_mime_types(site, path, ctype):
    status, headers, _ = fetch(site, path)
    assert status == 200 and headers["content-type"] == ctype


def test_wasm_is_compressed_and_fonts_are_not(site):
    _, headers, _ = fetch(site, "/_static/py.asm.wasm", **{"Accept-Encoding": "gzip"})
    assert headers["content-encoding"] == "gzip"
    _, headers, _ = fetch(site, "/_static/1551f4f60c37af51121f.woff2", **{"Accept-Encoding": "gzip"})
    assert "content-encoding" not in headers


@pytest.mark.parametrize(("path", "query", "want"), [
    ("/_static/app.js", "v=3ab1b5fa", IMMUTABLE),
    ("/_static/styles/theme.css", "digest=55c26ed414f5f8a31ebb", IMMUTABLE),
    ("/_static/1551f4f60c37af51121f.woff2", "", IMMUTABLE),
    ("/_static/mystnb.11b39860a7a0cbfd473a3ad8a317855267ff0bd372690045ca344a6b62be495e.css", "",
     IMMUTABLE),
    ("/lite/build/8068.e565cfb.js", "", IMMUTABLE),
    ("/lite/build/jlab_core.a86436d.js", "", IMMUTABLE),
    ("/lite/build/repl/bundle.js", "_=428cebd", IMMUTABLE),
    ("/lite/build/app.2024123.js", "", REVALIDATE),
    ("/lite/static/pyodide/pyodide.asm.wasm", "", REVALIDATE),
    ("/_static/app.js", "", REVALIDATE),
    ("/book/03_legal_play.html", "", REVALIDATE),
    ("/_static/pyodide.asm.wasm", "x=1", REVALIDATE),
])
def test_cache_control_rule(path, query, want):
    assert cache_control(path, query) == want


def test_cache_headers_and_revalidation(site):
    _, headers, _ = fetch(site, "/_static/app.js?v=abc123")
    assert headers["cache-control"] == IMMUTABLE
    status, headers, _ = fetch(site, "/book/index.html", **{"Accept-Encoding": "gzip"})
    assert headers["cache-control"] == REVALIDATE
    etag = headers["etag"]
    status, again, body = fetch(site, "/book/index.html",
                                **{"Accept-Encoding": "gzip", "If-None-Match": etag})
    assert status == 304 and body == b"" and again["etag"] == etag
    status, _, _ = fetch(site, "/book/index.html", **{"If-Modified-Since": headers["last-modified"]})
    assert status == 304
    status, _, _ = fetch(site, "/book/index.html", **{"If-None-Match": '"other"'})
    assert status == 200


def test_head_sends_headers_only(site):
    status, headers, body = fetch(site, "/book/index.html", "HEAD", **{"Accept-Encoding": "gzip"})
    assert status == 200 and body == b"" and int(headers["content-length"]) > 0


def test_folders_redirect_and_never_list(site):
    status, headers, _ = fetch(site, "/book?x=1")
    assert status == 301 and headers["location"] == "/book/?x=1"
    status, _, _ = fetch(site, "/_static/")
    assert status == 404


@pytest.mark.parametrize("path", ["/missing.html", "/.buildinfo", "/../../etc/passwd",
                                  "/_static/%2e%2e/%2e%2e/etc/passwd"])
def test_not_found_and_nothing_outside(site, path):
    status, _, body = fetch(site, path)
    assert status == 404, body[:200]


def test_content_type_defaults():
    assert content_type("x.unknown") == "application/octet-stream"
    assert content_type("X.HTML") == "text/html; charset=utf-8"
