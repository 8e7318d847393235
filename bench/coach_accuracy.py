"""How often the coach's verdicts are wrong: the review against a reference of 20× the guesses; prints numbers.

    nice -n 10 .venv/bin/python bench/coach_accuracy.py [--deals 8] [--samples 100] [--factor 20] [--z 1.96 1.0]

Deal ``i`` is ``Deal.random(random.Random(f"coach-accuracy/{seed}/{i}"))`` (deals the project
never used), played to its end by two of the sandbox's kinds of opponent (random, Beginner,
Casual, in turn), as learners' deals are. Every play with more than one legal card whose
values are estimated (the stock not yet gone) is rated three ways from the same position:

- **old**: the coach before issue 33, ``samples`` guesses, a mistake when the loss is ½ point
  or more on the estimate;
- **new** (one row per ``--z``): :func:`calijack.review.rate` with the card played, more
  guesses while the verdict is unclear (up to ``EXTRA`` × ``samples``), a mistake only when
  clearly so (the loss less ``z`` standard errors is still ½ point);
- **reference**: ``factor`` × ``samples`` guesses from another generator; a play is a
  mistake when its loss is ½ point or more.

Printed per coach: marks, marks the reference agrees with, **false alarms** (marked, the
reference says sound; share of the plays), **misses** (the reference's mistakes not marked;
share of them), plays too close to call, the **mean loss of the coach's best card** under the
reference's values, the guesses drawn per play, and processor seconds. Results go to
``bench/out/coach_accuracy.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from calijack import Deal  # noqa: E402
from calijack.players import get_player, play_deal  # noqa: E402
from calijack.review import EXTRA, MISTAKE, _play_rng, exact_position, rate  # noqa: E402

OUT = ROOT / "bench" / "out"
KINDS = ("random", "beginner", "heuristic")


def _deal(seed: int, index: int):
    rng = random.Random(f"coach-accuracy/{seed}/{index}")
    deal = Deal.random(rng, dealer=index % 2)
    players = [get_player(KINDS[index % 3]), get_player(KINDS[(index + 1) % 3])]
    return play_deal(deal, players, rng)


def _ref_loss(values: dict, card) -> float:
    return max(values.values()) - values[card]


def _job(job):
    seed, index, samples, factor, zs = job
    state = _deal(seed, index)
    walk = state.deal.start()
    rows = []
    for k, card in enumerate(state.plays):
        if not exact_position(walk) and len(walk.legal_cards()) > 1:
            cpu = time.process_time()
            old = rate(walk, samples, _play_rng(seed, k))
            old_cpu = time.process_time() - cpu
            row = {"deal": index, "play": k, "card": card.code,
                   "old": {"mistake": old.loss(card) >= MISTAKE, "best": old.best[0].code,
                           "samples": old.samples, "cpu": old_cpu}}
            for z in zs:
                cpu = time.process_time()
                new = rate(walk, samples, _play_rng(seed, k), played=card, max_samples=EXTRA * samples, z=z)
                verdict = new.verdict(card, z)
                row[f"z{z}"] = {"mistake": verdict == "mistake", "close": verdict == "too close",
                                "best": new.best[0].code, "samples": new.samples,
                                "cpu": time.process_time() - cpu}
            ref = rate(walk, factor * samples, random.Random(f"coach-accuracy/reference/{seed}/{index}/{k}"))
            row["ref"] = {c.code: v for c, v in ref.values.items()}
            rows.append(row)
        walk = walk.play(card)
    return rows


def summary(rows: list, coach: str) -> dict:
    """The figures of one coach (``"old"`` or ``"z<z>"``) against the reference."""
    plays = len(rows)
    marks = agreed = false = missed = close = ref_mistakes = 0
    best_loss = 0.0
    guesses = cpu = 0.0
    for row in rows:
        ref, mine = row["ref"], row[coach]
        wrong = _ref_loss(ref, row["card"]) >= MISTAKE
        ref_mistakes += wrong
        marks += mine["mistake"]
        agreed += mine["mistake"] and wrong
        false += mine["mistake"] and not wrong
        missed += wrong and not mine["mistake"]
        close += mine.get("close", False)
        best_loss += _ref_loss(ref, mine["best"])
        guesses += mine["samples"]
        cpu += mine["cpu"]
    return {"coach": coach, "plays": plays, "marks": marks, "agreed": agreed, "false_alarms": false,
            "false_alarm_share": round(false / plays, 4) if plays else None,
            "reference_mistakes": ref_mistakes, "missed": missed,
            "missed_share": round(missed / ref_mistakes, 4) if ref_mistakes else None,
            "too_close": close, "best_card_mean_loss": round(best_loss / plays, 4) if plays else None,
            "guesses_per_play": round(guesses / plays, 1) if plays else None,
            "cpu_seconds": round(cpu, 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--factor", type=int, default=20, help="the reference's guesses, as a multiple of --samples")
    parser.add_argument("--z", type=float, nargs="+", default=[1.96], help="the new coach's z (one row each)")
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores; "
          f"{args.deals} deals, coach {args.samples} guesses (up to {EXTRA * args.samples}), "
          f"reference {args.factor * args.samples}", flush=True)
    start = time.time()
    jobs = [(args.seed, i, args.samples, args.factor, args.z) for i in range(args.deals)]
    rows = []
    if args.jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            for done in pool.imap_unordered(_job, jobs):
                rows += done
                print(f"  {len(rows)} plays ({time.time() - start:.0f} s)", flush=True)
    else:
        for job in jobs:
            rows += _job(job)
            print(f"  {len(rows)} plays ({time.time() - start:.0f} s)", flush=True)
            _write(args, rows, start, final=False)  # a run stopped early keeps its figures
    _write(args, rows, start)
    return 0


def _write(args, rows: list, start: float, final: bool = True) -> None:
    report = {"seed": args.seed, "deals": args.deals, "samples": args.samples, "factor": args.factor,
              "load_average": [round(x, 2) for x in os.getloadavg()],
              "coaches": [summary(rows, "old")] + [summary(rows, f"z{z}") for z in args.z], "rows": rows}
    for s in report["coaches"]:
        print(("" if final else "    ") + f"{s['coach']:>6}: {s['plays']} plays, {s['marks']} marks, {s['agreed']} agreed, "
              f"false alarms {s['false_alarms']} ({s['false_alarm_share']:.1%} of plays), "
              f"missed {s['missed']} of {s['reference_mistakes']} "
              f"({(s['missed_share'] or 0):.1%}), too close {s['too_close']}, "
              f"best card's mean loss {s['best_card_mean_loss']:.3f}, "
              f"{s['guesses_per_play']} guesses a play, {s['cpu_seconds']} s", flush=True)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "coach_accuracy.json").write_text(json.dumps(report, indent=1))
    print(f"{'wrote' if final else '    so far in'} bench/out/coach_accuracy.json; {time.time() - start:.0f} s; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
