"""The narrator: seat names, verbs that agree with them, and the sentences built from both."""

from __future__ import annotations

import random

import pytest

from calijack import Card, Deal, Rules, core
from calijack.text import Narrator, article, award_detail, counted, plural, seat_names
from calijack.text_hints import why_lead_low, why_only

C = Card.parse


def test_seats_are_you_and_your_opponent_or_left_and_right():
    assert seat_names(2, 0) == ("You", "Opponent") and seat_names(2, 1) == ("Opponent", "You")
    assert seat_names(3, 0) == ("You", "Left", "Right") and seat_names(3, 2) == ("Left", "Right", "You")
    two, three, record = Narrator(2, 0), Narrator(3, 1), Narrator(2)
    assert [two.who(s) for s in (0, 1, None)] == ["You", "Your opponent", "Nobody"]
    assert [two.who(s, start=False) for s in (0, 1)] == ["you", "your opponent"]
    assert [three.who(s, start=False) for s in (0, 1, 2)] == ["Right", "you", "Left"]
    assert [record.who(s, start=False) for s in (0, 1)] == ["seat 0", "seat 1"]


@pytest.mark.parametrize("seat, verb, said", [
    (0, "be", "You are"), (1, "be", "Your opponent is"), (0, "draw", "You draw"),
    (1, "draw", "Your opponent draws"), (1, "reach", "Your opponent reaches"), (0, "have", "You have"),
    (1, "have", "Your opponent has"), (None, "win", "Nobody wins"),
])
def test_verbs_agree_with_the_seat(seat, verb, said):
    assert Narrator(2, 0).does(seat, verb) == said


def test_a_completed_trick_says_who_would_win_and_draw_in_good_grammar():
    you, them = Narrator(2, 0), Narrator(2, 1)
    assert you.would_win(0, C("5H"), C("JH")) == ("That completes the trick: You would win it with 5♥ "
                                                  "and are first to draw from the stock, taking the exposed J♥.")
    assert them.would_win(0, C("5H"), C("JH")).startswith(
        "That completes the trick: Your opponent would win it with 5♥ and is first to draw")
    assert you.would_win(1, C("5H"), None) == "That completes the trick: Your opponent would win it with 5♥."
    bold = Narrator(2, 0, mark=lambda name: f"<b>{name}</b>")
    assert bold.would_win(0, C("5H"), None).startswith("That completes the trick: <b>You</b> would win")


def test_match_and_score_sentences():
    words = Narrator(2, 0)
    assert words.match_won(0, 10) == "You reached 10 and win the match."
    assert words.match_won(1, 7) == "Your opponent reached 7 and wins the match."
    assert words.score((3, 1)) == "you 3, your opponent 1"
    assert Narrator(3, 0).waiting() == "Wait a moment: your opponents are still playing."
    assert words.undone() == "Took back your last card, and your opponent's replies."


def test_award_details_name_the_seats_the_narrator_names():
    state = Deal.random(3).start().play_random(3)
    result = state.result()
    for award in result.awards:
        assert award.detail == award_detail(award.name, award.seat, award.card, award.basis, result.pips)
        mine = award.words(result.pips, Narrator(2, 0))
        assert "seat" not in mine
        if award.seat == 0 and award.basis == core.CAPTURED:
            assert mine == f"you captured {award.card}"
        if award.seat == 1 and award.basis == core.CAPTURED:
            assert mine == f"your opponent captured {award.card}"


def test_a_card_of_value_is_never_called_a_low_card_of_no_value():
    assert why_lead_low(C("4S"), 0, None, False, 2, False) == "Lead 4♠, a low card of no value"
    assert "Game is decided" in why_lead_low(C("TS"), 0, None, False, 2, True)
    assert "low card" not in why_lead_low(C("AS"), 4, C("3C"), False, 2, False)
    assert why_only(C("TS")) == "10♠ is the only legal card"


def test_every_hint_of_a_played_deal_reads_as_one_sentence():
    from calijack.players import get_player, play_deal

    said = []
    players = [get_player("heuristic"), get_player("random")]
    for seed in range(5):
        play_deal(Deal.random(seed, Rules()), players, random.Random(seed),
                  lambda state, seat, decision, *_: said.append(decision.reason))
    assert len(said) == 5 * 52
    for reason in said:
        assert (reason[0].isupper() or reason[0].isdigit()) and not reason.endswith(".") and "  " not in reason
        assert "seat" not in reason and "None" not in reason


@pytest.mark.parametrize("count, words, said", [
    (0, ("trick",), "0 tricks"), (1, ("trick",), "1 trick"), (2, ("trick",), "2 tricks"),
    (1, ("trick to go", "tricks to go"), "1 trick to go"), (6, ("trick to go", "tricks to go"), "6 tricks to go"),
    (1, ("play is marked", "plays are marked"), "1 play is marked"),
    (3, ("play is marked", "plays are marked"), "3 plays are marked"),
    (1, ("match point",), "1 match point"), (4, ("match point",), "4 match points"),
])
def test_a_number_and_its_words_agree(count, words, said):
    assert counted(count, *words) == said
    assert plural(count, *words) == said.split(" ", 1)[1]


@pytest.mark.parametrize("words, said", [
    ("exposed stock", "an exposed stock"), ("closed stock", "a closed stock"), ("trump", "a trump"),
    ("unseen card", "an unseen card"), ("unit", "a unit"), ("one-card hand", "a one-card hand"),
    ("A♠", "an A♠"), ("8♥", "an 8♥"), ("10♥", "a 10♥"), ("K♣", "a K♣"), ("J♥", "a J♥"),
    ("80", "an 80"), ("18", "an 18"), ("11-card hand", "an 11-card hand"), ("180", "a 180"),
    ("ace of trumps", "an ace of trumps"), ("hour", "an hour"),
])
def test_a_or_an_goes_by_the_sound(words, said):
    assert article(words) == said


def test_an_article_needs_a_word():
    with pytest.raises(ValueError, match="needs a word"):
        article("  ")


def test_the_points_sentence_counts_in_good_grammar():
    result = Deal.random(1).start().play_random(1).result()
    assert result.points == (3, 1)
    assert Narrator(2, 0).points(result) == ("You scored Low, Jack and Game (3 points); "
                                             "your opponent scored High (1 point).")


def test_points_never_counted_are_explained_in_good_grammar():
    from calijack.text import uncounted

    assert uncounted(["Game"]) == "Game is not counted: the match was won before its turn came."
    assert uncounted(["Jack", "Game"]) == "Jack and Game are not counted: the match was won before their turn came."


def test_every_rule_option_has_a_name_for_people():
    from calijack.rules import OPTIONS
    from calijack.text import option_name

    for name, option in OPTIONS.items():
        for value in option.values or (7, 10):
            said = option_name(name, value)
            # never the engine's words: no identifier, no quoted value, no True or False
            assert said and not any(word in said for word in ("_", "'", "True", "False")), (name, value, said)
    assert option_name("turned_jack", True) == "Turned jack to dealer"
    assert option_name("target", 7) == "Match to 7"
    with pytest.raises(KeyError, match="no name"):
        option_name("players", True)      # True is not 1, nor 2: a value the option never takes
