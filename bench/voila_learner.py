"""A learner's browser tab on a Voilà lesson, spoken over plain HTTP and a websocket.

What the Voilà page of the sandbox lesson does, for ``bench/classroom.py``: the page itself,
the kernel's websocket in the protocol JupyterLab's services speak (v1), ipywidgets' loading of
the widget states, card clicks, and the shutdown request sent when the tab closes. The
sandbox-specific part is in :meth:`Learner.table`, :meth:`Learner.legal_cards`,
:meth:`Learner.plays` and :meth:`Learner.click`: the sandbox's one ``CardTable`` (an anywidget,
``calijack/widgets/table.py``) whose traits say what the page draws (``table_html``: the
learner's cards as ``<button class="cj-play cj-can" data-card="JH">``; ``status``: the plays
shown and whether the computer has answered), and the message ``table.js`` sends when a card is
clicked (``{"action": "play", "card": "JH"}``, ipywidgets' ``custom`` comm message).
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import urllib.parse
import uuid
from http.cookies import SimpleCookie

from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import websocket_connect

HOST = "127.0.0.1"
LESSON = "07_sandbox.ipynb"
CONTROL_TIMEOUT = 4.0  # ipywidgets' CONTROL_COMM_TIMEOUT: then it asks model by model
_CONFIG_RE = re.compile(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', re.S)
_OUTPUT_RE = re.compile(r'<script type="application/vnd.voila.cell-output\+json">(.*?)</script>', re.S)
# The learner's own cards in the CardTable's table_html, as calijack.render.table_html draws
# them: a <button> tag of class "cj-play" (plus "cj-can" when legal) carrying data-card.
_BUTTON_RE = re.compile(r"<button\b[^>]*>")
_CLASS_RE = re.compile(r'\bclass="([^"]*)"')
_CARD_RE = re.compile(r'\bdata-card="([^"]+)"')
_PLAYS_RE = re.compile(r'data-plays="(\d+)"')
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def pack_v1(channel: str, parts: list[bytes]) -> bytes:
    """A message in the kernel websocket protocol v1 (what JupyterLab's services speak):
    the number of offsets, the offsets (little-endian uint64), the channel, then the parts."""
    name = channel.encode()
    offsets = [8 * (len(parts) + 3)]
    for chunk in (name, *parts):
        offsets.append(offsets[-1] + len(chunk))
    head = len(offsets).to_bytes(8, "little") + b"".join(o.to_bytes(8, "little") for o in offsets)
    return head + name + b"".join(parts)


def unpack_v1(raw: bytes) -> dict:
    """The message in a v1 websocket frame (its binary buffers are left out)."""
    count = int.from_bytes(raw[:8], "little")
    offsets = [int.from_bytes(raw[8 * (i + 1):8 * (i + 2)], "little") for i in range(count)]
    parts = [raw[offsets[i]:offsets[i + 1]] for i in range(1, min(count - 1, 5))]
    header, parent, metadata, content = (json.loads(p) for p in parts[:4])
    return {"header": header, "parent_header": parent, "metadata": metadata, "content": content}


class Failure(Exception):
    """A learner did not get a working sandbox (the message says at which step)."""


class Learner:
    """One browser tab on the sandbox lesson, spoken in Voilà's and ipywidgets' protocol."""

    def __init__(self, base: str, click_timeout: float):
        self.base = base
        self.click_timeout = click_timeout
        self.session = uuid.uuid4().hex
        self.cookies: dict[str, str] = {}
        self.states: dict[str, dict] = {}  # model id -> widget state, kept up to date
        self.changed = asyncio.Event()
        self.replies: dict[str, asyncio.Future] = {}
        self.ws = None
        self.kernel_id = None
        self.reader = None
        self.fallback = False

    def _cookie_header(self) -> dict:
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}

    def _message(self, msg_type: str, content: dict, channel: str = "shell", metadata=None) -> dict:
        header = {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "username": "learner",
                  "session": self.session, "date": "", "version": "5.3"}
        return {"header": header, "parent_header": {}, "metadata": metadata or {},
                "content": content, "channel": channel}

    async def send(self, msg_type: str, content: dict, metadata=None, reply: bool = False):
        msg = self._message(msg_type, content, metadata=metadata)
        future = None
        if reply:
            future = self.replies[msg["header"]["msg_id"]] = asyncio.get_running_loop().create_future()
        parts = [json.dumps(msg[k]).encode() for k in ("header", "parent_header", "metadata", "content")]
        await self.ws.write_message(pack_v1("shell", parts), binary=True)
        return future

    async def _read(self) -> None:
        while True:
            raw = await self.ws.read_message()
            if raw is None:
                return
            msg = unpack_v1(raw)
            kind = msg["header"]["msg_type"]
            parent = (msg.get("parent_header") or {}).get("msg_id")
            if kind.endswith("_reply") and parent in self.replies:
                self.replies.pop(parent).set_result(msg)
            content = msg.get("content") or {}
            data = content.get("data") or {}
            if kind == "comm_open" and "state" in data:
                self.states[content["comm_id"]] = dict(data["state"])
            elif kind == "comm_msg":
                if data.get("method") == "update_states":
                    for model_id, entry in data["states"].items():
                        self.states[model_id] = dict(entry["state"])
                elif data.get("method") == "update":
                    self.states.setdefault(content["comm_id"], {}).update(data["state"])
                else:
                    continue
            else:
                continue
            self.changed.set()

    async def until(self, predicate, timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure(f"timeout: {what}")
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except asyncio.TimeoutError:
                pass

    def model(self, cls: str) -> dict:
        return next((s for s in self.states.values() if cls in s.get("_dom_classes", ())), {})

    def table(self) -> tuple[str | None, dict]:
        """The sandbox's CardTable: its comm id and its traits as last sent (or None, {})."""
        return next(((i, s) for i, s in self.states.items()
                     if "cj-table-view" in s.get("_dom_classes", ())), (None, {}))

    def plays(self) -> int:
        """Cards played on the table as drawn (``table_html``'s data-plays; -1: no table yet)."""
        match = _PLAYS_RE.search(self.table()[1].get("table_html", ""))
        return int(match.group(1)) if match else -1

    def settled(self) -> int:
        """Cards played once the computer has answered and the table takes clicks again (else -1)."""
        state = self.table()[1]
        status = state.get("status") or {}
        if state.get("busy") or not status.get("settled"):
            return -1
        return int(status.get("plays", -1))

    def legal_cards(self) -> list[str]:
        """The codes of the cards the table offers as legal (``cj-play cj-can`` buttons)."""
        cards = []
        for tag in _BUTTON_RE.findall(self.table()[1].get("table_html", "")):
            classes = _CLASS_RE.search(tag)
            card = _CARD_RE.search(tag)
            if classes and card and {"cj-play", "cj-can"} <= set(classes.group(1).split()):
                cards.append(card.group(1))
        return cards

    async def open(self, client: AsyncHTTPClient, timeout: float) -> None:
        """Load the page and the widget states, as the Voilà page does."""
        response = await client.fetch(self.base + "voila/render/" + LESSON, request_timeout=timeout,
                                      headers=self._cookie_header(), raise_error=False)
        if response.code == 503:
            raise Failure("full")
        if response.code != 200:
            raise Failure(f"http {response.code}")
        for header in response.headers.get_list("Set-Cookie"):
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        page = response.body.decode("utf-8", "replace")
        config = _CONFIG_RE.search(page)
        if not config:
            raise Failure("no kernel in the page")
        self.kernel_id = json.loads(config.group(1))["kernelId"]
        outputs = [json.loads(m) for m in _OUTPUT_RE.findall(page)]
        if any(o.get("output_type") == "error" for o in outputs):
            raise Failure("error output in the page")
        views = [o["data"][WIDGET_VIEW]["model_id"] for o in outputs if WIDGET_VIEW in o.get("data", {})]
        if not views:
            raise Failure("no sandbox in the page")
        url = (f"ws://{HOST}:{self.base.split(':')[2].rstrip('/')}/api/kernels/{self.kernel_id}/channels"
               f"?session_id={self.session}")
        try:
            self.ws = await websocket_connect(HTTPRequest(url, headers=self._cookie_header(),
                                                          request_timeout=timeout),
                                              max_message_size=256 * 2**20,
                                              subprotocols=["v1.kernel.websocket.jupyter.org"])
        except Exception as error:  # noqa: BLE001 - any refusal is one failure
            raise Failure(f"websocket: {type(error).__name__}") from None
        self.reader = asyncio.ensure_future(self._read())
        info = await self.send("kernel_info_request", {}, reply=True)
        await asyncio.wait_for(info, timeout)
        await self._load_states(timeout)
        if not any("cj-sandbox" in self.states.get(v, {}).get("_dom_classes", ()) for v in views):
            raise Failure("the page's widget is not the sandbox")
        await self.until(lambda: self.legal_cards(), timeout, "a legal card in the hand")

    async def _load_states(self, timeout: float) -> None:
        control = uuid.uuid4().hex
        await self.send("comm_open", {"comm_id": control, "target_name": "jupyter.widget.control",
                                      "data": {}}, metadata={"version": "1.0.0"})
        await self.send("comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
        try:
            await self.until(lambda: len(self.states) > 0, CONTROL_TIMEOUT, "update_states")
            return
        except Failure:
            self.fallback = True
        reply = await asyncio.wait_for(
            await self.send("comm_info_request", {"target_name": "jupyter.widget"}, reply=True), timeout)
        comms = list(reply["content"].get("comms", {}))
        for comm_id in comms:
            await self.send("comm_msg", {"comm_id": comm_id, "data": {"method": "request_state"}})
        await self.until(lambda: all(c in self.states for c in comms), timeout, "every request_state")

    async def click(self) -> float | None:
        """Click the first legal card; return ms until the table shows it (None: no legal card)."""
        legal = self.legal_cards()
        comm_id = self.table()[0]
        if not legal or comm_id is None:
            return None
        before = self.plays()
        start = time.monotonic()
        # What table.js sends on a click: model.send({action: "play", card}), which ipywidgets
        # carries as a comm message of method "custom".
        await self.send("comm_msg", {"comm_id": comm_id, "data": {"method": "custom",
                                                                  "content": {"action": "play", "card": legal[0]}}})
        await self.until(lambda: self.plays() > before, self.click_timeout, "the card on the table")
        elapsed = (time.monotonic() - start) * 1000
        await self.until(lambda: self.settled() > before, self.click_timeout, "the computer's answer")
        return elapsed

    async def leave(self, client: AsyncHTTPClient) -> int | None:
        """Close the tab: the websocket goes, then the page's shutdown beacon."""
        if self.ws is not None:
            self.ws.close()
        if self.reader is not None:
            self.reader.cancel()
        if not self.kernel_id:
            return None
        body = urllib.parse.urlencode({"_xsrf": self.cookies.get("_xsrf", "")})
        response = await client.fetch(self.base + f"voila/api/shutdown/{self.kernel_id}", method="POST",
                                      body=body, headers=self._cookie_header(), raise_error=False,
                                      request_timeout=30)
        return response.code
