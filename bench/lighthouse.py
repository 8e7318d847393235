"""Page speed of the built book: Lighthouse (mobile preset) on every page, against budgets.

    make lighthouse                       # = npm ci in bench/lighthouse, then this script
    .venv/bin/python bench/lighthouse.py [--pages book/03_legal_play.html ...] [--desktop]
                                         [--runs 3] [--book _build/html] [--port 9400]
                                         [--out bench/out/lighthouse] [--json]

The built book is served the way a real host serves it (Brotli or gzip, MIME types, cache headers:
``calijack.serve.static``) on 127.0.0.1, and Lighthouse 12.2.3 (pinned in
``bench/lighthouse/package-lock.json``) drives Debian's Chromium against each content page,
one at a time, with its default mobile preset: a mid-range phone on slow 4G, simulated
throttling. For every page it prints the four category scores, the paint times, the
blocking time, the layout shift and the bytes transferred during the load (no user input,
so: before the first interaction), then the worst page, and checks each page against the
budgets of issue 14. Exit status: 0 when every page is within budget, 1 otherwise, 2 when
Lighthouse or the book is missing.

Reports land in ``bench/out/lighthouse/`` (one JSON report per page and run, not committed).
Timings depend on the machine's load: Lighthouse simulates the phone from what it observes,
so a busy machine inflates paint and blocking times. ``--runs N`` measures each page N times
and keeps the median run (by performance score), as Lighthouse's own docs advise; the
machine's benchmark index (Lighthouse's CPU yardstick: higher is faster) is printed beside
each page's scores (column BI), with the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from calijack.serve.static import serving  # noqa: E402

LIGHTHOUSE = ROOT / "bench" / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
OUT = ROOT / "bench" / "out" / "lighthouse"
CHROMIUM = Path(os.environ.get("CALIJACK_CHROMIUM", "/usr/bin/chromium"))
CHROME_FLAGS = ("--headless=new --no-sandbox --disable-gpu --disable-background-networking "
                "--disable-component-update --disable-sync --no-first-run")
RETRIES = 4  # extra runs per page allowed to replace runs on a starved CPU
NON_CONTENT = {"search.html", "genindex.html", "py-modindex.html", "index.html"}
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
# Files that are widget code (the html-manager, its modules, RequireJS, our loader).
WIDGET_CODE = re.compile(r"/_static/(?:require\.js|jupyter-widgets-|(?:lib)?embed-amd|cj-widgets|cj-widget-state/)")

# Issue 14's budgets: (label, key in a row, comparison, limit).
BUDGETS = (
    ("performance >= 90", "performance", ">=", 90),
    ("LCP <= 2.5 s", "lcp_ms", "<=", 2500),
    ("TBT <= 200 ms", "tbt_ms", "<=", 200),
    ("CLS <= 0.1", "cls", "<=", 0.1),
    ("<= 600 KB transferred", "kb", "<=", 600),
    ("accessibility >= 95", "accessibility", ">=", 95),
    ("best practices >= 95", "best-practices", ">=", 95),
)


def load_average() -> str:
    """The machine's load (1, 5 and 15 minutes), as /proc/loadavg says it ("?" elsewhere)."""
    try:
        return " ".join(Path("/proc/loadavg").read_text(encoding="utf-8").split()[:3])
    except OSError:
        return "?"


def content_pages(book: Path) -> list[str]:
    """Every content page of the built book (relative posix paths), as the browser tests see them."""
    pages = []
    for path in sorted(book.rglob("*.html")):
        rel = path.relative_to(book)
        # lite/: the live lessons' own site (JupyterLite), fetched only after "Play live".
        if rel.parts[0].startswith("_") or rel.parts[0] == "lite" or rel.as_posix() in NON_CONTENT:
            continue
        pages.append(rel.as_posix())
    return pages


