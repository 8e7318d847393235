"""The narrator: every sentence a learner reads about the table, in one place.

Seats are named from one seat's side (``Narrator(players, viewer)``: "You", "your
opponent", or "Left" and "Right" with three players) or from a record's side
(``viewer=None``: "seat 0"). The sandbox's events, prompts and log, the scoring breakdown and
``calijack replay`` take their words from here; the computer players' reasons (the hints)
live in :mod:`calijack.text_hints`, the coach's in :mod:`calijack.text_coach`, and the
sentences about legal play in :mod:`calijack.reasons`.

This module sits low in the engine: it reads states, tricks and results by their
attributes and imports none of their modules, so scoring can word its breakdown here.
"""

from __future__ import annotations

import string
from typing import TYPE_CHECKING, Callable, Iterable

from . import core
from .cards import Card, sort_cards
from .quoting import quoted

if TYPE_CHECKING:
    from .match import Match
    from .scoring import DealResult
    from .state import State, Trick

__all__ = ["Narrator", "seat_names", "say", "seat_list", "listing", "plural", "counted", "article", "option_name",
           "award_detail", "uncounted", "result_text", "deal_text", "replay_text", "POINT_TITLES", "MESSAGES"]

POINT_TITLES = {"high": "High", "low": "Low", "jack": "Jack", "game": "Game", "nine": "Shasta (nine)"}
"""Each point's name for people."""

# The engine's refusals and notices, by key; ``say`` fills the fields. A ``!r`` field quotes
# a value the engine was given, bounded to one short line (see :mod:`calijack.quoting`).
MESSAGES = {
    "wrong_moment": "You cannot {action} now. {prompt}",
    "nothing_to_undo": "Nothing to undo: you have not played a card in this deal yet.",
    "unfinished": "Finish this deal first: trick {trick} of {tricks} is being played.",
    "bad_rules": "Those rules cannot be used: {error}.",
    "bad_record": "That record cannot be loaded: {error}.",
    "record_seats": "That record is for {players} players: seat {seat} is not in it.",
    "no_seat": "There is no seat {seat!r}: with {players} players the seats are {seats}.",
    "bad_seed": "A seed is a whole number from 0 to {largest:,}, not {seed!r}.",
    "no_player": "There is no {name!r} computer player (choose one of: {names}).",
    "record_kind": "A record is a 'deal' or a 'match' record, not {kind!r}.",
    # Reading a record (lower case: they follow "calijack replay: " or "cannot be loaded: ").
    "record_unreadable": "cannot read {path}: {reason}",
    "record_not_file": "{path} is {kind}, not a regular file, so it is not read",
    "record_too_big": "{path} holds {size} bytes; a record may hold at most {limit:,} bytes",
    "record_text_too_big": "the record is {size:,} {unit} long; a record may hold at most {limit:,}",
    "record_not_utf8": "{what} is not UTF-8 text (byte 0x{byte:02x} at offset {offset:,})",
    "record_not_text": "a record is JSON text or an object, not {kind}",
    "record_too_deep": "lists and objects are nested more than {limit} deep; a record needs at most {needed}",
    "no_output": "cannot write to standard output: {reason}",
    # A fault of calijack's, not the learner's (its traceback goes to the server's log).
    "unexpected": "Something went wrong ({error}). Nothing was changed.",
}

# A rule option's short name (a demo's button, a table's row): the learner's words, never
# the engine's identifiers. Keyed by (option, value); a target is "Match to N".
OPTION_NAMES = {
    ("void_duty", "must_trump"): "Trump when void", ("void_duty", "any"): "No duty to trump when void",
    ("high_low", "captured"): "High & Low to the capturer", ("high_low", "held"): "High & Low to the holder",
    ("game", "pips"): "Game by card values", ("game", "ten_of_trumps"): "Game to the ten of trumps",
    ("stock", "exposed"): "exposed stock", ("stock", "closed"): "closed stock",
    ("turned_jack", False): "No turned-jack rule", ("turned_jack", True): "Turned jack to dealer",
    ("shasta_point", False): "No Shasta point", ("shasta_point", True): "Shasta nine point",
    ("trump_from", "stock"): "Trump from the stock", ("trump_from", "cut"): "Trump by a cut",
    ("players", 2): "Two players", ("players", 3): "Three players",
}

