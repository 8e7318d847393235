"""The live site's archives cut to what the start needs; the rest fetched on first import.

``lite/build_lite.py`` calls :func:`split_runtime` on the site's runtime folder once
``lite/pycompile.py`` has compiled the start: every module the kernel and the lessons import
on the way to their first frame is a sourceless ``.pyc`` by then, and every other module is
still a ``.py`` file. So, in the standard library zip and in each wheel:

- the ``.pyc`` files, every file that is not Python (data the packages read, their
  ``.dist-info``) stay where they were: that is what a cold "Play live" downloads;
- the ``.py`` files go to small zips in ``static/calijack/rest/``, one per package folder
  (``email``, ``pygments/lexers``, …), which the kernel fetches only if a lesson ever imports
  one of their modules (``lite/kernel/rest_import.py``, filled in with their list and put
  into the standard library zip as ``_calijack_rest``);
- a wheel's ``.data/data/`` (JupyterLab extensions, man pages) and a package's own front end
  or test data (``labextension/``, ``nbextension/``, ``tests/``): files the kernel never
  reads (the site has the extensions already) are left out.

The archives are *stored* (not compressed inside) by default: the host compresses each one
whole, and Brotli, working across the files of an archive, makes them a third smaller than
the same files deflated one by one (every archive of the start, as built on 2026-12-02:
1.65 MB sent instead of 2.42 MB). ``make serve`` sends the Brotli twins
the build writes (``calijack.serve.static.precompress``). A host that sends ``.zip`` and
``.whl`` as they are (GitHub Pages, Cloudflare and CloudFront go by type, and
``application/zip`` is not on their lists) would send stored archives at twice the size: for
such a host, build with ``--archives deflated`` (``make book LITE_ARCHIVES=deflated``), as
Pyodide's own archives are (book/publishing.md).
"""

from __future__ import annotations

import json
import time
import zipfile
from pathlib import Path

STDLIB = "python_stdlib.zip"
FINDER_MODULE = "_calijack_rest.py"
# Date of every member written here: the same inputs give the same bytes.
EPOCH = time.gmtime(1767225600)[:6]


def unit(member: str, stdlib: bool) -> str:
    """The rest zip a ``.py`` member goes to: its top folder in the standard library
    (``email/mime/text.py`` -> ``email``), its first two folders in a package
    (``pygments/lexers/python.py`` -> ``pygments/lexers``); a lone module is its own unit."""
    parts = member.split("/")
    folders = parts[:-1][: 1 if stdlib else 2]
    return "/".join(folders) if folders else parts[0].removesuffix(".py")


# Folders of a package that hold its front end or its tests' data: the kernel never reads them.
NEVER_READ = ("/labextension/", "/nbextension/", "/tests/")


def front_end_only(member: str) -> bool:
    """A file of a wheel the kernel never reads: ``NAME.data/data/...`` (installed under the
    prefix: JupyterLab extensions, man pages), and a package's own front end (anywidget's
    ``labextension/``, ``nbextension/``: the site has these) or its tests' data."""
    first, _, rest = member.partition("/")
    if first.endswith(".data") and rest.startswith("data/"):
        return True
    return any(folder in "/" + member for folder in NEVER_READ) and not member.endswith(".py")


# How the members of the archives are written (see the module's docstring).
ARCHIVES = {"stored": zipfile.ZIP_STORED, "deflated": zipfile.ZIP_DEFLATED}


def _write(path: Path, members: list[tuple[zipfile.ZipInfo, bytes]], archives: str) -> None:
    with zipfile.ZipFile(path, "w") as archive:
        for info, data in members:
            out = zipfile.ZipInfo(info.filename, date_time=EPOCH)
            out.external_attr = info.external_attr
            archive.writestr(out, data, ARCHIVES[archives], 9)


def split_archive(path: Path, rest: Path, stdlib: bool, archives: str = "stored") -> dict[str, list[str]]:
    """Rewrite ``path`` with its start only; write its other modules to zips in ``rest``.
    Returns ``{rest zip name: [member paths]}``."""
    keep: list[tuple[zipfile.ZipInfo, bytes]] = []
    units: dict[str, list[tuple[zipfile.ZipInfo, bytes]]] = {}
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            name = info.filename
            if info.is_dir() or (not stdlib and front_end_only(name)):
                continue
            data = archive.read(info)
            if name.endswith(".py") and not name.startswith(FINDER_MODULE):
                units.setdefault(unit(name, stdlib), []).append((info, data))
            else:
                keep.append((info, data))
    _write(path, keep, archives)
    stem = "stdlib" if stdlib else path.name.split("-")[0].lower()
    listing = {}
    for folder, members in sorted(units.items()):
        name = f"{stem}--{folder.replace('/', '.')}.zip"
        _write(rest / name, members, archives)
        listing[name] = sorted(info.filename for info, _ in members)
    return listing


def split_runtime(runtime: Path, rest: Path, finder: Path, archives: str = "stored") -> dict:
    """Split the standard library zip and every wheel of ``runtime`` (see the module's
    docstring), and put the finder, with its index, into the standard library zip.
    ``archives``: ``"stored"`` or ``"deflated"`` (:data:`ARCHIVES`)."""
    if archives not in ARCHIVES:
        raise ValueError(f"archives must be one of {', '.join(ARCHIVES)}, not {archives!r}")
    rest.mkdir(parents=True, exist_ok=True)
    index = {"stdlib": split_archive(runtime / STDLIB, rest, stdlib=True, archives=archives), "site": {}}
    for wheel in sorted(runtime.glob("*.whl")):
        index["site"].update(split_archive(wheel, rest, stdlib=False, archives=archives))
    source = finder.read_text(encoding="utf-8")
    if "__INDEX__" not in source:
        raise ValueError(f"{finder} has no __INDEX__ to fill in")
    with zipfile.ZipFile(runtime / STDLIB, "a") as archive:
        info = zipfile.ZipInfo(FINDER_MODULE, date_time=EPOCH)
        archive.writestr(info, source.replace("__INDEX__", json.dumps(index, sort_keys=True)), ARCHIVES[archives], 9)
    zips = list(rest.glob("*.zip"))
    return {"rest_files": len(zips), "rest_bytes": sum(p.stat().st_size for p in zips),
            "modules_left_out": sum(len(paths) for kind in index.values() for paths in kind.values())}
