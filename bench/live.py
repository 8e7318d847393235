"""The live book's figures: Python in the reader's browser, measured in Chromium.

Serves the built book (``_build/html``, with its live part ``lite/``) on 127.0.0.1 as
``make serve`` does (``calijack.serve.static``: compressed, typed, cached) and measures, in Debian's Chromium through Playwright:

- *cold start*: a fresh browser profile (empty caches) on the sandbox page, once the book's
  service worker has stored the book (as on a reader's first visit); from the click on "Play
  live" to the first legal card of the live sandbox ready to click, on the network chosen
  (``--network``: ``bench/live_network.py``; ``--cache-disabled`` also turns the browser's
  cache off for it, so a file two parts of the page ask for comes twice);
- *warm start*: the reader's second visit: the browser started again on the same profile, so
  the HTTP cache, Chromium's caches of compiled code (JavaScript and WebAssembly) and the
  started Python the first visit kept in Cache Storage (``lite/kernel/python.mjs``) are kept,
  and nothing is left in memory; on the same network;
- *offline start*: then the same browser with no network at all: the book's service worker
  serves the page and the live runtime it kept;
- *where the start goes* (``bench/live_start.py``): the milestones of each start, Python's
  own phases timed in a bare worker, and the processor time the browser used;
- *bytes*: what the server sent from the click on (counted at the server: the page, its
  frames and workers, and the book's service worker all fetch): each file's size on disk and
  the bytes sent (``make serve`` sends Brotli twins), and what needs the file (the table at
  the end);
- *click → table*: the live sandbox, heuristic opponent: from a click on a card to the table
  showing it (the page's own clock, as ``bench/click_latency.py`` measures Voilà);
- *review*: "Review this deal" in the live sandbox, a finished deal loaded as a record: from
  the press to the review board (the coach rates 26 plays in the browser's Python);
- *decisions by level*: each opponent's decision time inside the browser's Python (the live page
  runs whole deals, the level against Casual, timing each of its choices that has more than
  one legal card); ``--levels-only`` takes only these (from the HTTP cache's warm start), and
  ``--write-ladder`` stores them in ``calijack/data/ladder.json`` (``browser_ms``) for the book;
- *site size*: the built book without source maps, and its ``lite/`` part;
- *clean build* (``--clean-build``): ``lite/build_lite.py`` then ``jupyter-book build`` after
  removing everything in ``_build`` (pages, doctrees, execution cache) but the downloads in
  ``_build/lite-cache``; ``--cold-cache`` removes those too.

Budgets (issue 8): click p95 ≤ 150 ms, site ≤ 80 MB, clean build ≤ 3 min; (issue 23): cold
start ≤ 8 s on fast4g and ≤ 30 s on slow4g, ≤ 5 MB sent for a cold start, warm start ≤ 2 s,
offline start ≤ 3 s; (issue 22): every level's decision p95 ≤ 500 ms. Not a test: a yardstick
to run by hand.

    .venv/bin/python bench/live.py [--network none|fast4g|slow4g] [--cache-disabled]
                                   [--starts-only] [--clicks 60] [--decisions 60]
                                   [--clean-build] [--json]
    .venv/bin/python bench/live.py --levels-only [--decisions 60] [--write-ladder]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from calijack.serve import static as static_server  # noqa: E402
from click_latency import CHROMIUM, CHROMIUM_ARGS, TIMER_JS, summary  # noqa: E402
import live_network  # noqa: E402
import live_start  # noqa: E402

BOOK = ROOT / "_build" / "html"
PAGE = "notebooks/07_sandbox.html"
# A legal card of the learner's, ready: the button hand, and the card table of issue 9 (main).
LEGAL = ".cj-hand .cj-hand-card.cj-legal, .cj-you .cj-play.cj-can"
FIRST_CARD = (".cj-sandbox:not(.cj-busy) .cj-hand .cj-hand-card.cj-legal, "
              ".cj-table-view:not(.cj-busy) .cj-you .cj-play.cj-can")
START_MS = 300_000
# Runs in the browser's Python (the live page, lite/play/): each level's decisions with a choice, timed one by one.
LEVELS_CODE = """
import json, random
from calijack import Deal
from calijack.players import LEVELS, get_player, play_deal
times = {{}}
for name in LEVELS:
    seconds = times[name] = []
    def on_decision(state, seat, decision, wall, cpu):
        if seat == 1 and len(state.legal_cards()) > 1:
            seconds.append(wall)
    seed = 1
    while len(seconds) < {decisions}:
        play_deal(Deal.random(seed), [get_player("casual"), get_player(name)], random.Random(seed),
                  on_decision=on_decision)
        seed += 1
