"""The computer players' reasons: the sandbox's hints, every one worded here and only here.

Part of the narrator (:mod:`calijack.text`). A reason is one sentence without its final
stop: the sandbox adds it after "Hint: play X.". The players (:mod:`calijack.players`)
decide; these functions only word what they decided, so a hint never says more than the
player knew.
"""

from __future__ import annotations

from .cards import Card

__all__ = ["card_words", "why_only", "why_random", "why_win_low", "why_fight", "why_capture",
           "why_lead_master", "why_lead_high", "why_lead_low", "why_lose", "why_sampled",
           "why_exact", "why_solved", "why_habit", "LEVELS"]


def card_words(card: Card, trump) -> str:
    """A card in a reason: ``"the trump ace"``, or ``"10♠"`` for a card of a plain suit."""
    return f"the trump {card.rank.word}" if card.suit == trump else str(card)


def why_only(card: Card) -> str:
    """``"10♠ is the only legal card"``"""
    return f"{card} is the only legal card"


def why_random(count: int) -> str:
    """The random player's reason."""
    return f"A card chosen at random among the {count} legal ones"


def why_win_low(card: Card, trump) -> str:
    """Trumping with the two when nobody plays after: it captures Low."""
    return f"Win with {card_words(card, trump)}: capturing it earns Low"


def why_fight(top: Card, trump) -> str:
    """Winning a trick for the exposed card, which its winner draws."""
    return f"Win this trick to draw the exposed card, {card_words(top, trump)}"


def why_capture(point: Card | None, values: int, trump) -> str:
    """Winning a trick for a point card in it (``point``), else for its card values."""
    if point is not None:
        return f"Win this trick: it holds {card_words(point, trump)}"
    return f"Win this trick: it holds {values} in card values"


def why_lead_master(card: Card, top: Card, trump) -> str:
    """Leading the highest trump left to draw the exposed card."""
    return f"Lead {card_words(card, trump)}, the highest trump left, to draw {card_words(top, trump)}"


def why_lead_high(card: Card, top: Card, trump) -> str:
    """Leading the highest card left of a plain suit to draw the exposed card."""
    return f"Lead {card}, the highest {card.suit.singular} left, to draw {card_words(top, trump)}"


def _spare(card: Card, stake: int, decided: bool) -> str:
    # Name the card for what it is: a ten is never "a low card of no value".
    if stake == 0 and card.value == 0:
        return f"{card}, a low card of no value"
    if stake == 0:
        return (f"{card}: Game is decided, so card values no longer count" if decided
                else f"{card}: card values do not decide Game under these rules")
    return f"{card}, the card you can best spare"


def why_lead_low(card: Card, stake: int, top: Card | None, top_worth: bool, trump,
                 decided: bool) -> str:
    """Leading the card worth least (``stake``: its worth; ``decided``: Game is decided on card values)."""
    text = "Lead " + _spare(card, stake, decided)
    if top is None:
        return text
    if top_worth:
        return f"{text}; nothing in hand is sure to win {card_words(top, trump)}"
    return f"{text}; the exposed {top} is not worth drawing"


def why_lose(card: Card, decided: bool, keeps_tens: bool) -> str:
    """Losing a trick not worth winning with the least useful card."""
    if decided:
        return f"Game is already decided on card values, so they no longer matter: throw {card}"
    if keeps_tens:
        return f"Lose this trick with {card}: keep the tens and low trumps"
    return f"Nothing here is worth winning: throw {card}, the least useful card"


def _ahead(average: float) -> str:
    if round(average, 1) == 0:
        return "level in match points on average"
    return f"{abs(average):.1f} match points {'ahead' if average > 0 else 'behind'} on average"


def why_sampled(card: Card, guesses: int, average: float, margin: float) -> str:
    """The search's reason while the stock lasts (``average``, ``margin``: match points)."""
    return (f"Over {guesses} guesses at the hidden cards, {card} did best: it ends the deal "
            f"{_ahead(average)}, {margin:.1f} better than the next card")


def why_exact(card: Card, mine: int, theirs: int) -> str:
    """The search's reason once every card is known (two players)."""
    return (f"Every card is known now: with best play on both sides {card} ends the deal "
            f"{mine}–{theirs} in match points")


def why_solved(card: Card, guesses: int, average: float) -> str:
    """The search's reason late in a three-handed deal (each guess solved exactly)."""
    return f"Solved {guesses} guesses at the last hands exactly: {card} does best, ending {_ahead(average)}"


def why_habit(habit: str, card: Card, trump) -> str:
    """The Beginner's reason: the learner's habit it followed (:mod:`calijack.players.beginner`)."""
    if habit == "only":
        return why_only(card)
    words = card_words(card, trump)
    return {
        "win_big": f"Take the trick with {words}, the strongest card that wins it",
        "let_go": f"Let this trick go and keep the good cards: play {words}",
        "throw": f"Nothing in hand wins this trick: play {words}",
        "lead_strong": f"Lead {words}, the strongest card in hand",
        "lead_small": f"Lead {words}, a small card",
    }[habit]


LEVEL_WORDS = {
    "beginner": ("Beginner", "Plays like someone learning the game: it grabs nearly every trick it can, "
                 "leads its best cards early, and pays no attention to card values or to the exposed card."),
    "casual": ("Casual", "Plays by a few sensible rules of thumb: it fights for a good exposed card, "
               "captures points and tens, and throws away what it does not need."),
    "strong": ("Strong", "Thinks ahead: it imagines where the hidden cards may be, tries each of its "
               "cards in every guess, and plays the last six tricks perfectly."),
    "expert": ("Expert", "Thinks ahead like Strong, but tries many more guesses at the hidden cards, "
               "most of all when the stock runs low, and wins a trick with a ten when the ten is sure to take it."),
}
"""The opponents a learner chooses from (:data:`calijack.players.LEVELS`): the chooser's label
and one sentence on how each plays, weakest first."""
