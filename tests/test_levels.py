"""The four opponents a learner chooses from: names, sentences, legal play, Beginner's habits."""

from __future__ import annotations

import random

import pytest

from calijack import Card, Deal, Rules
from calijack.cards import DECK
from calijack.players import LEVELS, PLAYERS, get_player, play_deal
from calijack.players.beginner import HABITS, WIN, beginner_index
from calijack.players.expert import ExpertPlayer
from calijack.players.heuristic import HeuristicPlayer
from calijack.players.search import SearchPlayer
from calijack.simulate import run


class Draw:
    """A generator whose ``random()`` always returns ``value`` (to pick a habit)."""

    def __init__(self, value: float):
        self.value = value

    def random(self) -> float:
        return self.value


def _mask(*codes: str) -> int:
    return sum(Card.parse(code).bit for code in codes)


def _index(code: str) -> int:
    return Card.parse(code).index


SPADES = 3
NUMBER_WORDS = {5: "five", 6: "six", 7: "seven"}


def test_the_levels_weakest_first_each_with_a_label_and_one_plain_sentence():
    assert list(LEVELS) == ["beginner", "casual", "strong", "expert"]
    assert [level.label for level in LEVELS.values()] == ["Beginner", "Casual", "Strong", "Expert"]
    for level in LEVELS.values():
        about = level.about
        assert about[0].isupper() and about.endswith(".") and about.count(". ") == 0, about
        for word in ("heuristic", "search", "random", "sample", "rollout", "epsilon"):
            assert word not in about.lower(), (level.name, word)
    assert len({level.about for level in LEVELS.values()}) == 4


def test_levels_and_old_names_build_the_players():
    assert type(get_player("casual")) is type(get_player("heuristic")) is HeuristicPlayer
    assert type(get_player("strong")) is type(get_player("search")) is SearchPlayer
    assert repr(get_player("strong")) == repr(get_player("search"))      # the same options: one player
    assert isinstance(get_player("expert"), ExpertPlayer)
    assert get_player("beginner").name == "beginner"
    assert set(PLAYERS) == set(LEVELS) | {"random", "heuristic", "search"}


def test_expert_refuses_bad_options_in_words():
    from calijack.players import PlayerError

    with pytest.raises(PlayerError, match="budget must be a whole number"):
        get_player("expert", budget=0)
    with pytest.raises(PlayerError, match="min_samples .* is more than max_samples"):
        get_player("expert", min_samples=9, max_samples=3)


@pytest.mark.parametrize("options", [{}, {"stock": "closed", "void_duty": "any"}, {"players": 3, "trump_from": "cut"}],
                         ids=["standard", "closed,any", "three,cut"])
def test_every_level_plays_only_legal_cards(options):
    rules = Rules.from_dict(options)
    cheap = {"strong": {"samples": 3}, "expert": {"samples": 3, "max_samples": 4}}
    for k, name in enumerate(LEVELS):
        rng = random.Random(k)
        seats = [get_player(name, **cheap.get(name, {}))] + [get_player("casual")] * (rules.players - 1)
        state = play_deal(Deal.random(rng, rules), seats, rng)
        assert state.finished  # State.play raises on an illegal card


def test_the_expert_as_learners_meet_it_plays_a_whole_deal():
    rng = random.Random(5)
    seen = []
    expert = get_player("expert")
    state = play_deal(Deal.random(rng), [expert, get_player("strong")], rng,
                      lambda s, seat, d, *_: seat == 0 and seen.append(dict(expert.last_stats)))
    assert state.finished
    sampled = [s["worlds"] for s in seen if s.get("mode") == "sampled"]
    # More guesses than Strong's 20 everywhere, and most where few cards are left to play.
    assert min(sampled) >= 20 and max(sampled) > 2 * min(sampled)
    assert any(s.get("mode") == "exact" for s in seen)


def test_beginner_is_seeded_and_reproducible():
    def game(seed):
        rng = random.Random(seed)
        reasons = []
        state = play_deal(Deal.random(rng, Rules(), 0), [get_player("beginner"), get_player("casual")], rng,
                          lambda s, seat, d, *_: seat == 0 and reasons.append(d.reason))
        return state.plays, reasons

    first = game(3)
    assert game(3) == first
    assert game(4)[0] != first[0]
    assert all(reason and not reason[0].islower() and not reason.endswith(".") for reason in first[1])


def test_beginners_habits_are_a_learners_not_a_dice_roll():
    # Spades are trumps. A trick led with 5♣: the Beginner holds 9♣, K♣ and the trump two.
    legal, trick = _mask("9C", "KC", "2S"), (_index("5C"),)
    assert beginner_index(legal, trick, SPADES, Draw(0.0)) == (_index("2S"), "win_big")        # spends a trump
    assert beginner_index(legal, trick, SPADES, Draw(WIN - 0.01)) == (_index("2S"), "win_big")
    assert beginner_index(legal, trick, SPADES, Draw(WIN)) == (_index("9C"), "let_go")
    # An ace led, nothing wins: the lowest card by rank goes, whatever the trick is worth.
    assert beginner_index(_mask("3C", "TC", "JC"), (_index("AC"),), SPADES, Draw(0.5)) == (_index("3C"), "throw")
    # Leading: the strongest card, a trump before a plain card; or now and then the lowest.
    lead = _mask("AC", "3S", "TD")
    assert beginner_index(lead, (), SPADES, Draw(0.1)) == (_index("3S"), "lead_strong")
    assert beginner_index(lead, (), SPADES, Draw(0.9)) == (_index("3S"), "lead_small")
    assert beginner_index(_mask("AC", "4D", "TD"), (), SPADES, Draw(0.9)) == (_index("4D"), "lead_small")
    assert beginner_index(_mask("QH"), (), SPADES, Draw(0.5)) == (_index("QH"), "only")
    assert set(HABITS) == {"only", "win_big", "let_go", "throw", "lead_strong", "lead_small"}


