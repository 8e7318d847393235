"""The search opponent's parts: guessing hidden cards from a view, and the exact endgame solver."""

from __future__ import annotations

import random

import pytest

from calijack import Card, Deal, Rules
from calijack.players import get_player
from calijack.players.solver import Solver
from calijack.players.worlds import World, sample, sample_state

OPTIONS = [{}, {"stock": "closed"}, {"void_duty": "any", "stock": "closed"}, {"trump_from": "cut"},
           {"players": 3}, {"players": 3, "stock": "closed"}]
IDS = [",".join(f"{k}={v}" for k, v in o.items()) or "standard" for o in OPTIONS]



@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
def test_every_guess_shares_the_view_it_was_drawn_from(options, eng):
    rules = Rules.from_dict(options)
    total = 52 - 52 % rules.players
    for seed in range(25):
        state = eng.random_position(rules, seed, random.Random(seed).randrange(total))
        for seat in range(rules.players):
            view = state.view(seat)
            guess = sample_state(view, random.Random(seed))  # replays every play: all legal
            assert guess.view(seat) == view


def test_guesses_vary_the_hidden_cards_and_keep_the_seen_ones(eng):
    state = eng.random_position(Rules(), 4, 9)
    seat = state.to_play
    view = state.view(seat)
    other = 1 - seat
    hands = {sample_state(view, random.Random(k)).hands[other] for k in range(20)}
    assert len(hands) > 5
    for hand in hands:  # cards seen drawn and still held are always there
        for card in view.known[other]:
            assert hand >> card.index & 1


def test_closed_stock_guesses_do_not_know_the_losers_draw(eng):
    rules = Rules(stock="closed")
    for seed in range(40):
        state = eng.random_position(rules, seed, 2)  # one trick played, draws made
        winner = state.tricks[0].winner
        loser = 1 - winner
        hidden_draw = state.tricks[0].draws[1]
        view = state.view(winner)
        assert view.tricks[0].draws[1] is None
        if hidden_draw in state.hand(loser) and state.to_play == winner:
            guesses = [sample_state(view, random.Random(k)).deal.stock[1] for k in range(30)]
            assert len(set(guesses)) > 3  # the unseen card is guessed, not read
            return
    pytest.fail("no position with the loser's draw still in hand")


def test_voids_shown_in_play_rule_cards_out_of_a_guess():
    # Hearts trump. Seat 0 leads 4♣; seat 1, holding no clubs and no trumps, throws 3♠:
    # seat 0 now knows seat 1's dealt cards hold no club and no heart.
    used = ["4C", "5D", "6D", "7D", "8D", "9D", "3S", "2D", "KS", "QS", "4S", "5S", "7H"]
    rest = [c for c in (Card.from_index(i) for i in range(52)) if c.code not in used]
    deal = Deal.from_cards([used[:6], used[6:12]], ["7H"] + [c.code for c in rest], dealer=1)
    state = deal.start().play_all(["4C", "3S"])
    view = state.view(state.to_play) if state.to_play == 0 else state.view(0)
    for k in range(30):
        guess = sample(view, random.Random(k))
        dealt = guess.deal_hands[1]
        assert not any(c // 13 in (0, 2) for c in dealt)  # clubs 0, hearts 2
        assert guess.consistent


def _world(state) -> World:
    rules = state.rules
    return World(list(state.hands), tuple(c.index for c in state.deal.stock), state.drawn,
                 list(state.piles), list(state.received), state.leader, list(state.trick),
                 len(state.tricks), rules.players, int(state.trump), rules.void_any,
                 rules.draws, rules.tricks)


def _brute(state, me, tiebreak):
    """Plain minimax over engine states, scored by the engine's own result."""
    if state.finished:
        result = state.result()
        points, pips = result.points, result.pips
        others = [s for s in range(state.players) if s != me]
        value = 100 * (points[me] - max(points[s] for s in others))
        return value + (pips[me] - max(pips[s] for s in others) if tiebreak else 0)
    values = [_brute(state.play(card), me, tiebreak) for card in state.legal_cards()]
    return max(values) if state.to_play == me else min(values)


SOLVER_CASES = [({}, 44), ({}, 46), ({"high_low": "held"}, 44), ({"game": "ten_of_trumps"}, 45),
                ({"shasta_point": True, "turned_jack": True}, 44), ({"void_duty": "any"}, 45),
                ({"players": 3}, 42), ({"players": 3}, 44)]


@pytest.mark.parametrize("options,plays", SOLVER_CASES)
@pytest.mark.parametrize("tiebreak", [False, True])
def test_endgame_solver_agrees_with_brute_force(options, plays, tiebreak, eng):
    rules = Rules.from_dict(options)
    for seed in range(4):
        state = eng.random_position(rules, 100 + seed, plays)
        me = state.to_play
        turned = state.deal.turned.index if state.deal.turned else -1
        solver = Solver(rules, state.dealer, turned, me, tiebreak=tiebreak)
        values = solver.values(_world(state))
        expected = {card.index: _brute(state.play(card), me, tiebreak) for card in state.legal_cards()}
        assert values == expected


@pytest.mark.parametrize("seed", [564, 1677, 1756])
def test_solver_lets_a_follower_overtake_the_led_card(seed, eng):
    """Two cards either side of the card led are not alike: only the higher one wins the trick.

    In these positions the player to follow holds two cards of no value on both sides of the
    led card, with nothing live between them but the led card itself.
    """
    state = eng.random_position(Rules(), seed, random.Random(seed).choice([41, 43, 45, 47, 49]))
    led, hand = state.trick[0], state.hands[state.to_play]
    assert any(hand >> c & 1 for c in range(led - led % 13, led)) and any(
        hand >> c & 1 for c in range(led + 1, led - led % 13 + 13))
    me = 1 - state.to_play
    solver = Solver(state.rules, state.dealer, state.deal.turned.index, me, tiebreak=True)
    assert solver.value(_world(state)) == _brute(state, me, True)


def test_search_plays_a_best_card_once_the_stock_is_gone(eng):
    rules = Rules()
    checked = 0
    for seed in range(60):
        state = eng.random_position(rules, 200 + seed, 44)
        me = state.to_play
        # The solver (checked against brute force above) finds positions where the card matters.
        quick = Solver(rules, state.dealer, state.deal.turned.index, me, tiebreak=False).values(_world(state))
        if len(set(quick.values())) < 2:
            continue
        values = {c: _brute(state.play(c), me, False) for c in state.legal_cards()}
        decision = get_player("search").choose(state.view(me), random.Random(0))
        assert values[decision.card] == max(values.values())
        assert decision.reason.startswith("Every card is known now")
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_time_limit_bounds_the_sampling(eng):
    state = eng.random_position(Rules(), 3, 4)
    player = get_player("search", time_limit=0.02, samples=10 ** 6)
    player.choose(state.view(state.to_play), random.Random(0))
    assert player.last_stats["mode"] in ("sampled", "only")
    if player.last_stats["mode"] == "sampled":
        assert 1 <= player.last_stats["worlds"] < 10 ** 6
