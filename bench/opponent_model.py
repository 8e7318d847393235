"""How well the Expert's opponent model fits OpenSpiel's ISMCTS; prints numbers.

    nice -n 19 .venv/bin/python bench/opponent_model.py [--deals 3] [--sims 300]

The Expert weighs its guesses by how likely the opponent's plays were under a model
(:mod:`calijack.players.inference`: the rules of thumb with a share of random plays). Deal
``i`` (``Deal.random(random.Random(f"agree/{i}"), dealer=i % 2)``) is played by the Expert in
seat ``i % 2`` against ISMCTS (bot seed ``1000 + i``). At each ISMCTS play with more than one
legal card it prints whether the rules of thumb, holding ISMCTS's real hand, would have played
the same card; then the log-likelihood of all those plays under each share of random plays
(share 1: a player at random). The share with the highest log-likelihood fits best. Needs
OpenSpiel, as ``ismcts_reference.py``.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from calijack import Deal  # noqa: E402
from calijack.players import get_player  # noqa: E402
from calijack.players.heuristic import HeuristicPlayer  # noqa: E402


def main(argv=None) -> int:
    import pyspiel

    from calijack import openspiel_game as og

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--sims", type=int, default=300)
    args = parser.parse_args(argv)
    game = pyspiel.load_game(og.GAME_NAME)
    plays = []  # (the rule of thumb's card, number of legal cards)
    for i in range(args.deals):
        deal = Deal.random(random.Random(f"agree/{i}"), dealer=i % 2)
        seat = i % 2
        ours, rng = get_player("expert"), random.Random(i)
        bot = og.ismcts_bot(game, args.sims, seed=1000 + i)
        state = game.state_of(deal.start())
        while not state.is_terminal():
            to_play, choices = state.current_player(), len(state.legal_actions())
            if to_play == seat:
                action = ours.choose(state.engine.view(seat), rng).card.index
            else:
                action = bot.step(state)
                if choices > 1:
                    model = HeuristicPlayer().choose(state.engine.view(to_play), rng).card.index
                    plays.append((bool(action == model), int(choices)))
            state.apply_action(action)
    hits = sum(hit for hit, _ in plays)
    chance = sum(1 / n for _, n in plays)
    print(f"ISMCTS-{args.sims}, {args.deals} deals: {hits} of {len(plays)} choices are the rule of thumb's card "
          f"({hits / len(plays):.0%}; picking at random would give {chance:.1f}); "
          f"{sum(n for _, n in plays) / len(plays):.1f} legal cards a choice; load average {os.getloadavg()[0]:.1f}")
    for noise in (0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9, 1.0):
        loglik = sum(math.log((1 - noise if hit else 0.0) + noise / n) for hit, n in plays)
        print(f"  share of random plays {noise:.1f}: log-likelihood {loglik:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
