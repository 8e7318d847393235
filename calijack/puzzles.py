"""Practice puzzles: positions from simulated deals where one card is clearly best.

A puzzle is a position of a deal played by two heuristic players from a seed, at a moment
where one legal card is **clearly best** for the seat to play:

- **exact** (two players, the stock gone): by at least one match point over every other card;
- **estimated**: over ``samples`` worlds seen from that seat only, the 95% interval of the best
  card's value minus each other card's lies above :data:`CLEAR` (paired over the same worlds),
  on two independent sets of worlds.

Puzzles are graded by stage (:data:`calijack.text_coach.STAGES`): the opening (the exposed
card: fight or let it go?), the middle, the last draws, and the endgame (exact).

The list lives in ``calijack/data/puzzles.json``, written by this module's script and checked
by it, by the test suite and by the Practice chapter's hidden asserts::

    python -m calijack.puzzles find [--per-stage 6] [--first-seed 0]   # search seeds, write the file
    python -m calijack.puzzles find --stage endgame --file part.json    # one stage (stages are independent)
    python -m calijack.puzzles check                                    # re-check every puzzle
    python -m calijack.puzzles freeze                                   # keep the engine's ratings anew

The file also keeps each puzzle's rating (every card's value and what it leads to), so a
lesson shows a puzzle at once, even in the browser; every check recomputes the rating and
compares it with the stored one, exactly.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path

from .cards import parse_card
from .players import get_player
from .records import deal_record, read_record
from .review import Outcome, Rating, exact_position, rate
from .state import Deal, State

__all__ = ["Puzzle", "STAGE_TRICKS", "SAMPLES", "CLEAR", "PATH", "load", "check", "find", "derive", "freeze",
           "clear_answer", "theme"]

PATH = Path(__file__).resolve().parent / "data" / "puzzles.json"
STAGE_TRICKS = {"opening": (1, 6), "middle": (7, 15), "last_draws": (16, 20), "endgame": (21, 26)}
"""The tricks each stage draws its positions from (the endgame: the stock gone, every card known)."""
SAMPLES = 300
"""Worlds per estimated puzzle."""
CLEAR = 0.15
"""The least margin (match points) the lower end of an estimated answer's interval must clear."""
SCREEN = 40  # worlds for the first, cheap look at a candidate position


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: where it comes from, its position (a deal record), and its answer."""

    number: int
    stage: str
    seed: int              # the deal: Deal.random(seed), played by two heuristic players
    plays: int             # cards played before the position
    record: dict           # the deal record up to the position
    answer: str            # the clearly best card's code
    samples: int | None    # worlds for an estimated puzzle (None: exact)
    sample_seed: int       # the worlds' seed
    stored: dict | None = None  # the rating as the file keeps it (see :func:`freeze`)

    @property
    def state(self) -> State:
        """The position (read from its record, so every card and play is checked)."""
        return read_record(self.record)

    @property
    def exact(self) -> bool:
        """True when the answer's values are exact (the endgame)."""
        return self.samples is None

    def rating(self, sample_seed: int | None = None) -> Rating:
        """Every legal card's value (with the puzzle's worlds, or other ones from ``sample_seed``)."""
        seed = self.sample_seed if sample_seed is None else sample_seed
        return rate(self.state, self.samples or 2, random.Random(f"puzzle/{seed}"))

    def stored_rating(self) -> Rating:
        """The rating kept in the file (no sampling: instant); :func:`check` vouches for it."""
        if self.stored is None:
            raise ValueError(f"puzzle {self.number} keeps no rating: run 'python -m calijack.puzzles find'")
        state = self.state
        values = {parse_card(code): value for code, value in self.stored["values"].items()}
        outcomes = {parse_card(code): Outcome(o["wins_trick"], {k: tuple(v) for k, v in o["points"].items()})
                    for code, o in self.stored["outcomes"].items()}
        return Rating(state.to_play, self.exact, self.samples, values, outcomes, not state.trick, state.stock_top)

    def to_json(self) -> dict:
        """The puzzle as the data file stores it."""
        return {"number": self.number, "stage": self.stage, "seed": self.seed, "plays": self.plays,
                "answer": self.answer, "samples": self.samples, "sample_seed": self.sample_seed,
                "record": self.record, "stored": self.stored}


def freeze(rating: Rating) -> dict:
    """A rating as the data file keeps it (values and outcomes by card code)."""
    return {"values": {c.code: v for c, v in rating.values.items()},
            "outcomes": {c.code: {"wins_trick": o.wins_trick, "points": {k: list(v) for k, v in o.points.items()}}
                         for c, o in rating.outcomes.items()}}


