"""Vendor the widget manager into book/_widgets_js as separate AMD modules, without source maps.

    python book/_ext/vendor_widgets.py PACKAGE/dist book/_widgets_js

``PACKAGE/dist`` is the ``dist/`` folder of the npm tarball of ``@jupyter-widgets/html-manager``
(see book/_widgets_js/README.md for the exact versions and checksums). Its ``embed-amd.js``
(3.6 MB) is several named RequireJS modules written one after the other: ``base`` and
``controls`` (ipywidgets 8), ``base7`` and ``controls7`` (ipywidgets 7, for third-party
widgets), ``html-manager`` (the manager, which bundles what it needs of the rest) and
``libembed-amd`` (the CDN-capable page renderer, which the book does not use: its loader
``cj-widgets.js`` renders with the manager's documented API and a local-only module loader).

Which modules, and the file of each: the module map of the widget loader
``book/_widgets_js/cj-widget-loader.js``, the one place it is written (:func:`loader_modules`
reads it).

This script writes each module the book uses to its own file, so that RequireJS fetches only
the ones a page asks for (every page: base, controls and html-manager), and drops

- ``base7`` and ``controls7`` (825 KB): the project pins ipywidgets 8, so every widget of the
  book is of protocol 2 (``tests/test_widget_bundles.py`` checks the built book's state); a
  widget of the old protocol would have to come from a third-party package, and none does,
- the ``//# sourceMappingURL=`` comments (the maps are not shipped),
- the CSS source maps that css-loader embedded as JavaScript objects (about 460 KB), which
  would otherwise be appended as base64 ``sourceMappingURL`` comments to every ``<style>``
  the manager injects. css-loader's runtime returns the plain CSS when an item has no map,
  so removing the object (the fourth item of ``[id, css, media, map]``) is all it takes,

and copies the fonts in the one format every current browser reads (``.woff2``) and the
licence file. It is deterministic: the same tarball gives the same bytes.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

LOADER = Path(__file__).resolve().parent.parent / "_widgets_js" / "cj-widget-loader.js"
MODULE_MAP = re.compile(r"^  var MODULES = \{\n(?P<body>(?:    .*\n)*?)  \};$", re.MULTILINE)
MODULE_ENTRY = re.compile(r'^    "(?P<id>[^"]+)": "(?P<name>[\w.-]+)",$')


def loader_modules(loader: Path = LOADER) -> dict[str, str]:
    """The widget loader's module map: module id -> file name in book/_widgets_js."""
    match = MODULE_MAP.search(loader.read_text(encoding="utf-8"))
    if match is None:
        raise ValueError(f"{loader}: no `var MODULES = {{...}};` block")
    modules = {}
    for line in match.group("body").splitlines():
        entry = MODULE_ENTRY.match(line)
        if entry is None:
            raise ValueError(f"{loader}: a line of MODULES is not `\"id\": \"file\",`: {line.strip()}")
        modules[entry.group("id")] = entry.group("name") + ".js"
    if not modules:
        raise ValueError(f"{loader}: MODULES is empty")
    return modules


# Module id -> file name in book/_widgets_js.
MODULES = loader_modules()
SKIPPED = {"@jupyter-widgets/html-manager/dist/libembed-amd",
           "@jupyter-widgets/base7", "@jupyter-widgets/controls7"}
LICENSE = "embed.js.LICENSE.txt"
MAP_COMMENT = re.compile(r"^//# sourceMappingURL=.*$", re.MULTILINE)
LICENSE_COMMENT = re.compile(r"/\*! For license information please see [\w.-]+ \*/")
DEFINE = re.compile(r'define\("([^"]+)"')
CSS_MAP = re.compile(r",\{version:3,sources:\[")


def _skip_string(src: str, i: int) -> int:
    """Index just past the JavaScript string literal starting at ``src[i]`` (a quote)."""
    quote = src[i]
    i += 1
    while True:
        c = src[i]
        if c == "\\":
            i += 2
            continue
        if quote == "`" and src.startswith("${", i):
            raise ValueError(f"template expression inside a source map at {i}")
        if c == quote:
            return i + 1
        i += 1


def _end_of_literal(src: str, i: int) -> int:
    """Index just past the object/array literal starting at ``src[i]``, strings respected."""
    depth = 0
    while True:
        c = src[i]
        if c in "\"'`":
            i = _skip_string(src, i)
            continue
        if c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1


def strip_css_maps(src: str) -> tuple[str, int]:
    """``src`` without css-loader's embedded source-map objects; and how many were removed."""
    out, pos, count = [], 0, 0
    for match in CSS_MAP.finditer(src):
        if match.start() < pos:
            continue
        end = _end_of_literal(src, match.start() + 1)
        if src[end] != "]":  # the map is always the last item of css-loader's array
            raise ValueError(f"unexpected source map layout at {match.start()}")
        out.append(src[pos:match.start()])
        pos = end
        count += 1
    out.append(src[pos:])
    return "".join(out), count


def split_modules(bundle: str) -> dict[str, str]:
    """The named ``define(...)`` modules of a concatenated AMD bundle, by module id."""
    modules: dict[str, str] = {}
    for chunk in MAP_COMMENT.split(bundle):
        match = DEFINE.search(chunk)
        if match is None:
            if chunk.strip() and "define(" in chunk:
                raise ValueError("an anonymous define() in the bundle")
            continue  # the trailing render call of embed-amd.js, or blank
        modules[match.group(1)] = chunk.strip() + "\n"
    return modules


def vendor(dist: Path, dest: Path) -> list[tuple[str, int, int]]:
    """Write the modules, fonts and licence of ``dist`` into ``dest``; returns (file, bytes, maps)."""
    modules = split_modules((dist / "embed-amd.js").read_text(encoding="utf-8"))
    unknown = set(modules) - set(MODULES) - SKIPPED
    missing = set(MODULES) - set(modules)
    if unknown or missing:
        raise SystemExit(f"unexpected modules in embed-amd.js: new {sorted(unknown)}, "
                         f"missing {sorted(missing)}; update MODULES in {LOADER}")
    written = []
    dest.mkdir(parents=True, exist_ok=True)
    for module_id, name in MODULES.items():
        code, maps = strip_css_maps(modules[module_id])
        code = LICENSE_COMMENT.sub(f"/*! For license information please see {LICENSE} */", code)
        (dest / name).write_text(code, encoding="utf-8")
        written.append((name, len(code.encode()), maps))
    for font in sorted(dist.glob("*.woff2")):
        shutil.copyfile(font, dest / font.name)
        written.append((font.name, font.stat().st_size, 0))
    shutil.copyfile(dist / LICENSE, dest / LICENSE)
    return written


def main(argv: list[str]) -> int:
    """Command line: ``vendor_widgets.py DIST DEST``."""
    if len(argv) != 2 or not (Path(argv[0]) / "embed-amd.js").is_file():
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    for name, size, maps in vendor(Path(argv[0]), Path(argv[1])):
        print(f"{name:40} {size:>9,} bytes" + (f"  ({maps} CSS source maps removed)" if maps else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
