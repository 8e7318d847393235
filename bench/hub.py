"""Classroom load on calijack's JupyterHub: N learners log in within 10 s, land on the sandbox,
play a few cards and leave; beside ``calijack.serve --sandbox-pool 30`` in the same run.

Starts the hub as ``make hub`` does (``deploy/jupyterhub/hub.py``, 127.0.0.1, a state folder of
its own), with N accounts, then lets N simulated learners arrive within ``--spread`` seconds.
Each one speaks what a browser speaks, over plain HTTP and a websocket (tornado):

1. the login page and its form (the first login sets the learner's password), then
   ``/hub/spawn``, and the hub's API until the learner's server is ready;
2. the single-user server's OAuth round trip through the hub, then the sandbox lesson as
   ``bench/classroom.py``'s learner takes it (``bench/voila_learner.py``: the page, the kernel's
   websocket, the widget states); *login → first legal card* runs from the login form's POST
   to a legal card in the learner's hand;
3. ``--clicks`` card clicks (*click → update*);
4. leaving: the tab closes (websocket, shutdown beacon) and the learner logs out, which stops
   their server.

With ``--prestart`` the teacher first starts every learner's server (the admin page's "Start
All", through the hub's API with the teacher's login), as ``calijack.serve`` pre-heats kernels.

Reports per N: login → first card p50/p95, click → update p50/p95, failures, memory per learner
(their server and its kernel, RSS and PSS), the hub's and the proxy's memory before, with the
class, and ``--linger`` seconds after everyone left. Then ``bench/classroom.py`` runs the same N
against ``calijack.serve --sandbox-pool 30`` (``--no-classroom`` skips it). Bounded in time,
127.0.0.1 only; it stops what it started. Run it at ``nice``: it takes both cores for minutes.

    nice .venv/bin/python bench/hub.py [--learners 10 20 30] [--clicks 3] [--linger 120] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
from http.cookies import SimpleCookie
from pathlib import Path

import psutil
from tornado.httpclient import AsyncHTTPClient

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import classroom  # noqa: E402  (bench/classroom.py: the same class against calijack.serve)
from calijack import serve  # noqa: E402
from voila_learner import HOST, Failure, Learner  # noqa: E402

HUB = ROOT / "deploy" / "jupyterhub" / "hub.py"
_XSRF_RE = re.compile(r'name="_xsrf" value="([^"]+)"')


class HubVisitor:
    """One learner's browser before the lesson: the hub's cookies and their server's, apart."""

    def __init__(self, hub: str, name: str):
        self.hub, self.name = hub, name
        self.server = f"{hub}user/{name}/"
        self.jars: dict[str, dict[str, str]] = {"hub": {}, "server": {}}  # by cookie path

    def _jar(self, url: str) -> dict[str, str]:
        return self.jars["server" if urllib.parse.urlsplit(url).path.startswith("/user/") else "hub"]

    async def fetch(self, client, url: str, method: str = "GET", body: str | None = None,
                    into_server: bool = True):
        """``url``, following redirects by hand and keeping each cookie with its path (not into
        the learner's server if ``into_server`` is false: that would open a lesson)."""
        for _ in range(12):
            jar = self._jar(url)
            headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in jar.items())} if jar else {}
            response = await client.fetch(url, method=method, body=body, headers=headers,
                                          follow_redirects=False, raise_error=False, request_timeout=300)
            for header in response.headers.get_list("Set-Cookie"):
                for name, morsel in SimpleCookie(header).items():
                    self.jars["server" if morsel["path"].startswith("/user/") else "hub"][name] = morsel.value
            if response.code not in (301, 302, 303, 307):
                return response
            url, method, body = urllib.parse.urljoin(url, response.headers["Location"]), "GET", None
            if not into_server and url.startswith(self.server):
                return response
        raise Failure("too many redirects")

    async def log_in(self, client, password: str) -> None:
        page = await self.fetch(client, self.hub + "hub/login")
        xsrf = _XSRF_RE.search(page.body.decode())
        if page.code != 200 or not xsrf:
            raise Failure(f"login page: http {page.code}")
        form = urllib.parse.urlencode({"username": self.name, "password": password, "_xsrf": xsrf.group(1)})
        response = await self.fetch(client, self.hub + "hub/login", "POST", form, into_server=False)
        if response.code >= 400:
            raise Failure(f"login: http {response.code}")

    async def wait_for_server(self, client, timeout: float) -> None:
        """Ask for the server (``/hub/spawn``), then the hub's API until it is ready."""
        await self.fetch(client, self.hub + "hub/spawn", into_server=False)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            answer = await self.fetch(client, self.hub + "hub/api/user")
            user = json.loads(answer.body) if answer.code == 200 else {}
            if user.get("server") and not user.get("pending"):
                return
            await asyncio.sleep(0.5)
        raise Failure("timeout: the server did not start")

    async def authorize(self, client) -> dict[str, str]:
        """The server's OAuth round trip (on Voilà's lesson list: no kernel); its cookies."""
        answer = await self.fetch(client, self.server + "voila/tree")
        if answer.code != 200:
            raise Failure(f"oauth: http {answer.code}")
        return dict(self.jars["server"])

    async def log_out(self, client) -> None:
        await self.fetch(client, self.hub + "hub/logout")


