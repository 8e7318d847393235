"""The site's ``pyodide-lock.json``, written here from the wheels themselves
(lite/build_lite.py): every wheel listed, with its imports and its dependencies as Pyodide's
Python sees them (the ``pyodide-lock`` library needs Python 3.12 or later, so the build does
not use it)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from buildbase import PYTHON_VERSION, BuildError, sha256

# Packages Python never imports in the browser: a dependency on one is dropped from the lock.
# jupyterlab-widgets and widgetsnbextension (ipywidgets depends on both) are ipywidgets' front
# ends for JupyterLab and the classic notebook, which the live page does without (it draws with
# the book's widget manager), so neither is downloaded.
FRONTEND_ONLY = {"jupyterlab-widgets", "widgetsnbextension"}
# What Pyodide's Python answers to dependency markers in the reader's browser.
EMSCRIPTEN = {**default_environment(), "sys_platform": "emscripten", "platform_system": "Emscripten",
              "platform_machine": "wasm32", "os_name": "posix", "python_version": PYTHON_VERSION,
              "python_full_version": PYTHON_VERSION + ".2", "implementation_name": "cpython",
              "platform_python_implementation": "CPython"}


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
