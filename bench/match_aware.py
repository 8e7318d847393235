"""Does playing for the match beat playing for the deal? Matches to 10, search against search.

    .venv/bin/python bench/match_aware.py [--pairs 300] [--jobs 2] [--samples 20] [--seed 0]

A (``SearchPlayer(match_aware=True)``) against B (``match_aware=False``, the default: the search
as it was), both with ``--samples`` guesses per decision. The two only differ once a seat could
reach the target in a deal; until then they choose the same cards from the same generators. So
each match number is played as a **pair**: the shared start once (both seats B), then from the
first deal near the target, twice: once with A in seat 0, once with A in seat 1. Every deal's
cards come from a generator seeded by the match and the deal's number, and every deal's
decisions from another, so both halves of a pair see the same cards.

Prints, as it goes and at the end: A's share of the matches won with its 95% Wilson interval,
the pairs A won twice or lost twice (the only ones that tell the two apart) with a sign test,
and the processor time. ``--game-ties`` also measures how often card values tie at 40-40 in
heuristic deals (the equity table's one figure, ``calijack.players.equity.GAME_TIE``).
Writes ``bench/out/match_aware.json`` (git-ignored).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from calijack import Deal, Match, Rules  # noqa: E402
from calijack.players import SearchPlayer, get_player, play_deal  # noqa: E402
from calijack.players.equity import near_target  # noqa: E402
from calijack.simulate import wilson  # noqa: E402

OUT = ROOT / "bench" / "out"


def _deal(seed: int, match_no: int, number: int, match: Match) -> Deal:
    return Deal.random(random.Random(f"{seed}/{match_no}/cards/{number}"), match.rules, match.dealer())


def _finish(match: Match, players, seed: int, match_no: int, number: int) -> tuple[Match, int]:
    """Play deals from ``number`` on until the match is won; the match and the deals played."""
    while not match.finished:
        deal = _deal(seed, match_no, number, match)
        rng = random.Random(f"{seed}/{match_no}/play/{number}")
        state = play_deal(deal, players, rng, scores=match.scores)
        match = match.add(state.result())
        number += 1
    return match, number


def play_pair(job) -> dict:
    """One match number: the shared start, then both halves from the first deal near the target."""
    seed, match_no, samples = job
    rules = Rules()
    begin = time.process_time()
    base = SearchPlayer(samples=samples, match_aware=False)
    aware = SearchPlayer(samples=samples, match_aware=True)
    match = Match(rules, random.Random(f"{seed}/{match_no}").randrange(2))
    number = 0
    while not near_target(rules, match.scores):
        deal = _deal(seed, match_no, number, match)
        state = play_deal(deal, [base, base], random.Random(f"{seed}/{match_no}/play/{number}"),
                          scores=match.scores)
        match = match.add(state.result())
        number += 1
    shared = number
    results = []
    for seat in (0, 1):
        players = [aware, base] if seat == 0 else [base, aware]
        end, deals = _finish(match, players, seed, match_no, number)
        results.append({"aware_seat": seat, "aware_won": end.winner == seat, "deals": deals,
                        "scores": list(end.scores)})
    return {"match": match_no, "shared_deals": shared, "branch_scores": list(match.scores),
            "halves": results, "cpu": time.process_time() - begin}


def game_ties(deals: int = 2000) -> tuple[float, float, float]:
    """How often card values tie at 40-40 between two heuristic players, with its 95% interval."""
    heuristic = get_player("heuristic")
    ties = 0
    for k in range(deals):
        state = play_deal(Deal.random(random.Random(f"ties/{k}")), [heuristic, heuristic], random.Random(k))
        ties += state.result().pips[0] == 40
    low, high = wilson(ties, deals)
    return ties / deals, low, high


def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact sign test: the chance of a split this uneven if A and B were equal."""
    n = wins + losses
    if n == 0:
        return 1.0
    k = min(wins, losses)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def summary(pairs: list[dict]) -> dict:
    """A's wins over all matches, with the Wilson interval, and the pairs that tell A and B apart."""
    matches = 2 * len(pairs)
    won = sum(h["aware_won"] for p in pairs for h in p["halves"])
    both = sum(all(h["aware_won"] for h in p["halves"]) for p in pairs)
    neither = sum(not any(h["aware_won"] for h in p["halves"]) for p in pairs)
    low, high = wilson(won, matches)
    return {"matches": matches, "aware_wins": won, "win_rate": won / matches if matches else None,
            "interval": [low, high], "pairs": len(pairs), "pairs_won_twice": both,
            "pairs_lost_twice": neither, "sign_test_p": sign_test(both, neither),
            "cpu_seconds": sum(p["cpu"] for p in pairs)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game-ties", action="store_true")
    args = parser.parse_args(argv)
    OUT.mkdir(exist_ok=True)
    if args.game_ties:
        share, low, high = game_ties()
        print(f"Game tied at 40-40 in {share:.1%} of heuristic deals (95% interval {low:.1%} to {high:.1%})")
    pairs = []
    jobs = [(args.seed, k, args.samples) for k in range(args.pairs)]
    with ProcessPoolExecutor(args.jobs) as pool:
        for pair in pool.map(play_pair, jobs):
            pairs.append(pair)
            if len(pairs) % 10 == 0 or len(pairs) == args.pairs:
                s = summary(pairs)
                print(f"{s['matches']} matches: match-aware won {s['aware_wins']} = {s['win_rate']:.1%} "
                      f"(95% interval {s['interval'][0]:.1%} to {s['interval'][1]:.1%}); pairs won twice "
                      f"{s['pairs_won_twice']}, lost twice {s['pairs_lost_twice']} (sign test p = "
                      f"{s['sign_test_p']:.2f}); {s['cpu_seconds']:.0f} s of processor time", flush=True)
                (OUT / "match_aware.json").write_text(json.dumps({"summary": s, "pairs": pairs}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
