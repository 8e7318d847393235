"""The sandbox's logic: a learner plays deals, or a whole match, against computer opponents.

Pure Python, no ipywidgets: :class:`Session` holds the match and the deal in progress and
answers everything a view needs (the learner's view, which cards are legal and why, what the
computer did, a hint, undo, the event log, the score, records). Every rule is the engine's,
and every sentence the narrator's (:mod:`calijack.text`).

>>> session = Session(seed=7, opponent="random")
>>> steps = session.play(session.state.legal_cards()[0])
"""

from __future__ import annotations

import json
import random
import zlib
from dataclasses import dataclass
from typing import Any, Mapping

from . import records
from .cards import Card
from .match import Match
from .players import LEVELS, PLAYERS, get_player, position_rng
from .records import MatchRecord, RecordError
from .rules import DealError, RuleError, Rules
from .state import Deal, State, Trick, Verdict, check_seed
from .text import Narrator, say
from .view import check_seat

__all__ = ["Session", "SessionError", "Step", "Hint", "available_opponents"]


class SessionError(ValueError):
    """Something asked at the wrong moment, or bad input; ``str(error)`` is the learner's sentence."""


@dataclass(frozen=True)
class Step:
    """One thing that happened at the table, in order, for a view to show one at a time.

    ``kind`` is "play", "trick" (won), "draw", "deal" (over) or "match" (won); ``card`` is
    ``None`` for a draw the learner did not see; ``state`` is the position after the step and
    ``trick`` the trick it belongs to (complete, with its winner, once won).
    """

    kind: str
    seat: int | None
    card: Card | None
    text: str
    state: State
    trick: Trick | None


@dataclass(frozen=True)
class Hint:
    """A suggested card, the one-sentence reason, and the player who suggested it."""

    card: Card
    reason: str
    player: str


def available_opponents() -> tuple[str, ...]:
    """The opponents a learner chooses from: the levels ("beginner" … "expert"), weakest first.

    A session also takes the players' other names (such as "random"), for tools and tests.
    """
    return tuple(name for name in LEVELS if name in PLAYERS) or tuple(PLAYERS)


def _get_player(name: str):
    if name not in PLAYERS:
        raise SessionError(say("no_player", name=name, names=", ".join(PLAYERS)))
    return get_player(name)


def _best_available(*wanted: str) -> str:
    names = tuple(PLAYERS)
    return next((name for name in wanted if name in names), names[0])


def _check_seed(seed: Any) -> int:
    if seed is None:
        return random.randrange(1_000_000)
    try:
        return check_seed(seed)
    except DealError as error:  # the engine's sentence, as the sandbox's refusal
        raise SessionError(str(error)) from None


def _check_seat(seat: Any, players: int) -> int:
    try:
        return check_seat(seat, players)
    except DealError as error:
        raise SessionError(str(error)) from None


def _rules(options: Rules | Mapping[str, Any] | None) -> Rules:
    if isinstance(options, Rules):
        return options
    try:
        return Rules.from_dict(options or {})
    except RuleError as error:
        raise SessionError(say("bad_rules", error=error)) from None


