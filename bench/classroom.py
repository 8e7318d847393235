"""Classroom load: N learners open the sandbox lesson at once, play a few cards, and leave.

Starts the lesson server exactly as ``make serve`` does (``calijack.serve.lessons_command``:
Voilà over ``notebooks/``, 127.0.0.1 only), waits until its pre-heated kernels are ready,
then lets N simulated learners arrive within ``--spread`` seconds of each other. Each one
speaks what the browser's Voilà page speaks, with plain HTTP and websocket clients (tornado):

1. ``GET /voila/render/07_sandbox.ipynb``: the page; it must hold the sandbox's widget view;
2. the kernel's websocket: ``kernel_info_request``, then the widget manager's
   ``jupyter.widget.control`` comm and ``request_states`` (after 4 s without an answer,
   ipywidgets' own fallback: ``comm_info_request`` and one ``request_state`` per model);
   *render time* runs from the request to the widget states, hand found;
3. ``--clicks`` card clicks (a legal card's ``Button``, the ``custom`` click message);
   *click → update* runs from the click to the table showing the card played; the next
   click waits until the computer's answer is shown;
4. leaving: the websocket closes and the shutdown beacon the page sends on ``beforeunload``
   (``POST /voila/api/shutdown/<kernel>`` with the ``_xsrf`` cookie's value, or nothing).

Reports per N: render p50/p95, click → update p50/p95, failures (and learners turned away
with the "lessons are full" page), widget models per sandbox, memory per kernel and in total
(server + kernels, RSS and PSS), shutdown beacons accepted, and kernels left ``--linger``
seconds after every learner has gone. Bounded in time, 127.0.0.1 only; it stops its server by itself.

    .venv/bin/python bench/classroom.py [--learners 10 20 30] [--clicks 3] [--json]
        [--server-args="--pool-size 2"]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import uuid
from http.cookies import SimpleCookie
from pathlib import Path

import psutil
from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import websocket_connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from calijack import serve  # noqa: E402

NOTEBOOKS = ROOT / "notebooks"
LESSON = "07_sandbox.ipynb"
HOST = "127.0.0.1"
CONTROL_TIMEOUT = 4.0  # ipywidgets' CONTROL_COMM_TIMEOUT: then it asks model by model
_CONFIG_RE = re.compile(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', re.S)
_OUTPUT_RE = re.compile(r'<script type="application/vnd.voila.cell-output\+json">(.*?)</script>', re.S)
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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def summary(values: list[float], digits: int = 1) -> dict:
    """p50, p95 and max of ``values`` (nearest rank), and how many."""
    if not values:
        return {"p50": None, "p95": None, "max": None, "n": 0}
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"p50": round(statistics.median(ordered), digits), "p95": round(p95, digits),
            "max": round(ordered[-1], digits), "n": len(ordered)}


# -- the server and its kernels ---------------------------------------------------------------

def kernels_of(server: psutil.Process) -> list[psutil.Process]:
    """The kernel processes under the Voilà server."""
    found = []
    for child in server.children(recursive=True):
        try:
            if "ipykernel" in " ".join(child.cmdline()):
                found.append(child)
        except psutil.Error:
            continue
    return found


def memory(server: psutil.Process) -> dict:
    """RSS and PSS (MB) of the server and each kernel; PSS counts shared pages once."""
    def sizes(proc):
        try:
            info = proc.memory_full_info()
            return info.rss / 2**20, info.pss / 2**20
        except psutil.Error:
            return 0.0, 0.0
    server_rss, server_pss = sizes(server)
    kernels = [sizes(k) for k in kernels_of(server)]
    return {"kernels": len(kernels),
            "kernel_rss_mb": summary([r for r, _ in kernels], 0),
            "kernel_pss_mb": summary([p for _, p in kernels], 0),
            "server_rss_mb": round(server_rss),
            "total_rss_mb": round(server_rss + sum(r for r, _ in kernels)),
            "total_pss_mb": round(server_pss + sum(p for _, p in kernels))}


def cpu_seconds(server: psutil.Process) -> dict:
    """CPU seconds (user + system) used so far by the server and by its live kernels."""
    def used(proc):
        try:
            times = proc.cpu_times()
            return times.user + times.system
        except psutil.Error:
            return 0.0
    return {"server": used(server), "kernels": sum(used(k) for k in kernels_of(server))}


def wait_until_quiet(server: psutil.Process, limit: float = 300) -> float:
    """Wait until the server and its kernels use < 10 % of a core for 2 s in a row (the
    pre-heated kernels have run their lessons); return the seconds waited."""
    start = time.monotonic()
    quiet = 0
    time.sleep(3)
    while time.monotonic() - start < limit:
        procs = [server, *kernels_of(server)]
        for p in procs:
            try:
                p.cpu_percent(None)
            except psutil.Error:
                pass
        time.sleep(2)
        busy = 0.0
        for p in procs:
            try:
                busy += p.cpu_percent(None)
            except psutil.Error:
                pass
        quiet = quiet + 1 if busy < 10 else 0
        if quiet >= 2:
            break
    return round(time.monotonic() - start, 1)


# -- one learner ----------------------------------------------------------------------------

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

    def plays(self, cls: str) -> int:
        match = _PLAYS_RE.search(self.model(cls).get("value", ""))
        return int(match.group(1)) if match else -1

    def legal_cards(self) -> list[str]:
        hand = self.model("cj-hand").get("children", [])
        ids = [c.removeprefix("IPY_MODEL_") for c in hand]
        return [i for i in ids if "cj-legal" in self.states.get(i, {}).get("_dom_classes", ())]

    async def open(self, client: AsyncHTTPClient, timeout: float) -> None:
        """Load the page and the widget states, as the Voilà page does."""
        response = await client.fetch(self.base + "voila/render/" + LESSON, request_timeout=timeout,
                                      raise_error=False)
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
        if not legal:
            return None
        before = self.plays("cj-table-view")
        start = time.monotonic()
        await self.send("comm_msg", {"comm_id": legal[0], "data": {"method": "custom",
                                                                   "content": {"event": "click"}}})
        await self.until(lambda: self.plays("cj-table-view") != before, self.click_timeout, "the card on the table")
        elapsed = (time.monotonic() - start) * 1000
        await self.until(lambda: self.plays("cj-status") > before
                         and "cj-busy" not in self.model("cj-sandbox").get("_dom_classes", ()),
                         self.click_timeout, "the computer's answer")
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


async def learner(i: int, n: int, args, client, ready: list, all_done: asyncio.Event) -> dict:
    """One learner's whole visit; returns what happened."""
    await asyncio.sleep(args.spread * i / max(n - 1, 1))
    me = Learner(args.base, args.click_timeout)
    result = {"ok": False, "failure": None, "render_s": None, "clicks_ms": [], "beacon": None,
              "fallback": False, "models": None}
    start = time.monotonic()
    try:
        await asyncio.wait_for(me.open(client, args.render_timeout), args.render_timeout)
        result["render_s"] = time.monotonic() - start
        result["models"] = len(me.states)
        for _ in range(args.clicks):
            ms = await me.click()
            if ms is None:
                break
            result["clicks_ms"].append(ms)
        result["ok"] = True
    except Failure as failure:
        result["failure"] = str(failure)
    except asyncio.TimeoutError:
        result["failure"] = "timeout: the page and its widgets"
    except Exception as error:  # noqa: BLE001 - counted, never fatal to the run
        result["failure"] = f"{type(error).__name__}: {error}"[:120]
    result["fallback"] = me.fallback
    # Stay until every learner is done (the memory peak is taken then), then close the tab.
    ready[0] += 1
    await all_done.wait()
    try:
        result["beacon"] = await me.leave(client)
    except Exception as error:  # noqa: BLE001
        result["beacon"] = type(error).__name__
    return result


