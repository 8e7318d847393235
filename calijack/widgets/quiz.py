"""Quick checks: a question, a few answers, and the reason behind each, with no kernel needed.

A question is built like the static demos (:func:`calijack.widgets.static.chooser`): one
toggle button per answer and a ``Stack`` of precomputed feedback frames, tied together by
``jslink``, so it answers in the static book, in Jupyter and in Voilà alike. Two things differ
from a demo: nothing is selected at first (the reader must pick before any feedback shows),
and each frame says whether the answer is right and why.

The answers and reasons are worked out by the caller from the engine; this module only lays
them out. The root box has the class ``cj-quiz``, each question ``cj-quiz-question``, its
buttons ``cj-quiz-control`` and each feedback frame ``cj-quiz-feedback`` with
``data-right="true"`` or ``"false"``, so a browser test can check what is shown.

Under the buttons every question also writes its answers out, folded in a ``<details>`` box
(``cj-quiz-answer``, summary "Answer"): the right answer and its reason, then the others and
theirs. It is plain HTML, made from the same :class:`Answer` objects as the feedback, so a
reader whose browser runs no script (the book's picture of the demo stays) can still check.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass

import ipywidgets as widgets

from .. import render
from ..cards import Card, parse_card
from ..render.base import seat_names
from ..render.style import CSS
from ..state import State
from ..text import plural
from .static import CONTROL_CLASS, DEMO_CLASS, StaticDemo, chooser

__all__ = ["Answer", "question", "quick_checks", "legal_play_question", "position_html",
           "QUIZ_CLASS", "QUESTION_CLASS", "CONTROL", "FEEDBACK_CLASS", "ANSWER_CLASS", "OWNER_CLASS", "owner_of"]

QUIZ_CLASS = "cj-quiz"
QUESTION_CLASS = "cj-quiz-question"
CONTROL = "cj-quiz-control"
FEEDBACK_CLASS = "cj-quiz-feedback"
ANSWER_CLASS = "cj-quiz-answer"

# The styles are the one stylesheet's (calijack/static/calijack.css, .cj-quiz-*): a question
# carries it with its prompt; in a box of quick checks only the first question does.


@dataclass(frozen=True)
class Answer:
    """One answer to a question: its button label, whether it is right, and why (plain text).

    ``extra`` (HTML, optional) is shown under the reason: a table of values, say.
    """

    label: str
    right: bool
    why: str
    extra: str = ""

    def __post_init__(self) -> None:
        for name in ("label", "why"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"Answer.{name} must be a non-empty string, not {value!r}")
        if not isinstance(self.right, bool):
            raise ValueError(f"Answer.right must be True or False, not {self.right!r}")


def _feedback(answer: Answer) -> str:
    verdict = "Right." if answer.right else "Not quite."
    return (f'<div class="{FEEDBACK_CLASS}" data-right="{str(answer.right).lower()}">'
            f"<strong>{verdict}</strong> {html.escape(answer.why)}{answer.extra}</div>")


def _answer_box(answers: Sequence[Answer]) -> str:
    """The answers written out, folded under "Answer": the right one first, each with its reason."""
    right = [a for a in answers if a.right]
    others = [a for a in answers if not a.right]
    parts = [f'<p class="cj-quiz-right"><strong>{html.escape(a.label)}</strong>: {html.escape(a.why)}</p>'
             f"{a.extra}" for a in right]
    if others:
        items = "".join(f"<li><strong>{html.escape(a.label)}</strong>: {html.escape(a.why)}</li>"
                        for a in others)
        parts.append(f"<p>{plural(len(others), 'The other answer', 'The other answers')}:</p><ul>{items}</ul>")
    return f'<details class="{ANSWER_CLASS}"><summary>Answer</summary>{"".join(parts)}</details>'


def _prompt_html(prompt: str, picture: str, number: int | None = None, css: bool = True) -> str:
    head = f"<strong>{number}.</strong> " if number is not None else ""
    style = f"<style>{CSS}</style>" if css else ""
    return f'{style}<p class="cj-quiz-prompt">{head}{html.escape(prompt)}</p>{picture}'


def question(prompt: str, answers: Sequence[Answer], *, picture: str = "",
             tooltips: Sequence[str] | None = None) -> StaticDemo:
    """A question: ``prompt`` (plain text), an optional ``picture`` (HTML), and its answers.

    At least two answers, at least one of them right, with distinct labels. Raises
    ``ValueError`` (or ``TypeError`` for an answer that is not an :class:`Answer`).
    """
    if not isinstance(prompt, str) or not prompt.strip():
        raise ValueError(f"a question needs a prompt: a non-empty string, not {prompt!r}")
    if not isinstance(picture, str):
        raise TypeError(f"picture must be an HTML string, not {type(picture).__name__}")
    answers = list(answers)
    for k, answer in enumerate(answers):
        if not isinstance(answer, Answer):
            raise TypeError(f"answers[{k}] must be an Answer, not {type(answer).__name__}")
    if len(answers) < 2:
        raise ValueError(f"a question needs at least two answers, not {len(answers)}")
    if not any(answer.right for answer in answers):
        raise ValueError(f"none of the answers to {prompt!r} is marked right")
    demo = chooser([_feedback(a) for a in answers], [a.label for a in answers])
    if tooltips is not None:
        demo.control.tooltips = tuple(tooltips)  # each button's full name (a card's, say)
    # Nothing chosen yet: no button pressed and no feedback shown until the reader picks.
    demo.control.index = None
    demo.stack.selected_index = None
    demo.remove_class(DEMO_CLASS)
    demo.control.remove_class(CONTROL_CLASS)
    demo.control.add_class(CONTROL)
    demo.add_class(QUESTION_CLASS)
    demo.prompt = widgets.HTML(value=_prompt_html(prompt, picture))
    demo.prompt_parts = (prompt, picture)
    demo.answer = widgets.HTML(value=_answer_box(answers))
    demo.children = (demo.prompt,) + demo.children + (demo.answer,)
    demo.answers = tuple(answers)
    return demo


OWNER_CLASS = "cj-checks-of-"
"""A box of quick checks shown on another page than its own (a lesson showing its chapter's
checks) carries this class followed by its page's name, ``/`` written ``--``
(``cj-checks-of-book--03_legal_play``): the answers are kept under that page's name, wherever
they are given (``progress-watch.js``), and the book counts the checks on that page only."""


def owner_of(classes: Sequence[str]) -> str | None:
    """The page named by a box's :data:`OWNER_CLASS` class, or None."""
    for name in classes:
        if name.startswith(OWNER_CLASS):
            return name[len(OWNER_CLASS):].replace("--", "/")
    return None


