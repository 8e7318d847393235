"""The rule options of California Jack: the standard profile and every variant, validated.

Each option names where it comes from (the five accounts of ``book/sources.md``), so the
book and the sandbox can say which account a learner is switching to.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Mapping

from .quoting import quoted

__all__ = ["Rules", "RuleError", "DealError", "OPTIONS", "STANDARD"]


class RuleError(ValueError):
    """An unknown rule option, or a value the option does not take."""


class DealError(ValueError):
    """Cards that do not make a valid deal (wrong counts, a repeated card), or a seat not at the table.

    It lives beside :class:`RuleError`, below the view and the state, so every layer that
    takes a seat can refuse one the same way; :mod:`calijack.state` re-exports it.
    """


@dataclass(frozen=True)
class Option:
    """One rule option: its standard value, the other values, and their source."""

    name: str
    standard: Any
    values: tuple          # the allowed values; empty for ``target`` (any whole number >= 1)
    summary: str           # what the option decides, in a learner's words
    variant: str           # what the non-standard value does
    source: str            # the account(s) the non-standard value comes from
    label: str = ""        # the learner-facing question a control asks ("When you can't follow suit")
    choices: tuple = ()    # one plain answer per value, in the order of ``values``

    def choice(self, value: Any) -> str:
        """The plain words for ``value`` ("you may play anything"), or the value itself."""
        for allowed, words in zip(self.values, self.choices):
            if type(value) is type(allowed) and value == allowed:
                return words
        return str(value)


OPTIONS: dict[str, Option] = {o.name: o for o in (
    Option("void_duty", "must_trump", ("must_trump", "any"),
           "what a player with none of the led suit must do",
           "a player with none of the led suit may play any card, even while holding trumps",
           "001, 002, 003", "When you can't follow suit",
           ("you must trump if you can", "you may play anything")),
    Option("high_low", "captured", ("captured", "held"),
           "who scores High (trump ace) and Low (trump two)",
           "High and Low go to whoever held the card (was dealt it or drew it), "
           "whoever won the trick it fell in", "001", "High and Low go to",
           ("whoever wins the card in a trick", "whoever held the card")),
    Option("game", "pips", ("pips", "ten_of_trumps"),
           "how the Game point is decided",
           "the Game point goes to whoever captures the ten of trumps", "002", "The Game point goes to",
           ("whoever captures more card values", "whoever captures the ten of trumps")),
    Option("target", 10, (),
           "how many match points win the match",
           "a shorter match, usually to 7", "002 and Foster's Hoyle", "Match points needed to win"),
    Option("stock", "exposed", ("exposed", "closed"),
           "whether the loser's draw is seen by both players",
           "Shasta Sam's closed stock: face down with only the top card turned, so the "
           "trick's loser takes the next card unseen by the winner",
           "002 and Foster's Hoyle", "The card the trick's loser draws",
           ("is seen by both players", "is seen only by the loser")),
    Option("turned_jack", False, (False, True),
           "whether a turned-up trump jack scores for the dealer",
           "if the card that sets trump is the jack, the Jack point goes to the dealer, "
           "whoever captures it", "001 (house option)", "A jack of trumps turned up by the dealer",
           ("scores for whoever captures it", "scores for the dealer")),
    Option("shasta_point", False, (False, True),
           "whether the trump nine is a fifth point",
           "a fifth point, counted after Game, to whoever captures the nine of trumps",
           "001 (house rule)", "The nine of trumps",
           ("is not a point", "is a fifth point, after Game")),
    Option("trump_from", "stock", ("stock", "cut"),
           "what fixes the trump suit",
           "a cut before the deal fixes the trump suit, not the stock's top card",
           "002 and Foster's Hoyle", "Trumps are set by",
           ("the stock's top card", "a cut before the deal")),
    Option("players", 2, (2, 3),
           "how many play",
           "three-handed Shasta Sam, each for themself (the project's reading of 001's outline)",
           "001", "Players", ("two", "three, each for themself")),
)}


def _check(name: str, value: Any) -> Any:
    option = OPTIONS.get(name)
    if option is None:
        known = ", ".join(OPTIONS)
        raise RuleError(f"unknown rule option {quoted(name)} (known options: {known})")
    if name == "target":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise RuleError(f"rule option 'target' must be a whole number of at least 1, not {quoted(value)}")
        return value
    # Booleans and ints are compared by type too, so 1 is not taken for True.
    for allowed in option.values:
        if type(value) is type(allowed) and value == allowed:
            return value
    choices = ", ".join(repr(v).replace("False", "false").replace("True", "true") if isinstance(v, bool)
                        else repr(v) for v in option.values)
    raise RuleError(f"rule option {name!r} cannot be {quoted(value)} (choose one of {choices})")


@dataclass(frozen=True)
class Rules:
    """A validated set of rule options; ``Rules()`` is the standard profile."""

    void_duty: str = "must_trump"
    high_low: str = "captured"
    game: str = "pips"
    target: int = 10
    stock: str = "exposed"
    turned_jack: bool = False
    shasta_point: bool = False
    trump_from: str = "stock"
    players: int = 2

    def __post_init__(self):
        for f in fields(self):
            _check(f.name, getattr(self, f.name))
        # Rules key the engine's per-rules tables (scoring, stakes), so hashing must be cheap.
        object.__setattr__(self, "_hash", hash(tuple(getattr(self, f.name) for f in fields(self))))

    def __hash__(self) -> int:
        return self._hash

    def __getstate__(self) -> dict:
        # The hash is not pickled: string hashes differ from one process to the next.
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def __setstate__(self, state: dict) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)
        self.__post_init__()

    @classmethod
    def from_dict(cls, options: Mapping[str, Any] | None = None, **more: Any) -> "Rules":
        """Rules from option names and values; anything left out is standard."""
        if options is not None and not isinstance(options, Mapping):
            raise RuleError(f"rules must be a Rules or a dict of option names and values, "
                            f"not {type(options).__name__}")
        merged = {**(options or {}), **more}
        for name, value in merged.items():
            _check(name, value)
        return cls(**merged)

    @classmethod
    def of(cls, options: "Rules | Mapping[str, Any] | None") -> "Rules":
        """Rules from what an API was given: a :class:`Rules` as it is, a dict of options
        validated (:class:`RuleError` names a bad one), ``None`` the standard profile."""
        return options if isinstance(options, Rules) else cls.from_dict(options)

    def to_dict(self) -> dict[str, Any]:
        """Only the options that differ from the standard profile, as a record stores them."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) != OPTIONS[f.name].standard}

    def with_(self, **changes: Any) -> "Rules":
        """A copy with some options changed (validated)."""
        for name, value in changes.items():
            _check(name, value)
        return replace(self, **changes)

    @property
    def is_standard(self) -> bool:
        """True for the standard profile."""
        return not self.to_dict()

    @property
    def stock_size(self) -> int:
        """Cards left in the stock after the deal: 40 for two players, 34 for three."""
        return 52 - 6 * self.players

    @property
    def tricks(self) -> int:
        """Tricks in a deal: 26 for two players, 17 for three (one card is left out)."""
        return 52 // self.players

    @property
    def draws(self) -> int:
        """Tricks after which the players draw: 20 for two players, 11 for three."""
        return self.stock_size // self.players

    # -- typed options: the only place an option is compared to its values ----------------
    @property
    def void_any(self) -> bool:
        """A player void in the led suit may play any card, even holding trumps (``void_duty``)."""
        return self.void_duty == "any"

    @property
    def held_high_low(self) -> bool:
        """High and Low go to whoever held the card, not whoever captured it (``high_low``)."""
        return self.high_low == "held"

    @property
    def game_by_ten(self) -> bool:
        """The Game point goes to whoever captures the trump ten, not to card values (``game``)."""
        return self.game == "ten_of_trumps"

    @property
    def stock_closed(self) -> bool:
        """The stock lies face down: the loser's draw is unseen by the others (``stock``)."""
        return self.stock == "closed"

    @property
    def trump_cut(self) -> bool:
        """A cut before the deal fixes trump, not the stock's top card (``trump_from``)."""
        return self.trump_from == "cut"

    @property
    def point_names(self) -> tuple[str, ...]:
        """The points of a deal in the strict order they are counted."""
        return ("high", "low", "jack", "game") + (("nine",) if self.shasta_point else ())

    def describe(self) -> list[str]:
        """One sentence per non-standard option, for people."""
        return [f"{OPTIONS[name].variant} (source {OPTIONS[name].source})"
                if name != "target" else f"the match is played to {value}"
                for name, value in self.to_dict().items()]


STANDARD = Rules()
