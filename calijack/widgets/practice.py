"""Practice puzzles as quick checks: pick a card, then see every card's value and the reason.

Each puzzle (:mod:`calijack.puzzles`) becomes a question built the way the quick checks are
(:func:`calijack.widgets.quiz.question`: toggle buttons over precomputed feedback frames, tied
by ``jslink``), so it answers in the static book, in Jupyter and in Voilà alike. One button per
legal card; each frame says whether that card is the answer, the coach's sentence, and a table
of every card's value. The table pictures of a set share one :class:`~.demo_base.Sheet`.

Under the card buttons a **Hint** button shows one sentence on what the puzzle turns on
(static too: a one-button chooser over the hint). Each question carries the class
``cj-puzzle-n-N`` (its puzzle number), by which the progress store (``progress.js``) keeps
its stars: 3 for the first try with no hint, 2 for a second try or a hint, 1 for later (and
after opening the written-out Answer).

:func:`practice_stages` shows the sets one stage at a time (a button per stage over a
``Stack``): a page then holds one stage's card tables, not every puzzle's, which is what keeps
the Practice pages quick on a phone; a ``Stack`` draws only the stage chosen.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import ipywidgets as widgets

from .. import render
from ..cards import parse_card
from ..puzzles import Puzzle, theme
from ..review import Rating
from ..text import seat_names
from ..text_coach import STAGE_TITLES, STAGES, puzzle_feedback, puzzle_hint, puzzle_prompt, puzzle_title, signed
from .demo_base import SHEET_CLASS, Sheet
from .quiz import Answer, question, quick_checks
from .static import CONTROL_CLASS, DEMO_CLASS, chooser

__all__ = ["puzzle_question", "practice_set", "practice_stages", "values_table", "hint_box", "PRACTICE_CLASS",
           "STAGES_CLASS", "HINT_CLASS"]

PRACTICE_CLASS = "cj-practice"
STAGES_CLASS = "cj-practice-stages"
HINT_CLASS = "cj-puzzle-hint"


def values_table(rating: Rating, picked, best) -> str:
    """Every legal card's value as a small table (HTML), the answer and the card picked named."""
    how = "exact, with best play" if rating.exact else f"estimated over {rating.samples} guesses at the hidden cards"
    rows = []
    shown = rating.shown
    for card, value in sorted(shown.items(), key=lambda item: (-item[1], item[0].index)):
        notes = (["best"] if card == best else []) + (["your pick"] if card == picked else [])
        rows.append(f"<tr><th scope=\"row\">{html.escape(str(card))}</th><td>{html.escape(signed(value, rating.exact))}</td>"
                    f"<td>{html.escape(', '.join(notes))}</td></tr>")
    return (f'<table class="cj-puzzle-values"><caption>Every card\'s value in match points '
            f"({html.escape(how)})</caption><thead><tr><th scope=\"col\">Card</th><th scope=\"col\">Value</th>"
            f'<th scope="col">Note</th></tr></thead><tbody>{"".join(rows)}</tbody></table>')


def hint_box(text: str):
    """A "Hint" button over the hint's sentence (nothing shown until it is pressed)."""
    box = chooser([f'<p class="cj-puzzle-hint-text">{html.escape(text)}</p>'], ["Hint"])
    box.control.index = None
    box.stack.selected_index = None
    box.control.tooltips = ("Show a hint (the puzzle then earns at most 2 stars)",)
    box.remove_class(DEMO_CLASS)
    box.control.remove_class(CONTROL_CLASS)
    box.add_class(HINT_CLASS)
    return box


def puzzle_question(puzzle: Puzzle, rating: Rating | None = None, sheet: Sheet | None = None):
    """One puzzle as a question: the table as the player sees it, one button per legal card."""
    state = puzzle.state
    seat = state.to_play
    # The rating kept with the puzzle shows at once; the checks vouch that it is the engine's.
    rating = rating or (puzzle.stored_rating() if puzzle.stored is not None else puzzle.rating())
    best = parse_card(puzzle.answer)
    view = state.view(seat)
    names = seat_names(state.players, seat)
    picture = render.table_html(view, names=names)
    if sheet is not None:
        picture = sheet.compact(picture)
    led = state.current.cards[0] if state.trick else None
    prompt = (puzzle_title(puzzle.stage, best, rating, state.trump) + " "
              + puzzle_prompt(not state.trick, led, state.stock_top, state.trump, puzzle.exact,
                              state.hand(1 - seat) if puzzle.exact else []))
    cards = state.legal_cards()
    answers = []
    for card in cards:
        right, why = puzzle_feedback(card, best, rating, state.trump, state.players)
        answers.append(Answer(str(card), right, why, extra=values_table(rating, card, best)))
    item = question(prompt, answers, picture=picture, tooltips=[c.name for c in cards])
    item.hint = hint_box(puzzle_hint(theme(state, rating, puzzle.answer)))
    # The hint sits between the card buttons and the answer's frames.
    at = item.children.index(item.control) + 1
    item.children = item.children[:at] + (item.hint,) + item.children[at:]
    item.add_class("cj-puzzle")
    item.add_class(f"cj-puzzle-n-{puzzle.number}")
    item.puzzle, item.rating = puzzle, rating
    return item


def practice_set(puzzles: Sequence[Puzzle], ratings: Sequence[Rating] | None = None) -> widgets.VBox:
    """A box of puzzles, numbered by their puzzle numbers, sharing one sheet of card drawings."""
    puzzles = list(puzzles)
    if not puzzles:
        raise ValueError("practice_set needs at least one puzzle")
    sheet = Sheet()
    ratings = list(ratings) if ratings is not None else [None] * len(puzzles)
    items = [puzzle_question(p, r, sheet) for p, r in zip(puzzles, ratings)]
    box = quick_checks(items, start=puzzles[0].number)
    defs = widgets.HTML(value=sheet.html())
    defs.add_class(SHEET_CLASS)
    box.children = (defs,) + tuple(box.children)
    box.add_class(PRACTICE_CLASS)
    box.questions = items
    return box


def practice_stages(puzzles: Sequence[Puzzle], ratings: Sequence[Rating] | None = None) -> widgets.VBox:
    """The puzzles one stage at a time: a button per stage (in the puzzles' order), and under it
    the chosen stage's sentence and its set (:func:`practice_set`), switched by ``jslink``."""
    puzzles = list(puzzles)
    ratings = list(ratings) if ratings is not None else [None] * len(puzzles)
    stages = list(dict.fromkeys(p.stage for p in puzzles))
    if not stages:
        raise ValueError("practice_stages needs at least one puzzle")
    pages = []
    for stage in stages:
        chosen = [(p, r) for p, r in zip(puzzles, ratings) if p.stage == stage]
        intro = widgets.HTML(value=f'<p class="cj-stage-intro">{html.escape(STAGES[stage])}</p>')
        pages.append(widgets.VBox([intro, practice_set([p for p, _ in chosen], [r for _, r in chosen])]))
    labels = [f"{k}. {STAGE_TITLES[stage]}" for k, stage in enumerate(stages, 1)]
    control = widgets.ToggleButtons(options=labels, index=0, description="Stage",
                                    style={"description_width": "initial", "button_width": "auto"})
    control.add_class("cj-stage-control")
    stack = widgets.Stack(children=pages, selected_index=0)
    box = widgets.VBox([control, stack])
    box.add_class(STAGES_CLASS)
    box.links = (widgets.jslink((control, "index"), (stack, "selected_index")),)
    box.control, box.stack, box.stages = control, stack, tuple(stages)
    box.sets = tuple(page.children[1] for page in pages)
    return box
