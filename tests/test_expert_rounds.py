"""Issue 33: the Expert's budget spread over rounds (``halving``) and the other seats' share of
random cards in its tries (``their_epsilon``): counted, reproducible from the seed, and a card
dropped after a round is never played."""

from __future__ import annotations

import random

import pytest

from calijack import Deal
from calijack.players import expert
from calijack.players.search import rollout
from calijack.players.worlds import sample


def _position(min_legal: int, max_legal: int = 52):
    """A seeded position in the stock where the seat to play has ``min_legal`` to ``max_legal`` cards."""
    for seed in range(50):
        state = Deal.random(random.Random(seed)).start()
        for _ in range(12):
            view = state.view(state.to_play)
            if min_legal <= len(view.legal) <= max_legal and view.stock_count > expert.LATE_STOCK:
                return view
            state = state.play(state.legal_cards()[0])
    raise AssertionError("no position found")


def test_halving_spends_the_same_counted_budget_and_plays_only_a_card_kept(monkeypatch):
    view = _position(5)
    moves = len(view.legal)
    tried = []

    def counted(world, *args, **kw):
        tried.append(world.n)
        return rollout(world, *args, **kw)

    monkeypatch.setattr(expert, "rollout", counted)
    player = expert.ExpertPlayer(budget=6000, min_samples=1, max_samples=1000, halving=True)
    decision = player.choose(view, random.Random(4))
    stats = dict(player.last_stats)
    cards_left = sum(view.hand_sizes) + view.stock_count
    fixed = expert.GUESS_COST + len(view.played)
    plain = player._quota * (fixed + moves * cards_left)  # one round over every card: the plain Expert's cost
    # What it counts is what it did: each guess made, each try played to the end of the deal.
    assert stats["spent"] == stats["worlds"] * fixed + len(tried) * cards_left
    assert plain - (fixed + moves * cards_left) < stats["spent"] <= plain
    rounds = (moves - 1).bit_length()
    assert rounds >= 3 and len(stats["kept"]) == 2          # 5 or more cards: halved twice, down to two
    assert decision.card.code in stats["kept"]
    values = stats["values"]
    assert values[decision.card.code] == max(values[c] for c in stats["kept"])
    assert len(tried) < stats["worlds"] * moves           # dropped cards are no longer tried …
    assert stats["worlds"] > player._quota                # … so the budget pays for more guesses
    tried.clear()
    again = expert.ExpertPlayer(budget=6000, min_samples=1, max_samples=1000, halving=True)
    assert again.choose(view, random.Random(4)) == decision and again.last_stats == stats  # replays exactly


def test_halving_is_off_by_default_and_two_cards_take_one_round():
    assert expert.ExpertPlayer().halving is False and expert.ExpertPlayer().their_epsilon is None
    view = _position(2, 2)
    player = expert.ExpertPlayer(budget=3000, min_samples=1, max_samples=1000, halving=True)
    player.choose(view, random.Random(2))
    assert set(player.last_stats["kept"]) == {c.code for c in view.legal}
    assert player.last_stats["worlds"] == player._quota  # one round: the plain Expert's guesses


def test_the_other_seats_share_of_random_cards_in_the_tries():
    view = _position(3)
    rules = view.rules
    turned = view.turned.index if view.turned is not None else -1
    differ = 0
    for k in range(20):
        world = sample(view, random.Random(k)).world

        def run(**kw):
            return rollout(world.copy(), rules, view.dealer, turned, view.seat, random.Random(k), **kw)

        assert run(epsilon=0.1) == run(epsilon=0.1, their_epsilon=0.1)  # the same share: the same tries
        assert run(epsilon=0.0) == run(epsilon=0.0, their_epsilon=0.0)
        differ += run(epsilon=0.0) != run(epsilon=0.0, their_epsilon=1.0)
    assert differ  # an opponent at random changes some tries' outcome
    for bad in (-0.1, 1.5, True, "x"):
        with pytest.raises(ValueError, match="their_epsilon must be a share"):
            expert.ExpertPlayer(their_epsilon=bad)
    player = expert.ExpertPlayer(budget=3000, min_samples=1, max_samples=1000, their_epsilon=0.5)
    first = player.choose(view, random.Random(9))
    assert first.card in view.legal and player.last_stats["worlds"] == player._quota
    assert expert.ExpertPlayer(budget=3000, min_samples=1, max_samples=1000, their_epsilon=0.5).choose(
        view, random.Random(9)) == first
