"""The live site's start, cut and compiled at build time (lite/start_split.py, lite/pyc_in_pyodide.py).

Their pure parts, without Pyodide: how the archives are written (stored for a host that
compresses them, deflated for one that does not), what stays in the start and what goes to
the zips fetched on demand, which modules lose their docstrings, and the order in which the
book's "Play live" downloads the runtime. The built site itself is checked in the browser
(``tests/browser/test_live_book.py``).
"""

from __future__ import annotations

import importlib.util
import io
import json
import marshal
import sys
import zipfile
from pathlib import Path

import brotli
import pytest

ROOT = Path(__file__).resolve().parents[1]


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"lite_{name}", ROOT / "lite" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


start_split = load("start_split")
build_lite = load("build_lite")


@pytest.fixture(scope="module")
def pyc_in_pyodide():
    module = load("pyc_in_pyodide")
    sys.meta_path.remove(module.RECORDER)  # it notes imports for the build; not in this process
    return module


# A module with a docstring, a function's docstring and an assert: what -OO takes away.
SOURCE = b'''"""The module's own docstring, long enough to weigh something in the bytecode."""

def f(x):
    """A function's docstring."""
    assert x > 0, "x must be positive"
    return x * 2
'''


def runtime_with(tmp_path: Path) -> Path:
    """A runtime folder: a standard library zip and a wheel, each with a compiled start
    (``.pyc``), modules left as source, and data."""
    runtime = tmp_path / "runtime"
    runtime.mkdir(parents=True)
    with zipfile.ZipFile(runtime / start_split.STDLIB, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("json/__init__.pyc", b"compiled json " * 200)
        archive.writestr("email/message.py", "# email, never imported at start\n" * 100)
        archive.writestr("email/utils.py", "# also email\n" * 100)
        archive.writestr("colorsys.py", "# a lone module\n" * 50)
    with zipfile.ZipFile(runtime / "pkg-1.0-cp314-none-any.whl", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("pkg/__init__.pyc", b"compiled pkg " * 200)
        archive.writestr("pkg/data.json", json.dumps({"cards": list(range(300))}))
        archive.writestr("pkg/extra/more.py", "# later\n" * 80)
        archive.writestr("pkg/labextension/static/remote.js", "front end " * 100)
        archive.writestr("pkg-1.0.data/data/share/jupyter/x.json", "{}")
        archive.writestr("pkg-1.0.dist-info/METADATA", "Name: pkg\nVersion: 1.0\n")
    return runtime


def finder(tmp_path: Path) -> Path:
    path = tmp_path / "rest_import.py"
    path.write_text("INDEX = __INDEX__\n")
    return path


@pytest.mark.parametrize("archives, method", [("stored", zipfile.ZIP_STORED), ("deflated", zipfile.ZIP_DEFLATED)])
def test_the_archives_are_written_as_asked_and_keep_only_the_start(tmp_path, archives, method):
    runtime = runtime_with(tmp_path)
    rest = tmp_path / "rest"
    summary = start_split.split_runtime(runtime, rest, finder(tmp_path), archives)
    with zipfile.ZipFile(runtime / start_split.STDLIB) as stdlib:
        assert {info.compress_type for info in stdlib.infolist()} == {method}
        assert sorted(stdlib.namelist()) == ["_calijack_rest.py", "json/__init__.pyc"]
        index = stdlib.read("_calijack_rest.py").decode()
    with zipfile.ZipFile(runtime / "pkg-1.0-cp314-none-any.whl") as wheel:
        assert {info.compress_type for info in wheel.infolist()} == {method}
        # The start and the data stay; source, the front end and .data/ go.
        assert sorted(wheel.namelist()) == ["pkg-1.0.dist-info/METADATA", "pkg/__init__.pyc", "pkg/data.json"]
    # Each left-out folder is a zip of its own, written the same way, and the finder lists it.
    assert sorted(p.name for p in rest.iterdir()) == ["pkg--pkg.extra.zip", "stdlib--colorsys.zip",
                                                       "stdlib--email.zip"]
    for path in rest.iterdir():
        with zipfile.ZipFile(path) as archive:
            assert {info.compress_type for info in archive.infolist()} == {method}
    listed = json.loads(index.split("=", 1)[1])
    assert listed["stdlib"]["stdlib--email.zip"] == ["email/message.py", "email/utils.py"]
    assert listed["site"] == {"pkg--pkg.extra.zip": ["pkg/extra/more.py"]}
    assert summary == {"rest_files": 3, "rest_bytes": sum(p.stat().st_size for p in rest.iterdir()),
                       "modules_left_out": 4}


def test_the_same_inputs_give_the_same_bytes(tmp_path):
    outputs = []
    for run in ("a", "b"):
        runtime = runtime_with(tmp_path / run)
        start_split.split_runtime(runtime, tmp_path / run / "rest", finder(tmp_path / run))
        outputs.append([(p.name, p.read_bytes()) for p in sorted(runtime.iterdir())])
    assert outputs[0] == outputs[1]


def test_an_unknown_way_of_writing_the_archives_is_refused_before_anything_changes(tmp_path):
    runtime = runtime_with(tmp_path)
    before = {p.name: p.read_bytes() for p in runtime.iterdir()}
    with pytest.raises(ValueError, match="archives must be one of stored, deflated, not 'zstd'"):
        start_split.split_runtime(runtime, tmp_path / "rest", finder(tmp_path), "zstd")
    assert {p.name: p.read_bytes() for p in runtime.iterdir()} == before


def test_a_stored_archive_compressed_whole_is_smaller_than_its_files_deflated(tmp_path):
    """Why stored is the default: Brotli works across the files of an archive (module files
    that repeat each other's names and code), deflate one file at a time."""
    modules = {f"pkg/mod{i}.py": (f'"""Module {i}."""\nimport json\n\n\ndef handler_{i}(value):\n'
                                  f'    return json.dumps({{"value": value, "module": {i}}})\n') * 20
               for i in range(60)}
    sizes = {}
    for method in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", method) as archive:
            for name, text in modules.items():
                archive.writestr(name, text)
        sizes[method] = buffer.getvalue()
    sent_stored = len(brotli.compress(sizes[zipfile.ZIP_STORED], quality=11))
    sent_deflated = len(sizes[zipfile.ZIP_DEFLATED])  # a host sends a deflated zip as it is
    assert sent_stored < 0.8 * sent_deflated, (sent_stored, sent_deflated)


def test_the_start_loses_its_docstrings_but_calijack_keeps_its_asserts(pyc_in_pyodide):
    assert pyc_in_pyodide.optimize_level("calijack/core.py") == 0
    assert pyc_in_pyodide.optimize_level("calijack/widgets/sandbox.py") == 0
    for member in ("json/__init__.py", "IPython/core/interactiveshell.py", "calijack_other/x.py"):
        assert pyc_in_pyodide.optimize_level(member) == 2, member

    def loaded(pyc: bytes) -> dict:
        assert pyc[:4] == importlib.util.MAGIC_NUMBER
        namespace: dict = {}
        exec(marshal.loads(pyc[16:]), namespace)
        return namespace

    kept = loaded(pyc_in_pyodide.pyc_bytes(SOURCE, "calijack/x.py", 0))
    assert kept["__doc__"].startswith("The module's own docstring")
    assert kept["f"].__doc__ == "A function's docstring."
    with pytest.raises(AssertionError, match="x must be positive"):
        kept["f"](-1)
    stripped_pyc = pyc_in_pyodide.pyc_bytes(SOURCE, "json/x.py", 2)
    stripped = loaded(stripped_pyc)
    assert stripped.get("__doc__") is None and stripped["f"].__doc__ is None
    assert stripped["f"](-1) == -2  # no assert left
    assert len(stripped_pyc) < len(pyc_in_pyodide.pyc_bytes(SOURCE, "json/x.py", 0))


def test_compile_archive_strips_all_but_calijack(tmp_path, pyc_in_pyodide):
    source = tmp_path / "in.whl"
    with zipfile.ZipFile(source, "w") as archive:
        archive.writestr("calijack/a.py", SOURCE)
        archive.writestr("other/b.py", SOURCE)
    target = tmp_path / "out.whl"
    assert pyc_in_pyodide.compile_archive(source, target, {"calijack/a.py", "other/b.py"}, "/site/") == 2
    with zipfile.ZipFile(target) as archive:
        own = marshal.loads(archive.read("calijack/a.pyc")[16:])
        other = marshal.loads(archive.read("other/b.pyc")[16:])
    assert "The module's own docstring" in own.co_consts[0]
    assert not any(isinstance(c, str) and "docstring" in c for c in other.co_consts)


def test_play_live_downloads_the_interpreter_first_then_the_standard_library_then_the_wheels():
    sizes = {"zeta-1-py3-none-any.whl": 900, "pyodide-lock.json": 9000, "python_stdlib.zip": 4_000_000,
             "pyodide.asm.wasm": 9_000_000, "alpha-1-py3-none-any.whl": 100, "pyodide.mjs": 18_000,
             "pyodide.asm.mjs": 1_200_000, "beta-1-py3-none-any.whl": 900}
    order = sorted(sizes, key=lambda name: build_lite.download_order(name, sizes[name]))
    assert order == ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                     "pyodide-lock.json", "beta-1-py3-none-any.whl", "zeta-1-py3-none-any.whl",
                     "alpha-1-py3-none-any.whl"]
