"""How often the coach's verdicts are wrong: the review against a reference of 20× the guesses; prints numbers.

    nice -n 10 .venv/bin/python bench/coach_accuracy.py [--deals 8] [--samples 100] [--factor 20] [--z 1.96 1.0]
        [--extra 4 32] [--more 1.0 2.0] [--rivals 0 1] [--seed 33] [--jobs 2]

Deal ``i`` is ``Deal.random(random.Random(f"coach-accuracy/{seed}/{i}"))`` (deals the project
never used), played to its end by two of the sandbox's kinds of opponent (random, Beginner,
Casual, in turn), as learners' deals are. Every play with more than one legal card whose
values are estimated (the stock not yet gone) is rated three ways from the same position:

- **old**: the coach before issue 33, ``samples`` guesses, a mistake when the loss is ½ point
  or more on the estimate;
- **new** (one row per ``--z``, ``--extra`` and ``--more``): :func:`calijack.review.rate` with
  the card played, more guesses while the verdict is unclear (the loss plus or minus ``--more``
  standard errors holds ½ point; by default :data:`calijack.review.Z_MORE`), up to ``--extra``
  × ``samples`` (by default :data:`calijack.review.EXTRA`), a mistake only when clearly so (the
  loss less ``z`` standard errors is still ½ point), with ``--rivals 1`` looking also at every
  card that may be ½ point better than the card played (:meth:`calijack.review.Rating.rivals`);
  its row is named ``z<z>``, with ``x<extra>``, ``m<more>`` and ``r<rivals>`` where those are
  not the defaults;
- **reference**: ``factor`` × ``samples`` guesses from another generator; a play is a
  mistake when its loss is ½ point or more.

Printed per coach: marks, marks the reference agrees with, **false alarms** (marked, the
reference says sound; share of the plays), **misses** (the reference's mistakes not marked;
share of them, and how many of those were said to be too close to call), plays too close to
call, the same two counts on the plays **the reference is sure of** (its loss one of its own
standard errors clear of ½ point), the **mean loss of the coach's best card** under the
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
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from calijack import Deal  # noqa: E402
from calijack.players import get_player, play_deal  # noqa: E402
from calijack.review import EXTRA, MISTAKE, RIVALS, Z_MORE, _play_rng, exact_position, rate  # noqa: E402

OUT = ROOT / "bench" / "out"
KINDS = ("random", "beginner", "heuristic")


def _deal(seed: int, index: int):
    rng = random.Random(f"coach-accuracy/{seed}/{index}")
    deal = Deal.random(rng, dealer=index % 2)
    players = [get_player(KINDS[index % 3]), get_player(KINDS[(index + 1) % 3])]
    return play_deal(deal, players, rng)


def _ref_loss(values: dict, card) -> float:
    return max(values.values()) - values[card]


def _sure(loss: float, se: float | None) -> str | None:
    """What a judge with this ``loss`` and standard error ``se`` is sure of: ``"mistake"`` when its
    loss is one standard error clear above the line, ``"sound"`` when clear below, else ``None``."""
    if se is None:
        return None
    if loss - se >= MISTAKE:
        return "mistake"
    return "sound" if loss + se < MISTAKE else None


def _job(job):
    seed, index, samples, factor, zs, extras, mores, rivals, spents = job
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
            rated = {}  # one rating serves every z and both ends of the cap's rule
            for z, extra, more, rival, spent in _variants(zs, extras, mores, rivals, spents):
                if (extra, more, rival) not in rated:
                    cpu = time.process_time()
                    new = rate(walk, samples, _play_rng(seed, k), played=card, max_samples=extra * samples,
                               z_more=more, rivals=rival)
                    rated[extra, more, rival] = new, time.process_time() - cpu
                new, used = rated[extra, more, rival]
                verdict = (new if spent else replace(new, spent=False)).verdict(card, z)
                row[_coach(z, extra, more, rival, spent)] = {"mistake": verdict == "mistake", "close": verdict == "too close",
                                "best": new.best[0].code, "samples": new.samples, "cpu": used}
            ref = rate(walk, factor * samples, random.Random(f"coach-accuracy/reference/{seed}/{index}/{k}"))
            row["ref"] = {c.code: v for c, v in ref.values.items()}
            row["ref_se"] = ref.stderr(card)  # the reference's own uncertainty about the card's loss
            rows.append(row)
        walk = walk.play(card)
    return rows


def _variants(zs, extras, mores, rivals, spents=(True,)):
    return [(z, extra, more, rival, spent) for z in zs for extra in extras for more in mores for rival in rivals
            for spent in spents]


def _coach(z: float, extra: int, more: float, rivals: bool, spent: bool = True) -> str:
    # A row's key: "z1.0" at the default cap (EXTRA), band (Z_MORE), rivals (RIVALS) and the cap's rule
    # (Rating.spent), "z1.0x8m2.0r1s0" else.
    return (f"z{z}" + ("" if extra == EXTRA else f"x{extra}") + ("" if more == Z_MORE else f"m{more}")
            + ("" if rivals == RIVALS else f"r{int(rivals)}") + ("" if spent else "s0"))


def summary(rows: list, coach: str) -> dict:
    """The figures of one coach (``"old"`` or ``"z<z>"``) against the reference."""
    plays = len(rows)
    marks = agreed = false = missed = close = ref_mistakes = 0
    clear_wrong = clear_missed = clear_right = clear_false = missed_close = 0
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
        missed_close += wrong and mine.get("close", False)
        # Plays the reference itself is sure of (its loss one standard error clear of the line):
        sure = _sure(_ref_loss(ref, row["card"]), row.get("ref_se"))
        if sure == "mistake":
            clear_wrong += 1
            clear_missed += not mine["mistake"]
        elif sure == "sound":
            clear_right += 1
            clear_false += mine["mistake"]
        best_loss += _ref_loss(ref, mine["best"])
        guesses += mine["samples"]
        cpu += mine["cpu"]
    return {"coach": coach, "plays": plays, "marks": marks, "agreed": agreed, "false_alarms": false,
            "false_alarm_share": round(false / plays, 4) if plays else None,
            "reference_mistakes": ref_mistakes, "missed": missed,
            "missed_share": round(missed / ref_mistakes, 4) if ref_mistakes else None,
            "missed_too_close": missed_close,
            "reference_sure": {"mistakes": clear_wrong, "missed": clear_missed, "sound": clear_right,
                               "false_alarms": clear_false},
            "too_close": close, "best_card_mean_loss": round(best_loss / plays, 4) if plays else None,
            "guesses_per_play": round(guesses / plays, 1) if plays else None,
            "cpu_seconds": round(cpu, 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--factor", type=int, default=20, help="the reference's guesses, as a multiple of --samples")
    parser.add_argument("--z", type=float, nargs="+", default=[1.0], help="the new coach's z (one row each)")
    parser.add_argument("--extra", type=int, nargs="+", default=[EXTRA],
                        help=f"the new coach's cap on guesses, as a multiple of --samples (one row each; default {EXTRA})")
    parser.add_argument("--more", type=float, nargs="+", default=[Z_MORE],
                        help=f"the new coach draws more guesses while the loss plus or minus this many standard "
                             f"errors holds the half point (one row each; default {Z_MORE})")
    parser.add_argument("--rivals", type=int, nargs="+", choices=(0, 1), default=[int(RIVALS)],
                        help="1: the extra guesses also settle every card that may be half a point better than the "
                             f"card played, not only the best so far (one row each; default {int(RIVALS)})")
    parser.add_argument("--spent", type=int, nargs="+", choices=(0, 1), default=[1],
                        help="1: once every guess allowed is drawn, a loss of half a point or more on the best "
                             "estimate is a mistake (Rating.spent); 0: it stays too close to call (one row each)")
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores; "
          f"{args.deals} deals, coach {args.samples} guesses (up to {' or '.join(str(x * args.samples) for x in args.extra)}), "
          f"reference {args.factor * args.samples}", flush=True)
    start = time.time()
    args.rivals = [bool(r) for r in args.rivals]
    args.spent = [bool(x) for x in args.spent]
    jobs = [(args.seed, i, args.samples, args.factor, args.z, args.extra, args.more, args.rivals, args.spent)
            for i in range(args.deals)]
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
              "extra": args.extra, "more": args.more, "rivals": [int(r) for r in args.rivals],
              "spent": [int(x) for x in args.spent],
              "load_average": [round(x, 2) for x in os.getloadavg()],
              "coaches": [summary(rows, "old")] + [summary(rows, _coach(*v)) for v in _variants(args.z, args.extra, args.more, args.rivals,
                                                                                    args.spent)], "rows": rows}
    for s in report["coaches"]:
        print(("" if final else "    ") + f"{s['coach']:>8}: {s['plays']} plays, {s['marks']} marks, {s['agreed']} agreed, "
              f"false alarms {s['false_alarms']} ({s['false_alarm_share']:.1%} of plays), "
              f"missed {s['missed']} of {s['reference_mistakes']} "
              f"({(s['missed_share'] or 0):.1%}; {s['missed_too_close']} of them too close), too close {s['too_close']}, "
              f"where the reference is sure: missed {s['reference_sure']['missed']} of {s['reference_sure']['mistakes']}, "
              f"false alarms {s['reference_sure']['false_alarms']} of {s['reference_sure']['sound']}, "
              f"best card's mean loss {s['best_card_mean_loss']:.3f}, "
              f"{s['guesses_per_play']} guesses a play, {s['cpu_seconds']} s", flush=True)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "coach_accuracy.json").write_text(json.dumps(report, indent=1))
    print(f"{'wrote' if final else '    so far in'} bench/out/coach_accuracy.json; {time.time() - start:.0f} s; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
