"""calijack.widgets.walkthrough: whole deals told trick by trick, every fact from the engine."""

from __future__ import annotations

import random
import re

import pytest

from calijack import Deal
from calijack.widgets.demo_worked import worked_deal
from calijack.widgets.walkthrough import deal_story, knowledge_story, score_sheets, trick_story


def played(seed: int, dealer: int = 0):
    rng = random.Random(seed)
    return Deal.random(rng, dealer=dealer).start().play_random(rng)


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


@pytest.fixture(scope="module")
def worked():
    return worked_deal().start().play_all(["7C", "2H"]).play_random(3)


def test_the_first_trick_of_the_worked_example(worked):
    lines = trick_story(worked, 1, ("A", "B"))
    assert lines[0] == "A leads 7♣; B plays 2♥. B wins with 2♥: a trump beats any card of the suit led."
    assert lines[1] == "B captures 2♥, so the Low point will be B's."
    assert lines[2].startswith("Drawing, winner first: B takes J♥ (the jack of trumps); A takes Q♦.")
    assert f"38 cards are left in the stock, {worked.rewind(2).stock_top} on top." in lines[2]
    assert lines[-1] == "Card values captured so far: A 0, B 0."


def test_you_and_your_opponent_read_as_english():
    state = played(11)
    lines = " ".join(trick_story(state, k, ("You", "Opponent")) [0] for k in range(1, 27))
    assert "You lead" in lines or "you play" in lines
    assert "You leads" not in lines and "you plays" not in lines and "You wins" not in lines
    assert "Opponent" not in lines.replace("Your opponent", "").replace("your opponent", "")


def test_every_trick_says_who_won_as_the_engine_decided():
    state = played(4)
    names = ("North", "South")
    for k, trick in enumerate(state.tricks, 1):
        first = trick_story(state, k, names)[0]
        assert f"{names[trick.winner]} wins with " in first
        winning = trick.cards[(trick.winner - trick.leader) % 2]
        assert f"wins with {winning}" in first
    endings = {line.split(". ", 1)[1].split(" with ", 1)[1].split(",", 1)[-1].split(":", 1)[-1].strip()
               for seed in range(6) for line in
               (trick_story(played(seed), k, names)[0] for k in range(1, 27))}
    assert endings == {"a card of another suit cannot take the trick.", "a trump beats any card of the suit led.",
                       "the higher card of the suit led."}


def test_the_stock_running_out_is_told_once(worked):
    stories = [" ".join(trick_story(worked, k, ("A", "B"))) for k in range(1, 27)]
    assert [("last of the stock" in s) for s in stories].count(True) == 1
    assert "last of the stock" in stories[19] and "the last 6 tricks" in stories[19]
    assert all("No drawing now." in s for s in stories[20:25]) and "No drawing" not in stories[25]


def test_deal_story_frames_and_final_score(worked):
    demo = deal_story(worked, names=("A", "B"), match_scores=(0, 0))
    assert demo.frame_count == 26 + 2
    labels = [text(child.value) for child in demo.label_stack.children]
    assert labels[0] == "Before the first lead" and labels[1] == "Trick 1 of 26: B wins"
    last = text(demo.stack.children[-1].value)
    result = worked.result()
    scores = f"A {result.points[0]}, B {result.points[1]}"
    assert f"The match score is now {scores}." in last and "A deals the next deal" in last
    assert "Score sheet" in last


def test_deal_story_says_who_wins_the_match():
    state = played(6)
    before = [9, 9]
    demo = deal_story(state, names=("You", "Opponent"), match_scores=before)
    last = text(demo.stack.children[-1].value)
    assert "wins the match" in last or "win the match" in last


def test_deal_story_refuses_an_unfinished_deal():
    with pytest.raises(ValueError, match="finished deal"):
        deal_story(Deal.random(1).start())
    with pytest.raises(ValueError, match="State"):
        deal_story("not a deal")


def test_knowledge_story_says_what_each_side_knows():
    state = played(11, dealer=1)
    demo = knowledge_story(state, names=("You", "Opponent"), seat=0, tricks=10)
    assert demo.frame_count == 11
    for k in (1, 4, 10):
        frame = text(demo.stack.children[k].value)
        now = state.rewind(2 * k)
        seen = ", ".join(map(str, now.view(0).known[1]))
        theirs = ", ".join(map(str, now.view(1).known[0]))
        hidden = now.view(0).hidden_counts[1]
        assert (f"You know {seen} in your opponent's hand (seen drawn, not yet played); the other "
                f"{hidden} {'is' if hidden == 1 else 'are'} hidden." if seen else
                f"You know none of your opponent's cards: all {hidden} are hidden.") in frame
        assert f"Your opponent knows {theirs or 'none'} of your cards" in frame
    assert "You know none of your opponent's cards: all 6 are hidden." in text(demo.stack.children[0].value)
    # Numbers and words agree: this deal has a frame where one card alone is hidden.
    frames = [text(child.value) for child in demo.stack.children]
    assert any("the other 1 is hidden" in f for f in frames) and not any("1 are" in f for f in frames)


def test_score_sheets_one_button_per_deal():
    deals = [played(seed) for seed in range(2, 5)]
    demo = score_sheets(deals, names=("You", "Opponent"))
    assert demo.control.options == ("Deal 1", "Deal 2", "Deal 3")
    for child, state in zip(demo.stack.children, deals):
        points = state.result().points
        assert f"You {points[0]}, Opponent {points[1]}" in text(child.value)
    with pytest.raises(ValueError, match="at least one"):
        score_sheets([])
    with pytest.raises(ValueError, match="not finished"):
        score_sheets([Deal.random(1).start()])


def test_the_last_tricks_count_down_in_good_grammar():
    state = played(11, dealer=1)
    said = [" ".join(trick_story(state, k, ("You", "Opponent"))) for k in (24, 25)]
    assert "No drawing now. 2 tricks to go." in said[0]
    assert "No drawing now. 1 trick to go." in said[1]
