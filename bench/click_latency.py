"""Click latency of the sandbox lesson: from a click on a card to the updated table.

Starts Voilà on ``notebooks/07_sandbox.ipynb`` (calijack's template, 127.0.0.1 only), opens it
in Debian's Chromium through Playwright, and plays deals by clicking the first highlighted
card, with the heuristic computer opponent, for at least ``--clicks`` clicks (new deals as
needed). The page itself times each click (``performance.now()``):

- *table*: from the click event to the first change of the table that shows the card
  played, measured at the next animation frame after the change (what the learner sees);
- *settled*: from the click to the last step of the computer's answer shown, which includes
  the sandbox's pauses between steps (``--delay`` seconds each, the lesson's default).

Prints median, p95 and max in milliseconds (``--json`` for one JSON line). Goal: table p95
≤ 150 ms. Not a test: a yardstick to run by hand.

    .venv/bin/python bench/click_latency.py [--clicks 120] [--delay 0.35] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from calijack.serve import free_port, stop_process_group, voila_command, voila_env, wait_for_http  # noqa: E402

NOTEBOOK = ROOT / "notebooks" / "07_sandbox.ipynb"
CHROMIUM = os.environ.get("CALIJACK_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

# Installed once in the page: times every click on a hand card until the table changes and
# until the sandbox has settled (all steps shown, not busy).
TIMER_JS = """() => {
  const cj = window.__cj = {t0: null, plays0: null, table: [], settled: [], done: true};
  const root = document.querySelector('.cj-sandbox');
  const live = document.querySelector('.cj-table-view');
  document.addEventListener('click', (event) => {
    if (!event.target.closest('.cj-you .cj-play')) return;
    cj.t0 = performance.now();
    cj.plays0 = document.querySelector('.cj-sandbox-table').dataset.plays;  // same in the status
    cj.seen = false;
    cj.done = false;
  }, true);
  new MutationObserver(() => {
    if (cj.done || cj.t0 === null) return;
    const table = document.querySelector('.cj-sandbox-table');
    if (!table || table.dataset.plays === cj.plays0) return;
    if (!cj.seen) {
      cj.seen = true;
      const t0 = cj.t0;
      requestAnimationFrame(() => cj.table.push(performance.now() - t0));
    }
    const status = document.querySelector('.cj-status[data-settled="1"]');
    if (status && status.dataset.plays !== cj.plays0 && !live.classList.contains('cj-busy')) {
      cj.settled.push(performance.now() - cj.t0);
      cj.done = true;
    }
  }).observe(root, {subtree: true, childList: true, attributes: true});
}"""


def summary(values: list[float]) -> dict:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"median": round(statistics.median(ordered), 1), "p95": round(p95, 1),
            "max": round(ordered[-1], 1), "n": len(ordered)}


def run(clicks: int, delay: float) -> dict:
    """Start Voilà, click ``clicks`` cards, return the timings (ms)."""
    from playwright.sync_api import sync_playwright

    port = free_port()
    env = voila_env(dict(os.environ, CALIJACK_SANDBOX_DELAY=str(delay)))
    log = tempfile.NamedTemporaryFile(prefix="click-latency-voila-", suffix=".log", delete=False)
    process = subprocess.Popen(voila_command(NOTEBOOK, port), cwd=NOTEBOOK.parent, env=env, stdout=log,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        if not wait_for_http(f"http://127.0.0.1:{port}/voila/static/", 90, process):
            raise SystemExit(f"voila did not start; see {log.name}")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(30_000)
            page.goto(f"http://127.0.0.1:{port}/", wait_until="load")
            page.wait_for_selector(".cj-sandbox .cj-play.cj-can", timeout=90_000)
            if page.locator(".cj-opponent select").input_value() != "heuristic":
                page.locator(".cj-opponent select").select_option("heuristic")
            page.evaluate(TIMER_JS)
            seed = 100
            made = 0
            while made < clicks:
                legal = page.locator(".cj-you .cj-play.cj-can")
                if page.locator(".cj-end").is_visible():
                    if page.locator(".cj-next-deal").is_visible():
                        page.locator(".cj-next-deal").click()
                    else:
                        page.locator(".cj-seed input").fill(str(seed))
                        seed += 1
                        page.locator(".cj-new-deal").click()
                    page.wait_for_selector(".cj-end", state="hidden")
                    page.wait_for_selector(".cj-table-view:not(.cj-busy) .cj-you .cj-play.cj-can")
                    continue
                legal.first.click()
                page.wait_for_function("() => window.__cj.done && window.__cj.table.length === "
                                       f"{made + 1}")
                made += 1
            timings = page.evaluate("() => ({table: window.__cj.table, settled: window.__cj.settled})")
            browser.close()
    finally:
        stop_process_group(process)
        log.close()
    return {"clicks": made, "delay_s": delay, "table_ms": summary(timings["table"]),
            "settled_ms": summary(timings["settled"])}


def main(argv=None) -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=120, help="card clicks to time (at least 100)")
    parser.add_argument("--delay", type=float, default=0.35, help="the sandbox's pause between steps (s)")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    report = run(max(args.clicks, 1), args.delay)
    report["wall_s"] = round(time.perf_counter() - started, 1)
    report["load_average"] = [round(x, 1) for x in os.getloadavg()]  # other work skews the figures
    if args.json:
        print(json.dumps(report))
    else:
        for name in ("table_ms", "settled_ms"):
            t = report[name]
            print(f"{name[:-3]:>8}: median {t['median']} ms, p95 {t['p95']} ms, max {t['max']} ms "
                  f"({t['n']} clicks)")
        print(f"pause between steps {report['delay_s']} s; wall time {report['wall_s']} s; "
              f"load average {report['load_average']} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
