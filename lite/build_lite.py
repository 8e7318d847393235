"""Build the live book's in-browser part: the live lesson's page on a Pyodide kernel, offline.

    python lite/build_lite.py [--out _build/lite] [--cache _build/lite-cache]

The result is a folder of static files (about 33 MB, 195 files) that the book serves under ``lite/``
(``book/_ext/calijack_live.py`` copies it into ``_build/html/lite``). Nothing in it loads
from another host, and it works from any static host that sends ``.wasm`` as
``application/wasm`` and ``.mjs`` as JavaScript.

What goes in, and where it comes from (every download is pinned, and cached in ``--cache``
so a second build downloads nothing):

- the Pyodide 314 runtime, and comlink for the live page: npm ``pyodide`` and ``comlink``
  (``lite/package.json`` and its lock, ``npm ci``);
- the kernel's wheels: ``lite/kernel-requirements.txt`` (exact pins with hashes, pure Python,
  ``pip download`` for Python 3.14), the kernel's own wheels (``pyodide_kernel``, ``piplite``,
  the ``ipykernel`` and ``widgetsnbextension`` stand-ins) from the
  ``jupyterlite-pyodide-kernel`` wheel, and ``calijack`` built from this tree;
- the live lesson's page (``lite/play/``, what "Play live" opens): the Pyodide kernel's own
  worker driven with comlink, the lesson's widgets drawn by the book's widget manager, and
  anywidget's front end taken from its wheel (``install_play_page``);
- the kernel's worker: JupyterLite's Pyodide kernel runs in a web worker, one self-contained
  script in the JupyterLab extension of the pinned ``jupyterlite-pyodide-kernel`` wheel; the
  build takes that file alone (``install_kernel_worker``). No JupyterLite app is built: the
  live page is the whole front end;
- ``lessons.json``: the code cells of each lesson (``notebooks/*.ipynb`` less the cells tagged
  ``book-only``), which the book's "Play live" button runs in the live page;
- the start, compiled: every module the kernel and the lessons import before their first frame
  is shipped as ``.pyc`` made by the site's own Pyodide in Node (``lite/pycompile.py``), so the
  reader's browser does not compile them on every start; the rest stays source;
- the start, cut to what it imports (``lite/start_split.py``): the standard library zip and
  the wheels keep the compiled start and their data; every other module goes to small zips
  the kernel fetches on a first import (``lite/kernel/rest_import.py``);
- the start, early and kept (``lite/kernel/``): the live page makes the kernel's worker as it
  opens (``start.mjs``: Python starts at once), and the kernel's Pyodide is ``python.mjs``,
  which keeps a memory snapshot of the started Python in the browser's Cache Storage and
  restores it on later starts (the build fills in the wheels, the modules to import before
  the snapshot, and a digest of all that naming the cache).

Every wheel is listed in the site's own ``pyodide-lock.json`` and preloaded by Pyodide while
it starts (``loadPyodideOptions.packages``), so the lessons import ``calijack`` as they do
in Voilà, with no install cell, and the kernel never asks a package index for anything
(``disablePyPIFallback``).
"""

from __future__ import annotations

import argparse
import ast
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pycompile  # noqa: E402  (lite/pycompile.py, beside this file)
import start_split  # noqa: E402  (lite/start_split.py)

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
PYODIDE_VERSION = "314.0.6"
PYTHON_VERSION = "3.14"
# The runtime files of the npm package that the site needs (no source maps, no TypeScript).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
# The runtime's files in the order Python's start needs them; the wheels come after.
START_ORDER = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
# Python's interpreter: what "Play live" downloads first, alone (book/_live/calijack-live.js).
INTERPRETER = START_ORDER[:3]
# Packages Python never imports in the browser: a dependency on one is dropped from the lock.
# jupyterlab-widgets (ipywidgets depends on it) is ipywidgets' JupyterLab front end, which the
# live page does without (it draws with the book's widget manager), so it is not downloaded;
# jupyterlite-pyodide-kernel is, for the kernel's worker and the kernel's own wheels inside it.
FRONTEND_ONLY = {"jupyterlab-widgets", "jupyterlite-pyodide-kernel"}
# The kernel's own wheels, shipped inside the jupyterlite-pyodide-kernel wheel.
KERNEL_WHEELS = ("pyodide_kernel-", "ipykernel-", "widgetsnbextension-4.")
# Packages the kernel asks for by name at start that the lessons never use: each gets a
# stand-in wheel instead of its real one, with the modules in lite/standins/NAME if any, else
# the metadata alone. jedi (4.9 MB, thousands of files to unpack in the browser, with parso)
# serves IPython's code completion only, which an app view with no code input never requests;
# IPython imports it lazily, on the first completion. piplite and micropip install packages,
# which the live book never does (every package is there, and no index may be asked); the
# real piplite imports micropip on every start, and with it a tenth of the standard library.
STAND_INS = {"jedi": "0.20.1", "micropip": "0.11.1", "piplite": "0.8.6"}
STAND_IN_SOURCES = HERE / "standins"
# What Pyodide's Python answers to dependency markers in the reader's browser.
EMSCRIPTEN = {**default_environment(), "sys_platform": "emscripten", "platform_system": "Emscripten",
              "platform_machine": "wasm32", "os_name": "posix", "python_version": PYTHON_VERSION,
              "python_full_version": PYTHON_VERSION + ".2", "implementation_name": "cpython",
              "platform_python_implementation": "CPython"}
