"""The live site put together (lite/build_lite.py's last steps): the lessons' code, the
kernel's worker, the kernel's early start with its settings, and the live lesson's page."""

from __future__ import annotations

import ast
import hashlib
import json
import re
import shutil
import zipfile
from pathlib import Path

import start_split  # lite/start_split.py
from buildbase import HERE, BuildError, sha256

# The runtime files of the npm package that the site needs (no source maps, no TypeScript).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
# The runtime's files in the order Python's start needs them; the wheels come after.
START_ORDER = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
# Cells of a lesson kept for the live app: code only, without the static book's stand-ins, and
# without the cells the book's page answers by itself (lesson 3's quick checks and their keeper:
# the page shows and keeps them with no kernel), so the live page's last cell is the lesson's demo.
BOOK_ONLY_TAG = "book-only"
NOT_LIVE_TAG = "not-live"
# The early start of the kernel's Python, and its snapshot (lite/kernel/, see python.mjs).
KERNEL_START = HERE / "kernel"
# The live lesson's page (lite/play/), and anywidget's front end as an AMD module in its wheel.
PLAY_PAGE = HERE / "play"
ANYWIDGET_AMD = "anywidget/nbextension/index.js"
SOURCE_MAP = re.compile(r"^//# sourceMappingURL=.*$", re.MULTILINE)
# Where the modules the start leaves out are (lite/start_split.py), in the site.
REST_DIR = "static/calijack/rest"
# The live page's files kept for offline use after a first "Play live" besides those it fetched:
# anywidget's front end, which RequireJS loads only for a lesson with an anywidget (the sandbox,
# the practice puzzles), not for one with ipywidgets alone.
OFFLINE_TOO = "static/calijack/anywidget.js"
# The kernel's worker: where the site has it, and where the jupyterlite-pyodide-kernel wheel does.
KERNEL_WORKER_DIR = "extensions/@jupyterlite/pyodide-kernel-extension/static"
KERNEL_WORKER_GLOB = KERNEL_WORKER_DIR + "/comlink.worker.*.js"
KERNEL_WORKER_IN_WHEEL = re.compile(r"\.data/data/share/jupyter/labextensions/@jupyterlite/"
                                    r"pyodide-kernel-extension/static/(comlink\.worker\.[0-9a-f]+\.js)$")
# Imported before the snapshot, besides the lessons' own imports: what the kernel and every
# widget lesson import. Not piplite, micropip or pyodide_kernel: they hold JavaScript objects,
# which a snapshot refuses; the kernel imports them after the start, as before.
SNAPSHOT_IMPORTS = ("IPython", "comm", "ipywidgets", "anywidget")
NOT_IN_SNAPSHOT = ("js", "pyodide", "pyodide_js", "micropip", "piplite", "pyodide_kernel")
# Run after the start (fresh or restored), while the app still boots: the kernel's own imports
# (it imports them again, at no cost), and ipywidgets' comm target, which ipywidgets registers
# only when imported after the kernel exists (in the snapshot, it was imported before).
KERNEL_IMPORTS = "import piplite.piplite\nimport pyodide_kernel\nimport ipywidgets\nipywidgets.register_comm_target()"


def download_order(name: str, size: int) -> tuple:
    """Sort key of a runtime file for "Play live": :data:`START_ORDER` first, in that order,
    then the wheels, largest first."""
    first = START_ORDER.index(name) if name in START_ORDER else len(START_ORDER)
    return first, -size, name


def lesson_code(source: Path) -> list[str]:
    """The code cells of a lesson, in order, without the static book's stand-ins and the cells
    the book's page answers by itself (:data:`BOOK_ONLY_TAG`, :data:`NOT_LIVE_TAG`)."""
    nb = json.loads(source.read_text(encoding="utf-8"))
    cells = ["".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
             for cell in nb["cells"] if cell["cell_type"] == "code"
             and not {BOOK_ONLY_TAG, NOT_LIVE_TAG} & set(cell.get("metadata", {}).get("tags", []))]
    if not cells:
        raise BuildError(f"{source.name} has no code cell for the live app")
    return cells


