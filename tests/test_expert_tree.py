"""Issue 33: the Expert's tree search (``tree=True``, :mod:`calijack.players.ismcts`): reproducible from
the seed, only legal cards in every guess, the counted budget kept, and an obviously winning card found."""

from __future__ import annotations

import random

import pytest

from calijack import Deal, core
from calijack.cards import DECK
from calijack.players import expert, ismcts
from calijack.players.solver import Solver
from calijack.players.worlds import sample


def _position(seed: int, steps: int):
    """The view of the seat to play after ``steps`` plays of deal ``seed``, each card drawn by a seeded choice."""
    state = Deal.random(random.Random(seed)).start()
    for step in range(steps):
        legal = state.legal_cards()
        state = state.play(legal[random.Random(seed * 100 + step).randrange(len(legal))])
    return state.view(state.to_play)


def _early(min_legal: int = 3):
    """A seeded position early in the stock with at least ``min_legal`` legal cards."""
    for steps in range(0, 12):
        view = _position(7, steps)
        if len(view.legal) >= min_legal and view.stock_count > 10:
            return view
    raise AssertionError("no position found")


def test_tree_is_off_by_default_and_bad_values_are_refused():
    assert expert.ExpertPlayer().tree is False
    for bad in (-1, True, "2"):
        with pytest.raises(ValueError, match="uct_c must be a number"):
            expert.ExpertPlayer(tree=True, uct_c=bad)
    for bad in (0, 1.5, True):
        with pytest.raises(ValueError, match="tree_guesses must be a whole number"):
            expert.ExpertPlayer(tree=True, tree_guesses=bad)
    with pytest.raises(ValueError, match="tree cannot be combined"):
        expert.ExpertPlayer(tree=True, halving=True)


@pytest.mark.parametrize("paired", [False, True])
def test_two_runs_from_the_same_seed_choose_the_same_card_with_the_same_figures(paired):
    view = _early()
    runs = []
    for _ in range(2):
        player = expert.ExpertPlayer(tree=True, budget=3000, tree_paired=paired)
        decision = player.choose(view, random.Random(11))
        runs.append((decision, player.last_stats))
    assert runs[0] == runs[1]
    assert runs[0][1]["mode"] == "tree" and sum(runs[0][1]["visits"].values()) > 0


@pytest.mark.parametrize("paired", [False, True])
def test_the_tree_only_ever_plays_a_card_legal_in_its_guess(monkeypatch, paired):
    played = []
    original = core.play_card

    def checked(card, hands, trick, leader, trump, *rest):  # every play of a world or a rollout comes here
        hand = hands[core.play_order(leader, len(hands))[len(trick)]]
        assert core.legal_mask(hand, trick[0] if trick else -1, trump, False) >> card & 1, f"{DECK[card]} is not legal here"
        played.append(card)
        return original(card, hands, trick, leader, trump, *rest)

    monkeypatch.setattr(core, "play_card", checked)
    view = _early()
    decision = expert.ExpertPlayer(tree=True, budget=2000, tree_paired=paired).choose(view, random.Random(3))
    assert decision.card in view.legal
    assert len(played) > 1000  # the tree and its rollouts did play, every card checked


@pytest.mark.parametrize("paired", [False, True])
def test_the_budget_is_counted_not_timed(paired):
    view = _early()
    moves = [c.index for c in view.legal]
    cards_left = sum(view.hand_sizes) + view.stock_count
    # One iteration costs at most a walk and a rollout (for every root card when paired).
    most = (1 + ismcts.STEP_COST) * cards_left * (len(moves) if paired else 1)
    fewest = ismcts.MIN_ITERATIONS // 4 if paired else ismcts.MIN_ITERATIONS
    small = ismcts.search(view, view.seat, moves, moves[0], random.Random(5), 8000, 0.1, paired=paired)[1]
    large = ismcts.search(view, view.seat, moves, moves[0], random.Random(5), 16000, 0.1, paired=paired)[1]
    for budget, stats in ((8000, small), (16000, large)):
        # It stops at the first iteration that reaches the budget: one iteration's cost at most past it.
        assert budget <= stats["spent"] <= budget + most
        tries = stats["iterations"] * (len(moves) if paired else 1)
        assert sum(stats["visits"].values()) == tries and stats["iterations"] >= fewest
    assert large["iterations"] > 2 * small["iterations"]
    tiny = ismcts.search(view, view.seat, moves, moves[0], random.Random(5), 1, 0.1, paired=paired)[1]
    assert tiny["iterations"] == fewest  # at least this many, whatever the budget


@pytest.mark.parametrize("paired", [False, True])
def test_it_finds_the_card_that_wins_in_every_guess(paired):
    # Deal 5 after 38 plays, two cards left in the stock: solved exactly, one card beats every
    # other by at least 3 match points in each guess tried (checked here on a few).
    view = _position(5, 38)
    assert view.stock_count == 2 and len(view.legal) == 6
    turned = view.turned.index if view.turned is not None else -1
    rng = random.Random(0)
    winners = set()
    for _ in range(3):
        values = Solver(view.rules, view.dealer, turned, view.seat, tiebreak=False).values(sample(view, rng).world)
        ranked = sorted(values, key=values.get, reverse=True)
        assert values[ranked[0]] - values[ranked[1]] >= 300
        winners.add(ranked[0])
    (winner,) = winners
    decision = expert.ExpertPlayer(tree=True, budget=3000, tree_paired=paired).choose(view, random.Random(1))
    assert decision.card.index == winner