# 2026-01-01, the date of every file in the wheels this build makes.
WHEEL_EPOCH = "1767225600"
# Cells of a lesson kept for the live app: code only, without the static book's stand-ins.
BOOK_ONLY_TAG = "book-only"
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



class BuildError(RuntimeError):
    """A step of the build failed; the message says which and what to do."""


def log(message: str) -> None:
    """One line of progress on standard error."""
    print(f"build_lite: {message}", file=sys.stderr, flush=True)


def run(cmd: list[str], **kwargs) -> None:
    """Run a command; a failure becomes a BuildError naming the command."""
    try:
        subprocess.run(cmd, check=True, **kwargs)
    except FileNotFoundError as exc:
        raise BuildError(f"{cmd[0]} is not installed ({exc}); see README.md, The two commands") from exc
    except subprocess.CalledProcessError as exc:
        raise BuildError(f"`{' '.join(map(str, cmd))}` failed with exit code {exc.returncode}") from exc


def sha256(path: Path) -> str:
    """The hex SHA-256 of a file."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# ------------------------------------------------------------------------------------------
# Downloads (cached)


def pyodide_runtime(cache: Path) -> Path:
    """The npm ``pyodide`` package folder, installed with ``npm ci`` once per lock file."""
    npm_dir = cache / "npm"
    package = npm_dir / "node_modules" / "pyodide"
    stamp = npm_dir / ".lock-sha256"
    lock = HERE / "package-lock.json"
    want = sha256(lock)
    if stamp.is_file() and stamp.read_text() == want and (package / "pyodide.asm.wasm").is_file():
        return package
    log(f"npm ci (pyodide@{PYODIDE_VERSION}) into {npm_dir}")
    npm_dir.mkdir(parents=True, exist_ok=True)
    shutil.copy2(HERE / "package.json", npm_dir / "package.json")
    shutil.copy2(lock, npm_dir / "package-lock.json")
    run(["npm", "ci", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund",
         "--cache", str(cache / "npm-cache")], cwd=npm_dir, stdout=subprocess.DEVNULL)
    version = json.loads((package / "package.json").read_text())["version"]
    if version != PYODIDE_VERSION:
        raise BuildError(f"npm installed pyodide {version}, expected {PYODIDE_VERSION}")
    stamp.write_text(want)
    return package


def pinned(requirements: Path) -> dict[str, str]:
    """``{canonical name: version}`` of the ``name==version`` lines of a requirements file."""
    pins = {}
    text = requirements.read_text().replace("\\\n", " ")
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        spec = line.split()[0]
        name, _, version = spec.partition("==")
        if not version:
            raise BuildError(f"{requirements.name}: {spec!r} is not pinned with ==")
        pins[canonicalize_name(name)] = version
    return pins


def wheel_key(path: Path) -> tuple[str, str]:
    """``(canonical name, version)`` from a wheel's file name."""
    name, version = path.name.split("-")[:2]
    return canonicalize_name(name), version


