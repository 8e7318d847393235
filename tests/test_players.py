"""The computer opponents: legal cards only, reproducible, deciding from the view alone."""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from calijack import Card, Deal, Rank, Rules, Suit
from calijack import text_hints as hints
from calijack.core import award_points, bit_list, game_decided, game_winner, pips_of
from calijack.players import (PLAYERS, Decision, PlayerError, get_player, play_deal, sample_state)
from calijack.players.drive import fast_deal
from calijack.players.heuristic import POINT_STAKE, keeps_low, stakes
from calijack.rules import OPTIONS as OPTIONS_META

# Every rule option at its other value (and a few together): the legal-play sweep runs them all.
OPTIONS = [
    {}, {"void_duty": "any"}, {"high_low": "held"}, {"game": "ten_of_trumps"}, {"target": 7},
    {"stock": "closed"}, {"turned_jack": True}, {"shasta_point": True}, {"trump_from": "cut"},
    {"players": 3}, {"players": 3, "stock": "closed", "void_duty": "any"},
]
IDS = [",".join(f"{k}={v}" for k, v in o.items()) or "standard" for o in OPTIONS]


# Few guesses for the players that search, so that sweeps over every player stay quick.
CHEAP = {"search": {"samples": 2}, "strong": {"samples": 2}, "expert": {"samples": 2, "max_samples": 2}}


def _players(names, **search):
    return [get_player(n, **(search if n == "search" else {})) for n in names]


def _cheap(name: str, samples: int = 2):
    options = CHEAP.get(name, {})
    return get_player(name, **{k: samples for k in options})


def _lineup(rules, first, second):
    return [first, second, first][:rules.players]


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
def test_rule_based_players_only_play_legal_cards(options):
    """300 fast deals per option, both lineups; the engine re-checks a sample of them."""
    rules = Rules.from_dict(options)
    played = 0
    for seed in range(300):
        names = _lineup(rules, "heuristic", "random") if seed % 2 else _lineup(rules, "random", "heuristic")
        points, pips, plays = fast_deal(random.Random(seed), rules, seed % rules.players, names)
        assert len(plays) == 52 - 52 % rules.players
        assert set(points) == set(rules.point_names)
        played += 1
        if seed % 25 == 0:  # the rich engine refuses any illegal card
            deal = Deal.random(random.Random(seed), rules, seed % rules.players)
            state = deal.start().play_all([Card.from_index(c) for c in plays])
            assert state.finished
    assert played == 300


@pytest.mark.parametrize("options", [OPTIONS[0], OPTIONS[5], OPTIONS[9]], ids=[IDS[0], IDS[5], IDS[9]])
def test_fast_driver_plays_exactly_what_the_players_choose(options):
    rules = Rules.from_dict(options)
    names = _lineup(rules, "heuristic", "random")
    for seed in range(20):
        rng = random.Random(seed)
        deal = Deal.random(rng, rules, seed % rules.players)
        state = play_deal(deal, _players(names), rng)
        _, _, plays = fast_deal(random.Random(seed), rules, seed % rules.players, names)
        assert [c.index for c in state.plays] == plays


@pytest.mark.parametrize("options", OPTIONS, ids=IDS)
def test_search_only_plays_legal_cards(options):
    rules = Rules.from_dict(options)
    names = _lineup(rules, "search", "heuristic")
    for seed in range(2):
        rng = random.Random(seed)
        state = play_deal(Deal.random(rng, rules), _players(names, samples=2), rng)
        assert state.finished  # State.play raised on any illegal card


@pytest.mark.parametrize("name", list(PLAYERS))
def test_seeds_reproduce_games_exactly(name):
    rules = Rules()
    options = CHEAP.get(name, {})

    def game(seed):
        rng = random.Random(seed)
        deal = Deal.random(rng, rules, 0)
        decisions = []
        state = play_deal(deal, [get_player(name, **options), get_player("random")], rng,
                          lambda s, seat, d, *_: decisions.append(d))
        return state.plays, decisions

    first, again = game(11), game(11)
    assert first == again
    assert game(12)[0] != first[0]