async def prestart(args, n: int) -> float:
    """What a teacher does before the class with the admin page's "Start All": every learner's
    server started (the teacher's own login, the hub's API); returns the seconds it took."""
    start = time.monotonic()
    AsyncHTTPClient.configure(None, max_clients=64)
    client = AsyncHTTPClient()
    teacher = HubVisitor(args.hub, "teacher")
    await teacher.log_in(client, secrets.token_hex(8))
    headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in teacher.jars["hub"].items()),
               "X-XSRFToken": teacher.jars["hub"].get("_xsrf", ""), "Content-Type": "application/json"}
    names = [f"learner{i:03d}" for i in range(n)]
    for name in names:
        answer = await client.fetch(f"{args.hub}hub/api/users/{name}/server", method="POST", body="{}",
                                    headers=headers, raise_error=False, request_timeout=60)
        if answer.code not in (201, 202):
            raise SystemExit(f"the teacher could not start {name}'s server: http {answer.code}")
    deadline = time.monotonic() + 30 * n
    while time.monotonic() < deadline:
        answer = await client.fetch(f"{args.hub}hub/api/users", headers=headers, raise_error=False)
        users = json.loads(answer.body) if answer.code == 200 else []
        if sum(bool(u.get("server")) and not u.get("pending") for u in users if u["name"] in names) == n:
            break
        await asyncio.sleep(1)
    client.close()
    return round(time.monotonic() - start, 1)


async def visit(i: int, n: int, args, client, ready: list, all_done: asyncio.Event) -> dict:
    """One learner's whole visit; returns what happened."""
    await asyncio.sleep(args.spread * i / max(n - 1, 1))
    visitor = HubVisitor(args.hub, f"learner{i:03d}")
    result = {"ok": False, "failure": None, "card_s": None, "server_s": None, "clicks_ms": []}
    learner = None
    start = time.monotonic()
    try:
        await visitor.log_in(client, secrets.token_hex(8))
        await visitor.wait_for_server(client, args.render_timeout)
        result["server_s"] = time.monotonic() - start
        learner = Learner(visitor.server, args.click_timeout)
        learner.cookies = await visitor.authorize(client)
        await asyncio.wait_for(learner.open(client, args.render_timeout), args.render_timeout)
        result["card_s"] = time.monotonic() - start
        for _ in range(args.clicks):
            ms = await learner.click()
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
    ready[0] += 1
    await all_done.wait()  # the memory peak is taken with everyone there
    try:
        if learner is not None:
            await learner.leave(client)
        await visitor.log_out(client)
    except Exception:  # noqa: BLE001 - leaving is best effort; what is left is measured
        pass
    return result


