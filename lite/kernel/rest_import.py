"""calijack: the modules a live lesson's start does not need, fetched on their first import.

The live site ships the lessons' packages and the standard library cut to what the start
imports (lite/start_split.py): a reader downloads the rest only if a lesson ever imports it.
The rest is in small zips (``static/calijack/rest/``, one per package folder), listed in
:data:`INDEX` (the build fills it in). This finder, last on ``sys.meta_path``, is asked for a
module no other finder has: if the index lists it, it fetches that zip (synchronously: the
live Python runs in a worker), unpacks it where the files belong (the standard library's folder
or site-packages), and the import goes on from there. A module the index does not list is
not found, as anywhere else.

The build puts this file into the site's standard library zip as ``_calijack_rest``, and
python.mjs installs it as Python starts (:func:`install`). It holds no JavaScript object, so
the snapshot of a started Python may hold it; ``js`` is imported only to fetch.
"""

import importlib
import importlib.util
import io
import os
import sys
import zipfile

# {"stdlib" | "site": {zip name: [paths of its modules, relative to that folder]}}
INDEX = __INDEX__


class RestFinder:
    """Finds the modules the start left out (see the module's docstring)."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url  # the rest/ folder's URL, ending with "/"
        self.where = None  # {relative path: (root folder, zip name)}, from INDEX on the first miss

    def find_spec(self, fullname, path=None, target=None):
        where = self._index()
        relative = fullname.replace(".", "/")
        for candidate, package in ((relative + "/__init__.py", True), (relative + ".py", False)):
            if candidate not in where:
                continue
            root, name = where[candidate]
            file = os.path.join(root, candidate)
            if not os.path.exists(file):
                self._unpack(root, name, fullname)
            folders = [os.path.dirname(file)] if package else None
            return importlib.util.spec_from_file_location(fullname, file, submodule_search_locations=folders)
        return None

    def _index(self) -> dict:
        if self.where is None:
            site = next(p for p in sys.path if p.endswith("site-packages"))
            roots = {"stdlib": os.path.dirname(site), "site": site}
            self.where = {path: (roots[kind], name)
                          for kind, zips in INDEX.items() for name, paths in zips.items() for path in paths}
        return self.where

    def _unpack(self, root: str, name: str, fullname: str) -> None:
        data = fetch(self.base_url + name, f"module {fullname}")
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            archive.extractall(root)
        importlib.invalidate_caches()  # the folders' listings changed
        say(f"fetched {name} ({len(data) // 1000} kB) for `import {fullname}`")


def fetch(url: str, what: str) -> bytes:
    """The body of ``url``, fetched synchronously; an ImportError in words if it cannot be."""
    from js import XMLHttpRequest  # only here: the snapshot holds no JavaScript object

    request = XMLHttpRequest.new()
    try:
        request.open("GET", url, False)
        request.responseType = "arraybuffer"
        request.send()
    except Exception as error:  # noqa: BLE001  (offline, or the host refused)
        raise ImportError(f"Python could not load {what}: the network is off or the site "
                          f"cannot be reached ({error}). Connect and try again.") from None
    if request.status != 200:
        raise ImportError(f"Python could not load {what}: {url} answered {request.status}.")
    return request.response.to_bytes()


def say(text: str) -> None:
    """One line in the browser's console (not in the lesson's output)."""
    from js import console

    console.info("calijack: " + text)


def install(base_url: str) -> None:
    """Put a :class:`RestFinder` for ``base_url`` last on ``sys.meta_path`` (once)."""
    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "RestFinder"]
    sys.meta_path.append(RestFinder(base_url))