async def classroom(n: int, args, server: psutil.Process) -> tuple[list[dict], dict]:
    """N learners against ``server``; returns their results and the memory at the peak."""
    AsyncHTTPClient.configure(None, max_clients=max(64, 2 * n))
    client = AsyncHTTPClient()
    ready = [0]
    all_done = asyncio.Event()
    tasks = [asyncio.ensure_future(learner(i, n, args, client, ready, all_done)) for i in range(n)]
    # Each learner bounds itself (render and click timeouts); this bounds the whole class too.
    deadline = time.monotonic() + args.spread + args.render_timeout + 2 * args.clicks * args.click_timeout + 30
    while ready[0] < n and time.monotonic() < deadline:
        await asyncio.sleep(0.5)
    peak = await asyncio.get_running_loop().run_in_executor(None, memory, server)
    peak["cpu_s"] = cpu_seconds(server)
    all_done.set()
    results = await asyncio.wait_for(asyncio.gather(*tasks), 120)
    client.close()
    return results, peak


def run(n: int, args) -> dict:
    """One classroom of ``n`` learners against a fresh server."""
    port = free_port()
    args.base = f"http://{HOST}:{port}/"
    options = serve.parse_args(["--voila-port", str(port), "--notebooks", str(NOTEBOOKS),
                                *shlex.split(args.server_args)])
    log = tempfile.NamedTemporaryFile(prefix=f"classroom-{n}-", suffix=".log", delete=False)
    process = subprocess.Popen(serve.lessons_command(options), cwd=NOTEBOOKS, env=serve.voila_env(),
                               stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                               start_new_session=True)
    report: dict = {"learners": n, "log": log.name}
    try:
        if not serve.wait_for_http(args.base + serve.VOILA_PROBE, 120, process):
            raise SystemExit(f"the lesson server did not start; see {log.name}")
        server = psutil.Process(process.pid)
        report["warmup_s"] = wait_until_quiet(server)
        report["baseline"] = memory(server)
        report["baseline"]["cpu_s"] = cpu_seconds(server)
        started = time.monotonic()
        results, peak = asyncio.run(classroom(n, args, server))
        report["wall_s"] = round(time.monotonic() - started, 1)
        failures: dict[str, int] = {}
        for r in results:
            if r["failure"]:
                failures[r["failure"]] = failures.get(r["failure"], 0) + 1
        report["ok"] = sum(r["ok"] for r in results)
        report["turned_away"] = failures.pop("full", 0)
        report["failures"] = failures
        report["render_s"] = summary([r["render_s"] for r in results if r["render_s"] is not None])
        report["click_ms"] = summary([ms for r in results for ms in r["clicks_ms"]], 0)
        report["widget_fallback"] = sum(r["fallback"] for r in results)
        report["widget_models"] = summary([r["models"] for r in results if r["models"]], 0)
        beacons: dict[str, int] = {}
        for r in results:
            beacons[str(r["beacon"])] = beacons.get(str(r["beacon"]), 0) + 1
        report["shutdown_beacons"] = beacons
        report["peak"] = peak
        # CPU spent during the class: the server's, and its kernels' (those alive at the peak;
        # pre-heated ones count only what they spent after the baseline was taken).
        report["class_cpu_s"] = {k: round(peak["cpu_s"][k] - report["baseline"]["cpu_s"][k], 1)
                                 for k in ("server", "kernels")}
        time.sleep(args.linger)
        report["after_linger"] = memory(server)
        report["linger_s"] = args.linger
        # More classes on the same server: does it come back to the same size each time?
        report["later_rounds"] = []
        for _ in range(args.rounds - 1):
            results, _peak = asyncio.run(classroom(n, args, server))
            time.sleep(args.linger)
            after = memory(server)
            report["later_rounds"].append({"ok": sum(r["ok"] for r in results), "kernels_after": after["kernels"],
                                           "server_rss_mb": after["server_rss_mb"],
                                           "total_rss_mb": after["total_rss_mb"]})
        report["load_average"] = [round(x, 1) for x in os.getloadavg()]
    finally:
        serve.stop_process_group(process)
        log.close()
    return report


