"""The progress store's figures, in Chromium: the document's size, and the time to save a play.

Serves the built book (``_build/html``) on 127.0.0.1, opens a page of its site in Debian's
Chromium holding the store's script alone (``calijack.progress.script()``, as the live
sandbox's frame does) and measures, with the store's own calls, as the sandbox makes them:

- *size*: the document's JSON text, in characters (a valid document is ASCII: bytes too), after
  10, 100 and 10,000 finished deals (``finishDeal``), each a real deal the engine played at
  random against a match of its own, so the totals per opponent count every one; the cap is
  1,000,000 characters (issue 20: 10,000 deals must not pass 1 MB);
- *save after a play*: ``saveGame`` (read the document, check the game section, write it back),
  the document holding the 50 kept deals and a game, for each play of real deals in a row
  (the record grows card by card); p50 / p95 / max of the page's clock (budget: p95 ≤ 5 ms);
- *finish a deal*: ``finishDeal`` with 50 deals kept (the oldest goes out), p50 / p95.

Not a test: a yardstick to run by hand (``--deals`` and ``--saves`` to change the sizes)::

    .venv/bin/python bench/progress.py [--deals 10000] [--saves 400] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from calijack import STANDARD, Deal, Match, progress  # noqa: E402
from calijack.records import deal_record  # noqa: E402
from calijack.serve.static import serving  # noqa: E402
from click_latency import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

BOOK = ROOT / "_build" / "html"
PAGE = "book/progress.html"
MARKS = (10, 100, 10_000)


def finished_deals(count: int, seed: int = 20):
    """``count`` store entries for deals played at random, match by match, with their results."""
    rng = random.Random(seed)
    game, match, number = f"{rng.getrandbits(64):016x}", Match(STANDARD, 0), 0
    for _ in range(count):
        state = Deal.random(rng, match.rules, match.dealer()).start().play_random(rng)
        match = match.add(state.result())
        number += 1
        outcome = None if not match.finished else "won" if match.winner == 0 else "lost"
        yield {"id": f"{game}/{number}", "opponent": rng.choice(["heuristic", "random", "search"]), "seat": 0,
               "points": list(state.result().points), "match": outcome, "record": deal_record(state)}
        if match.finished:
            game, match, number = f"{rng.getrandbits(64):016x}", Match(match.rules, 0), 0


def games_in_a_row(count: int, seed: int = 21):
    """The ``game`` section after each play of deals played in a row (as saved after each play)."""
    from calijack.play import Session

    rng = random.Random(seed)
    out = []
    while len(out) < count:
        session = Session(seed=rng.randrange(10**6), opponent="random")
        while not session.finished and len(out) < count:
            session.play(rng.choice(session.state.legal_cards()))
            out.append(progress.game_entry(session, "0123456789abcdef"))
    return out


def spread(times: list[float]) -> dict:
    ordered = sorted(times)
    return {"n": len(times), "p50_ms": round(statistics.median(ordered), 3),
            "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))], 3), "max_ms": round(ordered[-1], 3)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=MARKS[-1])
    parser.add_argument("--saves", type=int, default=400)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not (BOOK / "_static" / "calijack-progress.js").is_file():
        print("bench/progress.py: build the book first (make book)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    marks = sorted({m for m in MARKS if m <= args.deals} | {args.deals})
    entries = list(finished_deals(args.deals))
    games = games_in_a_row(args.saves)
    result = {"sizes": {}, "cap_chars": progress.MAX_CHARS}
    with serving(BOOK, 0, "127.0.0.1") as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        page = browser.new_page()
        # A page of the book's site holding the store's script alone, as the live sandbox's frame
        # does (no page drawn again on each change: that is the page's work, after the save).
        page.goto(url + PAGE, wait_until="load")
        page.set_content("<!DOCTYPE html><html lang=en><title>bench</title><body></body></html>")
        page.add_script_tag(content=progress.script())
        page.wait_for_function("() => !!window.calijackProgress")
        page.evaluate("() => localStorage.clear()")
        done, finish_times = 0, []
        for mark in marks:
            batch = entries[done:mark]
            times = page.evaluate("""(batch) => batch.map((entry) => {
              const t = performance.now();
              window.calijackProgress.finishDeal(entry, null);
              return performance.now() - t; })""", batch)
            finish_times += times[-min(len(times), 2000):]
            done = mark
            size = page.evaluate(f"() => localStorage.getItem({json.dumps(progress.KEY)}).length")
            result["sizes"][str(mark)] = size
        kept = json.loads(page.evaluate(f"() => localStorage.getItem({json.dumps(progress.KEY)})"))
        result["kept_deals"] = len(kept["deals"])
        result["deals_counted"] = sum(t["deals"] for t in kept["opponents"].values())
        result["finish_deal"] = spread(finish_times)
        save_times = page.evaluate("""(games) => games.map((game) => {
          const t = performance.now();
          window.calijackProgress.saveGame(game);
          return performance.now() - t; })""", games)
        result["save_after_a_play"] = spread(save_times)
        result["document_chars_when_saving"] = page.evaluate(
            f"() => localStorage.getItem({json.dumps(progress.KEY)}).length")
        result["browser"] = browser.version
        browser.close()
    if args.json:
        print(json.dumps(result))
        return 0
    for mark, size in result["sizes"].items():
        print(f"after {int(mark):>6,} finished deals: {size:>9,} characters "
              f"({100 * size / progress.MAX_CHARS:.1f}% of the {progress.MAX_CHARS:,} cap)")
    print(f"kept deals: {result['kept_deals']}, counted in the totals: {result['deals_counted']:,}")
    s = result["save_after_a_play"]
    print(f"save after a play ({s['n']} saves, document of {result['document_chars_when_saving']:,} characters): "
          f"p50 {s['p50_ms']} ms, p95 {s['p95_ms']} ms, max {s['max_ms']} ms (budget p95 <= 5 ms)")
    f = result["finish_deal"]
    print(f"finish a deal: p50 {f['p50_ms']} ms, p95 {f['p95_ms']} ms, max {f['max_ms']} ms")
    print(f"Chromium {result['browser']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
