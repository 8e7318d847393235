"""The quick checks of the chapters "Playing to a trick" and "Drawing from the stock", for the
book's chapters and their lessons alike.

One copy of each question: the book's chapter (``book/03_legal_play.md``) shows
:func:`legal_play_checks`, and so does lesson 3 (``notebooks/03_legal_play.ipynb``), which puts
a :class:`~.lesson_progress.LessonProgress` above it so that an answer given in the lesson is
kept (and, on the class's hub, reaches the teacher) under the same name as the book's:
``book/03_legal_play#1`` to ``#4``. Likewise chapter 4 (``book/04_drawing.md``) and lesson 4
show :func:`drawing_checks` (``book/04_drawing#1`` to ``#4``). The positions and the answers
come from the engine; :func:`legal_play_positions` and :func:`drawing_positions` give them to
the book's checks and the tests.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import ipywidgets as widgets

from .. import DECK, STANDARD, Card, Deal, render
from ..state import State
from . import quiz

__all__ = ["LEGAL_PLAY_PAGE", "NAMES", "OPPONENT", "YOU", "position", "legal_play_positions",
           "legal_play_checks", "DRAWING_PAGE", "DRAWING_SEED", "DRAWING_NAMES", "drawing_deal", "drawing_positions",
           "drawing_checks"]

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



DRAWING_PAGE = "book/04_drawing"
"""The book's page of the drawing checks: the name of their answers in the progress store."""

DRAWING_SEED = 11  # the chapter's deal: the one its first table and its walkthrough show
DRAWING_NAMES = ("You", "Opponent")  # you are seat 0 in the chapter's deal


def drawing_deal(seed: int = DRAWING_SEED) -> State:
    """Chapter 4's deal played to the end at random, as the chapter makes it: dealt from
    ``random.Random(seed)``, the first trick played, then the rest, with the same generator."""
    rng = random.Random(seed)
    after = Deal.random(rng).start().play_random(rng, tricks=1)
    return after.play_random(rng)


@dataclass(frozen=True)
class DrawingPositions:
    won: int  # the first trick you (seat 0) won while the stock lasted
    won_state: State  # the table just after it
    mine_drawn: Card  # what you drew from it (the exposed card)
    theirs_drawn: Card  # what your opponent drew (the card it uncovered)
    they_know: tuple  # the cards of yours your opponent knows of then
    you_know: tuple  # the cards of theirs you know of then
    stock_after_draws: tuple  # the stock after the last trick with draws
    draws_after: tuple  # what is drawn after the trick after it (the winner's card, the loser's)


def drawing_positions(seed: int = DRAWING_SEED) -> DrawingPositions:
    """The four drawing checks' facts, from the engine (:func:`drawing_deal`)."""
    full = drawing_deal(seed)
    you, them = 0, 1
    won = next(k for k, t in enumerate(full.tricks, 1) if t.winner == you and t.draws)
    won_state = full.rewind(2 * won)
    mine_drawn, theirs_drawn = full.tricks[won - 1].draws
    return DrawingPositions(won=won, won_state=won_state, mine_drawn=mine_drawn, theirs_drawn=theirs_drawn,
                            they_know=tuple(won_state.view(them).known[you]),
                            you_know=tuple(won_state.view(you).known[them]),
                            stock_after_draws=full.rewind(2 * STANDARD.draws).stock,
                            draws_after=full.tricks[STANDARD.draws].draws)


def drawing_checks() -> widgets.VBox:
    """Chapter 4's four quick checks (what each player knows after a draw; when the stock runs
    out), answered with no kernel."""
    p = drawing_positions()
    mine, theirs = p.mine_drawn, p.theirs_drawn
    draws, tricks, stock = STANDARD.draws, STANDARD.tricks, STANDARD.stock_size
    table = render.table_html(p.won_state.view(0), names=DRAWING_NAMES, marks={})
    return quiz.quick_checks([
        quiz.question(
            f"You won trick {p.won} and took the {mine} from the stock; your opponent then took "
            f"the {theirs}. Which of your cards does your opponent know about?",
            [quiz.Answer("None of them", not p.they_know,
                         f"The {mine} was lying face up when you took it: your opponent saw it go "
                         "into your hand."),
             quiz.Answer(f"The {mine}", p.they_know == (mine,),
                         f"Your opponent saw you take the {mine}, and nothing else: your other "
                         "cards were dealt to you face down."),
             quiz.Answer("All six", False,
                         "Your first six cards were dealt face down: your opponent knows only the cards "
                         "they saw you draw, and only until you play them.")],
            picture=table),
        quiz.question(
            "And which of your opponent's cards do you know about?",
            [quiz.Answer(f"The {theirs}", theirs in p.you_know,
                         f"When you took the {mine}, the {theirs} was uncovered in plain "
                         "sight, and your opponent took it: the loser's card is seen by both players too."),
             quiz.Answer("None: the loser's card is secret", not p.you_know,
                         f"Not with a face-up stock: the {theirs} lay face up before your opponent "
                         "took it. (With a closed stock it would be secret.)")]),
        quiz.question(
            f"Trick {draws} is over and both players have drawn. How many cards are left in the stock?",
            [quiz.Answer("None", len(p.stock_after_draws) == 0,
                         f"The stock had {stock} cards and lost two with every trick: after "
                         f"trick {draws} it is used up."),
             quiz.Answer("Two", len(p.stock_after_draws) == 2,
                         f"Two cards go after every trick, {stock} in all: after trick {draws} none is left."),
             quiz.Answer("Six", len(p.stock_after_draws) == 6,
                         "Six is the number of cards in each hand at that moment, not in the stock.")]),
        quiz.question(
            f"Trick {draws + 1} is over. How many cards does its winner draw?",
            [quiz.Answer("None", len(p.draws_after) == 0,
                         f"The stock ran out after trick {draws}: the last "
                         f"{tricks - draws} tricks are played from the hand, with no drawing."),
             quiz.Answer("One", bool(p.draws_after),  # the winner takes one card while the stock lasts
                         f"There is nothing left to draw: the stock ran out after trick {draws}."),
             quiz.Answer("Two", False,
                         "Nobody ever draws two cards after one trick, and here the stock "
                         "is already used up.")]),
    ], page=DRAWING_PAGE)