_OTHERS = {2: ("Opponent",), 3: ("Left", "Right")}


class _Bounded(string.Formatter):
    # ``{value!r}`` quotes what the engine was given: at most about 80 characters, one line.
    def convert_field(self, value, conversion):
        return quoted(value) if conversion == "r" else super().convert_field(value, conversion)


_FORMATTER = _Bounded()


def say(key: str, **fields) -> str:
    """One of :data:`MESSAGES`, filled in (a ``!r`` field quoted by :func:`~calijack.quoting.quoted`)."""
    return _FORMATTER.format(MESSAGES[key], **fields)


def seat_list(players: int) -> str:
    """The seats at a table of ``players`` in words: ``"0 and 1"``, ``"0, 1 and 2"``."""
    return listing([str(seat) for seat in range(players)])


def seat_names(players: int, viewer: int = 0) -> tuple[str, ...]:
    """Each seat's label at the table: "You" for ``viewer``, "Opponent" (or "Left", "Right")."""
    others = _OTHERS[players]
    return tuple("You" if s == viewer else others[(s - viewer) % players - 1] for s in range(players))


def listing(items: list[str]) -> str:
    """``["High", "Low", "Game"]`` → ``"High, Low and Game"``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def option_name(name: str, value) -> str:
    """A rule option's short name for people: ``option_name("turned_jack", True)`` →
    "Turned jack to dealer", ``option_name("target", 7)`` → "Match to 7"."""
    if name == "target":
        return f"Match to {value}"
    for (option, allowed), words in OPTION_NAMES.items():
        if option == name and type(allowed) is type(value) and allowed == value:
            return words
    raise KeyError(f"no name for rule option {name!r} = {value!r}")


def plural(count: int, singular: str, many: str | None = None) -> str:
    """The words for ``count`` things: ``singular`` for exactly one, else ``many`` (default: + "s").

    ``plural(1, "trick")`` → "trick", ``plural(0, "trick")`` → "tricks"; words that change
    more than an "s" are given both ways: ``plural(n, "play is", "plays are")``.
    """
    return singular if count == 1 else (many if many is not None else singular + "s")


def counted(count: int, singular: str, many: str | None = None) -> str:
    """``count`` with its words agreeing: "1 trick", "26 tricks", "1 play is", "3 plays are".

    Every sentence that puts a number before a noun (or a verb) takes its words from here, so
    "1 tricks to go" cannot happen.
    """
    return f"{count} {plural(count, singular, many)}"


# Words spoken with a vowel sound although written with a consonant, and the reverse.
_AN_AFTER_ALL = ("hour", "honest", "honour", "8", "11", "18")
_A_AFTER_ALL = ("one", "once", "uni", "use", "usu", "euro")


def article(words: str) -> str:
    """``words`` with "a" or "an" before it, as it is spoken: "an exposed stock", "a closed
    stock", "an 8♥", "an A♠", "a 10♥", "an 11-card hand", "a unit".

    A card is read by its rank's name ("A♠" is "ace of spades"), so its first letter is not
    enough; a number is read aloud ("80" is "eighty").
    """
    text = words.strip()
    low = text.lower()
    if not low:
        raise ValueError("article needs a word to go before")
    if low[0] == "a" and len(low) > 1 and not low[1].isalpha():   # A♠: "ace"
        vowel = True
    elif low[0].isdigit():
        digits = low[:len(low) - len(low.lstrip("0123456789"))]
        # 8, 80-89, 800…: "eight…"; 11, 18 (and 11,000…) alone or leading three-digit groups.
        vowel = digits[0] == "8" or (len(digits) % 3 == 2 and digits[:2] in ("11", "18"))
    elif low.startswith(_AN_AFTER_ALL):
        vowel = True
    elif low.startswith(_A_AFTER_ALL):
        vowel = False
    else:
        vowel = low[0] in "aeiou"
    return f"{'an' if vowel else 'a'} {text}"


def _third_person(verb: str) -> str:
    irregular = {"be": "is", "have": "has"}
    return irregular.get(verb) or verb + ("es" if verb.endswith(("s", "sh", "ch", "x", "z")) else "s")


class Narrator:
    """Words for the table's events, from seat ``viewer``'s side, or a record's (``viewer=None``).

    ``mark`` wraps every seat name (say, to make it bold in HTML); the rest of each sentence is
    plain text made of fixed words and cards.
    """

    def __init__(self, players: int, viewer: int | None = None,
                 mark: Callable[[str], str] | None = None):
        self.players, self.viewer = players, viewer
        self._mark = mark or (lambda name: name)

    # -- seats ---------------------------------------------------------------------------------
    @property
    def names(self) -> tuple[str, ...]:
        """Each seat's label: see :func:`seat_names` (``"Seat N"`` from a record's side)."""
        if self.viewer is None:
            return tuple(f"Seat {s}" for s in range(self.players))
        return seat_names(self.players, self.viewer)

    def who(self, seat: int | None, start: bool = True) -> str:
        """A seat in a sentence: "You"/"you", "Your opponent", "Left", "Seat 1", "Nobody"."""
        if seat is None:
            word = "Nobody"
        elif self.viewer is None:
            word = f"Seat {seat}"
        elif seat == self.viewer:
            word = "You"
        elif self.players == 2:
            word = "Your opponent"
        else:
            return self._mark(self.names[seat])
        return self._mark(word if start else word[0].lower() + word[1:])

    def verb(self, seat: int | None, verb: str) -> str:
        """``verb`` agreeing with the seat: "are"/"is", "draw"/"draws" ("you" takes the plain form)."""
        if seat is not None and seat == self.viewer:
            return "are" if verb == "be" else verb
        return _third_person(verb)

    def does(self, seat: int | None, verb: str, start: bool = True) -> str:
        """A seat and its verb, agreeing: "You are", "Your opponent is", "You draw", "Left draws"."""
        return f"{self.who(seat, start)} {self.verb(seat, verb)}"

    # -- the sandbox's events, one step at a time ------------------------------------------
    def played(self, seat: int, card: Card, lead: bool) -> str:
        """``"Your opponent leads 7♣."``"""
        return f"{self.does(seat, 'lead' if lead else 'play')} {card}."

    def trick_won(self, seat: int, card: Card) -> str:
        """``"You win the trick with 2♥."``"""
        return f"{self.does(seat, 'win')} the trick with {card}."

    def drew(self, seat: int, card: Card | None) -> str:
        """``"Your opponent draws Q♦."`` (``None``: a card this side did not see)."""
        return f"{self.does(seat, 'draw')} {card if card is not None else 'an unseen card'}."

    def would_win(self, seat: int, card: Card, draw: Card | None) -> str:
        """What a completed trick would bring: ``"You would win it with 5♥ and are first to draw …"``."""
        text = f"That completes the trick: {self.who(seat)} would win it with {card}"
        if draw is not None:
            text += (f" and {self.verb(seat, 'be')} first to draw from the stock, "
                     f"taking the exposed {draw}")
        return text + "."

    def deal_over(self, result: "DealResult") -> str:
        """``"The deal is over. You scored High and Game (2 points); your opponent scored …"``"""
        return "The deal is over. " + self.points(result)

    def points(self, result: "DealResult") -> str:
        """Who scored which points this deal, every seat in turn."""
        parts = []
        for seat in range(self.players):
            earned = [award.title for award in result.awards if award.seat == seat]
            what = f"{listing(earned)} ({counted(len(earned), 'point')})" if earned else "no points"
            parts.append(f"{self.who(seat, start=not parts)} scored {what}")
        return "; ".join(parts) + "."

    def match_won(self, winner: int, target: int) -> str:
        """``"You reached 10 and win the match."``"""
        return f"{self.who(winner)} reached {target} and {self.verb(winner, 'win')} the match."

    def score(self, scores: Iterable[int]) -> str:
        """The match score in words: ``"you 3, your opponent 1"``."""
        return ", ".join(f"{self.who(s, start=False)} {p}" for s, p in enumerate(scores))

    # -- prompts ---------------------------------------------------------------------------
    def your_turn(self, trick: int, tricks: int, lead: bool) -> str:
        """``"Trick 3 of 26: your turn to lead. Legal cards are highlighted."``"""
        return (f"Trick {trick} of {tricks}: your turn to {'lead' if lead else 'play'}. "
                "Legal cards are highlighted.")

    def their_turn(self, seat: int) -> str:
        """``"It is your opponent's turn to play."``"""
        return f"It is {self.who(seat, start=False)}'s turn to play."

    def deal_done(self, result: "DealResult") -> str:
        """The prompt once a deal is over and the match goes on."""
        return self.deal_over(result) + " See the score sheet, then start the next deal."

    def match_done(self, winner: int, target: int) -> str:
        """The prompt once the match is won."""
        return (f"The match is over: {self.who(winner, start=False)} reached {target}. "
                "Start a new deal to play again.")

    def match_over_undo(self, winner: int, target: int) -> str:
        """Said to an undo once the match is won: the end stays the end."""
        return (f"The match is over: {self.who(winner, start=False)} reached {target}; undo cannot go "
                "back past the end. Start a new deal to play again.")

    def waiting(self) -> str:
        """Said to a click made while the computer's cards are still being shown."""
        who = "your opponent is" if self.players == 2 else "your opponents are"
        return f"Wait a moment: {who} still playing."

    def undone(self) -> str:
        """Said after an undo."""
        whose = "your opponent's" if self.players == 2 else "your opponents'"
        return f"Took back your last card, and {whose} replies."

    def gone(self, card: Card) -> str:
        """Said to a click on a card that has just left the hand (a double click)."""
        return f"{card} is not in your hand any more."

    # -- the sandbox's log -----------------------------------------------------------------
    def deal_opened(self, number: int, dealer: int, trump, turned: Card | None) -> str:
        """``"Deal 1: you dealt; trumps are hearts (J♥ turned up)."``"""
        how = f"{turned} turned up" if turned is not None else "fixed by the cut"
        return f"Deal {number}: {self.who(dealer, start=False)} dealt; trumps are {trump.plural} ({how})."

    def trick_played(self, number: int, trick: "Trick") -> str:
        """``"Trick 1: your opponent led 7♣, you played 2♥."``"""
        played = [f"{self.who(trick.seat_of(k, self.players), start=False)} {'led' if k == 0 else 'played'} "
                  f"{card}" for k, card in enumerate(trick.cards)]
        return f"Trick {number}: " + ", ".join(played) + "."

    def trick_taken(self, trick: "Trick") -> str:
        """``"You won with 2♥ and drew J♥; your opponent drew Q♦."`` (an unseen draw is said so)."""
        n = self.players
        text = f"{self.who(trick.winner)} won with {trick.winning_card}"
        for k, (seat, card) in enumerate(zip(trick.drawers(n), trick.draws)):
            seen = str(card) if card is not None else "an unseen card"
            text += (" and drew " if k == 0 else f"; {self.who(seat, start=False)} drew ") + seen
        return text + "."

    def match_line(self, match: "Match") -> str:
        """``"Match: you 3, your opponent 1, playing to 10."`` and who won, once someone has."""
        text = f"Match: {self.score(match.scores)}, playing to {match.rules.target}."
        return text + (f" {self.who(match.winner)} won the match." if match.finished else "")

    def deal_summary(self, number: int, result: "DealResult", match: "Match") -> str:
        """An earlier deal of the match in one line: its points and the match score after it."""
        return f"Deal {number}: {self.points(result)} Match: {self.score(match.scores)}."


