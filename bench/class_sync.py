"""Learners syncing their progress to the class service through a real hub, and the teacher's
page of the class over HTTP (issue 31's benchmark).

    nice -n 10 .venv/bin/python bench/class_sync.py [--learners 30 100] [--deals 20] [--every 5]
        [--teacher-requests 20] [--json]

Per size N: starts the hub as ``make hub`` does (``deploy/jupyterhub/hub.py``, the class service
on, 127.0.0.1, a state folder of its own) with N learner accounts and the teacher, then

1. **signs every learner in to the service without a browser**, the route the lesson page's
   hidden frame takes: the hub's login form (plain HTTP; the first login sets the password) with
   ``next`` set to the service's ``sync`` page, which sends the learner through the hub's OAuth
   and answers with the XSRF token in its body. No API token is made: each learner's calls
   carry what the page's carry, the service's own cookie and that token. No learner's Jupyter
   server is started (the service does not need one);
2. **every learner syncs at once, one write per play**: each plays ``--deals`` deals (26 plays
   of theirs a deal, ``calijack.play.Session`` against Casual, the computer's cards played by the
   engine beforehand), and after each play sends its whole progress document as
   ``calijack/widgets/progress.js`` does (``PUT /services/calijack-class/api/progress``,
   ``Content-Type: application/json``, ``X-XSRFToken``, the cookies of the hub's origin, through
   the proxy): the unfinished game after each play (``saveGame``), the finished deal, its
   opponent's totals and a quick check after the last one (``finishDeal``). Like the page, a
   learner waits for the answer and sends at most once every ``--every`` seconds (the page's own
   floor, ``calijack.progress.browser.SYNC_SECONDS``, by default; learners start spread over the
   first interval; ``--every 0``: back to back, a stress test, in which two of a learner's games
   saved in the same second tie, the document's times being to the second, and the service keeps
   either: the latencies still count, the stored game may lag). Each learner is a client of its
   own (httpx, keep-alive, its own cookie jar), as each has a browser of its own;
3. **the teacher's page**: the teacher signs in the same way (``next``: the class page), then
   fetches the class page (the full HTML, every row) ``--teacher-requests`` times one after the
   other, and the CSV as often.

It prints each write's latency (p50, p95, max), the failures (any answer but 2xx, or none), the
writes per second, the class service's processor time and memory, the database file's size per
learner once the hub has stopped, the class page's and the CSV's time (p50, p95) with the rows
they held, the machine's load (``/proc/loadavg``) before and after, and this machine's speed
(``calijack.fast.deals_per_second``, the measure ``bench/speed.py`` reports) beside them.
Bounded in time (every request, the sign-ins, the whole class); it stops the hub and everything
the hub started (process group) and removes the state folder (the hub's log stays, its path
printed).
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import datetime as dt
import json
import os
import random
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from calijack import progress, serve  # noqa: E402
from calijack.classsvc.app import NAME as SERVICE  # noqa: E402
from calijack.fast import deals_per_second  # noqa: E402
from calijack.play import Session  # noqa: E402
from calijack.progress.browser import SYNC_SECONDS  # noqa: E402
from calijack.progress.entries import deal_entry, deal_totals, game_entry  # noqa: E402
from classroom import summary  # noqa: E402  (p50, p95, max: nearest rank)

HUB = ROOT / "deploy" / "jupyterhub" / "hub.py"
HOST = "127.0.0.1"
PREFIX = f"/services/{SERVICE}/"
TEACHER = "teacher"
_XSRF_FORM = re.compile(r'name="_xsrf" value="([^"]+)"')
_XSRF_BODY = re.compile(r'data-xsrf="([^"]+)"')
_ROW = "<th scope='row'>"


class Failure(Exception):
    """One learner's (or the teacher's) step went wrong; the message says which and how."""


def loadavg() -> str:
    return Path("/proc/loadavg").read_text().strip()


def _stamp(moment: float) -> str:
    return dt.datetime.fromtimestamp(moment, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# -- the deals the learners play -------------------------------------------------------------

def played_deals(count: int) -> list[tuple[list[dict], dict]]:
    """``count`` deals against Casual, played at random by the learner: for each, the ``game``
    section after each of the learner's plays (``saved`` left out) and the finished deal's entry."""
    deals = []
    for seed in range(count):
        session = Session(seed=seed, opponent="casual")
        rng = random.Random(seed)
        games = []
        while not session.finished:
            session.play(rng.choice(session.state.legal_cards()))
            if not session.finished:
                games.append(game_entry(session, "0" * 16))
        deals.append((games, deal_entry(session, "0" * 16)))
    return deals


class Page:
    """One learner's progress document, as their page's store keeps it between plays."""

    def __init__(self, learner: int):
        self.learner = learner
        self.doc = progress.empty()

    def _game_id(self, deal: int) -> str:
        return f"{self.learner:08x}{deal:08x}"  # 16 hex digits, one game a deal

    def after_play(self, deal: int, game: dict) -> str:
        """``saveGame``: the unfinished game, saved now; the document as sent."""
        gid = self._game_id(deal)
        self.doc["game"] = dict(game, id=gid, saved=_stamp(time.time()))
        return json.dumps(self.doc, separators=(",", ":"))

    def after_deal(self, deal: int, entry: dict) -> str:
        """``finishDeal``: the deal kept (the last ``KEPT_DEALS``), its opponent's totals, no game;
        and a quick check answered (the learner reads between deals)."""
        gid = self._game_id(deal)
        fresh = dict(copy.deepcopy(entry), id=f"{gid}/1", when=_stamp(time.time()))
        totals = self.doc["opponents"].setdefault(fresh["opponent"], dict.fromkeys(("deals", "for", "against",
                                                                                      "won", "lost"), 0))
        for field, value in deal_totals(fresh).items():
            totals[field] += value
        self.doc["deals"] = (self.doc["deals"] + [fresh])[-progress.KEPT_DEALS:]
        self.doc["game"] = None
        self.doc["checks"][f"book/03_legal_play#{deal + 1}"] = {"first": deal % 2 == 0, "solved": True}
        return json.dumps(self.doc, separators=(",", ":"))


# -- signing in without a browser ------------------------------------------------------------

def client(hub: str, timeout: float) -> httpx.AsyncClient:
    """A browser's worth of HTTP: keep-alive, cookies kept by path, redirects followed."""
    return httpx.AsyncClient(base_url=hub, follow_redirects=True, timeout=timeout,
                             limits=httpx.Limits(max_connections=6, max_keepalive_connections=6))