def show(report: dict) -> None:
    r, c, b, p, a = (report["render_s"], report["click_ms"], report["baseline"], report["peak"],
                     report["after_linger"])
    print(f"N={report['learners']}: {report['ok']} working sandboxes, {report['turned_away']} turned away "
          f"(lessons full), failures {report['failures'] or 'none'}")
    print(f"  render       p50 {r['p50']} s, p95 {r['p95']} s, max {r['max']} s "
          f"({report['widget_models']['p50']} widget models each; {report['widget_fallback']} pages fell "
          "back to one request per model)")
    print(f"  click→update p50 {c['p50']} ms, p95 {c['p95']} ms, max {c['max']} ms ({c['n']} clicks)")
    print(f"  memory       per kernel RSS p50 {p['kernel_rss_mb']['p50']} MB (PSS {p['kernel_pss_mb']['p50']}); "
          f"total RSS {b['total_rss_mb']} MB before -> {p['total_rss_mb']} MB with {p['kernels']} kernels "
          f"-> {a['total_rss_mb']} MB after (PSS {b['total_pss_mb']} -> {p['total_pss_mb']} -> {a['total_pss_mb']})")
    print(f"  kernels      {b['kernels']} before, {p['kernels']} at the peak, {a['kernels']} left "
          f"{report['linger_s']} s after everyone left; shutdown beacons {report['shutdown_beacons']}")
    for k, later in enumerate(report["later_rounds"], start=2):
        print(f"  class {k}: {later['ok']} working; then {later['kernels_after']} kernels, server "
              f"{later['server_rss_mb']} MB, total {later['total_rss_mb']} MB")
    print(f"  CPU during the class: server {report['class_cpu_s']['server']} s, kernels "
          f"{report['class_cpu_s']['kernels']} s; warm-up {report['warmup_s']} s, run {report['wall_s']} s, "
          f"load average {report['load_average']} on {os.cpu_count()} cores")


def main(argv=None) -> int:
    """Run one classroom per N and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, nargs="+", default=[10, 20, 30])
    parser.add_argument("--clicks", type=int, default=3, help="cards each learner plays")
    parser.add_argument("--spread", type=float, default=10.0, help="seconds over which learners arrive")
    parser.add_argument("--render-timeout", type=float, default=300.0)
    parser.add_argument("--click-timeout", type=float, default=60.0)
    parser.add_argument("--linger", type=float, default=120.0, help="seconds to wait before counting kernels left")
    parser.add_argument("--rounds", type=int, default=1,
                        help="classes in a row on the same server (memory after each)")
    parser.add_argument("--server-args", default="", help="extra options for calijack.serve's lesson server")
    parser.add_argument("--json", action="store_true", help="one JSON line per N")
    args = parser.parse_args(argv)
    for n in args.learners:
        args.rounds = max(1, min(args.rounds, 5))
        report = run(max(1, min(n, 100)), args)
        print(json.dumps(report)) if args.json else show(report)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
