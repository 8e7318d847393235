"""California Jack as an OpenSpiel game (calijack/openspiel_game.py): OpenSpiel's own checks,
hidden cards kept hidden, the engine's scoring, and a seeded ISMCTS that reproduces.

OpenSpiel is imported plainly: without it these tests fail, they do not skip.
"""

from __future__ import annotations

import random

import pyspiel
import pytest

import calijack.openspiel_game as og
from calijack import Deal, Rules
from calijack.cards import DECK
from calijack.players import get_player

# The standard rules and three other rule sets, each changing several options at once.
RULE_SETS = [
    {},
    {"stock": "closed", "void_duty": "any", "difference": False},
    {"trump_from": "cut", "high_low": "held", "target": 7},
    {"game": "ten_of_trumps", "shasta_point": True, "turned_jack": True},
]
IDS = ["standard", "closed,any,points", "cut,held", "ten,shasta,turned_jack"]


def _rules(params: dict) -> Rules:
    return Rules.from_dict({k: v for k, v in params.items() if k != "difference"})


def _game(params: dict):
    return pyspiel.load_game(og.GAME_NAME, params)


def _played(game, seed: int, plays: int, lineup=("casual", "beginner")):
    """The OpenSpiel state of deal ``seed`` after ``plays`` cards chosen by the engine's players."""
    rng = random.Random(seed)
    engine = Deal.random(rng, game.rules).start()
    players = [get_player(name) for name in lineup]
    for _ in range(plays):
        if engine.finished:
            break
        engine = engine.play(players[engine.to_play].choose(engine.view(engine.to_play), rng).card)
    return game.state_of(engine)


@pytest.mark.parametrize("params", RULE_SETS, ids=IDS)
def test_openspiel_random_simulation_passes_with_serialization(params):
    game = _game(params)
    assert game.get_type().short_name == og.GAME_NAME and game.num_players() == 2
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_every_rule_option_is_a_parameter_and_a_bad_one_is_named():
    from calijack.rules import OPTIONS

    game = _game({"stock": "closed", "shasta_point": True})
    assert set(OPTIONS) | {"difference"} == set(game.get_parameters())
    assert game.rules == Rules(stock="closed", shasta_point=True)
    assert (game.min_utility(), game.max_utility()) == (-5.0, 5.0)
    assert _game({"difference": False}).get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    with pytest.raises(Exception, match="two-player game only: players=3"):
        _game({"players": 3})
    with pytest.raises(Exception, match="rule option 'stock' cannot be 'open'"):
        _game({"stock": "open"})
    with pytest.raises(Exception, match="no parameter 'bogus'"):
        og.CaliforniaJackGame({"bogus": 1})


def test_the_deal_is_chance_one_card_at_a_time_then_the_engines_play():
    game = _game({"trump_from": "cut"})
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    state.apply_action(1)                                   # player 1 deals
    assert [a for a, _ in state.chance_outcomes()] == [0, 1, 2, 3]
    state.apply_action(2)                                   # a cut: hearts are trumps
    for left in range(52, 0, -1):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == left and abs(sum(p for _, p in outcomes) - 1) < 1e-9
        state.apply_action(outcomes[-1][0])
    assert not state.is_chance_node() and state.current_player() == 0   # the dealer's opponent leads
    deal = state.engine.deal
    assert deal.dealer == 1 and int(deal.trump) == 2 and deal.hands[0][0] == DECK[51]
    assert og.deal_actions(deal) == state.history()
    with pytest.raises(Exception, match="do not hold"):  # the engine refuses a card not held
        state.apply_action(next(c for c in range(52) if c not in state.legal_actions()))