def clear_answer(rating: Rating) -> str | None:
    """The code of the clearly best card of a rating, or ``None`` if no card is clearly best."""
    values = rating.values
    if len(values) < 2:
        return None
    best = max(values, key=lambda c: (values[c], -c.index))
    others = [c for c in values if c != best]
    if rating.exact:
        return best.code if all(values[best] - values[c] >= 1 for c in others) else None
    if all(rating.margin(best, c)[0] > CLEAR for c in others):
        return best.code
    return None


def check(puzzle: Puzzle, sample_seed: int | None = None) -> tuple[bool, str]:
    """Whether the puzzle's answer is still clearly best, and a line saying so (or what is wrong)."""
    state = puzzle.state
    if len(state.plays) != puzzle.plays:
        return False, f"puzzle {puzzle.number}: the record has {len(state.plays)} plays, not {puzzle.plays}"
    if exact_position(state) != puzzle.exact:
        return False, f"puzzle {puzzle.number}: exact is {exact_position(state)}, the file says {puzzle.exact}"
    rating = puzzle.rating(sample_seed)
    found = clear_answer(rating)
    if found != puzzle.answer:
        return False, f"puzzle {puzzle.number}: the clearly best card is {found}, not {puzzle.answer}"
    if sample_seed is None and puzzle.stored is not None and freeze(rating) != puzzle.stored:
        return False, f"puzzle {puzzle.number}: the values kept in the file differ from the engine's"
    return True, f"puzzle {puzzle.number} ({puzzle.stage}): {puzzle.answer} is clearly best"


def load(path: Path | str = PATH) -> list[Puzzle]:
    """The puzzles of the data file, in order (graded from the opening to the endgame)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return [Puzzle(p["number"], p["stage"], p["seed"], p["plays"], p["record"], p["answer"], p["samples"],
                   p["sample_seed"], p.get("stored")) for p in data["puzzles"]]


def _deal_for(seed: int) -> Deal:
    return Deal.random(random.Random(f"practice/{seed}"))


def derive(seed: int, plays: int) -> State:
    """The position after ``plays`` cards of seed ``seed``'s deal, played by two heuristic players."""
    heuristic = get_player("heuristic")
    state = _deal_for(seed).start()
    rng = random.Random(f"practice/{seed}/play")
    while len(state.plays) < plays:
        state = state.play(heuristic.choose(state.view(state.to_play), rng).card)
    return state


def from_its_seed(puzzle: Puzzle) -> bool:
    """Whether the puzzle's record deals the cards of its seed's deal (:func:`derive`'s).

    The plays up to the position are the record's own: the heuristic players made them when
    the puzzle was found, and a later change to those players (``lead_master``, issue 33) must
    not move a puzzle a learner has already solved.
    """
    dealt = deal_record(_deal_for(puzzle.seed).start())
    return {**puzzle.record, "plays": []} == dealt and len(puzzle.record["plays"]) == puzzle.plays


def theme(state: State, rating: Rating, answer: str) -> str:
    """What a puzzle turns on, against the runner-up: "fight" (the answer wins the trick, the
    runner-up does not), "let_go" (the other way round), or "count" (the trick goes the same
    way: what counts is which card you keep)."""
    best = parse_card(answer)
    values = rating.values
    runner = max((c for c in values if c != best), key=lambda c: (values[c], -c.index))
    gap = rating.outcomes[best].wins_trick - rating.outcomes[runner].wins_trick
    return "fight" if gap >= 0.5 else "let_go" if gap <= -0.5 else "count"


# How many puzzles of each theme a stage wants (the rest: any theme), so that the chapter
# does not ask the same question six times.
WANTED = {"opening": {"fight": 3, "let_go": 2}, "middle": {"count": 2}, "last_draws": {}, "endgame": {}}
SEED_BUDGET = 600  # seeds tried for a stage before its wanted themes are given up


def _fits(stage: str, state: State, rating: Rating, answer: str, found: list, seeds_tried: int,
          per_stage: int) -> bool:
    """The stage's own idea (the opening: the exposed card), and variety inside the stage."""
    kind = theme(state, rating, answer)
    if stage == "opening" and (state.stock_top is None or kind == "count"):
        return False
    mine = [(p_kind, p_card) for p_stage, p_kind, p_card in found if p_stage == stage]
    card = parse_card(answer)
    if sum(1 for _, c in mine if c == (card.rank, card.suit == state.trump)) >= 2:
        return False  # the trump ace three times is one lesson, not three
    if seeds_tried > SEED_BUDGET:
        return True
    wanted = WANTED[stage]
    have = {k: sum(1 for p_kind, _ in mine if p_kind == k) for k in wanted}
    free = per_stage - len(mine) - sum(max(0, n - have[k]) for k, n in wanted.items())
    return (kind in wanted and have[kind] < wanted[kind]) or free > 0