def memory(hub: psutil.Process) -> dict:
    """RSS and PSS (MB): the hub, the proxy, and each learner (their server and its kernels)."""
    def sizes(procs):
        rss = pss = 0.0
        for proc in procs:
            try:
                info = proc.memory_full_info()
                rss, pss = rss + info.rss / 2**20, pss + info.pss / 2**20
            except psutil.Error:
                pass
        return rss, pss
    servers, proxy = [], []
    for child in hub.children():
        try:
            line = " ".join(child.cmdline())
        except psutil.Error:
            continue
        if "jupyterhub.singleuser" in line:
            servers.append([child, *child.children(recursive=True)])
        elif "configurable-http-proxy" in line:
            proxy.append(child)
    learners = [sizes(tree) for tree in servers]
    hub_rss, hub_pss = sizes([hub])
    return {"servers": len(servers), "hub_rss_mb": round(hub_rss), "hub_pss_mb": round(hub_pss),
            "proxy_rss_mb": round(sizes(proxy)[0]),
            "learner_rss_mb": classroom.summary([r for r, _ in learners], 0),
            "learner_pss_mb": classroom.summary([p for _, p in learners], 0),
            "total_rss_mb": round(hub_rss + sizes(proxy)[0] + sum(r for r, _ in learners)),
            "total_pss_mb": round(hub_pss + sizes(proxy)[1] + sum(p for _, p in learners))}


async def a_class(n: int, args, hub: psutil.Process) -> tuple[list[dict], dict]:
    AsyncHTTPClient.configure(None, max_clients=max(64, 3 * n))
    client = AsyncHTTPClient()
    ready, all_done = [0], asyncio.Event()
    tasks = [asyncio.ensure_future(visit(i, n, args, client, ready, all_done)) for i in range(n)]
    deadline = time.monotonic() + args.spread + 2 * args.render_timeout + 2 * args.clicks * args.click_timeout
    while ready[0] < n and time.monotonic() < deadline:
        await asyncio.sleep(0.5)
    peak = await asyncio.get_running_loop().run_in_executor(None, memory, hub)
    all_done.set()
    results = await asyncio.wait_for(asyncio.gather(*tasks), 300)
    client.close()
    return results, peak


def run(n: int, args) -> dict:
    """One class of ``n`` learners on a fresh hub."""
    folder = Path(tempfile.mkdtemp(prefix=f"hub-bench-{n}-"))
    (folder / "learners.txt").write_text("".join(f"learner{i:03d}\n" for i in range(n)))
    port = serve.free_port()
    args.hub = f"http://{HOST}:{port}/"
    log = open(folder / "hub.log", "wb")
    process = subprocess.Popen([sys.executable, str(HUB), "--learners", str(folder / "learners.txt"),
                                "--state", str(folder / "state"), "--port", str(port)],
                               stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                               start_new_session=True)
    report: dict = {"learners": n, "log": str(folder / "hub.log")}
    try:
        deadline = time.monotonic() + 120
        while not serve.wait_for_http(args.hub + "hub/api/", 2, process):
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the hub did not start; see {folder / 'hub.log'}")
        time.sleep(3)  # the hub's own start-up settles
        hub = psutil.Process(process.pid)
        if args.prestart:
            report["prestart_s"] = asyncio.run(prestart(args, n))
            time.sleep(10)  # the servers' own start-up settles
        report["before"] = memory(hub)
        started = time.monotonic()
        results, peak = asyncio.run(a_class(n, args, hub))
        report["wall_s"] = round(time.monotonic() - started, 1)
        failures: dict[str, int] = {}
        for r in results:
            if r["failure"]:
                failures[r["failure"]] = failures.get(r["failure"], 0) + 1
        report["ok"] = sum(r["ok"] for r in results)
        report["failures"] = failures
        report["card_s"] = classroom.summary([r["card_s"] for r in results if r["card_s"] is not None])
        report["server_s"] = classroom.summary([r["server_s"] for r in results if r["server_s"] is not None])
        report["click_ms"] = classroom.summary([ms for r in results for ms in r["clicks_ms"]], 0)
        report["peak"] = peak
        time.sleep(args.linger)
        report["after"] = memory(hub)
        report["linger_s"] = args.linger
        report["load_average"] = [round(x, 1) for x in os.getloadavg()]
    finally:
        serve.stop_process_group(process, timeout=60)
        log.close()
        shutil.rmtree(folder / "state", ignore_errors=True)  # the log stays, for a look
    return report


