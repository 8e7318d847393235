"""Trying one's mistakes again: each mistake set up at the table, two tries, then the answer.

The engine's side of the sandbox's **Try your mistakes again** (the widget only shows what
:class:`Retry` decides) and of the practice that comes back:

- :class:`Retry` walks through a deal's drills (:func:`calijack.drill.drills_of`, the review's
  own values): the learner picks a card; a card within :data:`~calijack.drill.ACCEPT` of the
  best is right; a wrong pick is told its value beside the best card's, without the answer,
  and gets one more try (:data:`TRIES` in all); then the answer, with the coach's sentence.
- A drill missed at the first try goes to the learner's queue in the progress store
  (:func:`queue_entry`, the store's ``drills`` section, :data:`calijack.progress.DRILL`), where
  the page's script schedules it (:data:`calijack.progress.DRILL_DAYS`); a queued drill comes
  back to the table through :func:`read_entry`, which checks everything the browser kept.

Every sentence is :mod:`calijack.text_coach`'s.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card, parse_card
from .drill import ACCEPT, Drill
from .records import deal_record
from .state import IllegalPlay
from .text_coach import (drill_answer, drill_hint, drill_prompt, drill_right, drill_settled, drill_wrong,
                         drills_done, review_comment)

__all__ = ["TRIES", "Verdict", "Retry", "RetryError", "next_step", "queue_entry", "read_entry"]

TRIES = 2
"""Picks per mistake before the answer is shown."""


class RetryError(ValueError):
    """A pick that cannot be taken (the card is not legal there, or the mistake is settled);
    ``str(error)`` is the learner's sentence. Nothing changes."""


@dataclass(frozen=True)
class Verdict:
    """What a pick comes to: right or not, whether the mistake is settled, and the sentence."""

    right: bool
    settled: bool  # no more picks for this mistake: right, or the answer shown
    text: str


class Retry:
    """A deal's mistakes tried again, one at a time (``drills`` in playing order, at least one).

    ``current`` is the drill at the table; :meth:`pick` answers it, :meth:`next` moves on.
    ``first`` says, for each drill tried, whether its first pick was right; ``missed`` lists
    the drills whose first pick was wrong (what goes to the queue).
    """

    def __init__(self, drills: Sequence[Drill]) -> None:
        self.drills = tuple(drills)
        if not self.drills:
            raise ValueError("there is no mistake to try again")
        self.at = 0
        self.wrong = 0  # wrong picks at the current drill
        self.settled = False
        self.hinted = False  # a hint was shown at the current drill
        self.first: dict[int, bool] = {}

    @property
    def current(self) -> Drill:
        return self.drills[self.at]

    @property
    def last(self) -> bool:
        """True at the last drill."""
        return self.at == len(self.drills) - 1

    @property
    def missed(self) -> list[Drill]:
        return [self.drills[k] for k, right in sorted(self.first.items()) if not right]

    def prompt(self) -> str:
        """What the learner is asked at the current drill."""
        position = self.current.position
        return drill_prompt(self.at + 1, len(self.drills), min(position.trick_number, position.rules.tricks))

    def pick(self, card: Card | str) -> Verdict:
        """The learner picks ``card`` at the current drill (:class:`RetryError` if it cannot be taken)."""
        if self.settled:
            raise RetryError(drill_settled())
        drill = self.current
        try:
            card = parse_card(card) if isinstance(card, str) else card
            drill.position.play(card)  # the engine's own refusal, with its reason
        except IllegalPlay as error:
            raise RetryError(str(error)) from None
        except ValueError as error:
            raise RetryError(f"That is not a card ({error}).") from None
        right = drill.right(card)
        self.first.setdefault(self.at, right)
        value, best_value, exact = drill.values[card], drill.values[drill.best], drill.exact
        if right:
            self.settled = True
            return Verdict(True, True, drill_right(card, value, drill.best, best_value, exact))
        self.wrong += 1
        if self.wrong < TRIES:
            return Verdict(False, False, drill_wrong(card, value, best_value, exact))
        self.settled = True
        comment = ""
        if drill.rating is not None:
            comment = review_comment(card, drill.rating, drill.position.trump, drill.position.players)
        return Verdict(False, True, drill_answer(card, value, drill.best, best_value, exact, comment))

    def hint(self) -> str:
        """A hint at the current drill (how many cards are right, what the best is worth; not
        which): a right answer after it earns at most 2 stars (:meth:`stars`)."""
        if self.settled:
            raise RetryError(drill_settled())
        drill = self.current
        self.hinted = True
        return drill_hint(len(drill.accept), len(drill.values), drill.values[drill.best], drill.exact)

    def stars(self) -> int:
        """The current drill's stars once settled, as the puzzles count them: 3 for right at the
        first try with no hint, 2 for right at the second try or after a hint, 0 for the answer shown."""
        if not self.settled or self.wrong >= TRIES:
            return 0
        return 3 if self.wrong == 0 and not self.hinted else 2

    def next(self) -> bool:
        """Move to the next drill (False, and no move, at the last one)."""
        if self.last:
            return False
        self.at += 1
        self.wrong, self.settled, self.hinted = 0, False, False
        return True

    def summary(self, queued: bool = True) -> str:
        """The sentence after the last drill (``queued``: say that the missed ones come back)."""
        return drills_done(sum(self.first.values()), len(self.drills), len(self.missed) if queued else 0)


