"""calijack: the live lesson's Python side, with no Jupyter kernel in between.

A live lesson needs three things of Python: run a cell and show its last value (the lesson's
widget), pass on what it prints, and carry the widgets' messages both ways. A Jupyter kernel
(IPython's shell, its display machinery, a kernel protocol) is far more than that, and starting
one was a third of a second of a phone's first "Play live". So the live page's worker
(``lite/kernel/start.mjs``) runs the cells here instead:

- the widgets' messages go through the ``comm`` package, as a kernel's do: :func:`connect`
  puts this module's :class:`LiveComm` in ``comm.create_comm`` (the hook ``comm`` documents
  for kernels) and registers ipywidgets' comm target, so the page's own models reach Python;
- :func:`execute` runs a cell with Pyodide's ``eval_code_async`` (top-level ``await`` works)
  in one namespace for the lesson, and sends its last value's rich form (``_repr_mimebundle_``,
  as Jupyter shows a widget) or its ``repr``; an exception is sent as its traceback, with the
  cell's own lines only;
- every message goes to the page in the shape the page handles (``lite/play/play.mjs``:
  ``{type, content, metadata, buffers, parentHeader, bundle}``), tagged with the cell that
  caused it.

python.mjs imports this module after Python's start (or its restore from the browser's copy),
never before the snapshot: it sends through JavaScript. The build runs every lesson through it
too (``lite/pyc_in_pyodide.py``), with a sender that drops the messages.
"""

from __future__ import annotations

import sys
import traceback

import comm
from comm.base_comm import BaseComm

NAMESPACE: dict = {"__name__": "__main__"}  # the lesson's variables, from cell to cell
CELL = "<cell>"  # the file name of a cell's code in a traceback

_send = None  # connect()'s sender: one message (a dict) to the page
_parent: dict = {}  # the header of the cell running now: its messages carry it


def post(kind: str, content: dict | None = None, metadata: dict | None = None,
         buffers: list | None = None, bundle: dict | None = None) -> None:
    """Send one message to the page (dropped before :func:`connect`)."""
    if _send is None:
        return
    _send({"type": kind, "content": content or {}, "metadata": metadata or {},
           "buffers": [memoryview(b) for b in (buffers or [])], "parentHeader": dict(_parent),
           "bundle": bundle or {}})


class LiveComm(BaseComm):
    """A comm whose messages go to the live page (``comm``'s documented base class)."""

    def publish_msg(self, msg_type, data=None, metadata=None, buffers=None, **keys):
        post(msg_type, {"comm_id": self.comm_id, "data": data or {}, **keys}, metadata, buffers)


def create_comm(*args, **kwargs) -> LiveComm:
    """``comm.create_comm``, as this module sets it."""
    return LiveComm(*args, **kwargs)


def connect(send) -> None:
    """Send every later message with ``send`` (a callable taking one dict); make the widgets'
    comms this module's and let the page open widgets' comms too."""
    global _send
    _send = send
    comm.create_comm = create_comm
    import ipywidgets

    ipywidgets.register_comm_target()


def receive(message: dict) -> None:
    """A widget's message from the page: ``comm_open``, ``comm_msg`` or ``comm_close`` (a
    Jupyter message: header, content with ``comm_id``, buffers)."""
    if hasattr(message, "to_py"):  # as it comes from JavaScript
        message = message.to_py()
    kind = message.get("header", {}).get("msg_type")
    manager = comm.get_comm_manager()
    handler = {"comm_open": manager.comm_open, "comm_msg": manager.comm_msg,
               "comm_close": manager.comm_close}.get(kind)
    if handler is None:
        raise ValueError(f"the live page sent a message of an unknown type: {kind!r}")
    message["buffers"] = [memoryview(as_bytes(b)) for b in message.get("buffers") or []]
    handler(None, None, message)


def as_bytes(buffer) -> bytes:
    """A buffer from the page as bytes: a JavaScript ArrayBuffer or typed array (``to_bytes``),
    or anything Python reads as bytes."""
    to_bytes = getattr(buffer, "to_bytes", None)
    return to_bytes() if callable(to_bytes) else bytes(buffer)


def bundle_of(value) -> dict:
    """What Jupyter would show of ``value``: its ``_repr_mimebundle_`` if it has one (a widget),
    else its ``_repr_html_`` and ``repr``, else its ``repr``."""
    rich = getattr(value, "_repr_mimebundle_", None)
    if callable(rich):
        data = rich()
        if isinstance(data, tuple):  # (data, metadata)
            data = data[0]
        if data:
            return dict(data)
    html = getattr(value, "_repr_html_", None)
    shown = {"text/plain": repr(value)}
    if callable(html) and (text := html()):
        shown["text/html"] = text
    return shown


def cell_traceback(error: BaseException) -> list[str]:
    """The traceback of ``error`` from the cell's own code on (not this module's, not Pyodide's)."""
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != CELL:
        tb = tb.tb_next
    return traceback.format_exception(type(error), error, tb if tb is not None else error.__traceback__)


async def execute(code: str, msg_id: str) -> dict:
    """Run one cell (its messages tagged with ``msg_id``); the reply: ``{"status": "ok"}`` or
    ``{"status": "error", "ename", "evalue"}``, the traceback sent to the page as well."""
    from pyodide.code import eval_code_async

    global _parent
    _parent = {"msg_id": msg_id}
    try:
        value = await eval_code_async(code, NAMESPACE, filename=CELL)
        if value is not None:
            post("execute_result", bundle={"data": bundle_of(value), "metadata": {}})
        return {"status": "ok"}
    except BaseException as error:  # noqa: BLE001  (the lesson's error is the page's to show)
        ename, evalue = type(error).__name__, str(error)
        post("execute_error", bundle={"ename": ename, "evalue": evalue, "traceback": cell_traceback(error)})
        return {"status": "error", "ename": ename, "evalue": evalue}
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
