"""Issue 33: the play inside the Expert's tries: the opponent's best reply (``replies``) and the last
tricks solved exactly (``solve_tricks``); both off by default, counted and reproducible from the seed."""

from __future__ import annotations

import random

import pytest

from calijack import Deal, core
from calijack.cards import DECK
from calijack.players import expert
from calijack.players.search import rollout
from calijack.players.solver import Solver
from calijack.players.worlds import sample


def _position(min_legal: int):
    """A seeded position in the stock where the seat to play has at least ``min_legal`` legal cards."""
    for seed in range(50):
        state = Deal.random(random.Random(seed)).start()
        for _ in range(12):
            view = state.view(state.to_play)
            if len(view.legal) >= min_legal and view.stock_count > expert.LATE_STOCK:
                return view
            state = state.play(state.legal_cards()[0])
    raise AssertionError("no position found")


def _one_guess(view, seed):
    """The single guess (and its tries' seed) an Expert with ``max_samples=1`` makes from ``Random(seed)``."""
    rng = random.Random(seed)
    guess = sample(view, rng)
    return guess.world, rng.getrandbits(64)


def _turned(view):
    return view.turned.index if view.turned is not None else -1


def test_both_are_off_by_default_and_bad_values_are_refused():
    player = expert.ExpertPlayer()
    assert player.replies is False and player.solve_tricks == 0
    for bad in (-1, 1.5, True, "3"):
        with pytest.raises(ValueError, match="solve_tricks must be a whole number"):
            expert.ExpertPlayer(solve_tricks=bad)
    with pytest.raises(ValueError, match="halving cannot be combined"):
        expert.ExpertPlayer(halving=True, replies=True)


def test_a_rollout_stops_where_the_exact_solving_takes_over():
    view = _position(3)
    world, seed = _one_guess(view, 1)
    full = rollout(world.copy(), view.rules, view.dealer, _turned(view), view.seat, random.Random(seed), 0.1)
    assert rollout(world.copy(), view.rules, view.dealer, _turned(view), view.seat, random.Random(seed), 0.1,
                   until=0) == full  # until=0: to the end, as before
    stopped = world.copy()
    assert rollout(stopped, view.rules, view.dealer, _turned(view), view.seat, random.Random(seed), 0.1,
                   until=3) is None
    assert stopped.done == stopped.tricks - 3 and not stopped.trick and stopped.done >= stopped.draws


@pytest.mark.parametrize("options", [{"replies": True}, {"solve_tricks": 3}, {"replies": True, "solve_tricks": 2}])
def test_each_card_is_worth_what_its_tries_say(options):
    """One guess, no opponent model: each card's value is the least over the opponent's replies
    (``replies``) of a rollout finished exactly over the last tricks (``solve_tricks``)."""
    view = _position(3)
    rules, turned, me = view.rules, _turned(view), view.seat
    world, seed = _one_guess(view, 5)
    until = options.get("solve_tricks", 0)
    solver = Solver(rules, view.dealer, turned, me, tiebreak=False)

    def playout(w):
        value = rollout(w, rules, view.dealer, turned, me, random.Random(seed), 0.1, None, None, until,
                        bank=True)  # the Expert's tries play with the bank rule
        return solver.value(w) if value is None else value

    expected = {}
    for card in core.bit_list(world.legal()):
        child = world.copy()
        child.play(card)
        if options.get("replies") and child.to_play != me:
            outcomes = []
            for reply in core.bit_list(child.legal()):
                grand = child.copy()
                grand.play(reply)
                outcomes.append(playout(grand))
            assert len(outcomes) >= 1
            expected[card] = min(outcomes)
        else:
            expected[card] = playout(child)
    player = expert.ExpertPlayer(noise=None, min_samples=1, max_samples=1, **options)
    decision = player.choose(view, random.Random(5))
    stats = player.last_stats
    assert stats["worlds"] == 1
    assert stats["values"] == {DECK[c].code: v / 100 for c, v in expected.items()}
    assert decision.card.code == max(stats["values"], key=stats["values"].get) or \
        stats["values"][decision.card.code] == max(stats["values"].values())
    if until:
        assert stats["nodes"] > 0
    if options.get("replies") and not until:  # the opponent's best reply is never better for us than its rule of thumb
        # (with no random cards in the tries, the rule of thumb's reply is one of those tried)
        deep = expert.ExpertPlayer(noise=None, min_samples=1, max_samples=1, epsilon=0.0, **options)
        plain = expert.ExpertPlayer(noise=None, min_samples=1, max_samples=1, epsilon=0.0)
        deep.choose(view, random.Random(5))
        plain.choose(view, random.Random(5))
        lower = [deep.last_stats["values"][c] <= plain.last_stats["values"][c] for c in stats["values"]]
        assert all(lower)


def test_the_budget_is_counted_and_the_game_replays():
    view = _position(3)
    player = expert.ExpertPlayer(budget=6000, max_samples=1000, replies=True, solve_tricks=3)
    decision = player.choose(view, random.Random(8))
    stats = dict(player.last_stats)
    assert stats["spent"] >= stats["budget"] == player._quota * (
        expert.GUESS_COST + len(view.played) + len(view.legal) * (sum(view.hand_sizes) + view.stock_count))
    assert 1 < stats["worlds"] < player._quota  # the deeper tries cost more: fewer guesses for the same budget
    again = expert.ExpertPlayer(budget=6000, max_samples=1000, replies=True, solve_tricks=3)
    assert again.choose(view, random.Random(8)) == decision and again.last_stats == stats