def kernel_wheels(cache: Path) -> list[Path]:
    """The pinned wheels of ``lite/kernel-requirements.txt``, downloaded once into the cache."""
    requirements = HERE / "kernel-requirements.txt"
    pins = pinned(requirements)
    wheel_dir = cache / "wheels"
    wheel_dir.mkdir(parents=True, exist_ok=True)
    have = {wheel_key(p): p for p in wheel_dir.glob("*.whl")}
    if any((name, version) not in have for name, version in pins.items()):
        log(f"pip download {len(pins)} wheels for Python {PYTHON_VERSION} into {wheel_dir}")
        run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
             "--no-deps", "--only-binary=:all:", "--python-version", PYTHON_VERSION,
             "--implementation", "py", "--platform", "any", "--abi", "none", "--require-hashes",
             "--dest", str(wheel_dir), "-r", str(requirements)])
        have = {wheel_key(p): p for p in wheel_dir.glob("*.whl")}
    missing = [f"{n}=={v}" for n, v in pins.items() if (n, v) not in have]
    if missing:
        raise BuildError(f"pip did not provide {', '.join(missing)}")
    return [have[item] for item in pins.items()]


def calijack_wheel(work: Path) -> Path:
    """Our own wheel, built from a copy of this tree (so the tree gets no build/ folder)."""
    source = work / "calijack-src"
    shutil.copytree(REPO / "calijack", source / "calijack",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "PYPI.md", "LICENSE"):  # what pyproject.toml names
        shutil.copy2(REPO / name, source / name)
    out = work / "calijack-wheel"
    # Fixed dates in the wheel: the same tree gives the same bytes, so the compiled start
    # (lite/pycompile.py) is found in the cache on the next build.
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check",
         "--no-deps", "--no-build-isolation", "--wheel-dir", str(out), str(source)],
        stdout=subprocess.DEVNULL, env={**os.environ, "SOURCE_DATE_EPOCH": WHEEL_EPOCH})
    (wheel,) = out.glob("calijack-*.whl")
    return wheel


def extension_kernel_wheels(pyodide_kernel: Path, work: Path) -> list[Path]:
    """The kernel's own wheels, taken from the jupyterlite-pyodide-kernel wheel."""
    out = work / "kernel-wheels"
    out.mkdir()
    found = []
    with zipfile.ZipFile(pyodide_kernel) as archive:
        for name in archive.namelist():
            base = name.rsplit("/", 1)[-1]
            if "/static/pypi/" in name and base.endswith(".whl") and base.startswith(KERNEL_WHEELS):
                (out / base).write_bytes(archive.read(name))
                found.append(out / base)
    if len(found) != len(KERNEL_WHEELS):
        raise BuildError(f"{pyodide_kernel.name}: expected the kernel wheels {KERNEL_WHEELS}, "
                         f"found {[p.name for p in found]}")
    return found


def stand_in(name: str, version: str, work: Path) -> Path:
    """The stand-in wheel of ``name`` (see :data:`STAND_INS`): the modules of
    ``lite/standins/NAME/`` if there is such a folder, else only the metadata."""
    path = work / f"{name}-{version}-py3-none-any.whl"
    info = f"{name}-{version}.dist-info"
    modules = STAND_IN_SOURCES / name
    files = {f"{name}/{p.name}": p.read_text(encoding="utf-8") for p in sorted(modules.glob("*.py"))}
    files |= {
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
                            "Summary: calijack's stand-in: the live lessons never use it\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: calijack build_lite\n"
                         "Root-Is-Purelib: true\nTag: py3-none-any\n",
    }
    files[f"{info}/RECORD"] = "".join(f"{n},,\n" for n in files) + f"{info}/RECORD,,\n"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for member, text in files.items():  # fixed dates: the same bytes on every build
            archive.writestr(zipfile.ZipInfo(member, date_time=time.gmtime(int(WHEEL_EPOCH))[:6]), text)
    return path


# ------------------------------------------------------------------------------------------
# The Pyodide lock


