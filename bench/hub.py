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

With the class service on (the default), each learner's page also does what the sandbox's
table does once it shows the hand (``calijack/widgets/table.js``: ``startSync``): the class
service's ``sync`` page through the hub's OAuth (the hidden frame), then one ``PUT`` of the
learner's progress document (``progress.js``: ``X-XSRFToken``, JSON), alongside the clicks.
``--class-service off`` runs the hub without the service (``hub.py --no-class-service``: no
service, no ``CALIJACK_CLASS_URL``, so no sync); ``both`` runs each N twice, without then with,
and prints the two login → first card figures side by side.

Reports per N: login → first card p50/p95, click → update p50/p95, failures, memory per learner
(their server and its kernel, RSS and PSS), the hub's and the proxy's memory before, with the
class, and ``--linger`` seconds after everyone left. Then ``bench/classroom.py`` runs the same N
against ``calijack.serve --sandbox-pool 30`` (``--no-classroom`` skips it). Bounded in time,
127.0.0.1 only; it stops what it started. Run it at ``nice``: it takes both cores for minutes.

    nice .venv/bin/python bench/hub.py [--learners 10 20 30] [--clicks 3] [--linger 120]
        [--class-service on|off|both] [--json]
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
import urllib.error
import urllib.parse
import urllib.request
from http.cookies import SimpleCookie
from pathlib import Path

import psutil
from tornado.httpclient import AsyncHTTPClient

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import classroom  # noqa: E402  (bench/classroom.py: the same class against calijack.serve)
from calijack import progress, serve  # noqa: E402
from voila_learner import HOST, Failure, Learner  # noqa: E402

HUB = ROOT / "deploy" / "jupyterhub" / "hub.py"
SERVICE = "services/calijack-class/"  # calijack.classsvc.app.NAME, under the hub's prefix
_SYNC_XSRF_RE = re.compile(r'data-xsrf="([^"]+)"')
_XSRF_RE = re.compile(r'name="_xsrf" value="([^"]+)"')
EMPTY = progress.empty()  # a new learner's document, what their page holds at the first sync


class HubVisitor:
    """One learner's browser before the lesson: the hub's cookies and their server's, apart."""

    def __init__(self, hub: str, name: str):
        self.hub, self.name = hub, name
        self.server = f"{hub}user/{name}/"
        self.jars: dict[str, dict[str, str]] = {"hub": {}, "server": {}, "service": {}}  # by cookie path

    @staticmethod
    def _kind(path: str) -> str:
        return "server" if path.startswith("/user/") else "service" if path.startswith("/services/") else "hub"

    def _jar(self, url: str) -> dict[str, str]:
        return self.jars[self._kind(urllib.parse.urlsplit(url).path)]

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
                    self.jars[self._kind(morsel["path"] or "/")][name] = morsel.value
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

    async def sync(self, client) -> float:
        """What the sandbox's page does once it shows the hand, on a hub with the class service: the
        service's sync page in a hidden frame (the hub's OAuth on the way; its body holds the XSRF
        token), then the learner's document sent (``progress.js``'s ``call("PUT", …)``); seconds."""
        start = time.monotonic()
        page = await self.fetch(client, self.hub + SERVICE + "sync")
        xsrf = _SYNC_XSRF_RE.search(page.body.decode())
        if page.code != 200 or not xsrf:
            raise Failure(f"sync page: http {page.code}")
        jar = self.jars["service"]
        answer = await client.fetch(self.hub + SERVICE + "api/progress", method="PUT", body=json.dumps(EMPTY),
                                    headers={"X-XSRFToken": xsrf.group(1), "Content-Type": "application/json",
                                             "Cookie": "; ".join(f"{k}={v}" for k, v in jar.items())},
                                    raise_error=False, request_timeout=120)
        if not 200 <= answer.code < 300:
            raise Failure(f"sync: http {answer.code}")
        return time.monotonic() - start

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
    result = {"ok": False, "failure": None, "card_s": None, "server_s": None, "clicks_ms": [],
              "sync_s": None, "sync_failure": None}
    learner = syncing = None
    start = time.monotonic()
    try:
        await visitor.log_in(client, secrets.token_hex(8))
        await visitor.wait_for_server(client, args.render_timeout)
        result["server_s"] = time.monotonic() - start
        learner = Learner(visitor.server, args.click_timeout)
        learner.cookies = await visitor.authorize(client)
        await asyncio.wait_for(learner.open(client, args.render_timeout), args.render_timeout)
        result["card_s"] = time.monotonic() - start
        if args.class_service_on:  # the table's startSync, beside the learner's clicks
            syncing = asyncio.ensure_future(visitor.sync(client))
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
    if syncing is not None:
        try:
            result["sync_s"] = await asyncio.wait_for(syncing, args.render_timeout)
        except Exception as error:  # noqa: BLE001 - counted, never fatal to the run
            result["sync_failure"] = f"{type(error).__name__}: {error}"[:120]
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


