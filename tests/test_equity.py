"""Playing for the match: the equity table, the strict counting order, and the search using them."""

from __future__ import annotations

import random

import pytest

from calijack import Deal, Rules
from calijack.players import SearchPlayer, get_player, play_deal
from calijack.players.equity import TIE, MatchObjective, equity, near_target


def test_equity_is_a_chance_shared_by_the_seats():
    rules = Rules()
    for scores in [(0, 0), (5, 3), (9, 0), (7, 9)]:
        a, b = equity(rules, scores)
        assert a + b == pytest.approx(1) and (b, a) == pytest.approx(equity(rules, scores[::-1]))
    assert equity(rules, (4, 4)) == pytest.approx((0.5, 0.5))
    # At 9-8 High, counted first, wins it half the time; else 9-9 and Low decides.
    assert equity(rules, (9, 8))[0] == pytest.approx(0.75)
    assert equity(rules, (10, 3)) == (1.0, 0.0)
    three = equity(Rules(players=3), (9, 0, 0))
    assert sum(three) == pytest.approx(1) and three[0] > 0.9


def test_the_match_objective_counts_in_strict_order():
    rules = Rules()
    at = MatchObjective(rules, (9, 9), 0, blend=0.0)
    # Both reach ten in this deal: whoever is counted first wins.
    assert at({"high": 1, "low": 0, "jack": 0, "game": 0}, (60, 20)) == 0.0
    assert at({"high": 0, "low": 1, "jack": 1, "game": 1}, (10, 70)) == 1.0
    behind = MatchObjective(rules, (6, 9), 0, blend=0.0)
    # Three points but the other seat's one comes first, or last: the match is lost either way.
    assert behind({"high": 1, "low": 0, "jack": 0, "game": 0}, (70, 10)) == 0.0
    assert behind({"high": 0, "low": 0, "jack": 0, "game": 1}, (10, 70)) == 0.0
    assert behind({"high": 0, "low": 0, "jack": 0, "game": 0}, (70, 10)) == 1.0  # all four
    open_ = MatchObjective(rules, (2, 3), 0, blend=0.0)
    assert open_({"high": 0, "low": 1, "jack": 0, "game": None}, (40, 40)) == pytest.approx(
        equity(rules, (4, 4))[0])
    # The deal's own objective adds a hair, never more than a tiny share of a chance.
    hair = MatchObjective(rules, (2, 3), 0)
    assert 0 < hair({"high": 0, "low": 0, "jack": 0, "game": 0}, (80, 0)) - equity(rules, (6, 3))[0] <= 500 * TIE


def test_near_the_target_means_three_points_or_fewer_away():
    rules = Rules()
    assert not near_target(rules, None) and not near_target(rules, (6, 6))
    assert near_target(rules, (7, 0)) and near_target(rules, (0, 9))
    assert near_target(Rules(target=3), (0, 0))


def test_a_view_carries_the_match_score_only_when_given_it():
    state = Deal.random(2).start()
    view = state.view(state.to_play)
    assert view.scores is None and view.with_scores((3, 4)).scores == (3, 4)
    for bad in [(1,), (1, -1), (1, True), ("a", 2)]:
        with pytest.raises(ValueError, match="scores must be 2 whole numbers"):
            view.with_scores(bad)


class Recorder:
    """A player that records the scores its views carry and plays the first legal card."""

    name = "recorder"

    def __init__(self):
        self.seen = set()

    def choose(self, view, rng):
        from calijack.players import Decision

        self.seen.add(view.scores)
        return Decision(view.legal[0], "first")


def test_play_deal_shows_every_player_the_match_score():
    recorder = Recorder()
    play_deal(Deal.random(3), [recorder, get_player("random")], random.Random(3), scores=(8, 6))
    assert recorder.seen == {(8, 6)}
    other = Recorder()
    play_deal(Deal.random(3), [other, get_player("random")], random.Random(3))
    assert other.seen == {None}


def test_the_search_plays_for_the_match_only_near_the_target():
    state = Deal.random(5).start()
    view = state.view(state.to_play)
    player = SearchPlayer(samples=4, match_aware=True)
    decision = player.choose(view.with_scores((9, 8)), random.Random(0))
    assert player.last_stats["match"] is True
    assert decision.reason.startswith("Near the target points count in order")
    assert all(-0.01 <= v <= 1.01 for v in player.last_stats["values"].values())  # chances, not points
    player.choose(view.with_scores((2, 3)), random.Random(0))
    assert player.last_stats["match"] is False
    player.choose(view, random.Random(0))
    assert player.last_stats["match"] is False
    plain = SearchPlayer(samples=4)  # the default plays for the deal (match_aware measured weaker)
    plain.choose(view.with_scores((9, 8)), random.Random(0))
    assert plain.last_stats["match"] is False and plain.match_aware is False
    # Far from the target the two searches are the same player, card for card.
    a, b = SearchPlayer(samples=4, match_aware=True), SearchPlayer(samples=4)
    far = view.with_scores((1, 2))
    assert a.choose(far, random.Random(9)) == b.choose(far, random.Random(9))


def test_in_the_endgame_the_match_search_solves_for_the_chance_of_the_match():
    rng = random.Random(6)
    state = Deal.random(rng).start()
    while len(state.tricks) < 22:
        legal = state.legal_cards()
        state = state.play(legal[int(rng.random() * len(legal))])
    player = SearchPlayer(match_aware=True)
    decision = player.choose(state.view(state.to_play).with_scores((9, 9)), random.Random(0))
    assert player.last_stats["mode"] == "exact" and player.last_stats["match"] is True
    assert decision.reason.startswith("Every card is known now")
