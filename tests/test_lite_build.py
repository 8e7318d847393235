"""The live book's build step (lite/build_lite.py): its pure parts, without downloading.

The whole build, run twice with the network cut the second time, and the site it makes, are
checked in the browser in ``tests/browser/test_live_book.py``.
"""

from __future__ import annotations

import importlib.util
import json
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_SPEC = importlib.util.spec_from_file_location("build_lite", ROOT / "lite" / "build_lite.py")
build_lite = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(build_lite)


def make_wheel(folder: Path, name: str, version: str, requires=(), modules=("pkg",)) -> Path:
    """A small pure-Python wheel with the given Requires-Dist lines."""
    path = folder / f"{name}-{version}-py3-none-any.whl"
    meta = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
    meta += "".join(f"Requires-Dist: {r}\n" for r in requires)
    with zipfile.ZipFile(path, "w") as archive:
        for module in modules:
            archive.writestr(f"{module}/__init__.py", "")
        archive.writestr(f"{name}-{version}.dist-info/METADATA", meta + "\nA description.\n")
    return path


def test_lock_entry_follows_the_markers_of_the_browser(tmp_path):
    wheel = make_wheel(tmp_path, "Demo_Pkg", "1.2", modules=("demo_pkg",), requires=[
        "traitlets>=5", 'pexpect>4.6; sys_platform != "win32" and sys_platform != "emscripten"',
        'colorama; sys_platform == "win32"', "pytest; extra == 'test'", "jupyterlab_widgets~=3.0"])
    entry = build_lite.wheel_entry(wheel)
    assert entry["name"] == "demo-pkg" and entry["version"] == "1.2"
    assert entry["file_name"] == wheel.name and entry["imports"] == ["demo_pkg"]
    # pexpect is not for emscripten, colorama is for Windows, pytest only for an extra, and
    # jupyterlab_widgets is front-end only: the kernel needs traitlets alone.
    assert entry["depends"] == ["traitlets"]
    assert len(entry["sha256"]) == 64


def test_a_missing_dependency_fails_the_build_and_names_it(tmp_path):
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    (runtime / "pyodide-lock.json").write_text(json.dumps({"info": {"python": "3.14.2"}, "packages": {}}))
    wheels = [make_wheel(tmp_path, "alpha", "1", requires=["beta>=2"])]
    with pytest.raises(build_lite.BuildError, match=r"beta \(needed by alpha\)"):
        build_lite.pyodide_lock(runtime, wheels)
    wheels.append(make_wheel(tmp_path, "beta", "2", modules=("beta",)))
    lock = build_lite.pyodide_lock(runtime, wheels)
    assert lock["info"] == {"python": "3.14.2"}
    assert sorted(lock["packages"]) == ["alpha", "beta"]


def test_lesson_code_is_the_code_cells_without_the_book_only_ones(tmp_path):
    nb = {"cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Title"]},
        {"cell_type": "code", "metadata": {"tags": ["hide-input"]}, "source": ["x = 1\n", "x"]},
        {"cell_type": "code", "metadata": {"tags": ["book-only"]}, "source": "static()"},
        {"cell_type": "code", "metadata": {}, "source": "live()"},
        {"cell_type": "code", "metadata": {"tags": ["hide-input", "not-live"]}, "source": "checks()"},
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "01_x.ipynb"
    path.write_text(json.dumps(nb))
    assert build_lite.lesson_code(path) == ["x = 1\nx", "live()"]
    nb["cells"] = nb["cells"][:1]
    path.write_text(json.dumps(nb))
    with pytest.raises(build_lite.BuildError, match="no code cell"):
        build_lite.lesson_code(path)


def test_every_lesson_has_code_for_the_live_app():
    lessons = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert len(lessons) >= 7
    for lesson in lessons:
        assert build_lite.lesson_code(lesson), lesson.name
    # The live page shows its last cell's output: lesson 3's demo, not the checks after it
    # (the book's page answers those itself).
    assert "legal_explorer(" in build_lite.lesson_code(ROOT / "notebooks" / "03_legal_play.ipynb")[-1]


def test_kernel_requirements_are_pinned_with_hashes():
    text = (ROOT / "lite" / "kernel-requirements.txt").read_text()
    pins = build_lite.pinned(ROOT / "lite" / "kernel-requirements.txt")
    assert {"ipywidgets", "anywidget", "comm", "traitlets"} <= set(pins)
    # No Jupyter kernel: the live worker runs the cells itself (lite/kernel/live.py).
    assert not {"jupyterlite-pyodide-kernel", "ipykernel", "piplite", "micropip"} & set(pins)
    # A package the build stands in for (IPython) is never downloaded too, nor what only it needs.
    assert "ipython" in build_lite.STAND_INS
    assert not set(build_lite.STAND_INS) & set(pins)
    assert not {"jedi", "pygments", "prompt-toolkit", "decorator", "stack-data"} & {n.lower() for n in pins}
    assert text.count("--hash=sha256:") == len(pins)
    # The widgets on both sides of the wire are the same versions as the project's own.
    project = build_lite.pinned(ROOT / "requirements.txt")
    for name in ("ipywidgets", "comm", "traitlets", "anywidget"):
        assert pins[name] == project[name], name
    # ipywidgets' front ends are not downloaded: the live page draws with the book's manager.
    for front_end in ("jupyterlab-widgets", "widgetsnbextension"):
        assert front_end not in pins and front_end in build_lite.FRONTEND_ONLY


def test_an_unpinned_requirement_is_refused(tmp_path):
    bad = tmp_path / "req.txt"
    bad.write_text("ipywidgets>=8\n")
    with pytest.raises(build_lite.BuildError, match="not pinned"):
        build_lite.pinned(bad)