async def sign_in(http: httpx.AsyncClient, name: str, then: str) -> httpx.Response:
    """The hub's login form for ``name`` (the first login sets the password), then ``then`` (a
    path of the service: the hub's OAuth on the way); the answer of ``then``."""
    page = await http.get("/hub/login", params={"next": then})
    xsrf = _XSRF_FORM.search(page.text)
    if page.status_code != 200 or not xsrf:
        raise Failure(f"{name}: the login page answered {page.status_code}")
    answer = await http.post("/hub/login", params={"next": then},
                             data={"username": name, "password": secrets.token_hex(8), "_xsrf": xsrf.group(1)})
    if answer.status_code != 200 or not str(answer.url.path).startswith(PREFIX):
        raise Failure(f"{name}: signing in to the service ended at {answer.url.path} with {answer.status_code}")
    return answer


async def learner_xsrf(http: httpx.AsyncClient, name: str) -> str:
    """Sign ``name`` in to the service's ``sync`` page, as the page's hidden frame does; its token."""
    answer = await sign_in(http, name, PREFIX + "sync")
    token = _XSRF_BODY.search(answer.text)
    if not token:
        raise Failure(f"{name}: the sync page held no XSRF token")
    return token.group(1)


# -- the class --------------------------------------------------------------------------------

