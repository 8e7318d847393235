"""The licences: calijack's own (``LICENSE``, ``pyproject.toml``), and every other project's
file that the repository or the built site ships, listed in ``THIRD_PARTY.md``.

The rule for "a vendored file of the repository" (:func:`vendored_files`): a tracked file
that lies in a folder copied whole from another project (``VENDORED_FOLDERS``), or that
looks like someone else's file: a font, a licence file, or a text file (not our Python or
Markdown) whose head carries a licence banner (``@license``, ``/*!``, "Released under",
"Licensed under", an SPDX tag). Each one must match a row of THIRD_PARTY.md's repository
table. For the built site (``built_book``), every file must be either the project's own
(``SITE_OURS``) or match a row of its site table. Either way, a new file from another project
with no row fails, naming the file; a row that matches nothing fails too (a stale row).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
THIRD_PARTY = ROOT / "THIRD_PARTY.md"
SITE = ROOT / "_build" / "html"

# Folders copied whole from another project.
VENDORED_FOLDERS = ("deploy/z2jh/chart/",)
# Our own files among those the rule would otherwise take for someone else's.
OURS = {"LICENSE", "THIRD_PARTY.md", "deploy/z2jh/chart/README.md"}  # the last: what the copy is
OUR_FOLDERS = ("licenses/",)
FONTS = (".woff2", ".woff", ".ttf", ".otf", ".eot")
BANNER = re.compile(r"@license|/\*!|Released under|Licensed under|SPDX-License-Identifier", re.I)

# The built site's own files: pages, their sources and pictures, the book's scripts and styles,
# the widget states, the live page and its workers, our wheel and the build's stand-in.
SITE_OURS = (
    "*.html", "book/**", "notebooks/**", "_sources/**", "_images/**",
    "_static/cj-*", "_static/cj-widget-state/**", "_static/calijack-*", "_static/book.css",
    "_static/progress-page.*", "_static/favicon.svg",
    "calijack-sw-extra.js", "manifest.webmanifest", "LICENSE", "THIRD_PARTY.md", "licenses/**",
    "lite/lessons.json", "lite/play/**",
    "lite/static/calijack/python.mjs", "lite/static/calijack/start.mjs", "lite/static/calijack/keep.mjs",
    "lite/static/pyodide/calijack-*.whl", "lite/static/calijack/rest/calijack--*.zip",
    # lite/wheels.py's stand-in (STAND_INS): ours, not the real package.
    "lite/static/pyodide/ipython-*.whl",
)

ROW = re.compile(r"^\|(?!---)(.*)\|\s*$", re.M)
TICKED = re.compile(r"`([^`]+)`")
PIN = re.compile(r"^`([^`]+)` in `([^`]+)`$")


def glob_regex(pattern: str) -> re.Pattern:
    """A path glob: ``**`` any run of folders, ``*`` within one name."""
    out = ""
    for part in re.split(r"(\*\*|\*)", pattern):
        out += ".*" if part == "**" else "[^/]*" if part == "*" else re.escape(part)
    return re.compile(out + r"\Z")


def tables(text: str) -> dict[str, list[dict]]:
    """THIRD_PARTY.md's tables by section ("repository", "site"): one dict a row."""
    found = {}
    for section, key in (("## In the repository", "repository"), ("## In the built site", "site")):
        start = text.index(section)
        end = text.find("\n## ", start + 1)
        body = text[start:end if end != -1 else len(text)]
        rows = [[cell.strip() for cell in m.group(1).split("|")] for m in ROW.finditer(body)]
        head, rows = rows[0], rows[1:]
        assert head == ["files", "project", "package (pinned in)", "version", "licence", "text"], head
        found[key] = [dict(zip(head, row)) | {"globs": TICKED.findall(row[0])} for row in rows]
    return found


TABLES = tables(THIRD_PARTY.read_text(encoding="utf-8"))


def tracked_files() -> list[str]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [line for line in out.stdout.splitlines() if (ROOT / line).is_file()]


def vendored_files(paths: list[str], read=lambda p: (ROOT / p).read_bytes()[:4096]) -> list[str]:
    """The files of ``paths`` that the rule (module docstring) takes for another project's."""
    found = []
    for path in paths:
        name = path.rsplit("/", 1)[-1]
        if path in OURS or path.startswith(OUR_FOLDERS):
            continue
        if path.startswith(VENDORED_FOLDERS) or name.lower().endswith(FONTS) or "license" in name.lower():
            found.append(path)
        elif not name.endswith((".py", ".md")):
            head = read(path)
            if b"\0" not in head and BANNER.search(head.decode("utf-8", "replace")):
                found.append(path)
    return found


def unlisted(paths, rows, ours=()) -> list[str]:
    patterns = [glob_regex(g) for row in rows for g in row["globs"]] + [glob_regex(g) for g in ours]
    return [p for p in paths if not any(rx.match(p) for rx in patterns)]


def stale(paths, rows) -> list[str]:
    return [g for row in rows for g in row["globs"] if not any(glob_regex(g).match(p) for p in paths)]


# --- our own licence ------------------------------------------------------------------------


def test_pyproject_states_the_licence():
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project.get("license") == "MIT", "pyproject.toml: license = \"MIT\" (an SPDX expression)"
    assert project.get("license-files") == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "Copyright (c) 2026 the calijack authors" in text
    assert "Permission is hereby granted, free of charge" in text


# --- the repository -------------------------------------------------------------------------


