"""The wheels the live site ships besides the downloaded ones (lite/build_lite.py): calijack's
own, built from this tree, and the stand-ins of packages the lessons never use. Each is the
same bytes on every build of the same tree."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

from buildbase import HERE, REPO, BuildError, run

# Packages a wheel depends on that the live lessons use only a sliver of: each gets a stand-in
# wheel instead of its real one, with the modules under lite/standins/NAME (their paths kept),
# else the metadata alone. IPython: ipywidgets imports it for ``get_ipython`` and two display
# functions, and there is never a shell in the live lessons (lite/kernel/live.py runs the
# cells); the real one is 189 KB compressed and needs ten more packages (Pygments,
# prompt_toolkit, jedi, ...), about 260 KB and a second of a first "Play live" on Slow 4G.
# The version is the real package's whose API the stand-in follows.
STAND_INS = {"ipython": "9.18.1"}
STAND_IN_SOURCES = HERE / "standins"
# 2026-01-01, the date of every file in the wheels this build makes.
WHEEL_EPOCH = "1767225600"


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


def stand_in(name: str, version: str, work: Path) -> Path:
    """The stand-in wheel of ``name`` (see :data:`STAND_INS`): the modules under
    ``lite/standins/NAME/`` (``IPython/core/__init__.py`` stays that path in the wheel) if there
    is such a folder, else only the metadata."""
    path = work / f"{name}-{version}-py3-none-any.whl"
    info = f"{name}-{version}.dist-info"
    modules = STAND_IN_SOURCES / name
    files = {p.relative_to(modules).as_posix(): p.read_text(encoding="utf-8")
             for p in sorted(modules.rglob("*.py"))}
    files |= {
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
                            "Summary: calijack's stand-in: the live lessons use only what it holds\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: calijack build_lite\n"
                         "Root-Is-Purelib: true\nTag: py3-none-any\n",
    }
    files[f"{info}/RECORD"] = "".join(f"{n},,\n" for n in files) + f"{info}/RECORD,,\n"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for member, text in files.items():  # fixed dates: the same bytes on every build
            archive.writestr(zipfile.ZipInfo(member, date_time=time.gmtime(int(WHEEL_EPOCH))[:6]), text)
    return path
