"""The live lessons' runner (lite/kernel/live.py), in this Python: what the worker relies on.

The browser tests (tests/browser/test_live_book.py) run it in Pyodide under every live lesson;
here its parts are checked one by one, with the real ipywidgets and comm, and, for
:func:`execute`, a stand-in of Pyodide's ``pyodide.code.eval_code_async`` (its documented
behaviour: run the code, return the last expression's value).
"""

from __future__ import annotations

import ast
import asyncio
import concurrent.futures
import importlib.util
import sys
import types
from pathlib import Path

import comm
import ipywidgets
import pytest

RUNNER = Path(__file__).resolve().parents[1] / "lite" / "kernel" / "live.py"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


@pytest.fixture
def runner(monkeypatch):
    """A fresh runner, connected to a list of the messages it sends; comm's hooks put back after."""
    monkeypatch.setattr(comm, "create_comm", comm.create_comm)
    spec = importlib.util.spec_from_file_location("_calijack_live_test", RUNNER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sent: list[dict] = []
    module.connect(sent.append)
    module.sent = sent
    return module


async def eval_code_async(source, globals=None, locals=None, *, filename="<exec>", **options):
    """Pyodide's ``eval_code_async``, as documented, for this test: the value of the last
    expression, or None."""
    tree = ast.parse(source, filename)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, filename, "exec"), globals, locals)
    if last is not None:
        return eval(compile(ast.Expression(last.value), filename, "eval"), globals, locals)
    return None