def test_the_rule_finds_vendored_files_and_only_those():
    heads = {"a/x.js": b"/*! jQuery v3 | (c) OpenJS */", "a/ours.js": b"// calijack: the loader",
             "a/m.py": b'BANNER = "/*!"', "a/f.woff2": b"wOF2\0", "deploy/z2jh/chart/values.yaml": b"hub:",
             "a/LICENSE.txt": b"MIT", "LICENSE": b"MIT", "licenses/mit.txt": b"Released under MIT"}
    assert vendored_files(list(heads), read=heads.__getitem__) == [
        "a/x.js", "a/f.woff2", "deploy/z2jh/chart/values.yaml", "a/LICENSE.txt"]


def test_every_vendored_file_of_the_repository_is_listed():
    files = vendored_files(tracked_files())
    assert "book/_widgets_js/require.js" in files and "deploy/z2jh/chart/values.schema.yaml" in files
    missing = unlisted(files, TABLES["repository"])
    assert not missing, f"vendored files with no row in THIRD_PARTY.md's repository table: {missing}"


def test_a_new_vendored_file_fails():
    files = vendored_files(tracked_files()) + ["book/_widgets_js/jquery.min.js"]
    assert unlisted(files, TABLES["repository"]) == ["book/_widgets_js/jquery.min.js"]


def test_no_repository_row_is_stale():
    files = tracked_files()
    assert not stale(files, TABLES["repository"]), "THIRD_PARTY.md rows that match no file"


# --- versions and licence texts ------------------------------------------------------------


def pinned_version(name: str, where: str) -> str | None:
    """The version ``where`` pins for ``name`` (a requirements file, an npm lock, or a README
    naming the package and its version on one line)."""
    path = ROOT / where
    text = path.read_text(encoding="utf-8")
    norm = lambda s: re.sub(r"[-_.]+", "-", s).lower()  # noqa: E731
    if where.endswith("package-lock.json"):
        return json.loads(text)["packages"].get(f"node_modules/{name}", {}).get("version")
    if where.endswith(".txt"):
        for m in re.finditer(r"^([A-Za-z0-9_.-]+)==([^\s;\\]+)", text, re.M):
            if norm(m.group(1)) == norm(name):
                return m.group(2)
        return None
    versions = [re.findall(r"\b\d+(?:\.\d+)+\b", line) for line in text.splitlines() if name.lower() in line.lower()]
    return next((v for found in versions for v in found), None) if versions else None


@pytest.mark.parametrize("row", TABLES["repository"] + TABLES["site"], ids=lambda r: r["globs"][0])
def test_each_row_has_its_pinned_version_and_licence_text(row):
    pin = PIN.match(row["package (pinned in)"])
    assert pin, f"{row['globs'][0]}: the package cell must read `NAME` in `FILE`"
    name, where = pin.groups()
    text = (ROOT / where).read_text(encoding="utf-8") if where.endswith(".md") else None
    if text is not None:
        lines = [line for line in text.splitlines() if name.lower() in line.lower()]
        assert any(row["version"] in line for line in lines), \
            f"{where} does not name {name} at {row['version']} (THIRD_PARTY.md is behind its pin)"
    else:
        assert pinned_version(name, where) == row["version"], \
            f"{where} pins {name} at {pinned_version(name, where)}, THIRD_PARTY.md says {row['version']}"
    texts = TICKED.findall(row["text"])
    if not texts:
        assert row["text"] == "in the wheel" and all(g.endswith((".whl", ".zip")) for g in row["globs"]), row
    for licence in texts:
        assert (ROOT / licence).is_file(), f"THIRD_PARTY.md names {licence}, which does not exist"


def test_the_pin_check_can_fail():
    assert pinned_version("pyodide", "lite/package-lock.json") == "314.0.6"
    assert pinned_version("typing-extensions", "lite/kernel-requirements.txt") == "4.16.0"
    assert pinned_version("sphinx", "requirements.txt") not in (None, "0.0.0")
    assert pinned_version("no-such-package", "requirements.txt") is None


def test_every_licence_text_is_named_by_a_row():
    named = {t for rows in TABLES.values() for row in rows for t in TICKED.findall(row["text"])}
    texts = {f"licenses/{p.name}" for p in (ROOT / "licenses").iterdir()}
    assert texts - named == set(), f"licence texts no row names: {sorted(texts - named)}"


# --- the built site -------------------------------------------------------------------------


def site_files() -> list[str]:
    assert (SITE / "index.html").is_file(), f"{SITE} is not built: make book"
    return sorted(p.relative_to(SITE).as_posix() for p in SITE.rglob("*")
                  if p.is_file() and not p.name.endswith((".br", ".gz")))


@pytest.mark.built_book
def test_every_file_of_the_built_site_is_ours_or_listed():
    files = site_files()
    missing = unlisted(files, TABLES["site"], SITE_OURS)
    assert not missing, f"site files neither ours (SITE_OURS) nor in THIRD_PARTY.md's site table: {missing}"
    assert not stale(files, TABLES["site"]), "THIRD_PARTY.md site rows that match no file of the site"
    # The check can fail: a file of another project that nobody listed.
    assert unlisted(files + ["_static/mathjax/tex-chtml.js"], TABLES["site"], SITE_OURS) == ["_static/mathjax/tex-chtml.js"]


@pytest.mark.built_book
def test_the_built_site_carries_the_notices():
    for name in ("LICENSE", "THIRD_PARTY.md"):
        assert (SITE / name).read_bytes() == (ROOT / name).read_bytes(), f"{name} in the site is not the repository's"
    in_site = {p.name: p.read_bytes() for p in (SITE / "licenses").iterdir() if not p.name.endswith((".br", ".gz"))}
    assert in_site == {p.name: p.read_bytes() for p in (ROOT / "licenses").iterdir()}
