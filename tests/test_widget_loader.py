"""One widget-manager loader (issue 32): ``book/_widgets_js/cj-widget-loader.js``, used by the
book's pages (``cj-widgets.js``) and the live lesson's page (``lite/play/play.mjs``), with the
module map (widget package -> file) written there and nowhere else."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import vendor_widgets  # noqa: E402

LOADER = "book/_widgets_js/cj-widget-loader.js"
# Another project's code, which defines functions of its own.
VENDORED = re.compile(r"^book/_widgets_js/(?:require\.js|jupyter-widgets-[\w-]+\.js)$")
# What only the loader may define or call: a script adder, an AMD module getter, the wait for a
# view's children, RequireJS's configuration.
DEFINES = re.compile(
    r"\bfunction\s+(?P<a>addScript|requireModule|settled)\b"
    r"|\b(?P<b>addScript|requireModule|settled)\s*=\s*(?:function|\(|async)"
    r"|\brequirejs\s*\.\s*config\s*\(")
# The module map's file names, as a map would write them (a module id's file, quoted).
MAP_ENTRY = re.compile(r"""["'`]@jupyter-widgets/[\w-]+["'`]\s*:""")
SOURCE_SUFFIXES = (".js", ".mjs", ".html", ".py")


def our_sources() -> dict[str, str]:
    """Every tracked script, page or Python file of ours outside the tests, by path (and the
    loader, even before it is committed)."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                         capture_output=True, text=True, check=True)
    paths = {p for p in out.stdout.splitlines()
             if p.endswith(SOURCE_SUFFIXES) and not p.startswith("tests/") and not VENDORED.match(p)}
    return {p: (ROOT / p).read_text(encoding="utf-8") for p in sorted(paths) if (ROOT / p).is_file()}


def definers(sources: dict[str, str]) -> dict[str, list[str]]:
    """Path -> what of the loader's it defines (see ``DEFINES``), for the files defining any."""
    found = {}
    for path, text in sources.items():
        hits = [m.group(0) for m in DEFINES.finditer(text)]
        if hits:
            found[path] = hits
    return found


def maps(sources: dict[str, str]) -> list[str]:
    """The files that write a widget module map (a ``"@jupyter-widgets/…":`` key)."""
    return [path for path, text in sources.items() if MAP_ENTRY.search(text)]


@pytest.fixture(scope="module")
def sources():
    return our_sources()


def test_the_loader_is_defined_in_one_file(sources):
    assert LOADER in sources
    found = definers(sources)
    assert list(found) == [LOADER], found


def test_the_module_map_is_written_once(sources):
    assert maps(sources) == [LOADER]
    # vendor_widgets.py reads it there, and it names the files the build ships.
    assert vendor_widgets.MODULES == vendor_widgets.loader_modules(ROOT / LOADER)
    assert set(vendor_widgets.MODULES) == {"@jupyter-widgets/base", "@jupyter-widgets/controls",
                                           "@jupyter-widgets/html-manager"}
    for name in vendor_widgets.MODULES.values():
        assert (ROOT / "book" / "_widgets_js" / name).is_file(), name


def test_both_pages_use_the_loader(sources):
    assert "window.calijackWidgetLoader" in sources["book/_widgets_js/cj-widgets.js"]
    assert "window.calijackWidgetLoader" in sources["lite/play/play.mjs"]
    # The live page loads it (deferred, so before its module runs) from the book's _static/.
    assert '<script defer src="../../_static/cj-widget-loader.js"></script>' in sources["lite/play/index.html"]
    # The book's pages get it just before their own loader (book/_ext/calijack_speed.py).
    speed = sources["book/_ext/calijack_speed.py"]
    assert speed.index("app.add_js_file(MANAGER_LOADER") < speed.index("app.add_js_file(LOADER")


def test_a_second_loader_or_map_is_found():
    planted = {
        LOADER: "function addScript(src) {}",
        "lite/play/play.mjs": "const requireModule = (name) => name;",
        "x.mjs": 'window.requirejs.config({paths: {"@jupyter-widgets/base": "b"}});',
        "y.js": "var ok = addScript(here);",
    }
    assert sorted(definers(planted)) == ["book/_widgets_js/cj-widget-loader.js", "lite/play/play.mjs", "x.mjs"]
    assert maps(planted) == ["x.mjs"]


def test_a_malformed_module_map_is_named(tmp_path):
    loader = tmp_path / "loader.js"
    loader.write_text('  var MODULES = {\n    "@jupyter-widgets/base": base,\n  };\n')
    with pytest.raises(ValueError, match="a line of MODULES"):
        vendor_widgets.loader_modules(loader)
    loader.write_text("var modules = {};\n")
    with pytest.raises(ValueError, match="no `var MODULES"):
        vendor_widgets.loader_modules(loader)
