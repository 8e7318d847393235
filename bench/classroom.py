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
3. ``--clicks`` card clicks (the message ``table.js`` sends when a legal card of the
   sandbox's ``CardTable`` is clicked: ``custom`` ``{"action": "play", "card": …}``);
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
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
from tornado.httpclient import AsyncHTTPClient

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from calijack import serve  # noqa: E402

from voila_learner import HOST, Failure, Learner  # noqa: E402

NOTEBOOKS = ROOT / "notebooks"


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


def pooled_kernels(options) -> int:
    """The pre-heated kernels the server keeps (Voilà pools every notebook under the folder)."""
    lessons = [p.relative_to(NOTEBOOKS).as_posix() for p in NOTEBOOKS.rglob("*.ipynb")
               if ".ipynb_checkpoints" not in p.parts]
    return sum(max(options.sandbox_pool, 0) if name == serve.SANDBOX else max(options.pool_size, 0)
               for name in lessons)


def wait_until_ready(server: psutil.Process, expected: int, limit: float = 600) -> float:
    """Wait until the server holds ``expected`` kernels and it and its kernels use < 10 % of a
    core for 2 s twice in a row (every pre-heated kernel has run its lesson); return the seconds
    waited. The pools fill one kernel at a time, with quiet gaps between: quiet alone is not enough."""
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
        quiet = quiet + 1 if busy < 10 and len(procs) - 1 >= expected else 0
        if quiet >= 2:
            break
    return round(time.monotonic() - start, 1)


# -- one learner ----------------------------------------------------------------------------

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
    port = serve.free_port()
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
        report["pooled"] = pooled_kernels(options)
        report["warmup_s"] = wait_until_ready(server, report["pooled"])
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
    print(f"  kernels      {b['kernels']} before ({report['pooled']} pre-heated expected), {p['kernels']} at the peak, {a['kernels']} left "
          f"{report['linger_s']} s after everyone left; shutdown beacons {report['shutdown_beacons']}")
    for k, later in enumerate(report["later_rounds"], start=2):
        print(f"  class {k}: {later['ok']} working; then {later['kernels_after']} kernels, server "
              f"{later['server_rss_mb']} MB, total {later['total_rss_mb']} MB")
    print(f"  CPU during the class: server {report['class_cpu_s']['server']} s, kernels "
          f"{report['class_cpu_s']['kernels']} s; warm-up {report['warmup_s']} s, run {report['wall_s']} s, "
          f"load average {report['load_average']} on {os.cpu_count()} cores")


def add_class_options(parser: argparse.ArgumentParser, linger: str) -> None:
    """The options of a class (how many learners, how they arrive and play, how long each step
    may take, how long to watch after), shared with bench/hub.py; ``linger`` is its help."""
    parser.add_argument("--learners", type=int, nargs="+", default=[10, 20, 30])
    parser.add_argument("--clicks", type=int, default=3, help="cards each learner plays")
    parser.add_argument("--spread", type=float, default=10.0, help="seconds over which learners arrive")
    parser.add_argument("--render-timeout", type=float, default=300.0)
    parser.add_argument("--click-timeout", type=float, default=60.0)
    parser.add_argument("--linger", type=float, default=120.0, help=linger)


def main(argv=None) -> int:
    """Run one classroom per N and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_class_options(parser, "seconds to wait before counting kernels left")
    parser.add_argument("--rounds", type=int, default=1,
                        help="classes in a row on the same server (memory after each)")
    parser.add_argument("--server-args", default="", help="extra options for calijack.serve's lesson server")
    parser.add_argument("--json", action="store_true", help="one JSON line per N")
    args = parser.parse_args(argv)
    # Stopped from outside (SIGTERM): unwind, so that the server and its kernels are stopped too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    for n in args.learners:
        args.rounds = max(1, min(args.rounds, 5))
        report = run(max(1, min(n, 100)), args)
        print(json.dumps(report)) if args.json else show(report)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
