"""Play a friend: two people take turns at one screen (pass-and-play).

Pure Python, no ipywidgets: :class:`Friend` holds a match between two named players and
answers everything a view needs. Between turns the table is **hidden**: after every play
that hands the turn to the other player, neither hand may be shown until the player to play
says it is them (:meth:`Friend.reveal`). While hidden the view gets only :meth:`pass_screen`,
which says what both players may know: who is to play, the trick so far, who won the last
trick and what each player drew as both saw it.

Every rule is the engine's; hints come from the sandbox's hint player, and only when both
players agreed at the start; the finished deal is a record (:mod:`calijack.records`); the
review rates both players' plays, each from what that player could see
(:func:`calijack.review.review` rates a play from the view of the seat that made it).
Every sentence is the narrator's (:mod:`calijack.text_friend`).

>>> game = Friend(("Ann", "Bo"), seed=7)
>>> game.hidden, game.pass_screen().title
(True, 'Pass to Ann, then tap.')
"""

from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass, replace
from typing import Any, Mapping

from . import records
from .cards import Card
from .match import Match
from .players import get_player, position_rng
from .rules import DealError, RuleError, Rules
from .state import Deal, State, Verdict, check_seed
from .text import say as engine_say
from .text_friend import DEFAULT_NAMES, FIRST_SECOND, NAME_LIMIT, FriendNarrator, say

__all__ = ["Friend", "FriendError", "PassScreen", "Event", "check_names"]

HINT_PLAYER = "heuristic"


class FriendError(ValueError):
    """Something asked at the wrong moment, or bad input; ``str(error)`` is the one sentence to show."""


@dataclass(frozen=True)
class PassScreen:
    """What the screen says between turns, to both players: nothing of either hand."""

    seat: int                 # the player to play next
    name: str
    title: str                # "Pass to Bo, then tap."
    button: str               # "I am Bo: show my cards"
    lines: tuple[str, ...]    # the deal or the last trick, the trick so far, the match score


@dataclass(frozen=True)
class Event:
    """One thing that happened at the table, in words both players may read."""

    kind: str                 # "play", "trick" (won), "draw", "deal" (over)
    seat: int | None
    text: str


def check_names(names: Any) -> tuple[str, str]:
    """Two distinct player names, trimmed; anything else raises :class:`FriendError` saying why."""
    if isinstance(names, (str, bytes)) or not hasattr(names, "__len__") or len(names) != 2:
        count = len(names) if hasattr(names, "__len__") and not isinstance(names, (str, bytes)) else 1
        raise FriendError(say("names_count", count=count))
    out = []
    for which, name in zip(FIRST_SECOND, names):
        if not isinstance(name, str):
            raise FriendError(say("name_type", value=name))
        name = " ".join(name.split())
        if not name:
            raise FriendError(say("name_empty", which=which))
        if any(unicodedata.category(ch).startswith("C") for ch in name):
            raise FriendError(say("name_odd", value=name))
        if len(name) > NAME_LIMIT:
            raise FriendError(say("name_long", limit=NAME_LIMIT, value=name, length=len(name)))
        out.append(name)
    if out[0].casefold() == out[1].casefold():
        raise FriendError(say("names_same", value=out[1]))
    return out[0], out[1]


def _check_hints(hints: Any) -> tuple[bool, bool]:
    if isinstance(hints, (str, bytes)) or not hasattr(hints, "__len__") or len(hints) != 2:
        raise FriendError(say("hints_type", value=hints))
    for agreed in hints:
        if not isinstance(agreed, bool):
            raise FriendError(say("hints_type", value=agreed))
    return bool(hints[0]), bool(hints[1])


def _rules(options: Rules | Mapping[str, Any] | None) -> Rules:
    try:
        rules = options if isinstance(options, Rules) else Rules.from_dict(options or {})
    except RuleError as error:
        raise FriendError(engine_say("bad_rules", error=error)) from None
    if rules.players != 2:
        raise FriendError(say("two_players", players=rules.players))
    return rules


def _seed(seed: Any) -> int:
    if seed is None:
        return random.randrange(1_000_000)
    try:
        return check_seed(seed)
    except DealError as error:
        raise FriendError(str(error)) from None