print("CJ-LEVELS " + json.dumps(times))
"""


def serve(folder: Path, sent: live_network.SentLog | None = None):
    """The book as `make serve` serves it, and the Python-phases probe, on 127.0.0.1 and a free
    port, what it sends noted in ``sent``; returns (server, its thread, root URL)."""
    app = live_start.with_probe(static_server.make_app(folder))
    server = static_server.make_server(sent.wrap(app) if sent else app)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    return server, thread, f"http://127.0.0.1:{server.effective_port}/"


# Whether this browser keeps the started Python whole (python.mjs writes its memory last).
KEPT_JS = """async (name) => (await caches.has(name))
  && (await (await caches.open(name)).keys()).some((request) => request.url.endsWith("/python-memory.bin"))"""


def start(page, url: str, network=None) -> tuple[float, dict]:
    """Open the sandbox page, press "Play live"; seconds until the first legal card is ready,
    and where they went (milestones, browser CPU). ``network``: ``(context, name,
    cache_disabled)`` to emulate from the click on (live_network.emulate)."""
    page.goto(url + PAGE, wait_until="load")
    page.locator(".cj-live-button").wait_for()
    if network:
        context, name, cache_disabled = network
        # The network's pace is the server's (live_network.SentLog.pace): the book's service
        # worker fetches past the page's emulation. Chromium is asked only to drop its cache.
        session = live_network.emulate(context, page, "none", cache_disabled)  # noqa: F841  (lasts while kept)
    # What the live worker's Python says of its start (lite/kernel/python.mjs): kept or restored.
    said: list[str] = []
    page.on("console", lambda message: said.append(message.text) if message.text.startswith("calijack:") else None)
    cpu0 = live_start.browser_cpu_seconds()
    t0 = time.time()
    page.locator(".cj-live-button").click()
    page.wait_for_function("() => document.querySelector('.cj-live-on')", timeout=START_MS)
    frame = page.locator("iframe.cj-live-frame").element_handle().content_frame()
    frame.wait_for_selector(FIRST_CARD, timeout=START_MS)
    seconds = time.time() - t0
    cpu = live_start.browser_cpu_seconds() - cpu0
    marks = live_start.milestones(page, t0) + [("first legal card clickable", round(seconds, 2))]
    return seconds, {"milestones": marks, "browser_cpu_s": round(cpu, 1), "python_says": said,
                     "load_average": round(os.getloadavg()[0], 1)}


def clicks(frame, count: int) -> dict:
    """Click the first legal card ``count`` times (new deals as needed); click → table timings."""
    frame.evaluate(TIMER_JS)
    made, seed = 0, 100
    while made < count:
        if frame.locator(".cj-end").is_visible():
            frame.locator(".cj-seed input").fill(str(seed))
            seed += 1
            frame.locator(".cj-new-deal").click()
            frame.wait_for_selector(".cj-end", state="hidden")
            frame.wait_for_selector(FIRST_CARD)
            continue
        frame.locator(LEGAL).first.click()
        frame.wait_for_function(f"() => window.__cj.done && window.__cj.table.length === {made + 1}",
                                timeout=60_000)
        made += 1
    return summary(frame.evaluate("() => window.__cj.table"))


def review_seconds(frame) -> float:
    """Seconds from "Review this deal" to the review board, in the live sandbox: a finished
    two-player deal (heuristic against heuristic, seed 7) loaded as a record, the learner's
    26 plays rated with the coach's default guesses, all in the browser's Python."""
    from calijack import Deal
    from calijack.players import get_player, play_deal
    from calijack.records import deal_record, dumps

    heuristic = get_player("heuristic")
    record = dumps(deal_record(play_deal(Deal.random(7, dealer=1), [heuristic, heuristic], random.Random(1))))
    frame.locator(".cj-extras").get_by_text("Save or load a record").click()
    frame.locator(".cj-record textarea").fill(record)
    frame.locator(".cj-load").click()
    frame.locator(".cj-review-deal").wait_for(state="visible")
    t0 = time.perf_counter()
    frame.locator(".cj-review-deal").click()
    frame.wait_for_selector('.cj-board[data-steps="26"]', timeout=START_MS)
    return round(time.perf_counter() - t0, 2)


def level_decisions(page, url: str, decisions: int) -> dict:
    """Each level's decision times (ms) in the browser's Python, by level name."""
    query = urlencode([("code", LEVELS_CODE.format(decisions=decisions))])
    page.goto(f"{url}lite/play/index.html?{query}")
    out = page.locator(".cj-play-stream", has_text="CJ-LEVELS")
    out.wait_for(timeout=START_MS + 60_000 * 10)
    times = json.loads(out.inner_text().split("CJ-LEVELS", 1)[1])
    return {name: summary([s * 1000 for s in seconds]) for name, seconds in times.items()}


def write_ladder(levels: dict) -> None:
    """Store the levels' browser times in calijack/data/ladder.json (``browser_ms``: p50, p95, decisions)."""
    from calijack.players.ladder import PATH

    data = json.loads(PATH.read_text())
    data["browser_ms"] = {name: {"p50": t["median"], "p95": t["p95"], "decisions": t["n"]}
                          for name, t in levels.items()}
    PATH.write_text(json.dumps(data, indent=1) + "\n")