def run(coroutine):
    """``coroutine``'s result, run to the end in a thread of its own: a browser test in the same
    process (Playwright's sync API) may hold a running event loop in this one."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


@pytest.fixture
def pyodide_code(monkeypatch):
    package, code = types.ModuleType("pyodide"), types.ModuleType("pyodide.code")
    code.eval_code_async = eval_code_async
    package.code = code
    monkeypatch.setitem(sys.modules, "pyodide", package)
    monkeypatch.setitem(sys.modules, "pyodide.code", code)


def test_a_widget_made_in_python_opens_its_comm_on_the_page(runner):
    slider = ipywidgets.IntSlider(value=3)
    opened = [m for m in runner.sent if m["type"] == "comm_open"]
    mine = [m for m in opened if m["content"]["comm_id"] == slider.comm.comm_id]
    assert len(mine) == 1, opened
    assert mine[0]["content"]["target_name"] == "jupyter.widget"
    assert mine[0]["content"]["data"]["state"]["value"] == 3
    # Jupyter shows a widget by its view: the page draws that.
    assert runner.bundle_of(slider)[WIDGET_VIEW]["model_id"] == slider.model_id


def test_a_message_from_the_page_reaches_the_widget(runner):
    slider = ipywidgets.IntSlider(value=3)
    runner.sent.clear()
    runner.receive({"header": {"msg_type": "comm_msg"}, "buffers": [],
                    "content": {"comm_id": slider.comm.comm_id,
                                "data": {"method": "update", "state": {"value": 7}, "buffer_paths": []}}})
    assert slider.value == 7
    # A change Python makes goes back to the page as a comm message.
    slider.value = 9
    assert any(m["type"] == "comm_msg" and m["content"]["data"]["state"] == {"value": 9} for m in runner.sent)


def test_a_message_of_an_unknown_type_is_refused_in_words(runner):
    with pytest.raises(ValueError, match="unknown type: 'execute_request'"):
        runner.receive({"header": {"msg_type": "execute_request"}, "content": {}})


def test_ipywidgets_makes_its_comms_with_comms_hook_when_no_kernel_is_imported(runner):
    """What the runner relies on (ipywidgets/comm.py): unless an ipykernel older than 6.18 is
    imported (the live site has none at all: tests/test_lite_build.py), a widget's comm comes
    from ``comm.create_comm``, the hook the runner sets. An ipywidgets that stops using the hook
    fails here, by name."""
    from ipywidgets import comm as widgets_comm

    assert not widgets_comm.requires_ipykernel_shim(), "upstream changed: ipywidgets would use an old ipykernel's Comm here"
    slider = ipywidgets.IntSlider()
    assert type(slider.comm).__name__ == "LiveComm", \
        f"upstream changed: ipywidgets {ipywidgets.__version__} no longer makes its comms with comm.create_comm"


def test_a_cell_shows_its_last_value_and_a_failing_cell_its_own_traceback(runner, pyodide_code):
    reply = run(runner.execute("x = 20\nx + 1", "cell-1"))
    assert reply == {"status": "ok"}
    result = [m for m in runner.sent if m["type"] == "execute_result"]
    assert result[-1]["bundle"]["data"] == {"text/plain": "21"}
    assert result[-1]["parentHeader"] == {"msg_id": "cell-1"}
    # The lesson's namespace lasts from cell to cell; a cell ending with an assignment shows nothing.
    runner.sent.clear()
    assert run(runner.execute("y = x * 2", "cell-2")) == {"status": "ok"} and runner.NAMESPACE["y"] == 40
    assert not [m for m in runner.sent if m["type"] == "execute_result"]

    reply = run(runner.execute("def f():\n    return 1 / 0\nf()", "cell-3"))
    assert reply == {"status": "error", "ename": "ZeroDivisionError", "evalue": "division by zero"}
    (error,) = [m for m in runner.sent if m["type"] == "execute_error"]
    lines = "".join(error["bundle"]["traceback"])
    assert 'File "<cell>", line 3' in lines and "ZeroDivisionError: division by zero" in lines
    assert "live.py" not in lines  # the runner's own frames are not the learner's business


# The live site's IPython is the build's stand-in (lite/standins/ipython): every IPython import of
# the packages the live lessons load must find its name there. Not counted: anywidget's cell
# magic, which only ``%load_ext anywidget`` loads (the live page has no cell to type it in).
STAND_IN = Path(__file__).resolve().parents[1] / "lite" / "standins" / "ipython"
LIVE_PACKAGES = ("ipywidgets", "anywidget", "comm", "traitlets", "psygnal", "calijack")
NEVER_LOADED = {"anywidget/_cellmagic.py"}


def ipython_imports(packages=LIVE_PACKAGES) -> list[tuple[str, str, str | None]]:
    """(file, module, name) of every ``import IPython...`` / ``from IPython... import name`` in
    the installed ``packages`` (tests folders aside)."""
    found = []
    for package in packages:
        root = Path(importlib.util.find_spec(package).origin).parent
        for path in sorted(root.rglob("*.py")):
            where = path.relative_to(root.parent).as_posix()
            if "/tests/" in where or where in NEVER_LOADED:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), where)):
                if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "IPython":
                    found += [(where, node.module, alias.name) for alias in node.names]
                elif isinstance(node, ast.Import):
                    found += [(where, a.name, None) for a in node.names if a.name.split(".")[0] == "IPython"]
    return found


def missing_in_stand_in(imports) -> list[str]:
    """The imports the stand-in cannot answer, in words (run in a Python that finds the stand-in
    before the real IPython)."""
    import json
    import subprocess

    script = (
        "import importlib, json, sys\n"
        f"sys.path.insert(0, {str(STAND_IN)!r})\n"
        "import IPython\n"
        f"assert IPython.__file__.startswith({str(STAND_IN)!r}), IPython.__file__\n"
        "out = []\n"
        "for where, module, name in json.loads(sys.stdin.read()):\n"
        "    try:\n"
        "        found = importlib.import_module(module)\n"
        "        if name is not None and not hasattr(found, name):\n"
        "            importlib.import_module(module + '.' + name)\n"
        "    except ImportError:\n"
        "        out.append(f'{where} imports {name or module} from {module}')\n"
        "print(json.dumps(out))\n")
    done = subprocess.run([sys.executable, "-c", script], input=json.dumps(imports), capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


def test_the_live_sites_ipython_stand_in_has_every_name_the_live_packages_import():
    imports = ipython_imports()
    # ipywidgets' own (if this fails, ipywidgets no longer imports IPython as it did).
    assert ("ipywidgets/__init__.py", "IPython", "get_ipython") in imports
    assert ("ipywidgets/widgets/widget_output.py", "IPython.core.interactiveshell", "InteractiveShell") in imports
    missing = missing_in_stand_in(imports)
    assert not missing, ("upstream changed: " + "; ".join(missing)
                         + ": add it to lite/standins/ipython (as IPython behaves with no shell)")
    # The check can fail: a name IPython has and the stand-in lacks.
    assert missing_in_stand_in([("x.py", "IPython.display", "HTML")]) == ["x.py imports HTML from IPython.display"]


def test_the_stand_in_behaves_as_ipython_does_with_no_shell():
    import subprocess

    script = (f"import sys; sys.path.insert(0, {str(STAND_IN)!r})\n"
              "from IPython import get_ipython\n"
              "from IPython.display import display, clear_output\n"
              "from IPython.core.interactiveshell import InteractiveShell\n"
              "assert get_ipython() is None and not InteractiveShell.initialized()\n"
              "display('a', 2)\nclear_output(wait=True)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, check=True)
    assert done.stdout == b"a 2\n\x1b[2K\r\x1b[2K\r" and done.stderr == b""
    # The same as IPython's own with no shell (the real one, installed here).
    real = subprocess.run([sys.executable, "-c", script.split("\n", 1)[1]], capture_output=True, check=True)
    assert real.stdout == done.stdout