def snapshot_imports(lessons: dict[str, list[str]]) -> list[str]:
    """The modules Python imports before its snapshot: :data:`SNAPSHOT_IMPORTS` and every
    module a lesson's code imports (absolute imports only), but none of :data:`NOT_IN_SNAPSHOT`."""
    names = set(SNAPSHOT_IMPORTS)
    for cells in lessons.values():
        for code in cells:
            try:
                tree = ast.parse(code)
            except SyntaxError:
                continue  # a cell with IPython syntax: its imports are not needed early
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names.update(alias.name for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names.add(node.module)
    return sorted(n for n in names if n.split(".")[0] not in NOT_IN_SNAPSHOT)


def fill(template: str, values: dict[str, str], name: str) -> str:
    """``template`` with each marker of ``values`` replaced; a marker missing is a BuildError."""
    for marker, value in values.items():
        if marker not in template:
            raise BuildError(f"lite/kernel/{name} has no {marker} to fill in")
        template = template.replace(marker, value)
    return template


def install_kernel_worker(out: Path, pyodide_kernel: Path) -> Path:
    """The Pyodide kernel's worker, from the JupyterLab extension in the
    jupyterlite-pyodide-kernel wheel (one self-contained script, its source map left out), put
    where the site keeps it; returns its path."""
    with zipfile.ZipFile(pyodide_kernel) as archive:
        found = [(match.group(1), name) for name in archive.namelist()
                 if (match := KERNEL_WORKER_IN_WHEEL.search(name))]
        if len(found) != 1:
            raise BuildError(f"{pyodide_kernel.name}: expected one kernel worker "
                             f"(comlink.worker.*.js) in its JupyterLab extension, found {len(found)}")
        (base, member), = found
        script = archive.read(member).decode("utf-8")
    target = out / KERNEL_WORKER_DIR / base
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(SOURCE_MAP.sub("", script), encoding="utf-8")
    return target


def install_kernel_start(out: Path, packages: list[str], preload: list[str]) -> str:
    """Put lite/kernel/ into the site: the start of the kernel's worker and its Python, with
    the snapshot kept in the browser, and the kernel's settings naming that Python
    (``jupyter-lite.json``). Returns the build digest naming its cache."""
    workers = sorted(out.glob(KERNEL_WORKER_GLOB))
    if len(workers) != 1:
        raise BuildError(f"expected one Pyodide kernel worker ({KERNEL_WORKER_GLOB}), found {len(workers)}")
    worker = workers[0].relative_to(out).as_posix()
    lock = (out / "static" / "pyodide" / "pyodide-lock.json").read_bytes()
    sources = {name: (KERNEL_START / name).read_text(encoding="utf-8") for name in ("start.mjs", "python.mjs")}
    # The standard library zip too: the build writes the finder of the rest into it.
    stdlib = sha256(out / "static" / "pyodide" / start_split.STDLIB)
    digest = hashlib.sha256(lock + json.dumps([sources, packages, preload, KERNEL_IMPORTS, worker, stdlib])
                            .encode()).hexdigest()[:16]
    config = {"packages": packages, "preload": preload, "kernel": KERNEL_IMPORTS,
              "cache": f"calijack-python-{digest}"}
    target = out / "static" / "calijack"
    target.mkdir(parents=True, exist_ok=True)
    (target / "start.mjs").write_text(fill(sources["start.mjs"], {
        "__DIGEST__": digest, "__KERNEL_WORKER__": f"../../{worker}"}, "start.mjs"), encoding="utf-8")
    (target / "python.mjs").write_text(fill(sources["python.mjs"], {
        "__CONFIG__": json.dumps(config)}, "python.mjs"), encoding="utf-8")
    # The kernel's settings, as JupyterLite would give them (the live page reads them), with
    # python.mjs as the kernel's Pyodide.
    (out / "jupyter-lite.json").write_text(json.dumps(lite_config(packages, f"./static/calijack/python.mjs?_={digest}"),
                                                      indent=2), encoding="utf-8")
    return digest


def install_play_page(out: Path, digest: str, runtime: Path, anywidget: Path) -> None:
    """Put the live lesson's page (lite/play/) into the site, with what it loads besides the
    book's own widget manager: comlink (npm, beside the Pyodide runtime) and anywidget's front
    end as an AMD module (the ``nbextension`` of its wheel, the very version the kernel has)."""
    play = out / "play"
    play.mkdir(parents=True, exist_ok=True)
    page = (PLAY_PAGE / "index.html").read_text(encoding="utf-8")
    (play / "index.html").write_text(fill(page, {"__DIGEST__": digest}, "../play/index.html"), encoding="utf-8")
    shutil.copy2(PLAY_PAGE / "play.mjs", play / "play.mjs")
    target = out / "static" / "calijack"
    comlink = runtime.parent / "comlink" / "dist" / "esm" / "comlink.min.mjs"
    if not comlink.is_file():
        raise BuildError(f"{comlink} is missing: lite/package.json pins comlink, run the build again")
    (target / "comlink.mjs").write_text(SOURCE_MAP.sub("", comlink.read_text(encoding="utf-8")), encoding="utf-8")
    with zipfile.ZipFile(anywidget) as wheel:
        try:
            front_end = wheel.read(ANYWIDGET_AMD).decode("utf-8")
        except KeyError:
            raise BuildError(f"{anywidget.name} has no {ANYWIDGET_AMD}: anywidget changed its layout") from None
    (target / "anywidget.js").write_text(SOURCE_MAP.sub("", front_end), encoding="utf-8")


def lite_config(packages: list[str], pyodide_url: str) -> dict:
    """``jupyter-lite.json`` from ``lite/jupyter-lite.json``, with the packages to preload and
    the kernel's Pyodide."""
    config = json.loads((HERE / "jupyter-lite.json").read_text())
    settings = config["jupyter-config-data"]["litePluginSettings"]
    kernel = settings["@jupyterlite/pyodide-kernel-extension:kernel"]
    kernel["loadPyodideOptions"] = {"packages": packages}
    kernel["pyodideUrl"] = pyodide_url
    return config