def _positions(rules, count, seed):
    """States part-way through random deals, with the seat to play."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = Deal.random(rng, rules).start()
        stop = rng.randrange(0, 52 - 52 % rules.players - 2)
        for _ in range(stop):
            legal = state.legal_cards()
            state = state.play(legal[int(rng.random() * len(legal))])
        out.append(state)
    return out


@pytest.mark.parametrize("options", [OPTIONS[0], OPTIONS[5], OPTIONS[9], OPTIONS[10]],
                         ids=[IDS[0], IDS[5], IDS[9], IDS[10]])
def test_same_view_same_decision_for_every_player(options):
    """Two states sharing a view, differing in hidden cards: the same card and reason."""
    rules = Rules.from_dict(options)
    differed = 0
    for k, state in enumerate(_positions(rules, 12, seed=len(IDS[OPTIONS.index(options)]))):
        seat = state.to_play
        view = state.view(seat)
        other = None
        for attempt in range(20):
            candidate = sample_state(view, random.Random(attempt))
            if candidate.hands != state.hands or candidate.deal.stock != state.deal.stock:
                other = candidate
                break
        if other is None:  # nothing hidden is left to change (late in the deal)
            continue
        differed += 1
        assert other.view(seat) == view
        for name in PLAYERS:
            player = _cheap(name, 3)
            a = player.choose(state.view(seat), random.Random(k))
            b = player.choose(other.view(seat), random.Random(k))
            assert a == b, name
    assert differed >= 6


def test_decisions_carry_one_sentence_reasons():
    rules = Rules()
    for state in _positions(rules, 10, seed=3):
        view = state.view(state.to_play)
        for name in PLAYERS:
            decision = _cheap(name).choose(view, random.Random(0))
            assert isinstance(decision, Decision)
            assert decision.card in view.legal
            assert decision.reason and "\n" not in decision.reason and len(decision.reason) < 160


def _deal_with(hand0, hand1, top):
    used = {Card.parse(c) for c in (*hand0, *hand1, top)}
    rest = [c for c in (Card.from_index(i) for i in range(52)) if c not in used]
    return Deal.from_cards([hand0, hand1], [top] + rest, dealer=1).start()


def test_heuristic_fights_for_an_exposed_trump_ace():
    # Hearts are trump (the exposed card is the ace of hearts); seat 0 leads 4♣, seat 1 can win.
    state = _deal_with(["4C", "5D", "6D", "7D", "8D", "9D"], ["KC", "3C", "2S", "3S", "4S", "5S"], "AH")
    state = state.play("4C")
    decision = get_player("heuristic").choose(state.view(1), random.Random(0))
    assert decision.card == Card.parse("KC")
    assert decision.reason == "Win this trick to draw the exposed card, the trump ace"


def test_heuristic_loses_cheaply_and_keeps_tens_when_nothing_is_worth_drawing():
    # Hearts are trump; seat 1 holds no diamonds and no trumps, so it may throw any card.
    state = _deal_with(["4D", "5D", "6D", "7D", "8D", "9D"], ["TC", "2C", "KS", "3S", "4S", "5S"], "3H")
    state = state.play("4D")
    decision = get_player("heuristic").choose(state.view(1), random.Random(0))
    assert decision.card.value == 0 and decision.card.rank == 0  # the 2♣, not the ten or the king
    assert "Lose this trick" in decision.reason and "tens" in decision.reason


def test_heuristic_captures_low_with_the_trump_two():
    state = _deal_with(["4D", "5D", "6D", "7D", "8D", "9D"], ["2H", "9H", "KS", "3S", "4S", "5S"], "7H")
    state = state.play("4D")  # seat 1 is void in diamonds and must trump: the two wins the trick
    decision = get_player("heuristic").choose(state.view(1), random.Random(0))
    assert decision.card == Card.parse("2H")
    assert "Low" in decision.reason


def test_heuristic_leads_its_trump_when_no_opponent_can_hold_a_higher_one():
    # Hearts are trump and the exposed card is their ace: the king in seat 0's hand is the
    # highest trump an opponent could hold, so leading it wins the trick and draws the ace.
    state = _deal_with(["KH", "4C", "5D", "6D", "7D", "8D"], ["QC", "3C", "2S", "3S", "4S", "5S"], "AH")
    decision = get_player("heuristic").choose(state.view(0), random.Random(0))
    assert decision.card == Card.parse("KH")
    assert decision.reason == hints.why_lead_master(Card.parse("KH"), Card.parse("AH"), Suit.HEARTS)
    # With the queen instead, the king may be in the opponent's hand: no lead of the queen.
    state = _deal_with(["QH", "4C", "5D", "6D", "7D", "8D"], ["QC", "3C", "2S", "3S", "4S", "5S"], "AH")
    assert get_player("heuristic").choose(state.view(0), random.Random(0)).card != Card.parse("QH")


def test_casual_leads_the_highest_trump_left_in_real_deals():
    # The rule once never fired: it counted the seat's own trumps as gone (0 of 15,600 plays).
    reasons = []
    for seed in range(30):
        play_deal(Deal.random(random.Random(seed)), [get_player("casual")] * 2, seed,
                  on_decision=lambda state, seat, decision, *_: reasons.append(decision.reason))
    assert len(reasons) > 30 * 12
    assert sum(", the highest trump left, to draw" in r for r in reasons) >= 5


def test_random_player_is_uniform_over_legal_cards():
    state = _deal_with(["4D", "5D", "6D", "7D", "8D", "9D"], ["TC", "2C", "KS", "3S", "4S", "5S"], "3H")
    view = state.view(state.to_play)
    rng = random.Random(5)
    counts = {c: 0 for c in view.legal}
    for _ in range(3000):
        counts[get_player("random").choose(view, rng).card] += 1
    assert len(counts) == 6 and min(counts.values()) > 400


def test_get_player_rejects_unknown_names_and_options():
    with pytest.raises(PlayerError, match="unknown player 'bogus'"):
        get_player("bogus")
    with pytest.raises(PlayerError, match="takes no option"):
        get_player("heuristic", samples=3)
    with pytest.raises(PlayerError, match="samples"):
        get_player("search", samples=0)
    with pytest.raises(PlayerError, match="time_limit"):
        get_player("search", time_limit=-1)


def test_a_player_refuses_a_view_whose_seat_is_not_to_play():
    state = Deal.random(1).start()
    waiting = 1 - state.to_play
    for name in PLAYERS:
        with pytest.raises(ValueError, match="is to play"):
            get_player(name).choose(state.view(waiting), random.Random(0))


def test_legal_masks_match_the_engine_in_the_fast_driver():
    rules = Rules()
    _, _, plays = fast_deal(random.Random(99), rules, 0, ("heuristic", "heuristic"))
    state = Deal.random(random.Random(99), rules, 0).start()
    for card in plays:
        assert card in [c.index for c in state.legal_cards()]
        assert card in bit_list(state.legal_mask())
        state = state.play(Card.from_index(card))


# -- the heuristic values exactly what the scorer counts -----------------------------------------

RULE_SETS = st.builds(
    lambda values: Rules.from_dict(values),
    st.fixed_dictionaries({name: st.sampled_from(option.values) if option.values else st.integers(1, 12)
                           for name, option in OPTIONS_META.items()}))


@st.composite
def scored_deals(draw):
    """Rules under every option, a trump suit, the turned card, and who captured and held each card."""
    rules = draw(RULE_SETS)
    trump = draw(st.integers(0, 3))
    turned = -1 if rules.trump_cut else trump * 13 + draw(st.integers(0, 12))
    seats = st.integers(0, rules.players - 1)
    captured = draw(st.lists(seats, min_size=52, max_size=52))
    held = draw(st.lists(seats, min_size=52, max_size=52))
    piles = [sum(1 << c for c in range(52) if captured[c] == s) for s in range(rules.players)]
    received = [sum(1 << c for c in range(52) if held[c] == s) for s in range(rules.players)]
    return rules, trump, turned, piles, received, draw(st.integers(0, rules.players - 1))


@settings(max_examples=300, deadline=None, database=None)
@given(scored_deals())
def test_the_heuristics_stakes_equal_the_scorers_under_every_option(deal):
    """Moving one card's capture to another seat changes a point exactly where the stakes say so."""
    rules, trump, turned, piles, received, dealer = deal
    dead, live = stakes(rules, trump, False, turned), stakes(rules, trump, True, turned)
    points, pips = award_points(rules, trump, dealer, piles, received, turned)
    by_values = not rules.game_by_ten
    for card in range(52):
        owner = next(s for s, pile in enumerate(piles) if pile >> card & 1)
        other = (owner + 1) % rules.players
        moved = list(piles)
        moved[owner] ^= 1 << card
        moved[other] |= 1 << card
        points2, pips2 = award_points(rules, trump, dealer, moved, received, turned)
        changed = [name for name in points if points[name] != points2[name] and not (name == "game" and by_values)]
        assert dead[card] == (POINT_STAKE if changed else 0), (card, changed)
        assert live[card] - dead[card] == (pips2[other] - pips[other] if by_values else 0)
    low = trump * 13 + Rank.TWO
    assert keeps_low(rules, trump, turned) == (dead[low] == POINT_STAKE)


