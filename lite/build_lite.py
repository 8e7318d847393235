"""Build the live book's in-browser part: the live lesson's page on Pyodide, offline.

    python lite/build_lite.py [--out _build/lite] [--cache _build/lite-cache]

The result is a folder of static files (about 33 MB, 195 files) that the book serves under ``lite/``
(``book/_ext/calijack_live.py`` copies it into ``_build/html/lite``). Nothing in it loads
from another host, and it works from any static host that sends ``.wasm`` as
``application/wasm`` and ``.mjs`` as JavaScript.

What goes in, and where it comes from (every download is pinned, and cached in ``--cache``
so a second build downloads nothing):

- the Pyodide 314 runtime: npm ``pyodide`` (``lite/package.json`` and its lock, ``npm ci``);
- the wheels of the lessons' Python: ``lite/kernel-requirements.txt`` (exact pins with
  hashes, pure Python, ``pip download`` for Python 3.14), ``calijack`` built from this tree,
  and a stand-in for ``IPython`` (``lite/wheels.py``: ipywidgets imports three of its names);
- the live lesson's page (``lite/play/``, what "Play live" opens): a worker with Python in it,
  the lesson's widgets drawn by the book's widget manager, and anywidget's front end taken
  from its wheel (``install_play_page``). No Jupyter kernel and no JupyterLite app: the worker
  runs the cells through ``lite/kernel/live.py`` and the live page is the whole front end;
- ``lessons.json``: the code cells of each lesson (``notebooks/*.ipynb`` less the cells tagged
  ``book-only``), which the book's "Play live" button runs in the live page;
- the start, compiled: every module the lessons import before their first frame
  is shipped as ``.pyc`` made by the site's own Pyodide in Node (``lite/pycompile.py``), so the
  reader's browser does not compile them on every start; the rest stays source;
- the start, cut to what it imports (``lite/start_split.py``): the standard library zip and
  the wheels keep the compiled start and their data; every other module goes to small zips
  Python fetches on a first import (``lite/kernel/rest_import.py``);
- the start, early and kept (``lite/kernel/``): the live page makes its worker as it opens
  (``start.mjs``: Python starts at once), whose Python is ``python.mjs``, which keeps a memory
  snapshot of the started Python in the browser's Cache Storage and restores it on later
  starts (the build fills in the wheels, the modules to import before the snapshot, the
  lessons' runner ``live.py``, and a digest of all that naming the cache).

Every wheel is listed in the site's own ``pyodide-lock.json`` and loaded by Pyodide as it
starts, so the lessons import ``calijack`` as they do in Voilà, with no install cell, and
nothing asks a package index for anything.

The steps, one job a module beside this one (this module runs them, in :func:`build`):
``lite/fetch.py`` (the pinned downloads and their cache), ``lite/wheels.py`` (the wheels the
build makes), ``lite/lockfile.py`` (the site's ``pyodide-lock.json``), ``lite/assemble.py``
(the lessons, the worker's start and runner, the live page), with ``lite/pycompile.py`` and
``lite/start_split.py``; ``lite/buildbase.py`` holds what they share.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
# lite/*.py, beside this file. Every name the steps define that tests and tools read from
# here is imported here too.
import pycompile  # noqa: E402
import start_split  # noqa: E402
from assemble import (  # noqa: E402, F401
    ANYWIDGET_AMD,
    BOOK_ONLY_TAG,
    KERNEL_START,
    LIVE_SOURCES,
    NOT_IN_SNAPSHOT,
    OFFLINE_TOO,
    PLAY_PAGE,
    PYODIDE_FILES,
    REST_DIR,
    SNAPSHOT_IMPORTS,
    SOURCE_MAP,
    START_ORDER,
    download_order,
    fill,
    install_kernel_start,
    install_play_page,
    lesson_code,
    snapshot_imports,
)
from buildbase import HERE, PYTHON_VERSION, REPO, BuildError, log, run, sha256  # noqa: E402, F401
from fetch import PYODIDE_VERSION, kernel_wheels, pinned, pyodide_runtime, wheel_key  # noqa: E402, F401
from lockfile import EMSCRIPTEN, FRONTEND_ONLY, pyodide_lock, wheel_entry  # noqa: E402, F401
from wheels import (  # noqa: E402, F401
    STAND_IN_SOURCES,
    STAND_INS,
    WHEEL_EPOCH,
    calijack_wheel,
    stand_in,
)


def build(out: Path, cache: Path, archives: str = "stored") -> dict:
    """Build the whole lite site into ``out``; return a summary (files, bytes, seconds).
    ``archives``: how the wheels and the standard library zip are written (lite/start_split.py)."""
    started = time.monotonic()
    cache.mkdir(parents=True, exist_ok=True)
    runtime = pyodide_runtime(cache)
    downloaded = kernel_wheels(cache)
    with tempfile.TemporaryDirectory(prefix="calijack-lite-") as tmp:
        work = Path(tmp)
        by_name = {wheel_key(w)[0]: w for w in downloaded}
        kernel = [w for name, w in by_name.items() if name not in FRONTEND_ONLY]
        kernel.append(calijack_wheel(work))
        kernel += [stand_in(name, version, work) for name, version in STAND_INS.items()]
        lock = pyodide_lock(runtime, kernel)
        packages = sorted(lock["packages"])
        lessons = {nb.stem: lesson_code(nb)
                   for nb in sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))}
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        target = out / "static" / "pyodide"
        target.mkdir(parents=True, exist_ok=True)
        for name in PYODIDE_FILES:
            shutil.copy2(runtime / name, target / name)
        for wheel in kernel:
            shutil.copy2(wheel, target / wheel.name)
        (target / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True))
        (out / "lessons.json").write_text(json.dumps({"lessons": lessons}, indent=1, ensure_ascii=False))
        # What the lessons import at start, compiled once here, not in every browser.
        compiled = pycompile.compile_start(target, out / "lessons.json", cache, "cp" + PYTHON_VERSION.replace(".", ""))
        log(f"{sum(compiled['compiled'].values())} modules of the start compiled to .pyc "
            + ("(in Node)" if compiled["ran_node"] else "(cached)"))
        # Which import needs each archive (bench/live_network.py's table), beside the build.
        (cache / "start-report.json").write_text(json.dumps(
            {"modules": compiled["modules"], "needed_by": compiled.get("needed_by", {})}, indent=1))
        for error in compiled["errors"]:
            log(f"warning: a lesson failed while compiling its start (it is left as source): {error}")
        wheels = [target / compiled["renamed"].get(w.name, w.name) for w in kernel]
        # The start only in what Python loads; the other modules fetched if ever imported.
        split = start_split.split_runtime(target, out / REST_DIR, KERNEL_START / "rest_import.py", archives)
        log(f"{split['modules_left_out']} modules the start does not import are left to "
            f"{split['rest_files']} zips fetched on demand ({split['rest_bytes'] / 1e6:.1f} MB)")
        lock = pyodide_lock(runtime, wheels)
        (target / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True))
        digest = install_kernel_start(out, packages, snapshot_imports(lessons))
        install_play_page(out, digest, by_name["anywidget"])
        log(f"Python starts early in the live worker, kept in the browser as calijack-python-{digest}")
        # What the book's "Play live" needs: each lesson's code, the runtime's files with
        # their sizes (it downloads them beside the live page, to say how far along it is), and the name of
        # the cache where a browser keeps its started Python (then nothing needs downloading).
        # In the order Python needs them: the interpreter, the standard library and the list of
        # packages ("start": the page downloads these first, two at a time), then the wheels,
        # largest first (all at once, after those: Python's own start runs while they come).
        # "gzip_bytes" is what a host that compresses sends: the page tells the reader that figure.
        runtime_files = sorted(({"name": p.name, "bytes": p.stat().st_size,
                                 "gzip_bytes": len(gzip.compress(p.read_bytes(), 6)),
                                 **({"start": True} if p.name in START_ORDER else {})} for p in target.iterdir()),
                               key=lambda f: download_order(f["name"], f["bytes"]))
        # Files a lesson may fetch where the first lesson played did not (OFFLINE_TOO): the
        # book's service worker keeps them after a first "Play live" (offline).
        offline = sorted(p.relative_to(out).as_posix() for p in out.rglob(OFFLINE_TOO))
        (out / "lessons.json").write_text(json.dumps({"lessons": lessons, "runtime": runtime_files,
                                                      "python_cache": f"calijack-python-{digest}",
                                                      "offline": offline},
                                                     indent=1, ensure_ascii=False))
    files = [p for p in out.rglob("*") if p.is_file()]
    return {"files": len(files), "bytes": sum(p.stat().st_size for p in files),
            "seconds": round(time.monotonic() - started, 1)}


def main(argv: list[str] | None = None) -> int:
    """Command line: build the lite site; exit 1 with a one-line reason on failure."""
    parser = argparse.ArgumentParser(prog="python lite/build_lite.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "_build" / "lite")
    parser.add_argument("--cache", type=Path, default=REPO / "_build" / "lite-cache")
    parser.add_argument("--archives", choices=sorted(start_split.ARCHIVES), default="stored",
                        help="stored (the default: for a host that compresses them, as `make serve` "
                             "does) or deflated (for a host that sends .zip and .whl as they are)")
    args = parser.parse_args(argv)
    try:
        summary = build(args.out.resolve(), args.cache.resolve(), args.archives)
    except (BuildError, pycompile.CompileError) as exc:
        print(f"build_lite: {exc}", file=sys.stderr)
        return 1
    log(f"{summary['files']} files, {summary['bytes'] / 1e6:.1f} MB, in {summary['seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
