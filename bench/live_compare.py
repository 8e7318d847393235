"""The same cards, played by the computer, in the live book: ``compare`` in the browser's Python.

Serves the built book as ``bench/live.py`` does, presses "Play live" on the sandbox page in
Debian's Chromium, loads finished deals as records (Casual against Casual, one per seed) and
times, for each, the press of **Same cards, played by the computer** to its sentence ("You
scored … The computer … scored …"): Expert plays the learner's 26 cards in the browser's
Python. It also notes whether a progress line ("The computer is playing your cards … card k")
was shown on the way. Budget (issue 21): ≤ 10 s a deal, with progress shown. Not a test::

    .venv/bin/python bench/live_compare.py [--deals 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import live  # noqa: E402  (bench/live.py: the server, the browser's settings, the start)

SEEN_JS = """() => {
  const message = document.querySelector(".cj-message");
  window.cjSeen = [];
  new MutationObserver(() => window.cjSeen.push(message.textContent)).observe(message,
    { childList: true, subtree: true, characterData: true });
}"""


def record(seed: int) -> str:
    from calijack import Deal
    from calijack.players import get_player, play_deal
    from calijack.records import deal_record, dumps

    casual = get_player("casual")
    return dumps(deal_record(play_deal(Deal.random(seed, dealer=1), [casual, casual], random.Random(seed))))


def compare_seconds(frame, seed: int) -> tuple[float, bool]:
    """Seconds from the press to the comparison's sentence, and whether progress was shown."""
    frame.locator(".cj-record textarea").fill(record(seed))
    frame.locator(".cj-load").click()
    frame.locator(".cj-compare").wait_for(state="visible")
    frame.evaluate(SEEN_JS)
    t0 = time.perf_counter()
    frame.locator(".cj-compare").click()
    frame.wait_for_function("() => document.querySelector('.cj-message').textContent.includes('The computer, with "
                            "your cards')", timeout=live.START_MS)
    seconds = time.perf_counter() - t0
    progress = frame.evaluate("() => window.cjSeen.some((t) => t.includes('is playing your cards'))")
    return seconds, progress


def main(argv=None) -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    server, thread, url = live.serve(live.BOOK)
    try:
        with sync_playwright() as pw:
            context = pw.chromium.launch_persistent_context(
                tempfile.mkdtemp(prefix="cj-compare-bench-"), executable_path=live.CHROMIUM,
                args=live.CHROMIUM_ARGS, headless=True, viewport={"width": 1280, "height": 900})
            context.add_init_script(live.live_start.RECORDER_JS)  # live.start reads its milestones
            context.set_default_timeout(60_000)
            page = context.pages[0] if context.pages else context.new_page()
            live.start(page, url)
            frame = page.locator("iframe.cj-live-frame").element_handle().content_frame()
            frame.locator(".cj-extras").get_by_text("Save or load a record").click()
            times, shown = [], []
            for seed in range(args.deals):
                seconds, progress = compare_seconds(frame, seed)
                times.append(seconds)
                shown.append(progress)
            context.close()
    finally:
        live.static_server.stop(server, thread)
    report = {"deals": len(times), "median_s": round(statistics.median(times), 2), "max_s": round(max(times), 2),
              "mean_s": round(statistics.fmean(times), 2), "progress_shown": sum(shown)}
    if args.json:
        print(json.dumps(report))
    else:
        print(f"compare in the browser: median {report['median_s']} s, slowest {report['max_s']} s over "
              f"{report['deals']} deals (budget 10 s); progress shown in {report['progress_shown']} of them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