@settings(max_examples=300, deadline=None, database=None)
@given(st.lists(st.integers(0, 3), min_size=20, max_size=20), st.integers(2, 3))
@example([0, 1, 1, 1, 1] * 4, 2)   # 40-40 with nothing left: decided, and nobody scores Game
def test_game_is_decided_exactly_when_no_share_of_the_rest_changes_who_leads(owners, players):
    """``game_decided``: giving every value still out to any one seat leaves the leader as it is."""
    valued = [c for c in range(52) if pips_of(1 << c)]
    piles = [0] * players
    rest = 0
    for card, owner in zip(valued, owners):
        if owner < players:
            piles[owner] |= 1 << card
        else:
            rest |= 1 << card
    pips = [pips_of(p) for p in piles]
    outcomes = {game_winner([p + (pips_of(rest) if s == t else 0) for s, p in enumerate(pips)])
                for t in range(players)}
    assert game_decided(pips) == (outcomes == {game_winner(pips)})


@pytest.mark.parametrize("guesses", [(3, 7), (5, 2)])
def test_the_expert_spends_its_own_budget(monkeypatch, guesses):
    # Counted, not timed: the guesses at the hidden cards (calls to Sampler.sample) one
    # decision makes. A guess pays for trying each legal card to the end of the deal (every card
    # in the hands and the stock played) plus GUESS_COST: a budget of n such guesses makes n.
    from calijack.players import expert, worlds

    made = []
    real_sample = worlds.Sampler.sample
    monkeypatch.setattr(worlds.Sampler, "sample", lambda *a, **kw: made.append(1) or real_sample(*a, **kw))
    state = Deal.random(11).start()
    view = state.view(state.to_play)
    assert view.stock_count > 0 and len(view.legal) > 1   # a sampled decision, not the endgame's
    per_guess = expert.GUESS_COST + len(view.legal) * (sum(view.hand_sizes) + view.stock_count)
    counted = []
    for n in guesses:
        made.clear()
        player = expert.ExpertPlayer(budget=n * per_guess, min_samples=1, max_samples=1000)
        player.choose(view, random.Random(0))
        counted.append(len(made))
        assert player.last_stats["worlds"] == len(made)
    assert counted == list(guesses)
