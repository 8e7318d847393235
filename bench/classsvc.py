"""The class service's store and the teacher's table, at a class's sizes (issue 31).

    python bench/classsvc.py [--learners 30 100] [--deals 20] [--db URL] [--json]

Each learner finishes ``--deals`` deals, and after each one their page sends its whole progress
document, as the sandbox's page does: one write per deal (``Store.put``: read, merge with the
stored copy, write, in one transaction), the learners interleaved, one write at a time in this
process. It prints each size's write latency (p50, p95), the writes that failed, the database's
size per learner, and the time to build the teacher's table (every row, the HTML page) for the
whole class (p50, p95 of 20). In process: no HTTP and no hub, so these are the service's own
costs, not a learner's round trip through the proxy. SQLite in a temporary folder unless
``--db`` names another database (it must be empty).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calijack import progress  # noqa: E402
from calijack.classsvc.app import _class_page  # noqa: E402
from calijack.classsvc.store import Store  # noqa: E402
from calijack.classsvc.summary import row  # noqa: E402
from calijack.play import Session  # noqa: E402


def _sessions(count: int) -> list[Session]:
    out = []
    for seed in range(count):
        session = Session(seed=seed, opponent="casual")
        rng = random.Random(seed)
        while not session.finished:
            session.play(rng.choice(session.state.legal_cards()))
        out.append(session)
    return out


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def run(learners: int, deals: int, db: str | None, sessions) -> dict:
    folder = tempfile.TemporaryDirectory()
    path = Path(folder.name) / "class.sqlite"
    store = Store(db or f"sqlite:///{path}")
    docs = {f"learner{i:03d}": progress.empty() for i in range(learners)}
    latencies, failures = [], 0
    for number in range(1, deals + 1):
        for index, (name, doc) in enumerate(docs.items()):
            session = sessions[(number + index) % len(sessions)]
            entry = dict(progress.deal_entry(session, "0123456789abcdef"), id=f"0123456789abcdef/{number}",
                         when=f"2026-12-01T{number // 60:02d}:{number % 60:02d}:00Z")
            totals = doc["opponents"].setdefault("casual", dict.fromkeys(("deals", "for", "against", "won", "lost"), 0))
            mine = entry["points"][entry["seat"]]
            totals["deals"] += 1
            totals["for"] += mine
            totals["against"] += sum(entry["points"]) - mine
            doc["deals"] = (doc["deals"] + [entry])[-progress.KEPT_DEALS:]
            doc["checks"][f"book/03_legal_play#{number}"] = {"first": number % 2 == 0, "solved": True}
            start = time.perf_counter()
            try:
                store.put(name, json.dumps(doc))
            except Exception:  # noqa: BLE001 - counted, the benchmark goes on
                failures += 1
            latencies.append((time.perf_counter() - start) * 1000)
    table_ms = []
    for _ in range(20):
        start = time.perf_counter()
        rows = [row(name, doc, when) for name, doc, when in store.all()]
        _class_page("/services/calijack-class/", "/hub/", rows, "learner", "asc")
        table_ms.append((time.perf_counter() - start) * 1000)
    store.close()
    size = path.stat().st_size if path.exists() else None
    folder.cleanup()
    return {"learners": learners, "deals": deals, "writes": len(latencies), "failures": failures,
            "write_ms_p50": round(_pct(latencies, 0.5), 2), "write_ms_p95": round(_pct(latencies, 0.95), 2),
            "db_bytes_per_learner": None if size is None else size // learners,
            "table_ms_p50": round(_pct(table_ms, 0.5), 1), "table_ms_p95": round(_pct(table_ms, 0.95), 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, nargs="+", default=[30, 100])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--db", default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sessions = _sessions(8)
    reports = [run(n, args.deals, args.db, sessions) for n in args.learners]
    load = os.getloadavg()
    if args.json:
        print(json.dumps({"runs": reports, "loadavg": load}))
    else:
        for r in reports:
            print(f"{r['learners']} learners x {r['deals']} deals: {r['writes']} writes, {r['failures']} failed; "
                  f"write p50 {r['write_ms_p50']} ms, p95 {r['write_ms_p95']} ms; "
                  f"database {r['db_bytes_per_learner']} bytes a learner; "
                  f"teacher's table p50 {r['table_ms_p50']} ms, p95 {r['table_ms_p95']} ms")
        print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
