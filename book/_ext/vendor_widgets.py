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

- inside ``html-manager``, ipywidgets 7's own ``base`` (1.2.0) and ``controls`` (1.5.0), with
  what only they need (jQuery UI, underscore, their CSS: about 250 KB, 44 KB compressed), which
  the manager bundles for widgets of protocol 1 (:func:`drop_legacy`): each of those webpack
  modules becomes one that throws a sentence, so such a widget shows the manager's "Error
  creating widget" instead of a page error,

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
MANAGER = "@jupyter-widgets/html-manager"  # the module whose ipywidgets 7 copies drop_legacy drops
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


# html-manager's loadClass, where it picks ipywidgets 7's modules for a widget of protocol 1:
# the legacy base's module id, and the legacy controls' (its CSS, its dark CSS, its code).
LEGACY_BASE = re.compile(r'"1\.2\.0"===\(0,[\w$]+\.maxSatisfying\)\(\["1\.2\.0","2\.0\.0"\],[\w$]+\)\?(\d+):\d+')
LEGACY_CONTROLS = re.compile(
    r'"1\.5\.0"===\(0,[\w$]+\.maxSatisfying\)\(\["1\.5\.0","2\.0\.0"\],[\w$]+\)\?'
    r'\(__webpack_require__\((\d+)\),""===getComputedStyle\(document\.documentElement\)'
    r'\.getPropertyValue\("--jp-layout-color0"\)&&__webpack_require__\((\d+)\),[\w$]+\(__webpack_require__\((\d+)\)\)\)')
LEGACY_STUB = ('(e,t,n)=>{throw new Error("calijack: widgets of protocol 1 (ipywidgets 7) are not in '
               'this book\'s widget manager")}')
MODULES_OBJECT = "var __webpack_modules__={"
MODULE_KEY = re.compile(r"(\d+):")
# After one of these (or a keyword below), a "/" starts a regular expression, not a division.
REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^")
REGEX_AFTER_WORD = re.compile(r"(?:^|[^\w$])(?:return|typeof|case|void|in|of|delete|throw|new|else|do)\s*$")
CLOSING = {"{": "}", "[": "]", "(": ")"}


def _end_of_group(src: str, i: int) -> int:
    """Index just past the bracketed group opening at ``src[i]`` (``{``, ``[`` or ``(``) of
    minified JavaScript: strings, template literals, regular expressions and comments respected."""
    stack, before = [], "("
    while i < len(src):
        c = src[i]
        if c in "\"'":
            i, before = _skip_string(src, i), "a"
            continue
        if c == "`":
            i += 1
            while src[i] != "`":
                if src[i] == "\\":
                    i += 2
                elif src.startswith("${", i):
                    i = _end_of_group(src, i + 1)
                else:
                    i += 1
            i, before = i + 1, "a"
            continue
        if c == "/" and src.startswith("//", i):
            i = src.index("\n", i)
            continue
        if c == "/" and src.startswith("/*", i):
            i = src.index("*/", i) + 2
            continue
        if c == "/" and (before in REGEX_AFTER or REGEX_AFTER_WORD.search(src[max(0, i - 9):i])):
            i, in_class = i + 1, False
            while src[i] != "/" or in_class:
                if src[i] == "\\":
                    i += 1
                elif src[i] in "[]":
                    in_class = src[i] == "["
                i += 1
            i += 1
            while src[i].isalpha():
                i += 1
            before = "a"
            continue
        if c in CLOSING:
            stack.append(CLOSING[c])
        elif c in ")]}":
            if not stack or stack.pop() != c:
                raise ValueError(f"unbalanced {c!r} at {i}")
            if not stack:
                return i + 1
        if not c.isspace():
            before = "a" if (c.isalnum() or c in "_$") else c
        i += 1
    raise ValueError("a group that never closes")


def webpack_modules(src: str) -> dict[str, tuple[int, int]]:
    """Where each module of a webpack bundle's ``__webpack_modules__`` object is: module id ->
    (start, end) of its function in ``src``."""
    start = src.find(MODULES_OBJECT)
    if start < 0:
        raise ValueError(f"no `{MODULES_OBJECT}` in the bundle")
    i = start + len(MODULES_OBJECT) - 1
    end = _end_of_group(src, i) - 1
    i += 1
    found = {}
    while i < end:
        key = MODULE_KEY.match(src, i)
        if key is None:
            raise ValueError(f"a module without a numeric id at {i}")
        head = key.end()
        if src.startswith("function", head):
            value_end = _end_of_group(src, src.index("{", head))
        else:
            j = _end_of_group(src, head) if src[head] == "(" else re.compile(r"[\w$]+").match(src, head).end()
            if not src.startswith("=>", j):
                raise ValueError(f"module {key.group(1)} is not a function")
            value_end = _end_of_group(src, j + 2)
        found[key.group(1)] = (head, value_end)
        i = value_end + (1 if src[value_end] == "," else 0)
    return found


