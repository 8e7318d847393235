"""A new reader's first visit on a phone's link (issue 34): "Play live" at once, then offline.

    .venv/bin/python bench/first_visit.py [--book _build/html] [--networks fast4g slow4g]
                                          [--runs 1] [--json]

For each network (``bench/live_network.py``: the link paced at the server's side, since
Chromium's emulation does not slow the service worker's fetches), a new browser profile opens
the sandbox lesson (the book served as ``make serve`` serves it), presses "Play live" 0.5 s
after the page's ``load``, and measures:

- *first card*: seconds from the press to the first legal card of the live sandbox, ready;
- *sent during the start*: megabytes the server sent from the page's request to that card
  (the page, the live start and the book's service worker, all counted at the server);
- *offline*: seconds from the page's request until the book opens offline (the service
  worker has stored the book and controls the page).

Budgets (issue 34): first card ≤ 6 s on Fast 4G and ≤ 25 s on Slow 4G; offline ≤ 15 s on Fast
4G. The machine's load average is printed beside the figures. Not a test: a yardstick to run by
hand; ``--book`` another build (say, main's) to compare.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from playwright.sync_api import sync_playwright  # noqa: E402

import live_network  # noqa: E402
from click_latency import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from live import FIRST_CARD, PAGE, START_MS, serve  # noqa: E402
from calijack.serve import static as static_server  # noqa: E402

BUDGETS = {"fast4g": {"card_s": 6, "offline_s": 15}, "slow4g": {"card_s": 25}}
OFFLINE_WAIT_S = 180
CONTROLLED = "() => navigator.serviceWorker.controller !== null"


def one_visit(browser, url: str, sent: live_network.SentLog) -> dict:
    """One new reader: the figures of one visit."""
    context = browser.new_context(service_workers="allow", viewport={"width": 390, "height": 844},
                                  is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        sent.clear()
        t0 = time.monotonic()
        page.goto(url + PAGE, wait_until="load")
        page.wait_for_timeout(500)
        pressed = time.monotonic()
        page.locator(".cj-live-button").click()
        page.wait_for_function("() => document.querySelector('.cj-live-on')", timeout=START_MS)
        frame = page.locator("iframe.cj-live-frame").element_handle().content_frame()
        frame.wait_for_selector(FIRST_CARD, timeout=START_MS)
        card = time.monotonic()
        start_mb = sum(size for _, size, _ in sent.taken()) / 1e6
        page.wait_for_function(CONTROLLED, timeout=OFFLINE_WAIT_S * 1000, polling=200)
        offline = time.monotonic()
        return {"card_s": round(card - pressed, 2), "sent_mb": round(start_mb, 2),
                "offline_s": round(offline - t0, 2)}
    finally:
        context.close()


def _cell(row: dict, key: str, digits: int) -> str:
    """``24.7 (24.5-25.0)``: a row's median of ``key`` and the range of its runs."""
    low, high = row["range"][key]
    return f"{row[key]:.{digits}f} ({low:.{digits}f}-{high:.{digits}f})"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--book", type=Path, default=ROOT / "_build" / "html")
    parser.add_argument("--networks", nargs="*", default=["fast4g", "slow4g"], choices=list(BUDGETS))
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not (args.book / "index.html").is_file():
        print(f"bench/first_visit.py: the book is not built ({args.book}/index.html): `make book`.",
              file=sys.stderr)
        return 2
    sent = live_network.SentLog()
    server, thread, url = serve(args.book.resolve(), sent)
    rows, over = [], []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
            for network in args.networks:
                sent.pace(network)
                load = os.getloadavg()[0]
                runs = [one_visit(browser, url, sent) for _ in range(max(1, args.runs))]
                row = {"network": network, "load_average": round(load, 2), "runs": len(runs),
                       **{key: statistics.median(r[key] for r in runs) for key in runs[0]},
                       "range": {key: [min(r[key] for r in runs), max(r[key] for r in runs)] for key in runs[0]}}
                rows.append(row)
                over += [f"{network} {key} {row[key]} > {limit}" for key, limit in BUDGETS[network].items()
                         if row[key] > limit]
            browser.close()
    finally:
        static_server.stop(server, thread)
    print(f"first visit, {args.book}: new profile, 'Play live' 0.5 s after load, link paced at the server")
    print("medians of each network's runs, their range in brackets")
    print(f"{'network':8} {'runs':>4} {'first card s':>18} {'sent MB':>18} {'offline s':>18} {'load':>6}")
    for row in rows:
        cells = [_cell(row, key, digits) for key, digits in (("card_s", 1), ("sent_mb", 2), ("offline_s", 1))]
        print(f"{row['network']:8} {row['runs']:4} " + " ".join(f"{c:>18}" for c in cells) +
              f" {row['load_average']:6.2f}")
    print("budgets: " + ("all met" if not over else "OVER: " + "; ".join(over)))
    if args.json:
        print(json.dumps(rows))
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
