"""The static book ships only the widget code its demos need: ipywidgets 8's modules.

The html-manager's bundle also holds ipywidgets 7's modules (``base7``, ``controls7``: 825 KB)
for third-party widgets of the old protocol. The book leaves them out; this says why that is
safe: every widget model the built book renders is of protocol 2, from the two modules the
loader maps.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import vendor_widgets  # noqa: E402

WIDGETS_JS = ROOT / "book" / "_widgets_js"
BOOK_HTML = Path(os.environ.get("CALIJACK_BOOK_HTML", ROOT / "_build" / "html"))
NEEDED = {("@jupyter-widgets/base", "2"), ("@jupyter-widgets/controls", "2")}


def models(book: Path) -> list[tuple[str, str, str]]:
    """(file, module, major version) of every model and view in the book's widget state."""
    found = []
    for path in sorted((book / "_static" / "cj-widget-state").glob("*.json")):
        for model in json.loads(path.read_text(encoding="utf-8"))["state"].values():
            state = model["state"]
            found.append((path.name, model["model_module"], model["model_module_version"].split(".")[0]))
            if state.get("_view_name"):
                found.append((path.name, state["_view_module"], state["_view_module_version"].split(".")[0]))
    return found


@pytest.mark.built_book
def test_every_widget_of_the_book_is_of_ipywidgets_8():
    if not (BOOK_HTML / "index.html").is_file():
        pytest.fail(f"The book is not built: {BOOK_HTML}/index.html is missing. Build it with "
                    "`make book`; `make test` does it.", pytrace=False)
    found = models(BOOK_HTML)
    assert len(found) > 1000  # the chapters' demos, all of them
    assert not [m for m in found if (m[1], m[2]) not in NEEDED], sorted(
        {m for m in found if (m[1], m[2]) not in NEEDED})


def test_the_old_protocol_is_not_shipped():
    loader = (WIDGETS_JS / "cj-widget-loader.js").read_text(encoding="utf-8")
    mapped = dict(re.findall(r'"(@jupyter-widgets/[\w-]+)": "([\w-]+)"', loader))
    assert set(mapped) == {"@jupyter-widgets/base", "@jupyter-widgets/controls",
                           "@jupyter-widgets/html-manager"}
    assert set(mapped) == set(vendor_widgets.MODULES)
    assert not list(WIDGETS_JS.glob("jupyter-widgets-*7.js"))


def test_the_managers_own_copy_of_the_old_protocol_is_not_shipped():
    """html-manager bundles ipywidgets 7's base and controls (with jQuery UI, underscore, their
    CSS) for widgets of protocol 1; vendor_widgets.drop_legacy replaced them by a module that
    throws a sentence."""
    src = (WIDGETS_JS / "jupyter-widgets-html-manager.js").read_text(encoding="utf-8")
    base, controls = vendor_widgets.LEGACY_BASE.search(src), vendor_widgets.LEGACY_CONTROLS.search(src)
    assert base and controls, "the vendored manager's loadClass is not the one drop_legacy reads"
    modules = vendor_widgets.webpack_modules(src)
    stubs = {key for key, (a, b) in modules.items() if src[a:b] == vendor_widgets.LEGACY_STUB}
    assert {base.group(1), *controls.groups()} <= stubs
    assert len(stubs) > 50 and len(modules) - len(stubs) > 250
    # What is kept never requires a dropped module (only loadClass names the legacy ones).
    kept = "".join(src[a:b] for key, (a, b) in modules.items() if key not in stubs)
    assert not [key for key in stubs if re.search(rf"[(\s,]{key}\)", kept)]


BUNDLE = """define("m",[],(()=>(()=>{var __webpack_modules__={1:(e,t,n)=>{n(2);var r=/[{(]/g,s=`a${{b:1}.b}`},\
2:e=>{e.exports="shared"},3:(e,t,n)=>{n(2),n(4)},4:function(e,t,n){e.exports={x:"}"}},\
5:(e,t,n)=>{e.exports=1},6:(e,t,n)=>{n(4)}};var o=__webpack_require__(1);function f(t,n,i){return "1.2.0"===(0,t.maxSatisfying)\
(["1.2.0","2.0.0"],i)?6:7}function g(t,n,i){return "1.5.0"===(0,t.maxSatisfying)(["1.5.0","2.0.0"],i)?\
(__webpack_require__(5),""===getComputedStyle(document.documentElement).getPropertyValue("--jp-layout-color0")\
&&__webpack_require__(5),n(__webpack_require__(3))):0}})()));"""


def test_drop_legacy_keeps_what_others_share_and_fails_naming_a_changed_manager():
    out, dropped = vendor_widgets.drop_legacy(BUNDLE)
    modules = vendor_widgets.webpack_modules(out)
    assert set(modules) == {"1", "2", "3", "4", "5", "6"}
    stubbed = {key for key, (a, b) in modules.items() if out[a:b] == vendor_widgets.LEGACY_STUB}
    # 6 is the legacy base, 3 and 5 the legacy controls', 4 only they need; 2 is shared with 1
    # (kept); the strings, the template and the regular expression with brackets in them are
    # read as such.
    assert (stubbed, dropped) == ({"3", "4", "5", "6"}, 4)
    assert 'e.exports="shared"' in out and "/[{(]/g" in out
    with pytest.raises(SystemExit, match="no longer picks ipywidgets 7"):
        vendor_widgets.drop_legacy(BUNDLE.replace('"1.5.0"===', '"1.6.0"==='))
