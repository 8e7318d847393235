"""Engine test helpers, offered as session fixtures (a conftest cannot be imported by name).

Only engine helpers live here; the browser tests keep their own conftest in ``tests/browser``.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from calijack import DECK, STANDARD, Card, Deal, Rules, State, Suit, core
from calijack.cards import cards_of, parse_card

ROOT = Path(__file__).resolve().parent.parent

# One rule set per option value that differs from the standard profile, plus the standard
# profile and a three-handed game with every other option switched as well.
OPTION_RULES = {
    "standard": STANDARD,
    "void_any": Rules(void_duty="any"),
    "held": Rules(high_low="held"),
    "ten_of_trumps": Rules(game="ten_of_trumps"),
    "target7": Rules(target=7),
    "closed": Rules(stock="closed"),
    "turned_jack": Rules(turned_jack=True),
    "shasta": Rules(shasta_point=True),
    "cut": Rules(trump_from="cut"),
    "three": Rules(players=3),
    "three_all": Rules(players=3, void_duty="any", high_low="held", stock="closed",
                       turned_jack=True, shasta_point=True, trump_from="cut", target=5),
}


def make_deal(hands, top=(), dealer: int = 0, rules: Rules = STANDARD, trump=None) -> Deal:
    """A deal from the hands (strings) and the stock's top cards; the rest of the stock follows in index order."""
    used = {parse_card(c) for h in hands for c in h} | {parse_card(c) for c in top}
    stock = [parse_card(c) for c in top] + [c for c in DECK if c not in used]
    return Deal.from_cards(hands, stock, dealer, rules, trump)


def seeded_deal(rng, rules: Rules = STANDARD, dealer: int = 0) -> Deal:
    """A deal shuffled by :func:`core.shuffle`, consuming ``rng`` exactly as the fast path does."""
    _, hands, stock, trump = core.shuffle(rng, rules)
    return Deal(rules, dealer, tuple(tuple(DECK[i] for i in h) for h in hands),
                tuple(DECK[i] for i in stock), Suit(trump))


def play_random(state: State, rng, plays: int | None = None) -> State:
    """Play uniformly random legal cards (the fast path's choice rule) until done or ``plays`` made."""
    made = 0
    while not state.finished and (plays is None or made < plays):
        legal = cards_of(state.legal_mask())
        state = state.play(legal[core.pick(rng, len(legal))])
        made += 1
    return state


def random_position(rules: Rules, seed: int, plays: int) -> State:
    """A deal shuffled from ``random.Random(seed)`` and played at random for ``plays`` cards
    (each ``legal[int(rng.random() * len(legal))]``): the positions the search and review tests solve.

    Not :func:`play_random`: it picks from ``legal_cards()`` (trumps first), not index order,
    and tests pin seeds to the positions this order gives (e.g. a follower overtaking)."""
    rng = random.Random(seed)
    state = Deal.random(rng, rules).start()
    for _ in range(plays):
        legal = state.legal_cards()
        state = state.play(legal[int(rng.random() * len(legal))])
    return state


def seeded_game(rng, rules: Rules = STANDARD, dealer: int = 0) -> State:
    """A whole deal dealt and played from ``rng`` the way ``fast.random_deal`` does it."""
    return play_random(seeded_deal(rng, rules, dealer).start(), rng)


def play_first_legal(state: State) -> State:
    """Play the first legal card (index order) until the deal is over."""
    while not state.finished:
        state = state.play(cards_of(state.legal_mask())[0])
    return state


def run_cli(*args: str, env=None) -> subprocess.CompletedProcess:
    """``python -m calijack ARGS`` in a subprocess."""
    return subprocess.run([sys.executable, "-m", "calijack", *map(str, args)], capture_output=True,
                          text=True, encoding="utf-8", cwd=ROOT, env=env, timeout=120)


def write_record(directory: Path, record, name: str = "record.json") -> Path:
    """Write a record (a dict, or raw text) to a file and return its path."""
    path = Path(directory) / name
    path.write_text(record if isinstance(record, str) else json.dumps(record), encoding="utf-8")
    return path


def cards(text: str) -> list[Card]:
    """Cards from a space-separated string: ``cards("JH 10C")``."""
    return [parse_card(c) for c in text.split()]


def pytest_generate_tests(metafunc):
    """A test taking ``option_rules`` runs once per entry of ``OPTION_RULES``."""
    if "option_rules" in metafunc.fixturenames:
        metafunc.parametrize("option_rules", list(OPTION_RULES.values()), ids=list(OPTION_RULES))


@pytest.fixture(scope="session")
def eng() -> SimpleNamespace:
    """The helpers above, for tests and hypothesis properties alike (session scope)."""
    return SimpleNamespace(make_deal=make_deal, seeded_deal=seeded_deal, play_random=play_random,
                           seeded_game=seeded_game, play_first_legal=play_first_legal,
                           random_position=random_position,
                           run_cli=run_cli, write_record=write_record, cards=cards,
                           OPTION_RULES=OPTION_RULES, ROOT=ROOT)
