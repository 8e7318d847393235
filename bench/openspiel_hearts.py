"""Time random play of OpenSpiel's ``hearts`` driven from Python: the yardstick of ``bench/speed.py``.

Plays complete games of ``pyspiel.load_game("hearts")`` back to back, every
decision taken at random from Python:

* chance nodes (pass direction, then the deal card by card): an outcome drawn
  from ``state.chance_outcomes()`` with its probability;
* player nodes (passing and trick play): ``rng.choice(state.legal_actions())``;

using one ``random.Random(seed)`` for both, until ``--seconds`` have passed,
after a short warm-up. Only complete games are counted, and the time reported
is the time those games took (the clock is read between games). It is
single-threaded: one core.

The figure is meant to sit next to calijack's own deals/second: both are
"a whole hand of a trick-taking game, played at random from Python".

OpenSpiel itself is imported only when this runs (the ``openspiel`` extra, which ``make``
installs with the test extra). Usage::

    python bench/openspiel_hearts.py [--seconds S] [--seed N] [--json]

With ``--json`` it prints one line::

    {"games": n, "seconds": t, "games_per_second": x, "open_spiel_version": "..."}

Exit status: 0 on success, 2 when ``pyspiel`` cannot be imported (a one-line
message on stderr) or on bad arguments.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

GAME_NAME = "hearts"
WARMUP_SECONDS = 0.5  # capped at a tenth of --seconds
EXIT_NO_OPENSPIEL = 2


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds: {text!r}")
    return value


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line's options."""
    parser = argparse.ArgumentParser(
        description="Time random play of OpenSpiel's hearts from Python (complete games per second)."
    )
    parser.add_argument("--seconds", type=_positive_float, default=5.0,
                        help="how long to time play for, after the warm-up (default: 5)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed for random.Random, used for chance and player moves (default: 0)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object instead of a readable line")
    return parser.parse_args(argv)


def import_pyspiel():
    """Return the pyspiel module, or exit 2 with a one-line message (no traceback)."""
    try:
        import pyspiel  # noqa: PLC0415 - optional dependency, imported on demand
    except Exception as exc:  # ImportError, or a broken binary wheel (OSError, ...)
        detail = f"{type(exc).__name__}: {exc}".replace("\n", " ")
        print(
            "openspiel_hearts: cannot import pyspiel (OpenSpiel's Python module): "
            f"{detail}; install it with 'pip install open_spiel==2.0.2' "
            "(in a source checkout: make env, or pip install '.[openspiel]')",
            file=sys.stderr,
        )
        sys.exit(EXIT_NO_OPENSPIEL)
    return pyspiel


def open_spiel_version(pyspiel) -> str:
    """The installed OpenSpiel's version."""
    try:
        from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415
        try:
            return version("open_spiel")
        except PackageNotFoundError:
            pass
    except ImportError:
        pass
    return str(getattr(pyspiel, "__version__", "unknown"))


def play_game(game, rng: random.Random) -> None:
    """Play one complete game with random chance outcomes and random legal actions."""
    state = game.new_initial_state()
    random_ = rng.random
    choice = rng.choice
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            # Draw an outcome with its probability (hearts' are uniform, but do not rely on it).
            u = random_()
            action = outcomes[-1][0]  # guards against probabilities summing to just under 1
            for outcome, prob in outcomes:
                u -= prob
                if u < 0.0:
                    action = outcome
                    break
        else:
            action = choice(state.legal_actions())
        state.apply_action(action)


def run(game, rng: random.Random, seconds: float) -> tuple[int, float]:
    """Play complete games until `seconds` have passed; return (games, elapsed seconds)."""
    clock = time.perf_counter
    games = 0
    start = clock()
    elapsed = 0.0
    while elapsed < seconds:
        play_game(game, rng)
        games += 1
        elapsed = clock() - start
    return games, elapsed


def main(argv: list[str] | None = None) -> int:
    """Time the games and print the rate; the exit status."""
    args = parse_args(argv)
    pyspiel = import_pyspiel()
    game = pyspiel.load_game(GAME_NAME)
    rng = random.Random(args.seed)

    run(game, rng, min(WARMUP_SECONDS, args.seconds / 10))  # warm-up, not counted
    games, elapsed = run(game, rng, args.seconds)
    rate = games / elapsed

    result = {
        "games": games,
        "seconds": round(elapsed, 6),
        "games_per_second": round(rate, 3),
        "open_spiel_version": open_spiel_version(pyspiel),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"OpenSpiel {result['open_spiel_version']} {GAME_NAME}, random play from Python: "
            f"{games} games in {elapsed:.3f} s = {rate:,.1f} games/s "
            f"({1e3 / rate:.3f} ms/game, seed {args.seed}, 1 core)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
