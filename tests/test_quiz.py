"""calijack.widgets.quiz: quick checks built from the engine, answered with no kernel."""

from __future__ import annotations

import re

import ipywidgets as widgets
import pytest
from ipywidgets.embed import dependency_state

from calijack import DECK, Card, Deal
from calijack.widgets.quiz import (ANSWER_CLASS, CONTROL, FEEDBACK_CLASS, QUESTION_CLASS, QUIZ_CLASS, Answer,
                                   legal_play_question, position_html, question, quick_checks)
from calijack.widgets.static import CONTROL_CLASS, DEMO_CLASS


def marked(html: str, mark: str) -> bool:
    """Whether some card picture in `html` carries the mark (the class on its <svg>)."""
    return re.search(r'<svg[^>]*class="[^"]*\b' + mark + r'\b', html) is not None


def spades_trump(yours: str, lead: str, leader: str = "9♦ 10♥ A♦ J♠ 4♣ 8♣"):
    """Seat 0 leads `lead`; seat 1 (to play) holds `yours`; spades are trump."""
    hands = [[Card.parse(t) for t in hand.split()] for hand in (leader, yours)]
    top = Card.parse("5♠")
    rest = [c for c in DECK if c not in hands[0] + hands[1] + [top]]
    return Deal.from_cards(hands, [top] + rest, dealer=1).start().play(lead)


def test_a_question_starts_with_nothing_chosen_and_links_each_answer_to_its_feedback():
    q = question("Which?", [Answer("yes", True, "because it is so"), Answer("no", False, "it is not")])
    assert QUESTION_CLASS in q._dom_classes and DEMO_CLASS not in q._dom_classes
    assert CONTROL in q.control._dom_classes and CONTROL_CLASS not in q.control._dom_classes
    assert isinstance(q.control, widgets.ToggleButtons) and q.control.options == ("yes", "no")
    assert q.control.index is None and q.stack.selected_index is None
    (link,) = q.links
    assert link.source == (q.control, "index") and link.target == (q.stack, "selected_index")
    frames = [child.value for child in q.stack.children]
    assert 'data-right="true"' in frames[0] and "Right." in frames[0] and "because it is so" in frames[0]
    assert 'data-right="false"' in frames[1] and "Not quite." in frames[1]
    assert all(FEEDBACK_CLASS in f for f in frames)
    # The embedded state says "nothing chosen" outright, so the page shows no feedback at first.
    state = dependency_state([q, *q.links], drop_defaults=False)
    assert state[q.control.model_id]["state"]["index"] is None


def test_every_question_writes_its_answers_out_in_a_folded_box():
    """Readable with no script: the right answer and its reason, then the others, from the same Answers."""
    answers = [Answer("no", False, "it is not so"), Answer("yes", True, "because it is so"),
               Answer("maybe", False, "only sometimes")]
    q = question("Which?", answers)
    assert q.children[-1] is q.answer
    box = q.answer.value
    assert box.startswith(f'<details class="{ANSWER_CLASS}"><summary>Answer</summary>') and " open" not in box
    assert FEEDBACK_CLASS not in box      # the feedback frames stay the buttons' own
    text = re.sub(r"<[^>]+>", "", box)
    assert text.index("yes: because it is so") < text.index("The other answers:")
    assert "no: it is not so" in text and "maybe: only sometimes" in text
    single = question("Which?", [Answer("a", True, "why a"), Answer("b", False, "why b")]).answer.value
    assert "The other answer:" in re.sub(r"<[^>]+>", "", single)
    escaped = question("<b>?", [Answer("<i>", True, "x < y"), Answer("b", False, "z")]).answer.value
    assert "&lt;i&gt;" in escaped and "x &lt; y" in escaped


def test_quick_checks_number_the_questions():
    qs = [question(f"Q{k}?", [Answer("a", True, "why a"), Answer("b", False, "why b")]) for k in range(3)]
    box = quick_checks(qs)
    assert QUIZ_CLASS in box._dom_classes and list(box.children) == qs
    assert [q.prompt.value.count(f"<strong>{k}.</strong>") for k, q in enumerate(qs, 1)] == [1, 1, 1]


@pytest.mark.parametrize("answers, message", [
    ([Answer("a", True, "x")], "at least two answers"),
    ([Answer("a", False, "x"), Answer("b", False, "y")], "none of the answers"),
    ([Answer("a", True, "x"), Answer("a", False, "y")], "appears twice"),
])
def test_bad_questions_are_refused_with_a_reason(answers, message):
    with pytest.raises(ValueError, match=message):
        question("Which?", answers)


def test_bad_parts_are_refused():
    with pytest.raises(ValueError, match="prompt"):
        question("  ", [Answer("a", True, "x"), Answer("b", False, "y")])
    with pytest.raises(TypeError, match="Answer"):
        question("Which?", [Answer("a", True, "x"), ("b", False, "y")])
    with pytest.raises(ValueError, match="non-empty"):
        Answer("a", True, "")
    with pytest.raises(ValueError, match="True or False"):
        Answer("a", 1, "x")
    with pytest.raises(ValueError, match="at least one"):
        quick_checks([])
    with pytest.raises(TypeError, match="quiz.question"):
        quick_checks([widgets.VBox()])