def run_lighthouse(url: str, report: Path, desktop: bool) -> dict:
    """One Lighthouse run; returns the JSON report."""
    cmd = [
        str(LIGHTHOUSE), url,
        "--output=json", f"--output-path={report}", "--quiet",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--chrome-flags={CHROME_FLAGS}",
        "--max-wait-for-load=60000",
    ]
    if desktop:
        cmd.append("--preset=desktop")
    env = dict(os.environ, CHROME_PATH=str(CHROMIUM))
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0 or not report.is_file():
        raise RuntimeError(f"lighthouse failed on {url} (exit {proc.returncode}):\n"
                           + proc.stderr[-3000:])
    return json.loads(report.read_text(encoding="utf-8"))


def slow_cpu(lhr: dict) -> bool:
    """Whether Lighthouse warned that the CPU was too slow for its simulation to hold."""
    return any("slower CPU" in warning for warning in lhr.get("runWarnings", []))


def median_run(runs: list[dict]) -> dict:
    """The run with the median performance score (then the median LCP) of a page's runs."""
    def key(lhr: dict) -> tuple:
        return (lhr["categories"]["performance"]["score"] or 0,
                -lhr["audits"]["largest-contentful-paint"].get("numericValue", 0))
    return sorted(runs, key=key)[len(runs) // 2]


def summarize(page: str, lhr: dict) -> dict:
    """The row printed for one page, from a Lighthouse report."""
    audits = lhr["audits"]
    if lhr.get("runtimeError"):
        raise RuntimeError(f"{page}: {lhr['runtimeError']}")

    def num(name: str) -> float:
        return float(audits[name].get("numericValue") or 0)

    items = audits["network-requests"]["details"]["items"]
    widget = sum(i.get("transferSize") or 0 for i in items if WIDGET_CODE.search(i["url"]))
    row = {cat: round(100 * (lhr["categories"][cat]["score"] or 0)) for cat in CATEGORIES}
    row.update(
        page=page,
        fcp_ms=round(num("first-contentful-paint")),
        lcp_ms=round(num("largest-contentful-paint")),
        si_ms=round(num("speed-index")),
        tbt_ms=round(num("total-blocking-time")),
        cls=round(num("cumulative-layout-shift"), 3),
        kb=round(num("total-byte-weight") / 1000, 1),
        requests=len(items),
        widget_kb=round(widget / 1000, 1),
        benchmark_index=round(lhr.get("environment", {}).get("benchmarkIndex") or 0),
    )
    row["over_budget"] = [label for label, key, op, limit in BUDGETS
                          if not (row[key] >= limit if op == ">=" else row[key] <= limit)]
    return row


def print_table(rows: list[dict]) -> None:
    """The table of every page, then the worst page."""
    head = ("page", "perf", "a11y", "bp", "seo", "FCP s", "LCP s", "SI s", "TBT ms", "CLS",
            "KB", "req", "widget KB", "BI", "budget")
    lines = [head]
    for r in rows:
        lines.append((r["page"], r["performance"], r["accessibility"], r["best-practices"],
                      r["seo"], f"{r['fcp_ms'] / 1000:.1f}", f"{r['lcp_ms'] / 1000:.1f}",
                      f"{r['si_ms'] / 1000:.1f}", r["tbt_ms"], f"{r['cls']:.3f}",
                      f"{r['kb']:.0f}", r["requests"], f"{r['widget_kb']:.0f}", r["benchmark_index"],
                      "ok" if not r["over_budget"] else "OVER: " + "; ".join(r["over_budget"])))
    widths = [max(len(str(line[i])) for line in lines) for i in range(len(head))]
    for n, line in enumerate(lines):
        print("  ".join(str(cell).ljust(w) if i in (0, len(head) - 1) else str(cell).rjust(w)
                        for i, (cell, w) in enumerate(zip(line, widths))).rstrip())
        if n == 0:
            print("  ".join("-" * w for w in widths))
    worst = min(rows, key=lambda r: (r["performance"], -r["lcp_ms"]))
    print(f"\nworst page: {worst['page']} (performance {worst['performance']}, "
          f"LCP {worst['lcp_ms'] / 1000:.1f} s, TBT {worst['tbt_ms']} ms, CLS {worst['cls']}, "
          f"{worst['kb']:.0f} KB)")
    print("worst of each: "
          f"performance {min(r['performance'] for r in rows)}, "
          f"FCP {max(r['fcp_ms'] for r in rows) / 1000:.1f} s, "
          f"LCP {max(r['lcp_ms'] for r in rows) / 1000:.1f} s, "
          f"TBT {max(r['tbt_ms'] for r in rows)} ms, "
          f"CLS {max(r['cls'] for r in rows):.3f}, "
          f"{max(r['kb'] for r in rows):.0f} KB, "
          f"accessibility {min(r['accessibility'] for r in rows)}, "
          f"best practices {min(r['best-practices'] for r in rows)}, "
          f"SEO {min(r['seo'] for r in rows)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/lighthouse.py", description=__doc__.split("\n")[0])
    parser.add_argument("--book", type=Path, default=ROOT / "_build" / "html")
    parser.add_argument("--pages", nargs="*", help="pages relative to the book (default: all)")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: a free one)")
    parser.add_argument("--desktop", action="store_true", help="the desktop preset instead")
    parser.add_argument("--runs", type=int, default=1, help="runs per page; the median is kept")
    parser.add_argument("--out", type=Path, default=OUT, help="folder for the JSON reports")
    parser.add_argument("--json", action="store_true", help="also print the rows as JSON")
    args = parser.parse_args(argv)

    if not LIGHTHOUSE.exists():
        print("bench/lighthouse.py: Lighthouse is not installed: run "
              "`npm ci --prefix bench/lighthouse` (or `make lighthouse`).", file=sys.stderr)
        return 2
    if not shutil.which("node"):
        print("bench/lighthouse.py: Node.js (20) is needed to run Lighthouse.", file=sys.stderr)
        return 2
    if not CHROMIUM.exists():
        print(f"bench/lighthouse.py: no Chromium at {CHROMIUM}.", file=sys.stderr)
        return 2
    book = args.book.resolve()
    if not (book / "index.html").is_file():
        print(f"bench/lighthouse.py: the book is not built ({book}/index.html): `make book`.",
              file=sys.stderr)
        return 2
    pages = args.pages or content_pages(book)
    args.out.mkdir(parents=True, exist_ok=True)
    rows, discarded = [], 0
    load_before = load_average()
    with serving(book, args.port) as url:
        for page in pages:
            runs, attempts = [], 0
            while len(runs) < max(args.runs, 1):
                attempts += 1
                report = args.out / (page.replace("/", "__") + (".desktop" if args.desktop else "")
                                     + f".{attempts}.json")
                lhr = run_lighthouse(url + page, report, args.desktop)
                # Lighthouse itself warns that a run on a starved CPU misstates the page:
                # take another, up to RETRIES times per page, then keep what there is.
                if slow_cpu(lhr) and attempts < max(args.runs, 1) + RETRIES:
                    discarded += 1
                    continue
                runs.append(lhr)
            rows.append(summarize(page, median_run(runs)))
            print(f"  measured {page}", file=sys.stderr, flush=True)
    indexes = sorted(r["benchmark_index"] for r in rows)
    print(f"Lighthouse 12.2.3, {'desktop' if args.desktop else 'mobile'} preset, "
          f"served compressed by calijack.serve.static; {len(rows)} pages, "
          f"median of {max(args.runs, 1)} run(s) each; benchmark index "
          f"{indexes[0]}-{indexes[-1]} (median {indexes[len(indexes) // 2]}); "
          f"{discarded} run(s) on a starved CPU discarded; load average {load_before} before, "
          f"{load_average()} after (BI: each page's benchmark index, beside its scores: a busy "
          "machine shows as a low one)\n")
    print_table(rows)
    if args.json:
        print(json.dumps(rows))
    over = [r for r in rows if r["over_budget"]]
    print(f"\nbudgets: {len(rows) - len(over)} of {len(rows)} pages within all budgets")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