def site_size() -> dict:
    """Bytes of the built book without source maps, and of its lite/ part."""
    files = [p for p in BOOK.rglob("*") if p.is_file() and not p.name.endswith(".map")]
    lite = [p for p in files if (BOOK / "lite") in p.parents]
    return {"site_mb": round(sum(p.stat().st_size for p in files) / 1e6, 1),
            "lite_mb": round(sum(p.stat().st_size for p in lite) / 1e6, 1),
            "maps": sum(1 for p in BOOK.rglob("*.map"))}


def clean_build(cold_cache: bool) -> dict:
    """Seconds of the live site's build and of the book's, from a clean _build."""
    kept = () if cold_cache else ("lite-cache",)
    for name in [p.name for p in (ROOT / "_build").iterdir() if p.name not in kept] if (ROOT / "_build").is_dir() else []:
        shutil.rmtree(ROOT / "_build" / name, ignore_errors=True)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, str(ROOT / "lite" / "build_lite.py")], check=True, cwd=ROOT)
    t1 = time.perf_counter()
    subprocess.run([str(Path(sys.executable).parent / "jupyter-book"), "build", ".", "-W", "-n", "--keep-going"],
                   check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    t2 = time.perf_counter()
    return {"lite_s": round(t1 - t0, 1), "book_s": round(t2 - t1, 1), "total_s": round(t2 - t0, 1),
            "download_cache": "emptied" if cold_cache else "kept"}


def run(click_count: int, decisions: int, network: str = "none", cache_disabled: bool = False,
        starts_only: bool = False) -> dict:
    """Start the browser and take every in-browser figure (``starts_only``: the three starts
    and the cold download only), the starts on ``network`` (live_network.NETWORKS)."""
    from playwright.sync_api import sync_playwright

    if not (BOOK / "lite" / "lessons.json").is_file():
        raise SystemExit("the book is not built with its live part: run `make book` first")
    sent = live_network.SentLog()
    server, thread, url = serve(BOOK, sent)
    report = {"network": network, "cache_disabled": cache_disabled}
    try:
        with sync_playwright() as pw:
            def browser(profile: str):
                context = pw.chromium.launch_persistent_context(
                    profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True,
                    viewport={"width": 1280, "height": 900})
                context.add_init_script(live_start.RECORDER_JS)
                context.set_default_timeout(60_000)
                return context

            profile = tempfile.mkdtemp(prefix="cj-live-bench-")
            context = browser(profile)
            page = context.pages[0] if context.pages else context.new_page()
            # A reader's first visit: the page opens, the book's service worker stores the
            # book (as it would while the reader reads), then "Play live" on a phone network.
            page.goto(url + PAGE, wait_until="load")
            page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=START_MS)
            sent.clear()
            sent.pace(network)
            seconds, report["cold_breakdown"] = start(page, url, (context, network, cache_disabled))
            report["cold_start_s"] = round(seconds, 2)
            rows = live_network.file_table(sent.taken(), BOOK)
            report["cold_files"] = rows
            report["cold_requests"] = len(rows)
            report["cold_mb_raw"] = round(sum(row["bytes"] for row in rows) / 1e6, 2)
            report["cold_mb_sent"] = round(sum(row["sent"] for row in rows) / 1e6, 2)
            # The kept Python is written after the first card (lite/kernel/keep.mjs, its memory
            # last); the next start needs it.
            page.wait_for_function(KEPT_JS, arg=json.loads(
                (BOOK / "lite" / "lessons.json").read_text())["python_cache"], timeout=START_MS, polling=250)
            # Chromium writes Cache Storage to disk a moment after the write is done: a browser
            # closed at once (as here, not as a reader's tab) can lose it.
            page.wait_for_timeout(3000)
            if not starts_only:
                frame = page.locator("iframe.cj-live-frame").element_handle().content_frame()
                report["click_table_ms"] = clicks(frame, click_count)
                report["review_s"] = review_seconds(frame)
            context.close()
            # The second visit: a new browser on the same profile (its disk caches kept).
            context = browser(profile)
            page = context.pages[0] if context.pages else context.new_page()
            sent.clear()
            seconds, report["warm_breakdown"] = start(page, url, (context, network, False))
            report["warm_start_s"] = round(seconds, 2)
            report["warm_mb_sent"] = round(sum(row["sent"] for row in live_network.file_table(sent.taken(), BOOK)) / 1e6, 2)
            sent.pace("none")
            page.close()
            # And with no network at all: the book's service worker has what it needs.
            context.set_offline(True)
            page = context.new_page()
            seconds, report["offline_breakdown"] = start(page, url)
            report["offline_start_s"] = round(seconds, 2)
            page.close()
            context.set_offline(False)
            if not starts_only:
                report["level_decision_ms"] = level_decisions(context.new_page(), url, decisions)
            context.close()
            shutil.rmtree(profile, ignore_errors=True)
            # Python's phases alone, on a fresh profile and then on its second visit.
            profile = tempfile.mkdtemp(prefix="cj-live-bench-")
            for visit in () if starts_only else ("cold", "warm"):
                context = browser(profile)
                report[f"{visit}_breakdown"]["python_ms"] = live_start.python_phases(context, url)
                context.close()
            shutil.rmtree(profile, ignore_errors=True)
    finally:
        static_server.stop(server, thread)
    return report