async def learner(index: int, n: int, args, deals, http: httpx.AsyncClient, xsrf: str, t0: float) -> dict:
    """One learner's deals, one write a play; their latencies (ms) and failures."""
    page = Page(index)
    headers = {"X-XSRFToken": xsrf, "Content-Type": "application/json"}
    out: dict = {"ms": [], "failures": {}}
    next_at = t0 + args.every * index / max(n, 1)
    for deal in range(args.deals):
        games, entry = deals[(deal + index) % len(deals)]
        bodies = [*((lambda g=g: page.after_play(deal, g)) for g in games), lambda: page.after_deal(deal, entry)]
        for body in bodies:
            wait = next_at - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            sent = body()
            start = time.monotonic()
            next_at = start + args.every
            try:
                answer = await http.put(PREFIX + "api/progress", content=sent, headers=headers)
                code = answer.status_code
                await answer.aread()
            except httpx.HTTPError as error:
                code = type(error).__name__
            out["ms"].append((time.monotonic() - start) * 1000)
            if not (isinstance(code, int) and 200 <= code < 300):
                out["failures"][str(code)] = out["failures"].get(str(code), 0) + 1
    return out


async def a_class(n: int, args, deals) -> dict:
    names = [f"learner{i:03d}" for i in range(n)]
    clients = [client(args.hub, args.timeout) for _ in names]
    report: dict = {}
    try:
        gate = asyncio.Semaphore(8)  # sign-ins a few at a time: the hub hashes each new password

        async def one(http, name):
            async with gate:
                return await learner_xsrf(http, name)
        start = time.monotonic()
        tokens = await asyncio.wait_for(asyncio.gather(*(one(h, name) for h, name in zip(clients, names))),
                                        60 + 10 * n)
        report["sign_in_s"] = round(time.monotonic() - start, 1)
        plays = sum(len(games) + 1 for games, _ in (deals[(d + i) % len(deals)]
                                                     for i in range(n) for d in range(args.deals)))
        bound = 600 + 2 * (plays / n) * max(args.every, 1.0) + args.timeout
        start = time.monotonic()
        results = await asyncio.wait_for(asyncio.gather(*(
            learner(i, n, args, deals, clients[i], tokens[i], start) for i in range(n))), bound)
        report["writes_s"] = round(time.monotonic() - start, 1)
        latencies = [ms for r in results for ms in r["ms"]]
        failures: dict[str, int] = {}
        for r in results:
            for code, count in r["failures"].items():
                failures[code] = failures.get(code, 0) + count
        report.update(writes=len(latencies), failures=failures, write_ms=summary(latencies, 1),
                      writes_per_s=round(len(latencies) / max(report["writes_s"], 1e-9), 1))
    finally:
        await asyncio.gather(*(c.aclose() for c in clients))
    return report


async def the_teacher(n: int, args) -> dict:
    """The teacher's class page (full HTML) and CSV, ``--teacher-requests`` times each."""
    async with client(args.hub, args.timeout) as http:
        first = await sign_in(http, TEACHER, PREFIX)
        if first.text.count(_ROW) != n:
            raise Failure(f"the class page shows {first.text.count(_ROW)} rows, not {n}")
        out: dict = {}
        for what, path in (("page", PREFIX), ("csv", PREFIX + "class.csv")):
            times, failures, size, rows = [], 0, 0, None
            for _ in range(args.teacher_requests):
                start = time.monotonic()
                answer = await http.get(path)
                body = answer.text
                times.append((time.monotonic() - start) * 1000)
                if answer.status_code != 200:
                    failures += 1
                    continue
                size = len(answer.content)
                rows = body.count(_ROW) if what == "page" else len(body.strip().splitlines()) - 1
            out[what] = {"ms": summary(times, 1), "failures": failures, "bytes": size, "rows": rows}
        return out