# -- the scoring breakdown ---------------------------------------------------------------------

def award_detail(name: str, seat: int | None, card: Card | None, basis: int, pips,
                 narrator: Narrator | None = None) -> str:
    """Why a point went where it did: ``"seat 0 captured J♥"`` (or in ``narrator``'s words).

    ``basis`` is how the point was decided (:data:`calijack.core.CAPTURED`, ``HELD``,
    ``DEALER`` or ``PIPS``), or ``-1`` when its card was left out of play.
    """
    narrator = narrator or Narrator(len(pips))
    who = narrator.who(seat, start=False)
    if basis == core.PIPS:
        totals = " to ".join(str(p) for p in pips)
        if seat is None:
            return f"card values tied at the top ({totals}): nobody scores Game"
        return f"{who} captured the most card values ({totals})"
    if basis < 0:
        return f"{card} was the card left out of play: nobody scores it"
    if basis == core.DEALER:
        return f"{card} was turned up to set trump: the dealer ({who}) scores Jack"
    if basis == core.HELD:
        return f"{who} held {card} (dealt or drawn)"
    return f"{who} captured {card}"


def uncounted(titles: list[str]) -> str:
    """Why points a deal handed out never reach the score (the match was won before their turn):
    ``"Jack and Game are not counted: the match was won before their turn came."``"""
    return (f"{listing(titles)} {plural(len(titles), 'is', 'are')} not counted: the match was won "
            f"before {plural(len(titles), 'its', 'their')} turn came.")