def run_levels(decisions: int) -> dict:
    """Only the levels' decision times in the browser's Python (a fresh browser profile)."""
    from playwright.sync_api import sync_playwright

    if not (BOOK / "lite" / "lessons.json").is_file():
        raise SystemExit("the book is not built with its live part: run `make book` first")
    server, thread, url = serve(BOOK)
    profile = tempfile.mkdtemp(prefix="cj-live-bench-")
    try:
        with sync_playwright() as pw:
            context = pw.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                                            headless=True)
            context.set_default_timeout(60_000)
            try:
                return {"level_decision_ms": level_decisions(context.new_page(), url, decisions)}
            finally:
                context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
        static_server.stop(server, thread)


def print_levels(levels: dict) -> None:
    """One line per level: its decision times in the browser."""
    for name, t in levels.items():
        print(f"{name:<9} decision  median {t['median']} ms, p95 {t['p95']} ms, max {t['max']} ms (n={t['n']})")


def main(argv=None) -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=60, help="card clicks to time")
    parser.add_argument("--decisions", type=int, default=60, help="decisions to time for each level")
    parser.add_argument("--levels-only", action="store_true", help="only the levels' decision times")
    parser.add_argument("--write-ladder", action="store_true",
                        help="store the levels' times in calijack/data/ladder.json (browser_ms)")
    parser.add_argument("--clean-build", action="store_true", help="also time a clean build first")
    parser.add_argument("--cold-cache", action="store_true", help="with --clean-build: empty the download cache")
    parser.add_argument("--network", choices=sorted(live_network.NETWORKS), default="none",
                        help="emulate a phone network for the starts (fast4g: 9 Mbit/s, 60 ms; slow4g: 1.6 Mbit/s, 150 ms)")
    parser.add_argument("--cache-disabled", action="store_true",
                        help="cold start with the browser's cache off (each file fetched again by each asker)")
    parser.add_argument("--starts-only", action="store_true", help="only the starts and the cold download")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    report = {}
    if args.levels_only:
        report = run_levels(max(args.decisions, 1))
        report["load_average"] = [round(x, 1) for x in os.getloadavg()]
        if args.write_ladder:
            write_ladder(report["level_decision_ms"])
        if args.json:
            print(json.dumps(report))
        else:
            print_levels(report["level_decision_ms"])
            print(f"load average     {report['load_average']} on {os.cpu_count()} cores")
        return 0
    if args.clean_build:
        report["clean_build"] = clean_build(args.cold_cache)
    report.update(run(max(args.clicks, 1), max(args.decisions, 1), args.network, args.cache_disabled,
                      args.starts_only))
    report.update(site_size())
    if args.write_ladder:
        write_ladder(report["level_decision_ms"])
    report["load_average"] = [round(x, 1) for x in os.getloadavg()]  # other work skews the figures
    if args.json:
        print(json.dumps(report))
        return 0
    network = report["network"] + (", cache disabled" if report["cache_disabled"] else "")
    print(f"network          {network}")
    print(f"cold start       {report['cold_start_s']} s   (click 'Play live' -> first legal card, empty cache)")
    print(f"warm start       {report['warm_start_s']} s   (second visit: browser restarted, its caches kept; "
          f"{report['warm_mb_sent']} MB sent)")
    print(f"offline start    {report['offline_start_s']} s   (then with no network: the service worker's copy)")
    print(f"cold download    {report['cold_mb_raw']} MB raw, {report['cold_mb_sent']} MB sent "
          f"({report['cold_requests']} files over the wire)")
    t = report.get("click_table_ms")
    if t:
        print(f"click -> table   median {t['median']} ms, p95 {t['p95']} ms, max {t['max']} ms (n={t['n']})")
    if "level_decision_ms" in report:
        print_levels(report["level_decision_ms"])
    if "review_s" in report:
        print(f"review           {report['review_s']} s   ('Review this deal': 26 plays rated in the browser)")
    print(f"site             {report['site_mb']} MB without source maps ({report['maps']} maps); "
          f"lite/ {report['lite_mb']} MB")
    if "clean_build" in report:
        b = report["clean_build"]
        print(f"clean build      {b['total_s']} s (live site {b['lite_s']} s, book {b['book_s']} s; "
              f"download cache {b['download_cache']})")
    print(f"load average     {report['load_average']} on {os.cpu_count()} cores")
    print("\n".join(live_start.render(report)))
    print("what the cold start downloaded:")
    print("\n".join("  " + line for line in live_network.render_table(report["cold_files"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
