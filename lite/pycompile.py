"""The live site's start, compiled at build time: ``.pyc`` for what the lessons import first.

``lite/build_lite.py`` calls :func:`compile_start` on the site's runtime folder (the npm
Pyodide runtime, the wheels and their ``pyodide-lock.json``). It runs
``lite/pyc_in_pyodide.py`` in that very runtime, in Node (``lite/pyodide_run.mjs``; Node
comes with npm, which the build needs already), so the bytecode is exactly the browser's
Python 3.14, whatever Python runs the build. The archives it rewrites replace the originals;
a wheel with compiled modules is renamed with the ``cp314`` tag, as Pyodide names its own
py-compiled wheels.

The result is cached in ``CACHE/pyc``, keyed by every input (the runtime, each archive, the
lessons, the two scripts), so a second build with the same inputs does not run Node.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUNNER = HERE / "pyodide_run.mjs"
SCRIPT = HERE / "pyc_in_pyodide.py"
LIVE_RUNNER = HERE / "kernel" / "live.py"  # the script runs the lessons through it


class CompileError(RuntimeError):
    """The compile step failed; the message says why."""


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def cache_key(runtime: Path, lessons_json: Path) -> str:
    """A digest of everything the compiled archives depend on."""
    lock = json.loads((runtime / "pyodide-lock.json").read_text())
    parts = [lock["info"].get("version", ""), _digest(runtime / "python_stdlib.zip"),
             _digest(runtime / "pyodide.asm.wasm"), _digest(lessons_json), _digest(RUNNER), _digest(SCRIPT),
             _digest(LIVE_RUNNER)]
    parts += sorted(f"{e['file_name']}:{e['sha256']}" for e in lock["packages"].values())
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:24]


def compiled_name(name: str, python_tag: str) -> str:
    """``ipython-9.18.1-py3-none-any.whl`` -> ``ipython-9.18.1-cp314-none-any.whl``; zips keep theirs."""
    if not name.endswith(".whl"):
        return name
    distribution, version, _python, abi, platform = name[:-len(".whl")].split("-")
    return f"{distribution}-{version}-{python_tag}-{abi}-{platform}.whl"


def _run_node(runtime: Path, lessons_json: Path, out: Path) -> None:
    cmd = ["node", str(RUNNER), str(runtime), str(SCRIPT), str(runtime), str(lessons_json), str(out),
           str(out / "report.json")]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    except FileNotFoundError as exc:
        raise CompileError("node is not installed (it comes with npm; see README.md, The two commands)") from exc
    if done.returncode != 0:
        raise CompileError(f"compiling the lessons' start in Pyodide failed:\n{done.stderr[-3000:]}")


def compile_start(runtime: Path, lessons_json: Path, cache: Path, python_tag: str) -> dict:
    """Compile the start set in ``runtime`` in place; return the report and the renamed files."""
    key = cache_key(runtime, lessons_json)
    entry = cache / "pyc" / key
    ran_node = False
    if not (entry / "report.json").is_file():
        staging = entry.with_name(key + ".partial")
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        _run_node(runtime, lessons_json, staging)
        for old in entry.parent.iterdir():  # one entry is enough: the newest inputs
            if old != staging:
                shutil.rmtree(old, ignore_errors=True)
        staging.rename(entry)
        ran_node = True
    report = json.loads((entry / "report.json").read_text())
    renamed = {}
    for name in report["compiled"]:
        new = compiled_name(name, python_tag)
        (runtime / name).unlink()
        shutil.copy2(entry / name, runtime / new)
        renamed[name] = new
    return {**report, "renamed": renamed, "ran_node": ran_node}
