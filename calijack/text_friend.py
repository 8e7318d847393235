"""The sentences of "Play a friend": two people taking turns at one screen.

Part of the narrator (:mod:`calijack.text`): every sentence the pass-and-play table says is
worded here, and only here. Seats are named by the players' own names (:class:`FriendNarrator`),
so the table's events read "Bo wins the trick with 9♣." for both players alike; the table
itself speaks to whoever holds the screen ("your hand", "your turn").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .text import _FORMATTER, Narrator, _third_person

if TYPE_CHECKING:
    from .state import Trick

__all__ = ["FriendNarrator", "TEXTS", "say", "NAME_LIMIT", "DEFAULT_NAMES"]

NAME_LIMIT = 20
"""The most characters a player's name may have (it must fit a phone's button)."""

DEFAULT_NAMES = ("Ann", "Bo")
"""The names the table offers until the players type their own."""

TEXTS = {
    # -- the screen between turns ----------------------------------------------------------------
    "pass_title": "Pass to {name}, then tap.",
    "pass_button": "I am {name}: show my cards",
    "pass_tap": "{name} taps \u201c{button}\u201d to see the cards.",
    "pass_lead": "Trick {trick} of {tricks}: {name} is to lead.",
    "pass_follow": "Trick {trick} of {tricks}: {leader} led {card}, and {name} is to play.",
    "pass_last": "Trick {trick}: {taken}",
    "pass_score": "Match points: {scores} (first to {target}).",
    "hints_on": "Hints are on: you both agreed to them.",
    "hints_off": "Hints are off: they are on only when both of you agree at the start.",
    # -- whose turn, while the cards show --------------------------------------------------------
    "turn": "{name}, your turn to {act} (trick {trick} of {tricks}). Legal cards are highlighted.",
    # -- refusals: one sentence each, and nothing changes ----------------------------------------
    "hidden": "The cards are hidden: {name} taps \u201c{button}\u201d first.",
    "showing": "{name}'s cards are already showing.",
    "hints_refused": "Hints are off: both players have to agree to them before the deal starts.",
    "hint": "Hint for {name}: play {card}. {reason}",
    "over": "The deal is over: every trick has been played.",
    "no_review_yet": "The review comes once the deal is over.",
    "no_record_yet": "A record shows both hands, so it is ready once the deal is over.",
    "no_next": "Finish this deal first: trick {trick} of {tricks} is being played.",
    "match_over": "The match is over: {name} reached {target}. Start a new game to play again.",
    "two_players": "Play a friend seats two players, but these rules are for {players}.",
    "name_type": "A name is text, not {value!r}.",
    "name_empty": "The {which} player needs a name.",
    "name_long": "A name has at most {limit} characters; {value!r} has {length}.",
    "name_odd": "A name is letters, digits, spaces and punctuation: {value!r} holds a control character.",
    "names_count": "Play a friend needs two names, not {count}.",
    "names_same": "The two players need different names: both are called {value!r}.",
    "hints_type": "Whether a player agrees to hints is yes or no (True or False), not {value!r}.",
    # -- the end of a deal and the review -------------------------------------------------------
    "deal_over": "The deal is over. {points} The score sheet is below the table.",
    "review_head": "{name}'s plays, each shown as {name} saw the table",
    "reviewing": "Reviewing both players' plays: the computer works out what every card you could "
                 "play was worth\u2026",
    "reviewed": "The review is ready: {summaries} Step through each player's plays under the table.",
    "review_line": "{name}: {summary}",
    "saved": "The record of the deal is in the box below the table: copy it, or download it.",
    "download": "Download the {kind} record ({file})",
    # -- the form before the deal, and clicks that mean nothing -------------------------------------
    "name_rule": "A name has at most {limit} characters.",
    "not_started": "Start the deal first.",
    "unknown_action": "That button does nothing at this table, so nothing changed.",
    # -- the book's picture of the screens (a slider's labels) ------------------------------------
    "preview_pass": "Between turns: the screen says pass to {name}",
    "preview_turn": "{name} taps, and only {name}'s cards show",
    "preview_on": "{name} plays on",
}
"""Every sentence of the pass-and-play table, by key (``{name!r}`` quotes what was typed)."""

FIRST_SECOND = ("first", "second")


def say(key: str, **fields) -> str:
    """One of :data:`TEXTS`, filled in (a ``!r`` field quoted, bounded to one short line)."""
    return _FORMATTER.format(TEXTS[key], **fields)


class FriendNarrator(Narrator):
    """The narrator with each seat called by its player's name: "Bo wins the trick with 9♣."."""

    def __init__(self, names: tuple[str, ...]):
        super().__init__(len(names), viewer=None)
        self._names = tuple(names)

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names, by seat."""
        return self._names

    def who(self, seat: int | None, start: bool = True) -> str:
        """A seat in a sentence: its player's name (never lower-cased), or "Nobody"."""
        if seat is None:
            return "Nobody" if start else "nobody"
        return self._names[seat]

    def verb(self, seat: int | None, verb: str) -> str:
        """Every player is a third person here: "Bo wins", "Ann is"."""
        return _third_person(verb)

    def scores(self, scores) -> str:
        """``"Ann 3 · Bo 1"``."""
        return " \u00b7 ".join(f"{name} {points}" for name, points in zip(self._names, scores))

    def turn(self, seat: int, trick: int, tricks: int, lead: bool) -> str:
        """Said while ``seat``'s cards show: whose turn, and to do what."""
        return say("turn", name=self._names[seat], act="lead" if lead else "play", trick=trick, tricks=tricks)

    def last_trick(self, number: int, trick: "Trick") -> str:
        """``"Trick 4: Bo won with 9♣ and drew 5♦; Ann drew an unseen card."`` (draws as all saw them)."""
        return say("pass_last", trick=number, taken=self.trick_taken(trick))

    def review_lines(self, summaries: dict[int, str]) -> str:
        """Each player's review headline, in one sentence each."""
        return " ".join(say("review_line", name=self._names[s], summary=text) for s, text in summaries.items())

