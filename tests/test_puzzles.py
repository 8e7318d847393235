"""The practice puzzles: every answer re-checked, the positions reproduced from their seeds."""

from __future__ import annotations

import re
from dataclasses import replace
from html import unescape

import pytest

from calijack.cards import parse_card
from calijack.puzzles import STAGE_TRICKS, check, clear_answer, derive, find, freeze, from_its_seed, load
from calijack.records import deal_record
from calijack.review import exact_position
from calijack.widgets.practice import practice_set

PUZZLES = load()


def test_at_least_24_puzzles_graded_from_the_opening_to_the_endgame():
    order = list(STAGE_TRICKS)
    assert len(PUZZLES) >= 24
    assert [p.number for p in PUZZLES] == list(range(1, len(PUZZLES) + 1))
    stages = [order.index(p.stage) for p in PUZZLES]
    assert stages == sorted(stages) and all(stages.count(k) >= 6 for k in range(len(order)))
    for p in PUZZLES:
        state = p.state
        first, last = STAGE_TRICKS[p.stage]
        assert first <= state.trick_number <= last
        assert exact_position(state) == p.exact == (p.stage == "endgame")


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: f"{p.number}-{p.stage}")
def test_every_answer_is_rechecked_by_the_engine(puzzle):
    ok, line = check(puzzle)
    assert ok, line
    rating = puzzle.rating()
    best = parse_card(puzzle.answer)
    assert clear_answer(rating) == puzzle.answer and rating.best == [best]
    others = [c for c in rating.values if c != best]
    if puzzle.exact:
        assert all(rating.values[best] - rating.values[c] >= 1 for c in others)
    else:
        assert all(rating.margin(best, c)[0] > 0 for c in others)
    assert freeze(rating) == puzzle.stored


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: f"{p.number}-{p.stage}")
def test_every_position_comes_from_its_seed(puzzle):
    # The cards are the seed's; the plays are the record's (the heuristic's when it was found).
    assert from_its_seed(puzzle)
    assert not from_its_seed(replace(puzzle, seed=puzzle.seed + 1))
    assert not from_its_seed(replace(puzzle, plays=puzzle.plays + 1))


def test_a_puzzle_found_now_is_its_seeds_deal_played_by_the_heuristic():
    puzzle = next(p for p in PUZZLES if p.stage == "last_draws")
    again = derive(puzzle.seed, 3)
    assert len(again.plays) == 3
    assert from_its_seed(replace(puzzle, record=deal_record(again), plays=3))


def test_the_finder_is_reproducible_and_its_puzzles_check():
    said = []
    first = find(per_stage=2, stages=["endgame"], say=said.append)
    again = find(per_stage=2, stages=["endgame"], say=lambda _line: None)
    assert [p.to_json() for p in first] == [p.to_json() for p in again] and len(said) == 2
    assert all(check(p)[0] and p.exact for p in first)


def test_a_wrong_answer_in_the_file_is_caught():
    puzzle = next(p for p in PUZZLES if p.exact)
    wrong = next(c.code for c in puzzle.state.legal_cards() if c.code != puzzle.answer)

    ok, line = check(replace(puzzle, answer=wrong))
    assert not ok and f"not {wrong}" in line
    tampered = replace(puzzle, stored={**puzzle.stored, "values": {k: v + 1 for k, v in puzzle.stored["values"].items()}})
    assert not check(tampered)[0]


def _text(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", html))


def test_each_puzzle_offers_every_legal_card_and_explains_each_pick():
    box = practice_set(PUZZLES[:3])
    assert len(box.questions) == 3
    for item in box.questions:
        puzzle, rating = item.puzzle, item.rating
        state = puzzle.state
        assert list(item.control.options) == [str(c) for c in state.legal_cards()]
        assert list(item.control.tooltips) == [c.name for c in state.legal_cards()]
        assert item.control.index is None and item.stack.selected_index is None  # nothing given away
        for card, frame in zip(state.legal_cards(), item.stack.children):
            right = card.code == puzzle.answer
            assert f'data-right="{str(right).lower()}"' in frame.value
            words = _text(frame.value)
            assert ("Right." if right else "Not quite.") in words
            for other, value in rating.shown.items():
                assert str(other) in words
            assert "your pick" in words and "best" in words
    assert box.questions[0].prompt.value.count(f"<strong>{PUZZLES[0].number}.</strong>") == 1


def test_the_puzzles_come_one_stage_at_a_time():
    """A button per stage over a Stack of the stages' sets, tied by jslink: a page holds (and a
    Stack draws) one stage's tables at a time."""
    import ipywidgets as widgets

    from calijack.text_coach import STAGE_TITLES
    from calijack.widgets.practice import STAGES_CLASS, practice_stages

    box = practice_stages(PUZZLES)
    stages = list(STAGE_TRICKS)
    assert STAGES_CLASS in box._dom_classes and box.stages == tuple(stages)
    assert list(box.control.options) == [f"{k}. {STAGE_TITLES[s]}" for k, s in enumerate(stages, 1)]
    assert box.control.index == 0 == box.stack.selected_index
    (link,) = box.links
    assert link.source == (box.control, "index") and link.target == (box.stack, "selected_index")
    for stage, page, chosen in zip(stages, box.stack.children, box.sets, strict=True):
        mine = [p for p in PUZZLES if p.stage == stage]
        assert [q.puzzle for q in chosen.questions] == mine
        assert isinstance(page.children[0], widgets.HTML) and page.children[1] is chosen
    with pytest.raises(ValueError, match="at least one puzzle"):
        practice_stages([])


# The puzzles learners have played, by number: (seed, plays before the position, answer). A
# learner's stars are kept by puzzle number (the progress document's "puzzles"), in browsers
# and on the class's hub, so a number must keep its position once published.
PUBLISHED = {1: (3, 0, "AC"), 2: (8, 1, "4H"), 3: (9, 3, "TH"), 4: (15, 8, "AH"), 5: (306, 5, "4H"),
             6: (436, 5, "6S"), 7: (1, 18, "JD"), 8: (2, 21, "3H"), 9: (6, 16, "9C"), 10: (11, 24, "KD"),
             11: (22, 21, "TS"), 12: (26, 25, "TC"), 13: (1, 39, "JH"), 14: (2, 31, "4C"), 15: (4, 31, "TC"),
             16: (7, 31, "9H"), 17: (17, 38, "4H"), 18: (12, 31, "TC"), 19: (1, 41, "TH"), 20: (4, 41, "AC"),
             21: (13, 43, "TS"), 22: (14, 44, "TH"), 23: (17, 47, "AH"), 24: (20, 42, "KS")}


def test_a_published_puzzle_keeps_its_number():
    by_number = {p.number: p for p in PUZZLES}
    for number, (seed, plays, answer) in PUBLISHED.items():
        assert number in by_number, (
            f"puzzle {number} is gone: learners' stars on it stay in their progress, under a number "
            f"nothing shows any more; keep it, or say in CHANGELOG.md that it was dropped and take it out of PUBLISHED")
        now = by_number[number]
        assert (now.seed, now.plays, now.answer) == (seed, plays, answer), (
            f"puzzle {number} is now another position (seed {now.seed}, {now.plays} plays, answer {now.answer}; "
            f"it was seed {seed}, {plays} plays, {answer}): learners' stars are kept by puzzle number, so their "
            f"stars on the old puzzle would pass to the new one. Give a new puzzle a new number; if it must take "
            f"this one, say so in CHANGELOG.md and change PUBLISHED here")