def service_up(hub: str, process: subprocess.Popen, timeout: float) -> bool:
    """True once the hub and the service answer through the proxy (the hub's API: 200; the
    service's sync page sends a newcomer to the hub's OAuth: 302; the proxy answers 404 until
    the hub has added their routes); False if the hub exits or ``timeout`` passes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if (httpx.get(hub + "/hub/api/", timeout=2).status_code == 200
                    and httpx.get(hub + PREFIX + "sync", timeout=2).status_code == 302):
                return True
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    return False


def service_process(hub: psutil.Process) -> psutil.Process | None:
    for child in hub.children(recursive=True):
        try:
            if "calijack.classsvc" in " ".join(child.cmdline()):
                return child
        except psutil.Error:
            continue
    return None


def run(n: int, args, deals) -> dict:
    """One class of ``n`` learners on a fresh hub, with the class service."""
    folder = Path(tempfile.mkdtemp(prefix=f"class-sync-{n}-"))
    (folder / "learners.txt").write_text("".join(f"learner{i:03d}\n" for i in range(n)))
    state = folder / "state"
    port = serve.free_port()
    args.hub = f"http://{HOST}:{port}"
    log = open(folder / "hub.log", "wb")
    report: dict = {"learners": n, "deals": args.deals, "every_s": args.every, "log": str(folder / "hub.log"),
                    "loadavg_before": loadavg()}
    process = subprocess.Popen([sys.executable, str(HUB), "--learners", str(folder / "learners.txt"),
                                "--state", str(state), "--port", str(port)],
                               stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        if not service_up(args.hub, process, 180):
            raise SystemExit(f"the hub or its class service did not start; see {folder / 'hub.log'}")
        time.sleep(2)  # the hub's own start-up settles
        hub = psutil.Process(process.pid)
        report.update(asyncio.run(a_class(n, args, deals)))
        svc = service_process(hub)
        report["teacher"] = asyncio.run(the_teacher(n, args))
        if svc is not None:
            try:
                cpu = svc.cpu_times()
                report["service_cpu_s"] = round(cpu.user + cpu.system, 1)
                report["service_rss_mb"] = round(svc.memory_info().rss / 2**20)
            except psutil.Error:
                pass
        report["loadavg_after"] = loadavg()
    finally:
        serve.stop_process_group(process, timeout=60)
        log.close()
    files = [state / f"calijack-class.sqlite{tail}" for tail in ("", "-wal", "-journal")]
    size = sum(f.stat().st_size for f in files if f.exists())
    report["db_bytes"] = size
    report["db_bytes_per_learner"] = size // n
    shutil.rmtree(state, ignore_errors=True)
    return report


def show(r: dict) -> None:
    w, page, csv = r["write_ms"], r["teacher"]["page"], r["teacher"]["csv"]
    print(f"{r['learners']} learners x {r['deals']} deals, one write a play, at most one every {r['every_s']} s each "
          f"(signed in in {r['sign_in_s']} s):")
    print(f"  writes {r['writes']} in {r['writes_s']} s ({r['writes_per_s']}/s), failures {r['failures'] or 'none'}")
    print(f"  write latency p50 {w['p50']} ms, p95 {w['p95']} ms, max {w['max']} ms")
    print(f"  database {r['db_bytes']:,} bytes, {r['db_bytes_per_learner']:,} a learner")
    print(f"  teacher's class page ({page['rows']} rows, {page['bytes']:,} bytes): p50 {page['ms']['p50']} ms, "
          f"p95 {page['ms']['p95']} ms, max {page['ms']['max']} ms, failures {page['failures']} of {page['ms']['n']}")
    print(f"  CSV ({csv['rows']} rows, {csv['bytes']:,} bytes): p50 {csv['ms']['p50']} ms, p95 {csv['ms']['p95']} ms, "
          f"failures {csv['failures']} of {csv['ms']['n']}")
    if "service_cpu_s" in r:
        print(f"  class service: {r['service_cpu_s']} s of processor, RSS {r['service_rss_mb']} MB")
    print(f"  load average before {r['loadavg_before']}; after {r['loadavg_after']} ({os.cpu_count()} cores); "
          f"hub log {r['log']}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, nargs="+", default=[30, 100])
    parser.add_argument("--deals", type=int, default=20, help="deals each learner plays (26 writes a deal)")
    parser.add_argument("--every", type=float, default=SYNC_SECONDS,
                        help=f"a learner's least seconds between writes (the page's: {SYNC_SECONDS}; 0: back to back)")
    parser.add_argument("--teacher-requests", type=int, default=20)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds any one request may take")
    parser.add_argument("--json", action="store_true", help="one JSON line per size")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    speed = deals_per_second(1.0)
    print(f"this machine: {speed['deals_per_second']:,.0f} random deals/s on one core (calijack.fast, as "
          f"bench/speed.py measures); load average {loadavg()}", file=sys.stderr if args.json else sys.stdout)
    deals = played_deals(8)
    for n in args.learners:
        report = run(max(1, min(n, 200)), args, deals)
        report["deals_per_second"] = round(speed["deals_per_second"])
        if args.json:
            print(json.dumps(report))
        else:
            show(report)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
