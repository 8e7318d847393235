"""The quick checks of the chapter "Playing to a trick", for the book's chapter and its lesson alike.

One copy of each question: the book's chapter (``book/03_legal_play.md``) shows
:func:`legal_play_checks`, and so does lesson 3 (``notebooks/03_legal_play.ipynb``), which puts
a :class:`~.lesson_progress.LessonProgress` above it so that an answer given in the lesson is
kept (and, on the class's hub, reaches the teacher) under the same name as the book's:
``book/03_legal_play#1`` to ``#4``. The positions and the answers come from the engine;
:func:`legal_play_positions` gives them to the book's checks and the tests.
"""

from __future__ import annotations

from dataclasses import dataclass

import ipywidgets as widgets

from .. import DECK, Card, Deal
from ..state import State
from . import quiz

__all__ = ["LEGAL_PLAY_PAGE", "NAMES", "OPPONENT", "YOU", "position", "legal_play_positions",
           "legal_play_checks"]

LEGAL_PLAY_PAGE = "book/03_legal_play"
"""The book's page the checks belong to: the name of their answers in the progress store."""

NAMES = ("Opponent", "You")  # your opponent leads from seat 0; you answer from seat 1
OPPONENT, YOU = 0, 1
_LEADER = "9♦ 10♥ A♦ J♠ 4♣ 8♣"  # your opponent's hand in the checks
_TOP = "5♠"  # the stock's top card: spades are trump in all four


def position(yours: str, lead: str, leader: str, top: str) -> State:
    """Your opponent leads ``lead`` from ``leader``; you hold ``yours``; ``top`` lies on the stock (cards as text)."""
    hands = [[Card.parse(text) for text in hand.split()] for hand in (leader, yours)]
    shown = Card.parse(top)
    rest = [card for card in DECK if card not in hands[0] + hands[1] + [shown]]
    deal = Deal.from_cards(hands, [shown] + rest, dealer=YOU)  # so your opponent leads
    return deal.start().play(lead)


@dataclass(frozen=True)
class LegalPlayPositions:
    follow: State  # the 9♦ led; you hold diamonds and a spade
    void: State  # the 9♦ led; you hold no diamonds, two spades
    trump: State  # the J♠ (a trump) led; you hold no spades
    win: State  # the 4♣ led; you answer with the A♥
    winner: int  # who wins that last trick


def legal_play_positions() -> LegalPlayPositions:
    """The four checks' positions, and who wins the last one (the engine's answer)."""
    win = position("A♥ K♦ Q♦ 10♥ 9♥ 3♦", "4♣", "9♦ 10♣ A♦ J♠ 4♣ 8♣", _TOP)
    return LegalPlayPositions(follow=position("K♦ 4♦ 7♠ A♣ Q♥ 3♥", "9♦", _LEADER, _TOP),
                              void=position("7♠ 2♠ A♣ Q♥ 3♥ K♣", "9♦", _LEADER, _TOP),
                              trump=position("K♦ Q♦ Q♣ 9♥ 7♥ 3♣", "J♠", _LEADER, _TOP),
                              win=win, winner=win.play("A♥").tricks[-1].winner)


def legal_play_checks() -> widgets.VBox:
    """The chapter's four quick checks (spades trump in all four), answered with no kernel."""
    p = legal_play_positions()
    win_answers = [
        quiz.Answer(NAMES[seat], seat == p.winner,
                    "The A♥ is the best heart, but hearts were not led and are not trump, so it "
                    "cannot win: the 4♣ takes the trick." if seat == p.winner else
                    "A card of a third suit never wins, however high: only a higher club or a "
                    "trump (a spade) could beat the 4♣.")
        for seat in (OPPONENT, YOU)]
    return quiz.quick_checks([
        quiz.legal_play_question("Your opponent leads the 9♦. Which of your cards may you play?",
                                 p.follow, [("Only my diamonds", ["K♦", "4♦"]),
                                            ("My diamonds or my spade", ["K♦", "4♦", "7♠"]),
                                            ("Any card", p.follow.hand(YOU))], names=NAMES),
        quiz.legal_play_question("Your opponent leads the 9♦, and you have no diamonds. Which may you play?",
                                 p.void, [("Any card", p.void.hand(YOU)),
                                          ("Only a spade", ["7♠", "2♠"]),
                                          ("A spade or a club", ["7♠", "2♠", "A♣", "K♣"])], names=NAMES),
        quiz.legal_play_question("Your opponent leads the J♠, a trump, and you hold no spades. Which may you play?",
                                 p.trump, [("Any card", p.trump.hand(YOU)),
                                           ("Only my diamonds", ["K♦", "Q♦"]),
                                           ("Only my hearts", ["9♥", "7♥"])], names=NAMES),
        quiz.question("Your opponent leads the 4♣ and you answer with the A♥. Who wins the trick?",
                      win_answers, picture=quiz.position_html(p.win, names=NAMES)),
    ], page=LEGAL_PLAY_PAGE)

