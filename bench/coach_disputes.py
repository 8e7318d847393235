"""Is the reference sharp enough to judge the coach? The plays near the line, rated again; prints numbers.

    nice -n 10 .venv/bin/python bench/coach_disputes.py REPORT.json [REPORT.json ...] [--coach z1.0]
        [--band 0.2] [--factor 200] [--jobs 2]

``bench/coach_accuracy.py`` judges the coach against a reference of 20× its first guesses. Where
a play's loss sits near the half point, that reference is itself an estimate with a spread, and
the coach may have drawn *more* guesses on the two cards in question than the reference did (up
to ``review.EXTRA``× on the cards it compares, 64×): a "miss" or a "false alarm" there may be the reference's noise,
not the coach's. This script takes the reports of ``coach_accuracy.py`` (their rows: every
position, the coach's verdicts, the reference's values) and rates again, with ``factor`` × the
report's ``samples`` guesses from a generator of its own, every play that either

- the 20× reference puts within ``band`` of the half point, or
- the coach (``--coach``, a row key of the reports, and ``old``) and the 20× reference disagree on.

The other plays keep the 20× reference's verdict (it is ``band`` clear of the line there, many of
its standard errors). Printed per coach: false alarms and misses (and of the misses, how many the coach said were too close
to call and how many it called sound) against the 20× reference and against the sharpened one, and
for the plays they disagree on, which side the sharp rating takes. ``--reuse`` takes the sharp
ratings of an earlier run (the same guesses, seeded by play: the same values) instead of working
them out again.
Results go to ``bench/out/coach_disputes.json``.
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
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from coach_accuracy import _deal, _ref_loss, _sure  # noqa: E402

from calijack.review import MISTAKE, rate  # noqa: E402

OUT = ROOT / "bench" / "out"


def _position(seed: int, index: int, play: int):
    state = _deal(seed, index)
    return state.rewind(play), state.plays[play]


def _sharp(job):
    seed, index, play, guesses = job
    walk, card = _position(seed, index, play)
    start = time.process_time()
    rating = rate(walk, guesses, random.Random(f"coach-disputes/{seed}/{index}/{play}"))
    return {"seed": seed, "deal": index, "play": play, "card": card.code,
            "values": {c.code: v for c, v in rating.values.items()}, "se": rating.stderr(card),
            "cpu": time.process_time() - start}


def _wrong(values: dict, card: str) -> bool:
    return _ref_loss(values, card) >= MISTAKE


def summary(rows: list, sharp: dict, coach: str) -> dict:
    """One coach's false alarms and misses against the 20× reference and the sharpened one."""
    def reference(row):  # the 20x reference's values and standard error
        return row["ref"], row.get("ref_se")

    def sharpened(row):  # the sharp rating's where the play was rated again, else the 20x reference's
        again = sharp.get(_key(row))
        return (again["values"], again["se"]) if again else reference(row)

    out = {"coach": coach, "plays": len(rows)}
    for name, judge in (("reference", reference), ("sharpened", sharpened)):
        mistakes = false = missed = close = sure = sure_missed = 0
        for row in rows:
            values, se = judge(row)
            wrong, marked = _wrong(values, row["card"]), row[coach]["mistake"]
            mistakes += wrong
            false += marked and not wrong
            missed += wrong and not marked
            close += wrong and not marked and row[coach].get("close", False)
            if _sure(_ref_loss(values, row["card"]), se) == "mistake":
                sure += 1
                sure_missed += not marked
        out[name] = {"mistakes": mistakes, "false_alarms": false, "false_alarm_share": round(false / len(rows), 4),
                     "missed": missed, "missed_share": round(missed / mistakes, 4) if mistakes else None,
                     "missed_too_close": close, "called_sound": missed - close,
                     "called_sound_share": round((missed - close) / mistakes, 4) if mistakes else None,
                     "sure": sure, "sure_missed": sure_missed}
    disputes = [r for r in rows if r[coach]["mistake"] != _wrong(r["ref"], r["card"])]
    sides = [_wrong(sharp[_key(r)]["values"], r["card"]) == r[coach]["mistake"] for r in disputes if _key(r) in sharp]
    out["disputes"] = {"plays": len(disputes), "sharp_sides_with_coach": sum(sides),
                       "sharp_sides_with_reference": len(sides) - sum(sides)}
    return out


