"""Learn from your mistakes, natively: the time of ``drill`` and ``compare`` for one deal.

Each deal is dealt from a seed and played by the Casual player at both seats (a learner's deal
has mistakes to find); then, timed one after the other in this process:

- ``drills(state, 0)``: the review of seat 0's plays at the coach's default number of worlds,
  and its mistakes as drills (what ``calijack drill`` and the sandbox's "Try your mistakes
  again" cost); budget 5 s;
- ``compare(state, 0)``: the deal again with the strongest player (Expert) in seat 0 against
  Casual, seeded as the sandbox seeds its opponent (what "Same cards, played by the computer"
  costs); budget 3 s.

Prints the median, the slowest and the mean with its 95% interval (t) over the deals::

    .venv/bin/python bench/drill.py [--deals 10] [--first-seed 0] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from calijack import Deal  # noqa: E402
from calijack.drill import compare, drills, position_rng  # noqa: E402
from calijack.players import get_player  # noqa: E402

T95 = {2: 12.71, 3: 4.30, 4: 3.18, 5: 2.78, 6: 2.57, 7: 2.45, 8: 2.36, 9: 2.31, 10: 2.26, 15: 2.14, 20: 2.09,
       30: 2.05}


def played(seed: int):
    rng_for = position_rng(seed)
    players = [get_player("casual"), get_player("casual")]
    state = Deal.random(seed).start()
    while not state.finished:
        state = state.play(players[state.to_play].choose(state.view(state.to_play), rng_for(state)).card)
    return state


def summary(times: list[float]) -> dict:
    n = len(times)
    mean = statistics.fmean(times)
    half = T95.get(n, 2.0) * statistics.stdev(times) / n ** 0.5 if n > 1 else float("nan")
    return {"n": n, "median_s": round(statistics.median(times), 3), "max_s": round(max(times), 3),
            "mean_s": round(mean, 3), "mean_low_s": round(mean - half, 3), "mean_high_s": round(mean + half, 3)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    timed = {"drill": [], "compare": []}
    found = []
    for seed in range(args.first_seed, args.first_seed + args.deals):
        state = played(seed)
        start = time.perf_counter()
        found.append(len(drills(state, 0)))
        timed["drill"].append(time.perf_counter() - start)
        start = time.perf_counter()
        compare(state, 0, opponent="casual", rng_for=position_rng(seed))
        timed["compare"].append(time.perf_counter() - start)
    out = {name: summary(times) for name, times in timed.items()}
    out["mistakes_per_deal"] = round(statistics.fmean(found), 2)
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        for name, budget in (("drill", 5), ("compare", 3)):
            s = out[name]
            print(f"{name:8} one deal, native: median {s['median_s']} s, slowest {s['max_s']} s, mean {s['mean_s']} s "
                  f"(95% interval {s['mean_low_s']} to {s['mean_high_s']}) over {s['n']} deals; budget {budget} s")
        print(f"mistakes found per deal (seat 0, Casual's play): {out['mistakes_per_deal']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
