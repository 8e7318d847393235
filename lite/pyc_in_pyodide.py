"""Inside the site's own Pyodide (``lite/pyodide_run.mjs``): compile what the live lessons need to start.

    pyc_in_pyodide.py RUNTIME LESSONS_JSON OUT_DIR REPORT_JSON     (host paths)

Pyodide imports a module from source by compiling it first, on every start, in the reader's
browser: for the kernel and a lesson that is most of Python's start-up time. So the build does
the compiling once, with this very interpreter (the same Python 3.14 and bytecode as in the
browser):

1. it starts the way the kernel starts (``import piplite.piplite``, ``import pyodide_kernel``,
   as pyodide-kernel's worker does), then runs every lesson's code cells;
2. every module then loaded from ``python_stdlib.zip`` or from a wheel is in *the start set*;
3. each archive holding some of them is written to ``OUT_DIR`` with those ``.py`` files
   replaced by sourceless ``.pyc`` files (as in Pyodide's own py-compiled distribution),
   and the wheel's ``RECORD`` updated. Every other module stays source: it is compiled only if
   it is ever imported, and the download stays small.

``REPORT_JSON`` gets ``{"compiled": {archive: count}, "modules": n, "errors": [...]}``: a
lesson that fails here is reported (the build says so), not fatal.
"""

from __future__ import annotations

import importlib.util
import json
import marshal
import sys
import zipfile
from pathlib import Path

HOST = "/host"  # where pyodide_run.mjs mounts the host's file system


def pyc_bytes(source: bytes, filename: str) -> bytes:
    """A sourceless ``.pyc`` of ``source``: timestamp header with zeros (no source to check)."""
    code = compile(source, filename, "exec", dont_inherit=True)
    header = importlib.util.MAGIC_NUMBER + bytes(8) + (len(source) & 0xFFFFFFFF).to_bytes(4, "little")
    return header + marshal.dumps(code)


def compile_archive(source: Path, target: Path, members: set[str], prefix: str) -> int:
    """Copy a zip or wheel, its ``members`` (``.py`` names) compiled; return how many were."""
    done = 0
    record = None
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            name, data = info.filename, zin.read(info)
            if name in members:
                data, name = pyc_bytes(data, prefix + name), name + "c"
                done += 1
            elif name.endswith(".dist-info/RECORD"):
                record = info
                continue
            out = zipfile.ZipInfo(name, date_time=info.date_time)
            out.external_attr = info.external_attr
            zout.writestr(out, data, zipfile.ZIP_DEFLATED)
        if record is not None:  # the compiled files' new names, without the source's hash
            lines = zin.read(record).decode("utf-8").splitlines()
            fixed = [f"{line.split(',', 1)[0]}c,," if line.split(",", 1)[0] in members else line
                     for line in lines]
            out = zipfile.ZipInfo(record.filename, date_time=record.date_time)
            out.external_attr = record.external_attr
            zout.writestr(out, "\n".join(fixed) + "\n", zipfile.ZIP_DEFLATED)
    return done


def start_modules() -> list[str]:
    """The source files of every loaded module that came from a ``.py`` file."""
    files = set()
    for module in list(sys.modules.values()):
        spec = getattr(module, "__spec__", None)
        origin = getattr(spec, "origin", None) or ""
        if origin.endswith(".py"):
            files.add(origin)
    return sorted(files)


async def run_lessons(lessons: dict[str, list[str]]) -> list[str]:
    """Start as the kernel does, then run each lesson's cells; return what failed."""
    from pyodide.code import eval_code_async

    import piplite.piplite  # noqa: F401  (the worker's initPackageManager)
    import pyodide_kernel  # (its initKernel)

    # The worker's initGlobals connects widget messages to the page; here they go nowhere.
    pyodide_kernel.kernel_instance.interpreter.send_comm = lambda *args, **kwargs: None

    errors = []
    for name, cells in lessons.items():
        namespace = {"__name__": "__main__"}
        for number, code in enumerate(cells, 1):
            try:
                await eval_code_async(code, namespace, filename=f"<{name} cell {number}>")
            except BaseException as exc:  # noqa: BLE001  (reported to the build, which goes on)
                errors.append(f"{name} cell {number}: {type(exc).__name__}: {exc}")
                break
    return errors


async def main(argv: list[str]) -> None:
    """Run the lessons, then write the compiled archives and the report."""
    runtime, lessons_json, out, report_path = (Path(HOST + arg) for arg in argv)
    lessons = json.loads(lessons_json.read_text(encoding="utf-8"))["lessons"]
    errors = await run_lessons(lessons)
    modules = start_modules()
    stdlib_zip = next(p for p in sys.path if p.endswith(".zip"))
    site = next(p for p in sys.path if p.endswith("site-packages"))
    lock = json.loads((runtime / "pyodide-lock.json").read_text())
    archives = {runtime / "python_stdlib.zip": (stdlib_zip + "/", set())}
    owner = {}  # site-packages path -> its wheel
    for entry in lock["packages"].values():
        wheel = runtime / entry["file_name"]
        archives[wheel] = (site + "/", set())
        with zipfile.ZipFile(wheel) as archive:
            owner.update((f"{site}/{name}", wheel) for name in archive.namelist() if name.endswith(".py"))
    for path in modules:
        if path.startswith(stdlib_zip + "/"):
            archives[runtime / "python_stdlib.zip"][1].add(path[len(stdlib_zip) + 1:])
        elif path in owner:
            archives[owner[path]][1].add(path[len(site) + 1:])
    compiled = {}
    for archive, (prefix, members) in archives.items():
        if members:
            compiled[archive.name] = compile_archive(archive, out / archive.name, members, prefix)
    report = {"compiled": compiled, "modules": len(modules), "errors": errors}
    report_path.write_text(json.dumps(report, indent=1, sort_keys=True))