class Session:
    """A learner (``seat``, 0 by default) playing deals of a match against computer players."""

    def __init__(self, seed: int | None = None, rules: Rules | Mapping[str, Any] | None = None,
                 opponent: str | None = None, seat: int = 0, hint: str | None = None):
        self._opponent_name = opponent or _best_available("casual", "heuristic", "random")
        self._opponent = _get_player(self._opponent_name)
        self._hint_name = hint or _best_available("heuristic", "search", "random")
        self._hint_player = _get_player(self._hint_name)
        self._pending = _rules(rules)
        self.seat = _check_seat(seat, self._pending.players)
        self.new_deal(seed)

    # -- what the table shows ---------------------------------------------------------------
    state = property(lambda self: self._state, doc="The deal in progress (everything, hidden cards too).")
    view = property(lambda self: self._state.view(self.seat), doc="What the learner knows of the position.")
    rules = property(lambda self: self._state.rules, doc="The rules of the match being played.")
    pending_rules = property(lambda self: self._pending, doc="The rules the next :meth:`new_deal` will use.")
    seed = property(lambda self: self._seed, doc="This match's seed: deal 1 is ``Deal.random(seed, rules)``.")
    opponent = property(lambda self: self._opponent_name, doc="The name of the computer player.")
    deal_number = property(lambda self: len(self._done) + 1, doc="Which deal of the match this is, from 1.")
    hand = property(lambda self: self._state.hand(self.seat), doc="The learner's cards, trumps first.")
    your_turn = property(lambda self: self._state.to_play == self.seat, doc="True when the learner is to play.")
    finished = property(lambda self: self._state.finished, doc="True once the deal in progress is over.")
    match_before = property(lambda self: self._base, doc="The match as it stood when this deal was dealt.")
    scores = property(lambda self: self.match.scores, doc="Match points per seat (this deal once it is over).")
    can_undo = property(lambda self: self._last_own_play() is not None and not self.match.finished,
                        doc="True when the learner has played a card in this deal and the match is not won.")
    can_continue = property(lambda self: self._state.finished and not self.match.finished,
                            doc="True when the deal is over and the match goes on (see :meth:`next_deal`).")

    @property
    def result(self):
        """The :class:`DealResult` of the deal once it is over, else ``None``."""
        return self._state.result() if self._state.finished else None

    @property
    def match(self) -> Match:
        """The match so far, the current deal counted once it is over (strict order)."""
        return self._base.add(self._state.result()) if self._state.finished else self._base

    @property
    def narrator(self) -> Narrator:
        """The words of this table, from the learner's side (see :class:`calijack.text.Narrator`)."""
        return Narrator(self._base.rules.players, self.seat)

    @property
    def names(self) -> tuple[str, ...]:
        """Each seat's name at the table: "You", then "Opponent" (or "Left" and "Right")."""
        return self.narrator.names

    def verdicts(self) -> list[Verdict]:
        """For each of the learner's cards: legal or not, with the engine's reason ([] if not their turn)."""
        return self._state.verdicts() if self.your_turn else []

    def prompt(self) -> str:
        """One sentence saying what the learner may do now."""
        state, words = self._state, self.narrator
        if self.match.finished:
            return words.match_done(self.match.winner, self.rules.target)
        if state.finished:
            return words.deal_done(state.result())
        if not self.your_turn:
            return words.their_turn(state.to_play)
        return words.your_turn(state.trick_number, state.rules.tricks, lead=not state.trick)

    # -- acting -------------------------------------------------------------------------------
    def play(self, card: Card | str) -> list[Step]:
        """Play the learner's card, then the computer's until it is the learner's turn again.

        Returns the steps in order. A card that may not be played (not a card, not in hand, or
        forbidden by a duty) raises the engine's :class:`IllegalPlay`, whose sentence says why;
        a card at the wrong moment raises :class:`SessionError`. Either way nothing changes.
        """
        self._check_turn("play a card")
        after = self._state.play(card)  # IllegalPlay propagates: the engine's one refusal
        steps = self._steps(self._state, after)
        self._state, more = self._run_opponents(after)
        return steps + more

    def advance(self) -> list[Step]:
        """Let the computer play until it is the learner's turn (after loading a record)."""
        if self._state.finished:
            raise SessionError(self.prompt())
        self._state, steps = self._run_opponents(self._state)
        return steps

    def hint(self) -> Hint:
        """A suggested card and its reason, from the hint player (heuristic when available)."""
        self._check_turn("ask for a hint")
        decision = self._hint_player.choose(self.view.with_scores(self._base.scores),
                                            self._rng(self._state, "hint"))
        return Hint(decision.card, decision.reason, self._hint_name)

    def review(self, samples: int | None = None) -> list:
        """Each of the learner's plays in the finished deal, rated (:func:`calijack.review.review`).

        Reproducible: the worlds are seeded by this match's seed and the deal's number.
        """
        if not self._state.finished:
            raise SessionError(say("wrong_moment", action="review this deal", prompt=self.prompt()))
        from .review import DEFAULT_SAMPLES, review  # the coach loads only when asked for

        return review(self._state, seats=[self.seat], samples=samples or DEFAULT_SAMPLES,
                      seed=self._seed * 1000 + len(self._done))

    def compare(self, progress=None):
        """The finished deal dealt again with the strongest computer player in the learner's seat,
        against this session's opponent, every choice seeded as this session seeds its opponent's
        (:func:`calijack.drill.compare`): a :class:`~calijack.drill.Comparison`. ``progress(done,
        total)`` is called after each card."""
        if not self._state.finished:
            raise SessionError(say("wrong_moment", action="compare this deal", prompt=self.prompt()))
        from .drill import compare  # the expert player loads only when asked for

        return compare(self._state, self.seat, self._opponent_name, position_rng(self._seed, len(self._done)),
                       self._base.scores, progress=progress)

    def undo(self) -> State:
        """Go back to just before the learner's last card (the computer's replies undone too).

        A won match stays won: once a seat has reached the target, undo refuses.
        """
        if self.match.finished:
            raise SessionError(self.narrator.match_over_undo(self.match.winner, self.rules.target))
        last = self._last_own_play()
        if last is None:
            raise SessionError(say("nothing_to_undo"))
        self._state = self._state.rewind(last)
        return self._state

    def set_opponent(self, name: str) -> None:
        """Play against another computer player from now on."""
        player = _get_player(name)
        self._opponent_name, self._opponent = name, player

    def set_rules(self, options: Rules | Mapping[str, Any] | None) -> Rules:
        """Validate rule options for the next :meth:`new_deal` (the match in progress keeps its rules)."""
        rules = _rules(options)
        _check_seat(self.seat, rules.players)
        self._pending = rules
        return rules

    def new_deal(self, seed: int | None = None, rules: Rules | Mapping[str, Any] | None = None) -> list[Step]:
        """Start a new match (deal 1 from ``seed``) under the pending rules; returns the computer's plays."""
        seed = _check_seed(seed)
        if rules is not None:
            self.set_rules(rules)
        deal = Deal.random(seed, self._pending)
        return self._start(deal, seed, (), Match(self._pending, deal.dealer))

    def next_deal(self) -> list[Step]:
        """Deal the next deal of the match (the deal passes to the next seat)."""
        if not self._state.finished:
            raise SessionError(say("unfinished", trick=self._state.trick_number, tricks=self.rules.tricks))
        if self.match.finished:
            raise SessionError(self.prompt())
        match = self.match
        rng = random.Random(f"{self._seed}/{len(self._done) + 1}")
        deal = Deal.random(rng, match.rules, match.dealer())
        return self._start(deal, self._seed, self._done + (self._state,), match)

    # -- records ------------------------------------------------------------------------------
    def record(self, kind: str | None = None) -> dict:
        """A RECORDS.md record: "deal" (this deal) or "match" (every deal so far); by default a
        deal record for the first deal, a match record after it."""
        return records.game_record(self.rules, self._base.first_dealer, self._done, self._state, kind,
                                   error=SessionError)

    def record_json(self, kind: str | None = None) -> str:
        """:meth:`record` as compact JSON text."""
        return records.dumps(self.record(kind))

    def load(self, record: str | bytes | Mapping, seed: int | None = None) -> "Session":
        """Replace the game by a record's (JSON text or object), positioned after its last play.

        A bad record raises :class:`SessionError` saying what is wrong and changes nothing.
        The computer does not move by itself: call :meth:`advance` if it is its turn.
        ``seed`` is the match's seed when the record is this sandbox's own game, saved and now
        continued: the computer then answers, and the match's next deals are dealt, exactly as
        if the game had never stopped. Without it the seed comes from the record's text.
        """
        if seed is not None:
            seed = _check_seed(seed)
        try:
            read = (records.loads(record) if isinstance(record, (str, bytes, bytearray))
                    else records.read_record(record))
        except RecordError as error:
            raise SessionError(say("bad_record", error=error.message)) from None
        states = read.states if isinstance(read, MatchRecord) else (read,)
        rules = states[0].rules
        if self.seat >= rules.players:
            raise SessionError(say("record_seats", players=rules.players, seat=self.seat))
        first = read.first_dealer if isinstance(read, MatchRecord) else read.dealer
        base = Match(rules, first)
        for state in states[:-1]:
            base = base.add(state.result())
        text = record if isinstance(record, (str, bytes, bytearray)) else json.dumps(record, sort_keys=True, default=str)
        self._seed = seed if seed is not None else zlib.crc32(
            text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
        self._done, self._base, self._state = tuple(states[:-1]), base, states[-1]
        self._pending = rules
        return self

    @classmethod
    def from_record(cls, record: str | Mapping, **options: Any) -> "Session":
        """A new session positioned at a record's last play (see :meth:`load`)."""
        return cls(**options).load(record)

    # -- the event log ------------------------------------------------------------------------
    @property
    def log(self) -> list[str]:
        """What happened so far in plain words: earlier deals' scores, then this deal trick by trick."""
        words = self.narrator
        lines = []
        match = Match(self._base.rules, self._base.first_dealer)
        for number, state in enumerate(self._done, 1):
            match = match.add(state.result())
            lines.append(words.deal_summary(number, state.result(), match))
        return lines + self.deal_log(self._state)

    def deal_log(self, state: State) -> list[str]:
        """The sentences of one deal up to ``state``, as the learner saw it."""
        view, words = state.view(self.seat), self.narrator
        lines = [words.deal_opened(self.deal_number, state.dealer, state.trump, view.turned)]
        tricks = view.tricks + ((view.trick and (Trick(view.leader, view.trick),)) or ())
        for number, trick in enumerate(tricks, 1):
            lines.append(words.trick_played(number, trick))
            if trick.winner is not None:
                lines.append(words.trick_taken(trick))
        if state.finished:
            lines.append(words.deal_over(state.result()))
            lines.append(words.match_line(self.match))
        return lines

    # -- inside -------------------------------------------------------------------------------
    def _check_turn(self, action: str) -> None:
        if self._state.finished or not self.your_turn:
            raise SessionError(say("wrong_moment", action=action, prompt=self.prompt()))

    def _rng(self, state: State, purpose: str = "") -> random.Random:
        # One generator per position (players.position_rng): the same position always gets
        # the same reply (undo, then the same card, gives the same game).
        return position_rng(self._seed, len(self._done))(state, purpose)

    def _start(self, deal: Deal, seed: int, done: tuple[State, ...], base: Match) -> list[Step]:
        saved = self.__dict__.copy()
        self._seed, self._done, self._base = seed, done, base
        try:
            self._state, steps = self._run_opponents(deal.start())
        except BaseException:
            self.__dict__.update(saved)  # all or nothing
            raise
        return steps

    def _run_opponents(self, state: State) -> tuple[State, list[Step]]:
        steps: list[Step] = []
        while not state.finished and state.to_play != self.seat:
            # The computer sees the match score, so near the target it plays for the match.
            view = state.view(state.to_play).with_scores(self._base.scores)
            after = state.play(self._opponent.choose(view, self._rng(state)).card)
            steps += self._steps(state, after)
            state = after
        return state, steps

    def _steps(self, before: State, after: State) -> list[Step]:
        words = self.narrator
        seat, card = before.to_play, after.plays[-1]
        steps = [Step("play", seat, card, words.played(seat, card, lead=not before.trick),
                      after, after.current if after.trick else after.tricks[-1])]
        if len(after.tricks) == len(before.tricks):
            return steps
        trick, n = after.tricks[-1], after.players
        won_with = trick.winning_card
        steps.append(Step("trick", trick.winner, won_with, words.trick_won(trick.winner, won_with), after, trick))
        seen = after.view(self.seat).tricks[-1].draws
        for drawer, shown in zip(trick.drawers(n), seen):
            steps.append(Step("draw", drawer, shown, words.drew(drawer, shown), after, trick))
        if after.finished:
            steps.append(Step("deal", None, None, words.deal_over(after.result()), after, trick))
            match = self._base.add(after.result())
            if match.finished:
                steps.append(Step("match", match.winner, None,
                                  words.match_won(match.winner, match.rules.target), after, trick))
        return steps

    def _last_own_play(self) -> int | None:
        state, n = self._state, self._state.players
        seats = [t.seat_of(k, n) for t in state.tricks + (state.current,) for k in range(len(t.cards))]
        return max((k for k, seat in enumerate(seats) if seat == self.seat), default=None)