def test_beginner_wins_a_worthless_trick_a_casual_player_would_lose():
    # Hearts are trumps (cut); the stock shows 5♦, worth nothing; the opponent leads 3♣, and
    # the Beginner holds A♣ and 4♣ (and no heart).
    hands = [["3C", "8D", "9D", "5S", "6S", "7S"], ["AC", "4C", "2D", "3D", "4D", "8S"]]
    held = {code for hand in hands for code in hand} | {"5D"}
    deal = Deal.from_cards(hands, ["5D"] + [c for c in DECK if c.code not in held], dealer=1,
                           rules={"trump_from": "cut"}, trump="H")
    state = deal.start().play("3C")
    view = state.view(1)
    assert get_player("beginner").choose(view, Draw(0.1)).card == Card.parse("AC")
    assert get_player("casual").choose(view, random.Random(0)).card == Card.parse("4C")


def test_simulate_takes_the_levels_and_the_old_names():
    report = run("beginner", "casual", deals=2, jobs=1, seed=3)
    assert report["players"] == ["beginner", "casual"] and report["deals"] == 2
    report = run("expert", "random", deals=1, jobs=1, a_options={"samples": 2, "max_samples": 2})
    assert report["decision_ms"]["A"]["decisions"] > 0
    assert run("heuristic", "search", deals=1, jobs=1, b_options={"samples": 2})["deals"] == 1


def test_the_committed_ladder_holds_and_the_readme_shows_it():
    from pathlib import Path

    from calijack.players import ladder

    data = ladder.load()
    steps = [row for row in ladder.rows(data) if row.lower in LEVELS]
    names = list(LEVELS)
    assert [(r.upper, r.lower) for r in steps] == list(zip(names[1:], names[:-1]))
    assert all(r.low > 0 and r.pairs >= 400 and r.low <= r.mean <= r.high for r in steps)
    assert set(data["native_ms"]) == set(LEVELS)
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    assert ladder.readme_table(data) in readme


def test_each_levels_sentence_says_what_that_level_does():
    # Each sentence names what its own player does, in words no other level's sentence uses,
    # and the player is seen to do it: two sentences swapped fail here.
    from calijack.players import DEFAULT_SAMPLES, RULES_OF_THUMB
    from calijack.players import beginner, expert

    about = {name: level.about.lower() for name, level in LEVELS.items()}
    hand = len(Deal.random(1).hands[0])           # the cards each hand holds once the stock is gone
    own = {
        # Wins a trick it can win WIN of the time, leads its strongest card LEAD_STRONG of the time.
        "beginner": ["grabs nearly every trick it can", "leads its best cards", "no attention"],
        # The rules of thumb (heuristic.RULES_OF_THUMB) are the whole of its play.
        "casual": ["rules of thumb"],
        # Guesses at the hidden cards while the stock lasts, then solves the last hand exactly.
        "strong": ["imagines where the hidden cards may be", f"last {NUMBER_WORDS[hand]} tricks perfectly"],
        # The search with more guesses (at least MIN_SAMPLES, against DEFAULT_SAMPLES), more when
        # the stock runs low (its budget pays for more of them when fewer cards are left), and the
        # bank rule (a ten that is sure to win a trick takes it; ExpertPlayer.bank, on by default).
        "expert": ["like strong", "many more guesses", "when the stock runs low", "with a ten"],
    }
    assert ExpertPlayer().bank and not SearchPlayer.bank
    for name, phrases in own.items():
        for phrase in phrases:
            assert [n for n in about if phrase in about[n]] == [name], (name, phrase)
    assert 0.5 < beginner.WIN < 1 and 0.5 < beginner.LEAD_STRONG < 1
    assert PLAYERS["casual"] is HeuristicPlayer and len(RULES_OF_THUMB) >= 3
    assert PLAYERS["strong"] is SearchPlayer and issubclass(PLAYERS["expert"], SearchPlayer)
    assert expert.MIN_SAMPLES > DEFAULT_SAMPLES
    # The Expert's guesses (counted) grow as the stock runs low: fewer cards to play in each try.
    state, worlds = Deal.random(2).start(), []
    while len(worlds) < 2:
        view = state.view(state.to_play)
        assert view.stock_count > 0, worlds
        if len(view.legal) > 1 and (not worlds or view.stock_count <= 4):
            player = ExpertPlayer(budget=3000, min_samples=1)
            player.choose(view, random.Random(0))
            worlds.append(player.last_stats["worlds"])
        state = state.play(state.legal_cards()[0])
    assert len(worlds) == 2 and worlds[1] > 2 * worlds[0], worlds
