"""The live site put together (lite/build_lite.py's last steps): the lessons' code, the live
worker's early start with its runner, and the live lesson's page."""

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
# the page shows and keeps them with no Python), so the live page's last cell is the lesson's demo.
BOOK_ONLY_TAG = "book-only"
NOT_LIVE_TAG = "not-live"
# The live worker: Python's early start and its snapshot, and the lessons' runner (lite/kernel/,
# see python.mjs and live.py).
KERNEL_START = HERE / "kernel"
LIVE_SOURCES = ("start.mjs", "keep.mjs", "python.mjs", "live.py")
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
# Imported before the snapshot, besides the lessons' own imports: what every widget lesson
# imports. Not the runner (live.py) nor anything that holds a JavaScript object, which a
# snapshot refuses: python.mjs imports the runner after the start.
SNAPSHOT_IMPORTS = ("IPython", "comm", "ipywidgets", "anywidget")
NOT_IN_SNAPSHOT = ("js", "pyodide", "pyodide_js", "micropip")


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


def install_kernel_start(out: Path, packages: list[str], preload: list[str]) -> str:
    """Put lite/kernel/ into the site: the live worker (start.mjs), its Python (python.mjs), the
    worker that keeps a started Python in the browser (keep.mjs) and the lessons' runner
    (live.py, inside python.mjs's settings). Returns the build digest naming the kept Python's
    cache."""
    lock = (out / "static" / "pyodide" / "pyodide-lock.json").read_bytes()
    sources = {name: (KERNEL_START / name).read_text(encoding="utf-8") for name in LIVE_SOURCES}
    # The standard library zip too: the build writes the finder of the rest into it.
    stdlib = sha256(out / "static" / "pyodide" / start_split.STDLIB)
    digest = hashlib.sha256(lock + json.dumps([sources, packages, preload, stdlib]).encode()).hexdigest()[:16]
    config = {"packages": packages, "preload": preload, "live": sources["live.py"],
              "cache": f"calijack-python-{digest}"}
    target = out / "static" / "calijack"
    target.mkdir(parents=True, exist_ok=True)
    for worker in ("start.mjs", "keep.mjs"):
        (target / worker).write_text(fill(sources[worker], {"__DIGEST__": digest}, worker), encoding="utf-8")
    (target / "python.mjs").write_text(fill(sources["python.mjs"], {
        "__CONFIG__": json.dumps(config)}, "python.mjs"), encoding="utf-8")
    return digest


def install_play_page(out: Path, digest: str, anywidget: Path) -> None:
    """Put the live lesson's page (lite/play/) into the site, with what it loads besides the
    book's own widget manager: anywidget's front end as an AMD module (the ``nbextension`` of
    its wheel, the very version Python has)."""
    play = out / "play"
    play.mkdir(parents=True, exist_ok=True)
    page = (PLAY_PAGE / "index.html").read_text(encoding="utf-8")
    (play / "index.html").write_text(fill(page, {"__DIGEST__": digest}, "../play/index.html"), encoding="utf-8")
    shutil.copy2(PLAY_PAGE / "play.mjs", play / "play.mjs")
    target = out / "static" / "calijack"
    with zipfile.ZipFile(anywidget) as wheel:
        try:
            front_end = wheel.read(ANYWIDGET_AMD).decode("utf-8")
        except KeyError:
            raise BuildError(f"{anywidget.name} has no {ANYWIDGET_AMD}: anywidget changed its layout") from None
    (target / "anywidget.js").write_text(SOURCE_MAP.sub("", front_end), encoding="utf-8")