# -- calijack replay: the terminal's account of a record ----------------------------------

def _cards(cards, trump=None) -> str:
    return " ".join(str(c) for c in (sort_cards(cards, trump) if trump is not None else cards))


def result_text(result: "DealResult") -> list[str]:
    """The scoring breakdown: each point, who earned it and why, and the card values itemised."""
    lines = ["Scoring:"]
    for award in result.awards:
        who = "nobody" if award.seat is None else f"seat {award.seat}"
        lines.append(f"  {award.title:<14} {who:<8} {award.detail}")
    for seat, cards in enumerate(result.counted):
        items = " + ".join(f"{c} {c.value}" for c in cards) or "no counting cards"
        lines.append(f"  card values, seat {seat}: {items} = {result.pips[seat]}")
    points = ", ".join(f"seat {s} {p}" for s, p in enumerate(result.points))
    lines.append(f"  match points this deal: {points}")
    return lines


def deal_text(state: "State") -> list[str]:
    """A deal trick by trick, with the draws and, once finished, the scoring."""
    deal, n = state.deal, state.players
    lines = []
    options = state.rules.describe()
    lines.append("Rules: standard" if not options else "Rules: " + "; ".join(options))
    how = f"the turned card {deal.turned}" if deal.turned else "the cut"
    lines.append(f"Dealer: seat {deal.dealer}. Trump: {state.trump.plural} {state.trump} (set by {how}).")
    for seat, hand in enumerate(deal.hands):
        lines.append(f"Seat {seat} is dealt: {_cards(hand, state.trump)}")
    lines.append(f"Stock: {len(deal.stock)} cards, {deal.stock[0]} on top.")
    for number, trick in enumerate(state.tricks + ((state.current,) if state.trick else ()), 1):
        plays = ", ".join(f"seat {trick.seat_of(k, n)} {c}" for k, c in enumerate(trick.cards))
        line = f"Trick {number:>2}: {plays}"
        if trick.winner is not None:
            line += f"; seat {trick.winner} wins"
            if trick.draws:
                line += "; draws: " + ", ".join(f"seat {s} {c}" for s, c in
                                                zip(trick.drawers(n), trick.draws))
        lines.append(line)
    if state.finished:
        if state.dead_card is not None:
            lines.append(f"Left out of play: {state.dead_card}.")
        lines.extend(result_text(state.result()))
    else:
        lines.append(f"In progress: trick {state.trick_number}, seat {state.to_play} to play; "
                     f"legal: {_cards(state.legal_cards())}")
    return lines


def replay_text(record) -> str:
    """The whole account of a deal state or a match record (a :class:`~calijack.records.MatchRecord`)."""
    if not hasattr(record, "walk"):
        return "\n".join(deal_text(record))
    lines = []
    match = None
    for k, (state, match) in enumerate(record.walk(), 1):
        lines.append(f"=== Deal {k} ===")
        lines.extend(deal_text(state))
        if state.finished:
            counted = ", ".join(match.counted[-1]) or "none"
            lines.append(f"Match score: {' - '.join(map(str, match.scores))} (points counted: {counted})")
    if match.winner is not None:
        lines.append(f"Seat {match.winner} wins the match, reaching {record.rules.target}.")
    else:
        lines.append(f"Match in progress: {' - '.join(map(str, match.scores))}, playing to {record.rules.target}.")
    return "\n".join(lines)
