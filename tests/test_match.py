"""A match: strict counting order, the target, both seats crossing in one deal, the rotating deal."""

import random

import pytest

from calijack import Award, DealResult, Match, Rules, fast
from calijack.match import MatchOver

NAMES = ("high", "low", "jack", "game", "nine")


def result(*seats, players=2):
    """A deal's result from the seat earning each point in order (None: nobody)."""
    awards = tuple(Award(name, seat, None, "made up") for name, seat in zip(NAMES, seats))
    return DealResult(awards, (40,) * players, ((),) * players)


def match_at(scores, rules=Rules(), first_dealer=0):
    """A match whose totals are ``scores``, reached one point per made-up deal."""
    match = Match(rules, first_dealer)
    for seat, total in enumerate(scores):
        for _ in range(total):
            match = match.add(result(seat, None, None, None, players=rules.players))
    assert match.scores == tuple(scores) and match.winner is None
    return match


def test_new_match():
    match = Match()
    assert match.scores == (0, 0) and match.winner is None and not match.finished
    assert Match(Rules(players=3)).scores == (0, 0, 0)
    assert [Match(first_dealer=1).dealer(k) for k in range(4)] == [1, 0, 1, 0]
    assert [Match(Rules(players=3), 2).dealer(k) for k in range(4)] == [2, 0, 1, 2]


def test_points_add_up_deal_by_deal():
    match = Match().add(result(0, 1, 0, None)).add(result(1, 1, 1, 0))
    assert match.scores == (3, 4) and match.counted == (("high", "low", "jack"), ("high", "low", "jack", "game"))
    assert match.dealer() == 0 and len(match.results) == 2


@pytest.mark.parametrize("before,seats,winner,after,counted", [
    ((9, 9), (1, 0, 0, 0), 1, (9, 10), ("high",)),          # High is counted first
    ((9, 9), (None, 0, 1, 1), 0, (10, 9), ("low",)),        # nobody scored High: Low comes next
    ((8, 9), (0, 0, 1, 1), 0, (10, 9), ("high", "low")),    # seat 0 reaches 10 at Low; Jack and Game not counted
    ((9, 8), (1, 1, 0, 0), 1, (9, 10), ("high", "low")),    # seat 0's Jack would have made 10-10
    ((7, 9), (0, 0, 0, 1), 0, (10, 9), ("high", "low", "jack")),  # Game would have given seat 1 the match
    ((9, 9), (None, None, None, None), None, (9, 9), ()),
])
def test_strict_order_decides_when_both_cross(before, seats, winner, after, counted):
    match = match_at(before).add(result(*seats))
    assert match.winner == winner and match.scores == after and match.counted[-1] == counted
    assert match.finished == (winner is not None)


def test_the_match_stops_at_the_target():
    match = match_at((9, 0)).add(result(0, 0, 0, 0))
    assert match.winner == 0 and match.scores == (10, 0) and match.counted[-1] == ("high",)
    with pytest.raises(MatchOver, match="seat 0 reached 10"):
        match.add(result(1, 1, 1, 1))
    with pytest.raises(MatchOver):
        match.next_deal(1)
    assert isinstance(MatchOver("x"), ValueError)


def test_target_option():
    rules = Rules(target=7)
    match = match_at((6, 6), rules).add(result(1, 0, 0, 0))
    assert match.winner == 1 and match.scores == (6, 7)
    match = match_at((0, 0), Rules(target=1)).add(result(None, 1, 0, 0))
    assert match.winner == 1 and match.scores == (0, 1)


def test_shasta_point_is_counted_last():
    rules = Rules(shasta_point=True)
    match = match_at((8, 9), rules).add(result(0, None, None, None, 1))
    assert match.winner == 1 and match.counted[-1] == ("high", "nine")
    match = match_at((8, 9), rules).add(result(0, None, 0, None, 1))
    assert match.winner == 0 and match.counted[-1] == ("high", "jack")


def test_three_players_each_for_themself():
    rules = Rules(players=3)
    match = match_at((9, 9, 9), rules).add(result(2, 1, 0, None, players=3))
    assert match.winner == 2 and match.scores == (9, 9, 10)


def test_next_deal_and_random_match():
    match = Match.random(4)
    assert match == Match.random(4) and match.first_dealer in (0, 1)
    assert {Match.random(seed).first_dealer for seed in range(20)} == {0, 1}
    deal = match.next_deal(5)
    assert deal.dealer == match.first_dealer and deal.rules == match.rules
    assert match.add(result(0, 1, 0, 1)).next_deal(5).dealer == 1 - match.first_dealer


@pytest.mark.parametrize("first_dealer", [2, -1, True, "0"])
def test_bad_first_dealer(first_dealer):
    with pytest.raises(ValueError, match="first_dealer"):
        Match(Rules(), first_dealer)


def play_match(eng, seed, rules=Rules(), first_dealer=0):
    """A whole match of seeded deals through ``State``: the match, and each deal's state."""
    rng, match, states = random.Random(seed), Match(rules, first_dealer), []
    while not match.finished:
        state = eng.seeded_game(rng, rules, match.dealer())
        states.append(state)
        match = match.add(state.result())
    return match, states


def both_cross(seed, rules=Rules()):
    """Whether, in the seeded match's last deal, every seat would reach the target if all points counted."""
    rng, scores, deal = random.Random(seed), [0, 0], 0
    while True:
        points, _ = fast.random_deal(rng, rules, deal % 2)
        deal += 1
        earned = [sum(points[n] == s for n in rules.point_names) for s in (0, 1)]
        if all(scores[s] + earned[s] >= rules.target for s in (0, 1)):
            return True
        for name in rules.point_names:  # strict order, written out here independently of Match
            if points[name] is not None:
                scores[points[name]] += 1
                if scores[points[name]] >= rules.target:
                    return False


def test_real_match_where_both_cross_in_the_last_deal(eng):
    seed = next(s for s in range(500) if both_cross(s))
    match, states = play_match(eng, seed)
    last = states[-1].result()
    before = [sum(r.points[s] for r in match.results[:-1]) for s in (0, 1)]
    assert all(before[s] + last.points[s] >= 10 for s in (0, 1))
    totals = list(before)
    for award in last.awards:
        if award.seat is not None:
            totals[award.seat] += 1
            if totals[award.seat] == 10:
                break
    assert match.winner == award.seat and list(match.scores) == totals
    assert match.scores[match.winner] == 10 and match.scores[1 - match.winner] < 10
    assert (match.winner, match.scores, len(states)) == fast.random_match(random.Random(seed), Rules(), 0)


@pytest.mark.parametrize("rules", [Rules(), Rules(target=7), Rules(players=3, target=5),
                                   Rules(shasta_point=True, target=4)],
                         ids=["standard", "target7", "three_target5", "shasta_target4"])
def test_matches_agree_with_the_fast_path(eng, rules):
    for seed in range(6):
        match, states = play_match(eng, seed, rules, seed % rules.players)
        assert [s.dealer for s in states] == [(seed + k) % rules.players for k in range(len(states))]
        assert (match.winner, match.scores, len(states)) == fast.random_match(random.Random(seed), rules, seed % rules.players)
        assert match.scores[match.winner] == rules.target and max(match.scores) == rules.target