def test_demos_are_live_in_the_browser(monkeypatch):
    from calijack.widgets import demo_base
    from calijack.widgets.demos import cards_demo

    assert isinstance(cards_demo(), demo_base.StaticDemo)
    monkeypatch.setattr(demo_base, "IN_BROWSER", True)
    demo = cards_demo()
    assert isinstance(demo, demo_base.LiveDemo)
    demo.control.index = 2
    assert demo.frame.value == demo.frame_value(2)


def test_a_stand_in_holds_its_own_modules_only_and_is_always_the_same_bytes(tmp_path):
    first = build_lite.stand_in("ipython", "9.18.1", tmp_path)
    with zipfile.ZipFile(first) as archive:
        names = archive.namelist()
    modules = sorted(n for n in names if ".dist-info/" not in n)
    # The folder's files, their paths kept (a package with a subpackage), and nothing else.
    source = build_lite.STAND_IN_SOURCES / "ipython"
    assert modules == sorted(p.relative_to(source).as_posix() for p in source.rglob("*.py"))
    assert "IPython/core/interactiveshell.py" in modules
    entry = build_lite.wheel_entry(first)
    assert (entry["name"], entry["imports"], entry["depends"]) == ("ipython", ["IPython"], [])
    again = tmp_path / "again"
    again.mkdir()
    assert build_lite.sha256(build_lite.stand_in("ipython", "9.18.1", again)) == entry["sha256"]
    # A stand-in without a folder of modules is its metadata alone.
    bare = build_lite.stand_in("nothing-here", "1.0", again)
    with zipfile.ZipFile(bare) as archive:
        assert all(".dist-info/" in name for name in archive.namelist())


def test_the_snapshot_imports_the_lessons_modules_and_nothing_that_holds_javascript():
    lessons = {"01_x": ["from calijack.widgets.demos import card_demo\nimport random",
                        "%time x = 1",  # IPython syntax: skipped, not a failure
                        "import js\nfrom pyodide.ffi import to_js\nfrom . import here\nimport piplite.piplite"],
               "02_y": ["import calijack.widgets.sandbox as sandbox\nfrom IPython.display import display"]}
    names = build_lite.snapshot_imports(lessons)
    assert names == sorted(set(names))
    for wanted in ("calijack.widgets.demos", "calijack.widgets.sandbox", "random", "IPython.display",
                   *build_lite.SNAPSHOT_IMPORTS):
        assert wanted in names, wanted
    assert not [n for n in names if n.split(".")[0] in ("js", "pyodide", "micropip")]


def test_the_real_lessons_preload_every_calijack_module_they_import():
    lessons = {nb.stem: build_lite.lesson_code(nb) for nb in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))}
    names = build_lite.snapshot_imports(lessons)
    assert "calijack.widgets.sandbox" in names and "calijack.widgets.practice" in names
    assert "ipywidgets" in names and "IPython" in names


def test_a_kernel_template_without_its_marker_fails_the_build():
    assert build_lite.fill("import '__A__'; x = __B__;", {"__A__": "a.js", "__B__": "1"}, "t.mjs") == "import 'a.js'; x = 1;"
    with pytest.raises(build_lite.BuildError, match="lite/kernel/t.mjs has no __C__"):
        build_lite.fill("import '__A__';", {"__A__": "a.js", "__C__": "1"}, "t.mjs")


def test_the_worker_start_takes_python_and_the_runner_with_one_digest(tmp_path):
    """install_kernel_start: the live worker (start.mjs) and the keeper (keep.mjs) import
    python.mjs by the build's digest; python.mjs holds the packages, the snapshot's imports, the lessons' runner
    (live.py) and the cache named by the digest; no kernel, no JupyterLite settings."""
    out = tmp_path / "lite"
    (out / "static" / "pyodide").mkdir(parents=True)
    (out / "static" / "pyodide" / "pyodide-lock.json").write_text('{"packages": {}}')
    (out / "static" / "pyodide" / "python_stdlib.zip").write_bytes(b"the standard library")

    digest = build_lite.install_kernel_start(out, ["calijack", "ipywidgets"], ["calijack", "ipywidgets"])
    for worker in ("start.mjs", "keep.mjs"):  # the lesson's worker, and the one keeping Python
        text = (out / "static" / "calijack" / worker).read_text()
        assert f'from "./python.mjs?_={digest}"' in text and "__DIGEST__" not in text, worker
    python = (out / "static" / "calijack" / "python.mjs").read_text()
    assert f'"cache": "calijack-python-{digest}"' in python and "__CONFIG__" not in python
    config = json.loads(python.split("const CONFIG = ", 1)[1].split(";\n", 1)[0])
    assert config["packages"] == ["calijack", "ipywidgets"] and config["preload"] == ["calijack", "ipywidgets"]
    assert config["live"] == (ROOT / "lite" / "kernel" / "live.py").read_text()
    assert not (out / "jupyter-lite.json").exists() and not (out / "extensions").exists()

    # Another lock (other wheels) is another digest, so the browser's kept Python is not reused.
    (out / "static" / "pyodide" / "pyodide-lock.json").write_text('{"packages": {"x": {}}}')
    other = build_lite.install_kernel_start(out, ["calijack"], ["calijack"])
    assert other != digest
    # So is another standard library zip (the build writes the finder of the rest into it).
    (out / "static" / "pyodide" / "python_stdlib.zip").write_bytes(b"another standard library")
    assert build_lite.install_kernel_start(out, ["calijack"], ["calijack"]) not in (digest, other)