# -- the queue in the progress store ------------------------------------------------------------

def next_step(step: int, right: bool) -> int:
    """The schedule's step after a queued mistake is answered (:data:`calijack.progress.DRILL_DAYS`):
    ``right`` (the first pick was right, with or without a hint: a hint costs a star, not the
    step), one step on, staying at the last; missed at the first pick, back to the first step."""
    from .progress import DRILL_DAYS

    return min(step + 1, len(DRILL_DAYS) - 1) if right else 0


def queue_entry(drill: Drill) -> dict:
    """A drill as the store's ``drills`` section keeps it, without its schedule (``step`` and
    ``due``, which the page's store sets): its position as a deal record and its answers.
    Its ``id`` comes from the position, so the same mistake missed twice is one entry."""
    record = deal_record(drill.position)
    key = json.dumps(record, sort_keys=True, separators=(",", ":"))
    return {"id": hashlib.sha256(key.encode()).hexdigest()[:16], "seat": drill.position.to_play,
            "record": record, "played": drill.played.code, "best": drill.best.code,
            "accept": [c.code for c in drill.accept], "exact": drill.exact,
            "values": {c.code: _number(v) for c, v in drill.values.items()}}


def _number(value: float) -> int | float:
    # JSON has one kind of number: a whole value is written as one (0, not 0.0), as the page's
    # script writes it back, so the store and Python keep the very same text.
    return int(value) if float(value).is_integer() else value


def read_entry(value) -> Drill:
    """A queued drill (an entry of the store's ``drills`` section) as the page hands it over,
    checked: its shape (:data:`calijack.progress.DRILL`), its position (the engine replays every
    card), and its answers (the legal cards valued, the best one of highest value, the accepted
    ones within :data:`~calijack.drill.ACCEPT` of it). :class:`calijack.progress.ProgressError` if not."""
    from .progress.document import DRILL  # the store's checks, one place
    from .progress.reader import ProgressError, _part, _record

    _part(value, DRILL)
    position = _record(value["record"])
    if position.finished or position.to_play != value["seat"]:
        raise ProgressError("record", f"seat {value['seat']} is not to play in that position")
    legal = set(position.legal_cards())
    values = {parse_card(code): v for code, v in value["values"].items()}
    best, played = parse_card(value["best"]), parse_card(value["played"])
    accept = tuple(parse_card(code) for code in value["accept"])
    top = max(values.values(), default=0)
    if (set(values) != legal or values[best] != top or played not in legal
            or any(c not in legal or top - values[c] >= ACCEPT for c in accept) or best not in accept):
        raise ProgressError("record", "its answers do not fit its position")
    ordered = dict(sorted(values.items(), key=lambda item: item[0].index))
    return Drill(len(position.plays), position, played, best, accept, ordered, value["exact"], "")