class Friend:
    """Two players, ``names`` by seat, playing deals of a match at one screen.

    ``hints`` says whether each player agrees to hints: they are on only if both do.
    A new deal starts hidden: the first player to play taps to see their cards.
    """

    def __init__(self, names=DEFAULT_NAMES, hints=(False, False), seed: int | None = None,
                 rules: Rules | Mapping[str, Any] | None = None):
        self._names = check_names(names)
        self._hints = _check_hints(hints)
        rules = _rules(rules)
        self._seed = _seed(seed)
        self._hint_player = get_player(HINT_PLAYER)
        self._words = FriendNarrator(self._names)
        deal = Deal.random(self._seed, rules)
        self._start(deal, (), Match(rules, deal.dealer))

    # -- what the table may show --------------------------------------------------------------
    names = property(lambda self: self._names, doc="The players' names, by seat.")
    narrator = property(lambda self: self._words, doc="The words of this table (:class:`FriendNarrator`).")
    hints_on = property(lambda self: all(self._hints), doc="True when both players agreed to hints.")
    seed = property(lambda self: self._seed, doc="This match's seed: deal 1 is ``Deal.random(seed, rules)``.")
    state = property(lambda self: self._state, doc="The deal in progress (everything: never show it whole).")
    rules = property(lambda self: self._state.rules, doc="The rules of the match.")
    hidden = property(lambda self: self._hidden, doc="True between turns: neither hand may be shown.")
    finished = property(lambda self: self._state.finished, doc="True once the deal in progress is over.")
    to_play = property(lambda self: self._state.to_play, doc="The seat to play (``None`` once the deal is over).")
    deal_number = property(lambda self: len(self._done) + 1, doc="Which deal of the match this is, from 1.")
    match_before = property(lambda self: self._base, doc="The match as it stood when this deal was dealt.")
    can_continue = property(lambda self: self._state.finished and not self.match.finished,
                            doc="True when the deal is over and the match goes on.")

    @property
    def match(self) -> Match:
        """The match so far, the current deal counted once it is over."""
        return self._base.add(self._state.result()) if self._state.finished else self._base

    @property
    def scores(self) -> tuple[int, ...]:
        """Match points per seat (this deal counted once it is over)."""
        return self.match.scores

    @property
    def result(self):
        """The deal's :class:`~calijack.scoring.DealResult` once it is over, else ``None``."""
        return self._state.result() if self._state.finished else None

    def visible_view(self):
        """What the screen may show of the cards: the view of the player to play while their
        cards show, every hand empty once the deal is over, ``None`` while hidden."""
        if self._hidden:
            return None
        return self._state.view(self._state.to_play if not self.finished else 0)

    def verdicts(self) -> list[Verdict]:
        """Each card of the player whose cards show: legal or not, and why ([] while hidden)."""
        return [] if self._hidden or self.finished else self._state.verdicts()

    def pass_screen(self) -> PassScreen | None:
        """The screen between turns (``None`` while a player's cards show or the deal is over)."""
        if not self._hidden:
            return None
        state, words, seat = self._state, self._words, self._state.to_play
        name = self._names[seat]
        button = say("pass_button", name=name)
        lines = []
        if not state.plays:
            lines.append(words.deal_opened(self.deal_number, state.dealer, state.trump, state.deal.turned))
            lines.append(say("hints_on" if self.hints_on else "hints_off"))
        elif state.tricks:
            lines.append(words.last_trick(len(state.tricks), self._public(len(state.tricks) - 1)))
        if state.trick:
            leader = self._names[state.leader]
            lines.append(say("pass_follow", trick=state.trick_number, tricks=state.rules.tricks, leader=leader,
                             card=state.plays[-1], name=name))
        else:
            lines.append(say("pass_lead", trick=state.trick_number, tricks=state.rules.tricks, name=name))
        lines.append(say("pass_score", scores=words.scores(self._base.scores), target=state.rules.target))
        return PassScreen(seat, name, say("pass_title", name=name), button, tuple(lines))

    def prompt(self) -> str:
        """One sentence on what to do now, fit for both players to read."""
        if self._hidden:
            return self.pass_screen().title
        state = self._state
        if self.match.finished:
            return say("match_over", name=self._names[self.match.winner], target=state.rules.target)
        if state.finished:
            return say("deal_over", points=self._words.points(state.result()))
        return self._words.turn(state.to_play, state.trick_number, state.rules.tricks, lead=not state.trick)

    # -- acting ------------------------------------------------------------------------------
    def reveal(self) -> None:
        """The player to play has the screen: show their cards (refused unless hidden)."""
        if not self._hidden:
            seat = self._state.to_play
            raise FriendError(say("showing", name=self._names[seat]) if seat is not None else say("over"))
        self._hidden = False

    def play(self, card: Card | str) -> list[Event]:
        """Play a card of the player whose cards show; returns what happened, in words for both.

        Refused with one sentence, and nothing changed, while the cards are hidden
        (:class:`FriendError`) or for a card that may not be played: not a card, not in this
        player's hand (said without saying whose it is), or forbidden by a duty (the engine's
        :class:`~calijack.state.IllegalPlay`). After a play that hands the turn to the other
        player, the table is hidden.
        """
        self._refuse_hidden()
        before = self._state
        after = before.play(card)  # IllegalPlay propagates: the engine's one refusal
        self._state = after
        self._hidden = not after.finished and after.to_play != before.to_play
        return self._events(before, after)

    def hint(self):
        """A suggested card and its reason for the player whose cards show (only if both agreed)."""
        if not self.hints_on:
            raise FriendError(say("hints_refused"))
        self._refuse_hidden()
        if self.finished:
            raise FriendError(say("over"))
        state = self._state
        view = state.view(state.to_play).with_scores(self._base.scores)
        rng = position_rng(self._seed, len(self._done))(state, "hint")
        return self._hint_player.choose(view, rng)

    def hint_text(self) -> tuple[Card, str]:
        """The hint and its sentence: ``(card, "Hint for Ann: play J♥. …")``."""
        decision = self.hint()
        reason = decision.reason if decision.reason.endswith((".", "!", "?")) else decision.reason + "."
        return decision.card, say("hint", name=self._names[self._state.to_play], card=decision.card,
                                  reason=reason)

    def next_deal(self) -> None:
        """Deal the next deal of the match (the deal passes to the other seat); it starts hidden."""
        if not self._state.finished:
            raise FriendError(say("no_next", trick=self._state.trick_number, tricks=self.rules.tricks))
        match = self.match
        if match.finished:
            raise FriendError(say("match_over", name=self._names[match.winner], target=self.rules.target))
        rng = random.Random(f"{self._seed}/{len(self._done) + 1}")
        self._start(Deal.random(rng, match.rules, match.dealer()), self._done + (self._state,), match)

    # -- records and the review ----------------------------------------------------------------
    def record(self, kind: str | None = None) -> dict:
        """A RECORDS.md record once the deal is over: "deal", or "match" (every deal so far);
        by default a deal record for the first deal, a match record after it. Refused while a
        deal is in progress: a record holds both hands."""
        if not self._state.finished:
            raise FriendError(say("no_record_yet"))
        return records.game_record(self.rules, self._base.first_dealer, self._done, self._state, kind,
                                   error=FriendError)

    def record_json(self, kind: str | None = None) -> str:
        """:meth:`record` as compact JSON text."""
        return records.dumps(self.record(kind))

    def review(self, samples: int | None = None) -> dict[int, list]:
        """Both players' plays of the finished deal, rated, by seat: each play is rated from
        what its player could see then (:func:`calijack.review.review`), reproducibly."""
        if not self._state.finished:
            raise FriendError(say("no_review_yet"))
        from .review import DEFAULT_SAMPLES, review  # the coach loads only when asked for

        reviews = review(self._state, seats=None, samples=samples or DEFAULT_SAMPLES,
                         seed=self._seed * 1000 + len(self._done))
        return {seat: [r for r in reviews if r.seat == seat] for seat in range(self._state.players)}

    # -- inside --------------------------------------------------------------------------------
    def _start(self, deal: Deal, done: tuple[State, ...], base: Match) -> None:
        self._done, self._base = done, base
        self._state = deal.start()
        self._hidden = True  # both are at the screen: the first player taps to see their cards

    def _refuse_hidden(self) -> None:
        if self._hidden:
            name = self._names[self._state.to_play]
            raise FriendError(say("hidden", name=name, button=say("pass_button", name=name)))

    def _public(self, index: int):
        """Trick ``index`` with only the draws both players saw (a closed stock hides some)."""
        views = [self._state.view(seat).tricks[index] for seat in range(self._state.players)]
        trick = self._state.tricks[index]
        draws = tuple(card if all(v.draws[k] is not None for v in views) else None
                      for k, card in enumerate(trick.draws))
        return replace(trick, draws=draws)

    def _events(self, before: State, after: State) -> list[Event]:
        words, seat = self._words, before.to_play
        events = [Event("play", seat, words.played(seat, after.plays[-1], lead=not before.trick))]
        if len(after.tricks) == len(before.tricks):
            return events
        trick = self._public(len(after.tricks) - 1)
        events.append(Event("trick", trick.winner, words.trick_won(trick.winner, trick.winning_card)))
        for drawer, card in zip(trick.drawers(after.players), trick.draws):
            events.append(Event("draw", drawer, words.drew(drawer, card)))
        if after.finished:
            events.append(Event("deal", None, words.deal_over(after.result())))
        return events