def test_legal_play_question_marks_exactly_the_legal_set_right_with_the_engines_reasons():
    state = spades_trump("K♦ 4♦ 7♠ A♣ Q♥ 3♥", lead="9♦")
    q = legal_play_question("Which?", state, [("Only my diamonds", ["K♦", "4♦"]),
                                              ("My diamonds or my spade", ["K♦", "4♦", "7♠"]),
                                              ("Any card", state.hand(1))], names=("Opponent", "You"))
    assert [a.right for a in q.answers] == [False, True, False]
    diamonds, right, anything = q.answers
    assert diamonds.why.startswith("7♠ is allowed too.") and state.explain("7♠").reason in diamonds.why
    assert anything.why.startswith("A♣ is not allowed here.") and state.explain("A♣").reason in anything.why
    assert state.explain("K♦").reason in right.why
    # The picture shows the led card and the hand, unmarked, so it gives nothing away.
    picture = q.prompt_parts[1]
    assert "Opponent led" in picture and "Your hand" in picture and 'data-card="9D"' in picture
    assert not marked(picture, "cj-legal") and not marked(picture, "cj-illegal")


def test_legal_play_question_refuses_a_card_not_in_hand_and_a_finished_deal():
    state = spades_trump("K♦ 4♦ 7♠ A♣ Q♥ 3♥", lead="9♦")
    with pytest.raises(ValueError, match="does not hold"):
        legal_play_question("Which?", state, [("the ace", ["A♠"]), ("any", state.hand(1))])
    end = Deal.random(1, dealer=0).start().play_random(1)
    with pytest.raises(ValueError, match="in progress"):
        legal_play_question("Which?", end, [])
    with pytest.raises(ValueError, match="in progress"):
        position_html(end)


def test_position_html_marks_only_when_asked():
    state = spades_trump("K♦ 4♦ 7♠ A♣ Q♥ 3♥", lead="9♦")
    plain = position_html(state, names=("Opponent", "You"))
    marked_html = position_html(state, names=("Opponent", "You"), marks=True)
    assert "Opponent led" in plain and "Your hand" in plain and "Trump: spades" in plain
    assert not marked(plain, "cj-legal") and marked(marked_html, "cj-legal") and marked(marked_html, "cj-illegal")


def test_a_box_of_checks_shown_on_other_pages_names_its_own_and_the_book_counts_it_there_only():
    """Lesson 3 shows chapter 3's checks: their box names the chapter (``OWNER_CLASS``), so the
    answers are kept under the chapter's name and the book's list of what there is to do
    (``calijack_progress.book_manifest``) counts them on the chapter, not on the lesson too."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "book" / "_ext"))
    from calijack_progress import _checks_of_other_pages

    from calijack.widgets.lesson_checks import LEGAL_PLAY_PAGE, legal_play_checks
    from calijack.widgets.quiz import OWNER_CLASS, owner_of

    box = legal_play_checks()
    assert owner_of(box._dom_classes) == LEGAL_PLAY_PAGE == "book/03_legal_play"
    assert OWNER_CLASS + "book--03_legal_play" in box._dom_classes
    assert owner_of(["cj-quiz"]) is None
    with pytest.raises(ValueError, match="page must name a page of the book"):
        quick_checks(list(box.children), page="../elsewhere")
    state = {"state": {
        "box": {"state": {"_dom_classes": list(box._dom_classes), "children": ["IPY_MODEL_q1", "IPY_MODEL_q2"]}},
        "q1": {"state": {"_dom_classes": ["cj-quiz-question"]}},
        "q2": {"state": {"_dom_classes": ["cj-quiz-question"]}},
    }}
    assert _checks_of_other_pages(state, "notebooks/03_legal_play") == {"q1", "q2"}
    assert _checks_of_other_pages(state, LEGAL_PLAY_PAGE) == set()


def test_the_drawing_checks_are_one_copy_for_chapter_and_lesson_with_the_engines_answers():
    from calijack import STANDARD
    from calijack.widgets.lesson_checks import DRAWING_PAGE, drawing_checks, drawing_deal, drawing_positions
    from calijack.widgets.quiz import owner_of

    box = drawing_checks()
    assert owner_of(box._dom_classes) == DRAWING_PAGE == "book/04_drawing"
    p = drawing_positions()
    full = drawing_deal()
    # The facts, straight from the deal: you (seat 0) won the trick, drew first, both saw both.
    assert full.tricks[p.won - 1].winner == 0 and full.tricks[p.won - 1].draws == (p.mine_drawn, p.theirs_drawn)
    assert p.mine_drawn in p.won_state.hand(0) and p.theirs_drawn in p.won_state.hand(1)
    right = [[a.label for a in q.answers if a.right] for q in box.children]
    assert right == [[f"The {p.mine_drawn}"], [f"The {p.theirs_drawn}"], ["None"], ["None"]]
    assert f"trick {p.won}" in box.children[0].prompt_parts[0]
    assert f"Trick {STANDARD.draws + 1} is over" in box.children[3].prompt_parts[0]
    # Another deal gives other cards, and the right answers follow the engine.
    other = drawing_positions(seed=3)
    assert (other.mine_drawn, other.theirs_drawn) != (p.mine_drawn, p.theirs_drawn)
