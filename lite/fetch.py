"""The live site's downloads, pinned and cached (lite/build_lite.py's first step).

- the Pyodide runtime: npm ``pyodide`` (``lite/package.json`` and its lock, ``npm ci``), once
  per lock file;
- the wheels of the lessons' Python: ``lite/kernel-requirements.txt`` (exact pins with hashes, pure Python,
  ``pip download`` for Python 3.14), once per pin.

A second build downloads nothing.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from packaging.utils import canonicalize_name

from buildbase import HERE, PYTHON_VERSION, BuildError, log, run, sha256

PYODIDE_VERSION = "314.0.6"


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