def show(report: dict, pool: dict | None) -> None:
    c, k, b, p, a = (report["card_s"], report["click_ms"], report["before"], report["peak"], report["after"])
    started = f" (servers started beforehand in {report['prestart_s']} s)" if "prestart_s" in report else ""
    print(f"N={report['learners']} on the hub{started}: {report['ok']} working sandboxes, failures "
          f"{report['failures'] or 'none'}")
    print(f"  login → first card p50 {c['p50']} s, p95 {c['p95']} s, max {c['max']} s "
          f"(server ready p50 {report['server_s']['p50']} s)")
    print(f"  click → update     p50 {k['p50']} ms, p95 {k['p95']} ms ({k['n']} clicks)")
    print(f"  memory per learner RSS p50 {p['learner_rss_mb']['p50']} MB, PSS p50 {p['learner_pss_mb']['p50']} MB "
          f"(server + kernel); {p['servers']} servers, total RSS {p['total_rss_mb']} MB (PSS {p['total_pss_mb']})")
    print(f"  the hub            RSS {b['hub_rss_mb']} MB before, {p['hub_rss_mb']} MB with the class, "
          f"{a['hub_rss_mb']} MB {report['linger_s']:.0f} s after they left ({a['servers']} servers left); "
          f"proxy {b['proxy_rss_mb']} → {p['proxy_rss_mb']} → {a['proxy_rss_mb']} MB")
    print(f"  run {report['wall_s']} s, load average {report['load_average']} on {os.cpu_count()} cores")
    if pool is not None:
        r, pk, af = pool["render_s"], pool["peak"], pool["after_linger"]
        print(f"  calijack.serve --sandbox-pool 30: {pool['ok']} working, {pool['turned_away']} turned away, "
              f"failures {pool['failures'] or 'none'}; page → first card p50 {r['p50']} s, p95 {r['p95']} s; "
              f"click p50 {pool['click_ms']['p50']} ms, p95 {pool['click_ms']['p95']} ms; kernel RSS p50 "
              f"{pk['kernel_rss_mb']['p50']} MB; total RSS {pool['baseline']['total_rss_mb']} → {pk['total_rss_mb']} "
              f"→ {af['total_rss_mb']} MB; load average {pool['load_average']}")


def main(argv=None) -> int:
    """One class per N on the hub, then on calijack.serve --sandbox-pool 30; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    classroom.add_class_options(parser, "seconds after they leave")
    parser.add_argument("--no-classroom", action="store_true", help="skip calijack.serve --sandbox-pool 30")
    parser.add_argument("--prestart", action="store_true",
                        help="the teacher starts every learner's server before the class (Start All)")
    parser.add_argument("--json", action="store_true", help="one JSON line per N")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    for n in args.learners:
        size = max(1, min(n, 100))
        report = run(size, args)
        pool = None
        if not args.no_classroom:
            pool = classroom.run(size, argparse.Namespace(
                spread=args.spread, render_timeout=args.render_timeout, click_timeout=args.click_timeout,
                clicks=args.clicks, linger=args.linger, rounds=1, server_args="--sandbox-pool 30"))
        print(json.dumps({"hub": report, "serve_pool30": pool}) if args.json else "", end="\n" if args.json else "")
        if not args.json:
            show(report, pool)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