def wheel_entry(path: Path) -> dict:
    """The ``pyodide-lock.json`` entry of a pure-Python wheel (dependencies still by name)."""
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        meta = archive.read(meta_name).decode("utf-8")
        top = next((n for n in names if n.endswith(".dist-info/top_level.txt")), None)
        imports = archive.read(top).decode().split() if top else sorted({
            n.split("/")[0].removesuffix(".pyc").removesuffix(".py") for n in names
            if not n.split("/")[0].endswith((".dist-info", ".data"))
            and (n.endswith((".py", ".pyc")) or "/" in n)})
    headers = {}
    requires = []
    for line in meta.split("\n\n", 1)[0].splitlines():
        key, _, value = line.partition(": ")
        if key == "Requires-Dist":
            requires.append(Requirement(value))
        elif key in ("Name", "Version"):
            headers[key] = value.strip()
    # A dependency on a front-end-only package (ipywidgets on jupyterlab_widgets) is met by
    # its JupyterLab extension in the site; Python never imports it.
    depends = sorted({canonicalize_name(r.name) for r in requires
                      if r.marker is None or r.marker.evaluate({**EMSCRIPTEN, "extra": ""})}
                     - FRONTEND_ONLY)
    return {"name": canonicalize_name(headers["Name"]), "version": headers["Version"],
            "file_name": path.name, "install_dir": "site", "sha256": sha256(path),
            "package_type": "package", "imports": [i for i in imports if i.isidentifier()],
            "depends": depends, "unvendored_tests": False}


def pyodide_lock(runtime: Path, wheels: list[Path]) -> dict:
    """A ``pyodide-lock.json`` listing exactly our wheels; fails on a missing dependency."""
    info = json.loads((runtime / "pyodide-lock.json").read_text())["info"]
    packages = {}
    for wheel in wheels:
        entry = wheel_entry(wheel)
        packages[entry["name"]] = entry
    missing = sorted({f"{dep} (needed by {name})" for name, entry in packages.items()
                      for dep in entry["depends"] if dep not in packages})
    if missing:
        raise BuildError("the kernel's wheels lack dependencies: " + ", ".join(missing)
                         + "; pin them in lite/kernel-requirements.txt")
    return {"info": info, "packages": dict(sorted(packages.items()))}


# ------------------------------------------------------------------------------------------
# The lessons and the JupyterLite site


def download_order(name: str, size: int) -> tuple:
    """Sort key of a runtime file for "Play live": :data:`START_ORDER` first, in that order,
    then the wheels, largest first."""
    first = START_ORDER.index(name) if name in START_ORDER else len(START_ORDER)
    return first, -size, name


def lesson_code(source: Path) -> list[str]:
    """The code cells of a lesson, in order, without the static book's stand-ins."""
    nb = json.loads(source.read_text(encoding="utf-8"))
    cells = ["".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
             for cell in nb["cells"] if cell["cell_type"] == "code"
             and BOOK_ONLY_TAG not in cell.get("metadata", {}).get("tags", [])]
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
        kernel += extension_kernel_wheels(by_name["jupyterlite-pyodide-kernel"], work)
        kernel.append(calijack_wheel(work))
        kernel += [stand_in(name, version, work) for name, version in STAND_INS.items()]
        lock = pyodide_lock(runtime, kernel)
        packages = sorted(lock["packages"])
        lessons = {nb.stem: lesson_code(nb)
                   for nb in sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))}
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        worker = install_kernel_worker(out, by_name["jupyterlite-pyodide-kernel"])
        log(f"the kernel's worker: {worker.relative_to(out).as_posix()}")
        target = out / "static" / "pyodide"
        target.mkdir(parents=True, exist_ok=True)
        for name in PYODIDE_FILES:
            shutil.copy2(runtime / name, target / name)
        for wheel in kernel:
            shutil.copy2(wheel, target / wheel.name)
        (target / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True))
        (out / "lessons.json").write_text(json.dumps({"lessons": lessons}, indent=1, ensure_ascii=False))
        # What the kernel and the lessons import at start, compiled once here, not in every browser.
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
        install_play_page(out, digest, runtime, by_name["anywidget"])
        log(f"the kernel starts early, its Python kept in the browser as calijack-python-{digest}")
        # What the book's "Play live" needs: each lesson's code, the runtime's files with
        # their sizes (it downloads them first, to say how far along it is), and the name of
        # the cache where a browser keeps its started Python (then nothing needs downloading).
        # In the order Python needs them (the page downloads them two at a time, in this order):
        # the interpreter, the standard library, the list of packages, then the wheels, largest
        # first. "gzip_bytes" is what a host that compresses sends: the page tells the reader that figure.
        # "interpreter": the files the page downloads before it opens the live page (calijack-live.js).
        runtime_files = sorted(({"name": p.name, "bytes": p.stat().st_size,
                                 "gzip_bytes": len(gzip.compress(p.read_bytes(), 6)),
                                 "interpreter": p.name in INTERPRETER} for p in target.iterdir()),
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