def _requires(function: str) -> set[str]:
    """The module ids a webpack module function requires (its third parameter, called with a
    number, or its ``.n``/``.t`` helpers)."""
    params = re.match(r"(?:function)?\(?([\w$]+)?(?:,([\w$]+))?(?:,([\w$]+))?", function)
    require = params.group(3)
    if not require:
        return set()
    return set(re.findall(r"(?<![\w$.])" + re.escape(require) + r"(?:\.[nt])?\((\d+)\)", function))


def drop_legacy(src: str) -> tuple[str, int]:
    """``src`` (html-manager) with ipywidgets 7's modules, and what only they require, replaced by
    :data:`LEGACY_STUB`; and how many modules were replaced. Raises ``SystemExit``, naming what
    changed, if the manager no longer picks them as it did."""
    base, controls = LEGACY_BASE.search(src), LEGACY_CONTROLS.search(src)
    if base is None or controls is None:
        raise SystemExit("html-manager's loadClass no longer picks ipywidgets 7's base/controls as "
                         "vendor_widgets.py expects (LEGACY_BASE, LEGACY_CONTROLS): read the new "
                         "bundle's loadClass and update them, or vendor without drop_legacy")
    picks = [base.group(1), *controls.groups()]  # as loadClass names them
    legacy = set(picks)
    modules = webpack_modules(src)
    graph = {key: _requires(src[a:b]) for key, (a, b) in modules.items()}
    outside = src[:min(a for a, _ in modules.values())] + src[max(b for _, b in modules.values()):]
    roots = set(re.findall(r"__webpack_require__\((\d+)\)", outside)) | {base.group(1)}

    def reached(start: set[str]) -> set[str]:
        seen, todo = set(), list(start)
        while todo:
            key = todo.pop()
            if key not in seen and key in graph:
                seen.add(key)
                todo += graph[key]
        return seen

    dropped = reached(roots) - reached(roots - legacy)
    if not legacy <= dropped:
        raise SystemExit(f"ipywidgets 7's modules {sorted(legacy - dropped)} are required by others")
    kept = outside + "".join(src[a:b] for key, (a, b) in modules.items() if key not in dropped)
    for key in dropped:  # no other mention of a dropped module than loadClass's picks
        mentions = re.findall(r"__webpack_require__\(" + key + r"\)|\?" + key + ":", kept)
        if len(mentions) > picks.count(key):
            raise SystemExit(f"module {key} is dropped but still required: {mentions}")
    out, pos = [], 0
    for key, (a, b) in sorted(modules.items(), key=lambda item: item[1]):
        if key in dropped:
            out += [src[pos:a], LEGACY_STUB]
            pos = b
    out.append(src[pos:])
    return "".join(out), len(dropped)


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


def vendor(dist: Path, dest: Path) -> list[tuple[str, int, int, int]]:
    """Write the modules, fonts and licence of ``dist`` into ``dest``; returns (file, bytes, maps,
    modules of ipywidgets 7 dropped)."""
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
        legacy = 0
        if module_id == MANAGER:
            code, legacy = drop_legacy(code)
        (dest / name).write_text(code, encoding="utf-8")
        written.append((name, len(code.encode()), maps, legacy))
    for font in sorted(dist.glob("*.woff2")):
        shutil.copyfile(font, dest / font.name)
        written.append((font.name, font.stat().st_size, 0, 0))
    shutil.copyfile(dist / LICENSE, dest / LICENSE)
    return written


def main(argv: list[str]) -> int:
    """Command line: ``vendor_widgets.py DIST DEST``."""
    if len(argv) != 2 or not (Path(argv[0]) / "embed-amd.js").is_file():
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    for name, size, maps, legacy in vendor(Path(argv[0]), Path(argv[1])):
        print(f"{name:40} {size:>9,} bytes" + (f"  ({maps} CSS source maps removed)" if maps else "")
              + (f"  ({legacy} modules of ipywidgets 7 dropped)" if legacy else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
