"""Inside the site's own Pyodide (``lite/pyodide_run.mjs``): compile what the live lessons need to start.

    pyc_in_pyodide.py RUNTIME LESSONS_JSON OUT_DIR REPORT_JSON     (host paths)

Pyodide imports a module from source by compiling it first, on every start, in the reader's
browser: for a lesson that is most of Python's start-up time. So the build does
the compiling once, with this very interpreter (the same Python 3.14 and bytecode as in the
browser):

1. it runs every lesson's code cells as the live page does (through ``lite/kernel/live.py``),
   then imports the ``calijack`` modules that those import inside functions (what a lesson's
   buttons import later: the coach, the opponents, records), until there is no new one;
2. every module then loaded from ``python_stdlib.zip`` or from a wheel is in *the start set*;
3. each archive holding some of them is written to ``OUT_DIR`` with those ``.py`` files
   replaced by sourceless ``.pyc`` files (as in Pyodide's own py-compiled distribution),
   and the wheel's ``RECORD`` updated. Every other module stays source: it is compiled only if
   it is ever imported, and the download stays small.

``REPORT_JSON`` gets ``{"compiled": {archive: count}, "modules": n, "errors": [...],
"needed_by": {archive: "module <- importer <- ..."}}`` (for each archive, the chain of imports
that took a module from it, the shortest one): a lesson that fails here is reported (the build
says so), not fatal.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import json
import marshal
import sys
import types
import zipfile
from pathlib import Path

HOST = "/host"  # where pyodide_run.mjs mounts the host's file system
# The package whose every module goes into the start set (those that import in the browser).
OWN_PACKAGE = "calijack"


class ImportRecorder:
    """On ``sys.meta_path`` first: notes, for each module imported, the module that asked for
    it (and finds nothing itself, so the import goes on as before)."""

    def __init__(self) -> None:
        self.asked_by: dict[str, str] = {}

    def find_spec(self, name, path=None, target=None):
        frame = sys._getframe(1)
        while frame is not None and (frame.f_code.co_filename.startswith("<frozen")
                                     or "importlib" in frame.f_code.co_filename):
            frame = frame.f_back
        self.asked_by.setdefault(name, frame.f_globals.get("__name__", "?") if frame else "?")
        return None

    def chain(self, name: str, limit: int = 8) -> str:
        """``name <- its importer <- ...``, up to ``limit`` links."""
        links = [name]
        while name in self.asked_by and len(links) < limit:
            name = self.asked_by[name]
            links.append(name)
        return " <- ".join(links)


RECORDER = ImportRecorder()
sys.meta_path.insert(0, RECORDER)


# Compiled as ``python -OO`` would (no docstrings, no asserts): every module of the start but
# :data:`OWN_PACKAGE`'s, whose asserts are the engine's own checks and stay, as in Voila.
# Docstrings are a sixth of the standard library's bytecode; no lesson reads one (the live app
# has no code input, so no ``help()`` and no ``?``).
OPTIMIZE = 2


def optimize_level(member: str) -> int:
    """The ``compile`` optimisation of an archive member: 0 for :data:`OWN_PACKAGE`'s own modules,
    :data:`OPTIMIZE` for the rest (the standard library, the kernel, IPython, the widgets)."""
    return 0 if member.split("/", 1)[0] == OWN_PACKAGE else OPTIMIZE


def pyc_bytes(source: bytes, filename: str, optimize: int = 0) -> bytes:
    """A sourceless ``.pyc`` of ``source``: timestamp header with zeros (no source to check),
    compiled at ``optimize`` (0, 1 or 2, as ``compile`` takes it)."""
    code = compile(source, filename, "exec", dont_inherit=True, optimize=optimize)
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
                data, name = pyc_bytes(data, prefix + name, optimize_level(name)), name + "c"
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


def start_modules() -> dict[str, str]:
    """``{source file: module name}`` of every loaded module that came from a ``.py`` file."""
    files = {}
    for name, module in list(sys.modules.items()):
        spec = getattr(module, "__spec__", None)
        origin = getattr(spec, "origin", None) or ""
        if origin.endswith(".py"):
            files[origin] = name
    return dict(sorted(files.items()))


def lazy_own_imports(module) -> set[str]:
    """The :data:`OWN_PACKAGE` modules that ``module``'s source imports anywhere, in a function
    too (a button's lazy import)."""
    file = getattr(module, "__file__", None) or ""
    if not file.endswith(".py"):
        return set()
    package = module.__name__ if file.endswith("__init__.py") else module.__name__.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(Path(file).read_bytes())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {name for name in found if name.split(".")[0] == OWN_PACKAGE}


def import_own_lazy_modules() -> None:
    """Import every :data:`OWN_PACKAGE` module the loaded ones import lazily, until none is
    new: what the lessons' buttons import later (the coach, the opponents, records) is then
    in the start set. (Not every module of the package: its server side needs Voila.)"""
    seen: set[str] = set()
    while True:
        new = [name for name in list(sys.modules) if name.split(".")[0] == OWN_PACKAGE and name not in seen]
        if not new:
            return
        for name in new:
            seen.add(name)
            for target in lazy_own_imports(sys.modules[name]) - set(sys.modules):
                try:
                    if importlib.util.find_spec(target) is not None:
                        importlib.import_module(target)
                except (ImportError, AttributeError, ValueError):
                    pass  # a name imported from a module, not a module itself


async def run_lessons(lessons: dict[str, list[str]]) -> list[str]:
    """Run each lesson's cells as the live page does, through the lessons' runner
    (lite/kernel/live.py, beside this script), its messages sent nowhere; return what failed."""
    runner = types.ModuleType("_calijack_live")
    sys.modules[runner.__name__] = runner
    source = Path(HOST + __file__).parent / "kernel" / "live.py"
    exec(compile(source.read_text(encoding="utf-8"), "_calijack_live.py", "exec"), runner.__dict__)
    runner.connect(lambda message: None)

    errors = []
    for name, cells in lessons.items():
        for number, code in enumerate(cells, 1):
            result = await runner.execute(code, f"{name}-{number}")
            if result["status"] != "ok":  # reported to the build, which goes on
                errors.append(f"{name} cell {number}: {result['ename']}: {result['evalue']}")
                break
    return errors


async def main(argv: list[str]) -> None:
    """Run the lessons, then write the compiled archives and the report."""
    runtime, lessons_json, out, report_path = (Path(HOST + arg) for arg in argv)
    lessons = json.loads(lessons_json.read_text(encoding="utf-8"))["lessons"]
    errors = await run_lessons(lessons)
    import_own_lazy_modules()
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
    needed_by = {}
    for path, name in modules.items():
        if path.startswith(stdlib_zip + "/"):
            archive, member = runtime / "python_stdlib.zip", path[len(stdlib_zip) + 1:]
        elif path in owner:
            archive, member = owner[path], path[len(site) + 1:]
        else:
            continue
        archives[archive][1].add(member)
        # The shortest chain says best why the archive is needed at all.
        chain = RECORDER.chain(name)
        if archive.name not in needed_by or chain.count("<-") < needed_by[archive.name].count("<-"):
            needed_by[archive.name] = chain
    compiled = {}
    for archive, (prefix, members) in archives.items():
        if members:
            compiled[archive.name] = compile_archive(archive, out / archive.name, members, prefix)
    report = {"compiled": compiled, "modules": len(modules), "errors": errors, "needed_by": needed_by}
    report_path.write_text(json.dumps(report, indent=1, sort_keys=True))