@pytest.mark.parametrize("params", [RULE_SETS[0], RULE_SETS[1]], ids=IDS[:2])
def test_resampling_keeps_what_the_player_knows_and_deals_the_hidden_cards_again(params):
    game = _game(params)
    for seed, plays in [(1, 0), (2, 7), (3, 24), (4, 41)]:
        state = _played(game, seed, plays)
        player = state.current_player()
        sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
        others = set()
        for _ in range(4):
            guess = state.resample_from_infostate(player, sampler)
            assert guess.information_state_string(player) == state.information_state_string(player)
            assert guess.observation_string(player) == state.observation_string(player)
            assert guess.current_player() == player and guess.legal_actions() == state.legal_actions()
            assert guess.engine.plays == state.engine.plays and len(guess.history()) == len(state.history())
            assert guess.engine.hand(player) == state.engine.hand(player)
            others.add(guess.engine.deal)
        # The hidden cards really move: four guesses, four different deals, none of them the real one.
        assert len(others) == 4 and state.engine.deal not in others


def test_the_information_state_hides_what_the_player_has_not_seen_and_shows_what_it_has():
    game = _game({})
    state = _played(game, 5, 9)
    player = state.current_player()
    guess = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(3, 0.0, 1.0))
    assert guess.engine.deal != state.engine.deal
    other = 1 - player
    # The other player's cards differ between the two states, so the other player can tell them apart.
    assert guess.information_state_string(other) != state.information_state_string(other)
    assert "hand " + " ".join(c.code for c in sorted(state.engine.hand(player), key=lambda c: c.index)) \
        in state.information_state_string(player)
    tensor = state.observation_tensor(player)
    assert len(tensor) == game.observation_tensor_size() == 321
    assert sum(tensor[8:60]) == len(state.engine.hand(player))   # the hand plane


@pytest.mark.parametrize("params", RULE_SETS, ids=IDS)
def test_returns_are_the_engines_scoring_of_deals_played_by_our_players(params):
    game = _game(params)
    for seed in range(2):
        state = _played(game, seed, 52, lineup=("beginner", "casual"))
        assert state.is_terminal()
        # Score the same cards again, from a deal rebuilt out of the OpenSpiel history.
        engine = Deal.from_cards(state.engine.deal.hands, state.engine.deal.stock, state.engine.deal.dealer,
                                 _rules(params), state.engine.deal.trump if _rules(params).trump_cut else None)
        points = engine.start().play_all(DECK[a] for a in state.history()[-52:]).result().points
        expected = ([points[0] - points[1], points[1] - points[0]] if params.get("difference", True)
                    else list(points))
        assert state.returns() == expected
        assert sum(points) >= 3   # High, Low and Jack (or the nine) always score: a real deal was scored


def test_a_seeded_ismcts_game_reproduces():
    game = _game({})

    def play(seed: int) -> list[int]:
        bots = [og.ismcts_bot(game, 8, seed), og.ismcts_bot(game, 8, seed + 100)]
        state = _played(game, 11, 30)
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        return state.history()

    first = play(1)
    assert play(1) == first
    assert play(2) != first


def test_without_openspiel_the_engine_works_and_the_game_module_says_how_to_install_it():
    import subprocess
    import sys

    code = """
import sys
sys.modules["pyspiel"] = None          # as if OpenSpiel were not installed
import calijack, calijack.players, calijack.simulate, calijack.play
try:
    import calijack.openspiel_game
except ImportError as error:
    print(error)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "calijack.openspiel_game needs OpenSpiel" in out.stdout
    assert "pip install open_spiel==2.0.2" in out.stdout


def test_resampling_while_dealing_keeps_the_players_own_cards():
    game = _game({})
    state = game.new_initial_state()
    rng = random.Random(4)
    for _ in range(21):                      # the dealer, then 20 cards: both hands and 8 of the stock
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    guess = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(1, 0.0, 1.0))
    assert guess.is_chance_node() and guess.information_state_string(0) == state.information_state_string(0)
    assert len(guess.history()) == len(state.history()) and guess.history() != state.history()
    assert guess.information_state_string(1) != state.information_state_string(1)
