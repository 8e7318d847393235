"""Paired deals between two computer players: the same cards twice, seats swapped.

The measuring stick of ``bench/ladder.py`` (and of quick experiments): pair ``i`` deals
``Deal.random(random.Random(f"{seed}/{i}"), rules, dealer=i % players)`` and plays it twice,
A in seat 0 then A in seat 1, each player with its own seeded generator. The unit of
measure is the pair: A's match points minus B's, averaged over its two deals, so the luck
of the cards cancels out and the 95% interval is the normal one over the pairs' means.
Every decision is timed (processor seconds, and wall-clock seconds) by side; a forced play
(one legal card) is counted apart, since it costs nothing.

    from paired import run_pairs
    report = run_pairs(("expert", {}), ("strong", {}), pairs=400, seed=1, jobs=2)
"""

from __future__ import annotations

import math
import os
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from calijack import Deal, Rules  # noqa: E402
from calijack.players import get_player, play_deal  # noqa: E402

Z = 1.96  # 95% of a normal distribution lies within 1.96 standard deviations


def mean_interval(values) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% interval (normal approximation over the values)."""
    n = len(values)
    mean = sum(values) / n
    sd = statistics.stdev(values) if n > 1 else float("inf")
    half = Z * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def percentiles(seconds) -> dict | None:
    """Median, 95th percentile and worst of a list of seconds, in milliseconds."""
    if not seconds:
        return None
    v = sorted(seconds)
    return {"decisions": len(v), "p50": round(1000 * statistics.median(v), 2),
            "p95": round(1000 * v[min(len(v) - 1, int(0.95 * len(v)))], 2), "max": round(1000 * v[-1], 2)}


def _pair(job):
    a, b, rules_dict, seed, index = job
    rules = Rules.from_dict(rules_dict)
    deal = Deal.random(random.Random(f"{seed}/{index}"), rules, dealer=index % rules.players)
    out = {"index": index, "diff": [], "cpu": {"A": [], "B": []}, "wall": {"A": [], "B": []}}
    for seat_a in range(2):
        players = [get_player(a[0], **a[1]) if s == seat_a else get_player(b[0], **b[1]) for s in range(rules.players)]
        side = ["A" if s == seat_a else "B" for s in range(rules.players)]

        def timed(state, seat, decision, wall, cpu, side=side):
            if len(state.legal_cards()) > 1:  # a forced play costs nothing: not counted
                out["cpu"][side[seat]].append(cpu)
                out["wall"][side[seat]].append(wall)

        rng = random.Random(f"{seed}/{index}/{seat_a}")
        points = play_deal(deal, players, rng, timed).result().points
        out["diff"].append(points[seat_a] - max(points[s] for s in range(rules.players) if s != seat_a))
    return out


def run_pairs(a, b, pairs: int, seed: int = 1, jobs: int | None = None, rules: Rules | dict | None = None,
              first: int = 0, on_pair=None) -> dict:
    """Play pairs ``first`` … ``first + pairs - 1`` of A against B; the summary (see the module's docstring).

    ``a`` and ``b`` are ``(name, options)`` for :func:`calijack.players.get_player`.
    ``on_pair(done, results)`` is called as pairs finish (for progress).
    """
    rules = Rules.of(rules)
    work = [((a[0], dict(a[1])), (b[0], dict(b[1])), rules.to_dict(), seed, i) for i in range(first, first + pairs)]
    jobs = max(1, min(jobs or os.cpu_count() or 1, pairs))
    results = []
    if jobs == 1:
        for job in work:
            results.append(_pair(job))
            if on_pair:
                on_pair(len(results), results)
    else:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for result in pool.imap_unordered(_pair, work, chunksize=1):
                results.append(result)
                if on_pair:
                    on_pair(len(results), results)
    return summary(a, b, rules, seed, results)


def summary(a, b, rules: Rules, seed: int, results: list) -> dict:
    """The JSON-ready summary of finished pairs, with each pair's own figures under ``raw``
    (so that runs over different pairs can be merged: :func:`merge`)."""
    results = sorted(results, key=lambda r: r["index"])
    means = [sum(r["diff"]) / len(r["diff"]) for r in results]
    mean, low, high = mean_interval(means)
    return {"a": list(a), "b": list(b), "rules": rules.to_dict(), "seed": seed, "pairs": len(results),
            "deals": sum(len(r["diff"]) for r in results),
            "mean": round(mean, 4), "ci95": [round(low, 4), round(high, 4)],
            "cpu_ms": {k: percentiles([t for r in results for t in r["cpu"][k]]) for k in ("A", "B")},
            "wall_ms": {k: percentiles([t for r in results for t in r["wall"][k]]) for k in ("A", "B")},
            "raw": [{"index": r["index"], "diff": r["diff"],
                     **{kind: {k: [round(t, 5) for t in r[kind][k]] for k in ("A", "B")} for kind in ("cpu", "wall")}}
                    for r in results]}


def merge(reports: list[dict]) -> dict:
    """One summary of several runs of the same pairing over different pairs (each pair once)."""
    first = reports[0]
    pairs = {}
    for report in reports:
        if (report["a"], report["b"], report["rules"], report["seed"]) != (first["a"], first["b"], first["rules"],
                                                                           first["seed"]):
            raise ValueError("only runs of the same pairing, rules and seed can be merged")
        for r in report["raw"]:
            pairs[r["index"]] = r
    return summary(first["a"], first["b"], Rules.from_dict(first["rules"]), first["seed"], list(pairs.values()))


if __name__ == "__main__":  # a quick comparison: python bench/paired.py A B PAIRS [json options A] [json options B]
    import json

    args = sys.argv[1:]
    opts = [json.loads(x) for x in args[3:5]] + [{}, {}]
    report = run_pairs((args[0], opts[0]), (args[1], opts[1]), int(args[2]), jobs=2)
    print(json.dumps(report))
