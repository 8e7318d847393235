"""Sphinx extension: the book's notebooks are executed several at a time, before Sphinx reads them.

myst-nb executes a notebook page while Sphinx reads it, one page after another (Jupyter Book 1
has no option for Sphinx's parallel reading), so a clean build waited for some 30 kernels in a
row. Here, just before the pages are read (``env-before-read-docs``), every page that myst-nb
would execute because the execution cache (``_build/.jupyter_cache``) lacks it is executed in a
pool of ``CALIJACK_BOOK_JOBS`` processes (default: the machine's cores, at most 4), each through
myst-nb's own client (:func:`myst_nb.core.execute.create_client`: the same reader, settings,
working folder and cache record as when it reads the page, and complete_widgets' checks, which
are in force in every forked process). Sphinx then reads every page from the cache.

Nothing is decided here: a notebook whose run fails is simply not cached, and myst-nb runs it
again as it reads it, and reports the error with its page as before (so the build fails as it
always did). ``CALIJACK_BOOK_JOBS=1`` turns this off.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

from sphinx.util import logging

LOG = logging.getLogger(__name__)
ENV = "CALIJACK_BOOK_JOBS"


class _QuietLog:
    """The logger myst-nb's client asks for (``info``/``warning``/… with a ``subtype``): a run
    ahead keeps quiet; what matters is reported when the page is read."""

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


def jobs() -> int:
    value = os.environ.get(ENV, "")
    if value:
        try:
            return max(int(value), 1)
        except ValueError:
            raise SystemExit(f"{ENV} must be a whole number of processes, not {value!r}") from None
    return min(os.cpu_count() or 1, 4)


def _notebook(env, docname: str):
    """(path, notebook, read format, settings) as myst-nb reads ``docname``; None if it is no notebook."""
    from myst_nb.core.read import create_nb_reader

    path = str(env.doc2path(docname))
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    reader = create_nb_reader(path, env.myst_config, env.mystnb_config, text)
    if reader is None:
        return None
    notebook = reader.read(text)
    config = env.mystnb_config
    overrides = notebook.metadata.get(config.metadata_key)
    if overrides:  # the page's own settings, as myst_nb.sphinx_.Parser.parse applies them
        from myst_nb.core.nb_to_tokens import nb_node_to_dict

        overrides = nb_node_to_dict(overrides)
        overrides.pop("output_folder", None)
        try:
            config = config.copy(**overrides)
        except Exception:  # noqa: BLE001 - myst-nb warns about it when it reads the page
            pass
    return path, notebook, reader.read_fmt, config


def _cached(config, notebook) -> bool:
    from jupyter_cache import get_cache

    cache = get_cache(config.execution_cache_path or ".jupyter_cache")
    try:
        return cache.match_cache_notebook(notebook) is not None
    except KeyError:
        return False


def _run(path: str, notebook, read_fmt, config) -> tuple[str, float, str]:
    """In a worker: execute and cache one notebook through myst-nb's client."""
    from myst_nb.core.execute import create_client

    start = time.monotonic()
    try:
        with create_client(notebook, path, config, _QuietLog(), read_fmt):
            pass
    except BaseException as error:  # noqa: BLE001 - reported again when the page is read
        return path, time.monotonic() - start, f"{type(error).__name__}: {error}"
    return path, time.monotonic() - start, ""


def _execute_ahead(app, env, docnames: list[str]) -> None:
    if env.mystnb_config.execution_mode != "cache" or jobs() < 2:
        return
    todo = []
    for docname in docnames:
        found = _notebook(env, docname)
        if found is not None and not _cached(found[3], found[1]):
            todo.append(found)
    if len(todo) < 2:
        return
    workers = min(jobs(), len(todo))
    LOG.info(f"execute_ahead: {len(todo)} notebooks, {workers} at a time")
    start = time.monotonic()
    context = multiprocessing.get_context("fork")  # the workers inherit complete_widgets' checks
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = [pool.submit(_run, *found) for found in todo]
        for future in as_completed(futures):
            path, seconds, error = future.result()
            rel = os.path.relpath(path, app.srcdir)
            if error:
                LOG.info(f"execute_ahead: {rel} failed ({error}); it runs again as it is read")
            else:
                LOG.info(f"execute_ahead: {rel} in {seconds:.1f} s")
    LOG.info(f"execute_ahead: {len(todo)} notebooks in {time.monotonic() - start:.1f} s")


def setup(app):
    app.connect("env-before-read-docs", _execute_ahead)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