def quick_checks(questions: Sequence[StaticDemo], start: int = 1, page: str | None = None) -> widgets.VBox:
    """The questions of one chapter, numbered from ``start``, in one box; ``page`` (the book's
    page they belong to, ``"book/03_legal_play"``) when they are shown on other pages too."""
    questions = list(questions)
    if not questions:
        raise ValueError("quick_checks needs at least one question")
    for k, item in enumerate(questions):
        if QUESTION_CLASS not in getattr(item, "_dom_classes", ()):
            raise TypeError(f"questions[{k}] must come from quiz.question(), not {type(item).__name__}")
    for number, item in enumerate(questions, start):
        item.prompt.value = _prompt_html(*item.prompt_parts, number=number, css=number == start)
    box = widgets.VBox(children=questions)
    box.add_class(QUIZ_CLASS)
    if page is not None:
        if not isinstance(page, str) or not re.fullmatch(r"[0-9a-z_]+(/[0-9a-z_]+)*", page):
            raise ValueError(f"page must name a page of the book, such as 'book/03_legal_play', not {page!r}")
        box.add_class(OWNER_CLASS + page.replace("/", "--"))
    return box


def position_html(state: State, *, names: Sequence[str] | None = None, marks: bool = False) -> str:
    """The trick so far and the hand of the seat to play, with the trump suit named above.

    ``marks=True`` raises the cards that may be played and dims the others (the engine's
    verdicts); a quick check leaves them unmarked, so as not to give the answer away.
    """
    if not isinstance(state, State) or state.finished:
        raise ValueError("position_html needs a deal in progress (a State with a seat to play)")
    seat, n = state.to_play, state.players
    names = seat_names(n, seat, names)
    legal = set(state.legal_cards())
    hand_marks = {c: "legal" if c in legal else "illegal" for c in state.hand(seat)} if marks else None
    owner = "Your" if names[seat] == "You" else f"{names[seat]}'s"
    trick = state.current
    played = "".join(render.hand_html([card], label=f"{names[trick.seat_of(k, n)]} {'led' if k == 0 else 'played'}")
                     for k, card in enumerate(trick.cards))
    hand = render.hand_html(state.hand(seat), marks=hand_marks, label=f"{owner} hand")
    return (f'<div class="cj-position"><p style="margin:2px 0"><b>Trump: {state.trump.plural} '
            f'{html.escape(state.trump.symbol)}</b></p><div style="display:flex;flex-wrap:wrap;'
            f'gap:4px 28px;align-items:flex-end">{played}{hand}</div></div>')


def legal_play_question(prompt: str, state: State, choices: Sequence[tuple[str, Sequence[Card | str]]], *,
                        names: Sequence[str] | None = None) -> StaticDemo:
    """"Which cards may you play?": each choice is ``(label, cards)``; it is right when its
    cards are exactly the legal ones. The reasons are the engine's verdicts on the cards that
    make a choice wrong (or right). The picture is :func:`position_html`, unmarked.
    """
    if not isinstance(state, State) or state.finished:
        raise ValueError("legal_play_question needs a deal in progress (a State with a seat to play)")
    verdicts = {v.card: v for v in state.verdicts()}
    legal = {card for card, v in verdicts.items() if v.legal}
    answers = []
    for label, cards in choices:
        meant = {parse_card(c) for c in cards}
        stray = meant - set(verdicts)
        if stray:
            raise ValueError(f"choice {label!r} names {', '.join(map(str, sorted(stray, key=lambda c: c.index)))}, "
                             "which the player to move does not hold")
        if meant == legal:
            reasons = dict.fromkeys(verdicts[c].reason for c in sorted(legal, key=lambda c: c.index))
            answers.append(Answer(label, True, " ".join(reasons)))
            continue
        parts = []
        bad = sorted(meant - legal, key=lambda c: c.index)
        missing = sorted(legal - meant, key=lambda c: c.index)
        if bad:
            parts.append(f"{bad[0]} is not allowed here. {verdicts[bad[0]].reason}")
        if missing:
            parts.append(f"{missing[0]} is allowed too. {verdicts[missing[0]].reason}")
        answers.append(Answer(label, False, " ".join(parts)))
    return question(prompt, answers, picture=position_html(state, names=names))
