"""The Expert's decisions, recorded and compared: a speed-up must not change one (not a test).

    .venv/bin/python bench/expert_decisions.py --record out.json [--deals 8] [--profile]
    .venv/bin/python bench/expert_decisions.py --check out.json

Plays seeded deals of Expert (seat 1) against Strong (seat 0): ``Deal.random(seed)`` for seeds
1, 2, … under the standard rules, then one deal with the closed stock and one three-handed
(Expert in seat 1 against two Strongs), so the guesses meet every kind of hidden card. For each
of the Expert's decisions it keeps the card, the search's ``last_stats`` (its mode, guesses
made, each legal card's value, exactly: ``repr`` of the floats) and the processor time.
``--check`` replays the same deals and reports the first decision that differs in anything
but time, and the ratio of processor time (recorded over checked: > 1 is faster now). Only the
Expert's decisions are compared; Strong's follow from them, so a changed Expert card
changes the rest of the deal too. ``--profile`` prints cProfile's top functions.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from calijack import Deal, Rules  # noqa: E402
from calijack.players import get_player  # noqa: E402

VARIANTS = ({"stock": "closed"}, {"players": 3})


def _deals(count: int):
    for seed in range(1, count + 1):
        yield f"standard/{seed}", Deal.random(seed)
    for options in VARIANTS:
        rules = Rules.from_dict(options)
        yield "/".join(f"{k}={v}" for k, v in options.items()), Deal.random(101, rules)


def play(count: int, options: dict) -> list[dict]:
    """The Expert's decisions over the deals, in order (with processor seconds under ``"cpu"``)."""
    out = []
    for label, deal in _deals(count):
        n = deal.rules.players
        players = [get_player("strong") for _ in range(n)]
        players[1] = expert = get_player("expert", **options)
        rng = random.Random(label)
        state = deal.start()
        while not state.finished:
            seat = state.to_play
            view = state.view(seat)
            cpu = time.process_time()
            decision = players[seat].choose(view, rng)
            cpu = time.process_time() - cpu
            if seat == 1 and len(view.legal) > 1:
                stats = expert.last_stats
                out.append({"deal": label, "play": len(state.plays), "card": decision.card.code,
                            "reason": decision.reason, "mode": stats.get("mode"), "worlds": stats.get("worlds"),
                            "values": {c: repr(v) for c, v in stats.get("values", {}).items()}, "cpu": cpu})
            state = state.play(decision.card)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--record", type=Path)
    group.add_argument("--check", type=Path)
    parser.add_argument("--deals", type=int, default=8, help="standard deals (two variant deals follow)")
    parser.add_argument("--options", default="{}", help="the Expert's options as JSON")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    options = json.loads(args.options)
    if args.check:
        recorded = json.loads(args.check.read_text())
        count, options = recorded["deals"], recorded["options"]
    else:
        count = args.deals
    if args.profile:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        decisions = profiler.runcall(play, count, options)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
    else:
        decisions = play(count, options)
    cpu = sum(d["cpu"] for d in decisions)
    if args.record:
        args.record.write_text(json.dumps({"deals": count, "options": options, "decisions": decisions}, indent=0))
        print(f"recorded {len(decisions)} decisions, {cpu:.2f} s of processor time")
        return 0
    old = recorded["decisions"]
    strip = [{k: v for k, v in d.items() if k != "cpu"} for d in old]
    for i, (was, now) in enumerate(zip(strip, decisions)):
        now = {k: v for k, v in now.items() if k != "cpu"}
        if was != now:
            print(f"decision {i} differs ({was['deal']}, play {was['play']}):\n  was {was}\n  now {now}")
            return 1
    if len(old) != len(decisions):
        print(f"{len(old)} decisions recorded, {len(decisions)} now")
        return 1
    was_cpu = sum(d["cpu"] for d in old)
    print(f"all {len(decisions)} decisions identical; processor time {was_cpu:.2f} s recorded, {cpu:.2f} s now "
          f"(ratio {was_cpu / cpu:.2f}, from separate runs: compare in one run for a speed-up)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