def _key(row) -> tuple:
    return (row["seed"], row["deal"], row["play"])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reports", nargs="+", type=Path, help="bench/out/coach_accuracy.json files")
    parser.add_argument("--coach", default="z1.0", help="the coach's row key in the reports (and 'old' always)")
    parser.add_argument("--band", type=float, default=0.2, help="rate again every play whose reference loss is "
                                                                 "this close to the half point")
    parser.add_argument("--factor", type=int, default=200, help="the sharp rating's guesses, as a multiple of "
                                                                  "the report's samples")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--reuse", type=Path, help="an earlier bench/out/coach_disputes.json: its sharp ratings "
                                                   "(same guesses) are taken, not worked out again")
    args = parser.parse_args(argv)
    rows, samples = [], set()
    for path in args.reports:
        report = json.loads(path.read_text())
        samples.add(report["samples"])
        for row in report["rows"]:
            if args.coach not in row:
                parser.error(f"{path} has no coach {args.coach!r} (its rows have {sorted(k for k in row if k[0] == 'z')})")
            rows.append({**row, "seed": report["seed"]})
    if len(samples) != 1:
        parser.error(f"the reports were made with different numbers of guesses: {sorted(samples)}")
    guesses = args.factor * samples.pop()
    near = [r for r in rows if abs(_ref_loss(r["ref"], r["card"]) - MISTAKE) < args.band
            or any(r[c]["mistake"] != _wrong(r["ref"], r["card"]) for c in ("old", args.coach))]
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores; "
          f"{len(rows)} plays, {len(near)} rated again with {guesses} guesses", flush=True)
    start = time.time()
    sharp = {}
    if args.reuse:
        earlier = json.loads(args.reuse.read_text())
        if earlier["guesses"] != guesses:
            parser.error(f"{args.reuse} rated with {earlier['guesses']} guesses, not {guesses}")
        wanted = {_key(r) for r in near}
        sharp = {_key(s): s for s in earlier["sharp"] if _key(s) in wanted}
        print(f"  {len(sharp)} sharp ratings taken from {args.reuse}", flush=True)
    jobs = [(r["seed"], r["deal"], r["play"], guesses) for r in near if _key(r) not in sharp]
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(max(1, args.jobs)) as pool:
        for done in pool.imap_unordered(_sharp, jobs):
            sharp[_key(done)] = done
            if len(sharp) % 10 == 0:
                print(f"  {len(sharp)} of {len(near)} ({time.time() - start:.0f} s)", flush=True)
    for row in near:  # the deal played again reached the same play
        assert sharp[_key(row)]["card"] == row["card"], (row, sharp[_key(row)])
    coaches = [summary(rows, sharp, c) for c in ("old", args.coach)]
    for s in coaches:
        for name in ("reference", "sharpened"):
            f = s[name]
            print(f"{s['coach']:>8} against the {name:>9}: false alarms {f['false_alarms']} ({f['false_alarm_share']:.1%} "
                  f"of {s['plays']}), missed {f['missed']} of {f['mistakes']} ({(f['missed_share'] or 0):.1%}: "
                  f"{f['missed_too_close']} said too close to call, {f['called_sound']} called sound, "
                  f"{(f['called_sound_share'] or 0):.1%}); of the {f['sure']} mistakes it is sure of "
                  f"(loss one standard error clear of the line), missed {f['sure_missed']}")
        d = s["disputes"]
        print(f"{'':>8} {d['plays']} disagreements with the 20x reference: the sharp rating sides with the coach on "
              f"{d['sharp_sides_with_coach']}, with the reference on {d['sharp_sides_with_reference']}")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "coach_disputes.json").write_text(json.dumps(
        {"reports": [str(p) for p in args.reports], "coach": args.coach, "band": args.band, "guesses": guesses,
         "load_average": [round(x, 2) for x in os.getloadavg()], "seconds": round(time.time() - start, 1),
         "coaches": coaches, "sharp": list(sharp.values())}, indent=1))
    print(f"wrote bench/out/coach_disputes.json; {time.time() - start:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