def _candidates(seed: int, stage: str):
    first, last = STAGE_TRICKS[stage]
    state = derive(seed, 0)
    heuristic = get_player("heuristic")
    rng = random.Random(f"practice/{seed}/play")
    while not state.finished and state.trick_number <= last:
        if state.trick_number >= first and len(state.legal_cards()) > 1:
            yield state
        state = state.play(heuristic.choose(state.view(state.to_play), rng).card)


def find(per_stage: int = 6, first_seed: int = 0, say=print, stages=None) -> list[Puzzle]:
    """Search seeds from ``first_seed`` until each stage (of ``stages``, default all) has
    ``per_stage`` puzzles, one per deal.

    Each stage's search depends on nothing but its own puzzles, so stages can be found in
    separate processes (``--stage``) and put together in stage order: the same list.
    """
    puzzles: list[Puzzle] = []
    kinds: list[tuple] = []  # (stage, theme, (rank, is trump)) of each puzzle found
    for stage in stages or STAGE_TRICKS:
        found = 0
        seed = first_seed
        while found < per_stage:
            seed += 1
            if (seed - first_seed) % 100 == 0:
                say(f"{stage}: {found} found in {seed - first_seed} seeds")
            for state in _candidates(seed, stage):
                sample_seed = seed * 100 + len(state.plays)
                exact = exact_position(state)
                if not exact:
                    screen = rate(state, SCREEN, random.Random(f"screen/{sample_seed}"))
                    best = max(screen.values.values())
                    if sorted(screen.values.values())[-2] > best - 0.4:
                        continue
                    # A first look at the theme too: the full rating is the costly part.
                    guess = max(screen.values, key=lambda c: (screen.values[c], -c.index)).code
                    if not _fits(stage, state, screen, guess, kinds, seed - first_seed, per_stage):
                        continue
                plays = len(state.plays)
                puzzle = Puzzle(len(puzzles) + 1, stage, seed, plays, deal_record(state), "",
                                None if exact else SAMPLES, sample_seed)
                rating = puzzle.rating()
                answer = clear_answer(rating)
                if answer is None or not _fits(stage, state, rating, answer, kinds, seed - first_seed,
                                               per_stage):
                    continue
                puzzle = Puzzle(puzzle.number, stage, seed, plays, puzzle.record, answer, puzzle.samples,
                                sample_seed, freeze(rating))
                # Estimated answers must hold on a second, independent set of worlds too.
                if not exact and not check(puzzle, sample_seed + 10 ** 6)[0]:
                    continue
                puzzles.append(puzzle)
                card = parse_card(answer)
                kinds.append((stage, theme(state, rating, answer), (card.rank, card.suit == state.trump)))
                found += 1
                say(f"{stage}: seed {seed}, after {plays} plays, {answer} is clearly best ({kinds[-1][1]})")
                break
    return puzzles


def main(argv=None) -> int:
    """``python -m calijack.puzzles find|check``."""
    parser = argparse.ArgumentParser(prog="python -m calijack.puzzles", description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("find", "check", "freeze"))
    parser.add_argument("--per-stage", type=int, default=6)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--file", default=str(PATH))
    parser.add_argument("--stage", action="append", choices=tuple(STAGE_TRICKS),
                        help="find only this stage's puzzles (repeatable; default: every stage)")
    args = parser.parse_args(argv)
    if args.command == "find":
        puzzles = find(args.per_stage, args.first_seed, stages=args.stage)
        Path(args.file).parent.mkdir(parents=True, exist_ok=True)
        Path(args.file).write_text(json.dumps({"puzzles": [p.to_json() for p in puzzles]}, indent=1) + "\n",
                                   encoding="utf-8")
        print(f"wrote {len(puzzles)} puzzles to {args.file}")
        return 0
    if args.command == "freeze":  # recompute the kept ratings of an existing file
        puzzles = [Puzzle(p.number, p.stage, p.seed, p.plays, p.record, p.answer, p.samples, p.sample_seed,
                          freeze(p.rating())) for p in load(args.file)]
        Path(args.file).write_text(json.dumps({"puzzles": [p.to_json() for p in puzzles]}, indent=1) + "\n",
                                   encoding="utf-8")
        print(f"kept the ratings of {len(puzzles)} puzzles in {args.file}")
        return 0
    failures = 0
    for puzzle in load(args.file):
        ok, line = check(puzzle)
        if not from_its_seed(puzzle):
            ok, line = False, f"puzzle {puzzle.number}: its record does not deal seed {puzzle.seed}'s cards"
        failures += not ok
        print(("ok   " if ok else "FAIL ") + line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