def hub_ready(hub: str, process: subprocess.Popen, class_service: bool, timeout: float) -> bool:
    """True once the hub answers through the proxy (its API's 200: the proxy answers 404 until the
    hub has added its routes, later with the class service, which starts first) and, with the
    service, the service too (its sync page sends a newcomer to the hub's OAuth: 302)."""
    wanted = [(hub + "hub/api/", 200)] + ([(hub + SERVICE + "sync", 302)] if class_service else [])
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        codes = []
        for url, _ in wanted:
            try:
                with urllib.request.build_opener(_NoRedirect).open(url, timeout=2) as answer:
                    codes.append(answer.status)
            except urllib.error.HTTPError as error:
                codes.append(error.code)
            except (urllib.error.URLError, OSError):
                codes.append(None)
        if codes == [code for _, code in wanted]:
            return True
        time.sleep(0.5)
    return False


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def run(n: int, args, class_service: bool = True) -> dict:
    """One class of ``n`` learners on a fresh hub (with the class service, or without it)."""
    args.class_service_on = class_service
    folder = Path(tempfile.mkdtemp(prefix=f"hub-bench-{n}-{'class' if class_service else 'noclass'}-"))
    (folder / "learners.txt").write_text("".join(f"learner{i:03d}\n" for i in range(n)))
    port = serve.free_port()
    args.hub = f"http://{HOST}:{port}/"
    log = open(folder / "hub.log", "wb")
    process = subprocess.Popen([sys.executable, str(HUB), "--learners", str(folder / "learners.txt"),
                                "--state", str(folder / "state"), "--port", str(port),
                                *([] if class_service else ["--no-class-service"])],
                               stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                               start_new_session=True)
    report: dict = {"learners": n, "class_service": class_service, "log": str(folder / "hub.log")}
    try:
        if not hub_ready(args.hub, process, class_service, 180):
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
        if class_service:
            report["sync_s"] = classroom.summary([r["sync_s"] for r in results if r["sync_s"] is not None], 2)
            sync_failures: dict[str, int] = {}
            for r in results:
                if r["sync_failure"]:
                    sync_failures[r["sync_failure"]] = sync_failures.get(r["sync_failure"], 0) + 1
            report["sync_failures"] = sync_failures
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
    service = "with the class service" if report["class_service"] else "without the class service"
    print(f"N={report['learners']} on the hub {service}{started}: {report['ok']} working sandboxes, failures "
          f"{report['failures'] or 'none'}")
    print(f"  login → first card p50 {c['p50']} s, p95 {c['p95']} s, max {c['max']} s "
          f"(server ready p50 {report['server_s']['p50']} s)")
    print(f"  click → update     p50 {k['p50']} ms, p95 {k['p95']} ms ({k['n']} clicks)")
    if report["class_service"]:
        y = report["sync_s"]
        print(f"  first sync (sync page via the hub's OAuth + PUT) p50 {y['p50']} s, p95 {y['p95']} s "
              f"({y['n']} done), failures {report['sync_failures'] or 'none'}")
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
    parser.add_argument("--class-service", choices=("on", "off", "both"), default="on",
                        help="the hub with the class service (on, the default), without it (off), or each N "
                             "both ways, without then with, in the same run (both)")
    parser.add_argument("--json", action="store_true", help="one JSON line per N")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    ways = {"on": [True], "off": [False], "both": [False, True]}[args.class_service]
    for n in args.learners:
        size = max(1, min(n, 100))
        reports = [run(size, args, way) for way in ways]
        pool = None
        if not args.no_classroom:
            pool = classroom.run(size, argparse.Namespace(
                spread=args.spread, render_timeout=args.render_timeout, click_timeout=args.click_timeout,
                clicks=args.clicks, linger=args.linger, rounds=1, server_args="--sandbox-pool 30"))
        if args.json:
            print(json.dumps({"hub": reports[-1], "hub_without_class_service": reports[0] if len(reports) > 1 else None,
                              "serve_pool30": pool}))
        else:
            for report in reports:
                show(report, pool if report is reports[-1] else None)
            if len(reports) == 2:
                off, on = reports[0]["card_s"], reports[1]["card_s"]
                print(f"  N={size} login → first card without / with the class service: p50 {off['p50']} / "
                      f"{on['p50']} s, p95 {off['p95']} / {on['p95']} s, max {off['max']} / {on['max']} s")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
