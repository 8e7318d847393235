"""Sphinx extension: no page of the book is built from half a widget state.

Jupyter Book runs each chapter in a kernel (myst-nb, jupyter-cache, then nbclient), and
nbclient writes the widgets' state into the notebook from the kernel's IOPub messages. On a
busy machine a run has come back with a state that names a model it does not hold (CI after
stop 29: lesson 8's page, whose 912 models go out in about 1,460 messages, lacked one). Every
reader of that page then met "widget model not found" in the console and an error box where a
puzzle should be, and nothing in the build said so.

- **After each run** of a notebook, every model that the widget state or an output names must
  be in the state. If one is not, the notebook runs again in a new kernel, with a line in the
  build's log naming the models that were missing, up to ``RUNS`` runs in all; after that the
  execution fails (an execution error, so the build fails and nothing is cached) with the same
  list. nbclient also waits ``IOPUB_WAIT`` seconds, not its default 4, for a cell's last
  messages once the kernel has replied: a slow machine is no reason to cut a state short.
- **Before a page is written**, ``calijack_speed`` checks its state the same way
  (:func:`missing_models`) and fails the build naming the page, so a notebook cached by an
  older build cannot slip through either.

The checks read only the state: a model is named by the string ``"IPY_MODEL_<id>"`` anywhere
in another model's state (a box's children, a link's ends, a widget's layout), and by the
``model_id`` of a widget-view output.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping

STATE_TYPE = "application/vnd.jupyter.widget-state+json"
VIEW_TYPE = "application/vnd.jupyter.widget-view+json"
PREFIX = "IPY_MODEL_"
RUNS = 3
IOPUB_WAIT = 30


def named_models(value: object) -> set[str]:
    """The model ids that ``value`` (a model's state, or any JSON value) names."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item.startswith(PREFIX):
                found.add(item[len(PREFIX):])
        elif isinstance(item, Mapping):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def missing_models(state: Mapping[str, Mapping], views: Iterable[str] = ()) -> list[str]:
    """The ids that the models of ``state`` (a widget state's ``"state"`` mapping, model id to
    ``{"model_name": …, "state": {…}}``) or the widget ``views`` name, and ``state`` lacks; sorted."""
    named = set(views)
    for entry in state.values():
        named |= named_models(entry.get("state", {}) if isinstance(entry, Mapping) else entry)
    return sorted(named - set(state))


def notebook_views(nb: Mapping) -> list[str]:
    """The model ids of the widget views in ``nb``'s outputs."""
    return [output["data"][VIEW_TYPE]["model_id"]
            for cell in nb.get("cells", []) for output in cell.get("outputs", [])
            if VIEW_TYPE in output.get("data", {})]


def notebook_missing(nb: Mapping) -> list[str]:
    """:func:`missing_models` of an executed notebook: its state against its state and views."""
    state = nb.get("metadata", {}).get("widgets", {}).get(STATE_TYPE, {}).get("state", {})
    return missing_models(state, notebook_views(nb))


def describe(missing: list[str], limit: int = 3) -> str:
    """``missing`` in a few words: how many, and the first ids."""
    shown = ", ".join(missing[:limit]) + (", …" if len(missing) > limit else "")
    return f"{len(missing)} model{'s' if len(missing) != 1 else ''} ({shown})"


def complete_runs(execute, log, runs: int = RUNS, wait: int = IOPUB_WAIT):
    """Wrap nbclient's ``NotebookClient.async_execute``: run again (``runs`` runs in all) while
    the executed notebook's widget state lacks a model it names; then raise
    ``CellExecutionError``. ``log(text)`` reports each run that came back incomplete."""
    from nbclient.exceptions import CellExecutionError

    @functools.wraps(execute)
    async def run(self, *args, **kwargs):
        self.iopub_timeout = max(self.iopub_timeout, wait)
        where = (self.resources or {}).get("metadata", {}).get("path") or "the notebook's folder"
        for attempt in range(1, runs + 1):
            nb = await execute(self, *args, **kwargs)
            missing = notebook_missing(self.nb)
            if not missing:
                return nb
            text = (f"a notebook run in {where} came back with a widget state that lacks "
                    f"{describe(missing)} that its widgets name (run {attempt} of {runs})")
            if attempt < runs:
                log(text + ": running it again")
        raise CellExecutionError(text, "IncompleteWidgetState",
                                 "the kernel's widget messages did not all reach the build")

    return run


def install(log) -> bool:
    """Put :func:`complete_runs` around nbclient's execution (once); True if it was put now."""
    from nbclient.client import NotebookClient
    from nbclient.util import run_sync

    if getattr(NotebookClient.async_execute, "cj_complete_runs", False):
        return False
    run = complete_runs(NotebookClient.async_execute, log)
    run.cj_complete_runs = True
    NotebookClient.async_execute = run
    # nbclient's synchronous ``execute`` (what jupyter-cache calls) wraps the original coroutine
    # function, not the attribute: it is wrapped again.
    NotebookClient.execute = run_sync(run)
    return True


def setup(app):
    """Install the check (see the module docstring)."""
    from sphinx.util import logging

    logger = logging.getLogger(__name__)
    install(logger.info)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
