"""Computer opponents: each decides from its seat's :class:`~calijack.view.View` only.

The learner chooses among four levels (:data:`LEVELS`, weakest first): ``beginner``
(:mod:`.beginner`), ``casual`` (the rules of thumb, :mod:`.heuristic`), ``strong`` (the
search, :mod:`.search`) and ``expert`` (:mod:`.expert`); ``bench/ladder.py`` measures that
each beats the one below. Tools also know the players by their old names: ``random``,
``heuristic`` (Casual) and ``search`` (Strong).

>>> from calijack import Deal
>>> from calijack.players import get_player, play_deal
>>> import random
>>> state = play_deal(Deal.random(1), [get_player("heuristic"), get_player("random")], random.Random(1))
>>> state.finished
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Sequence

from ..state import Deal, State
from ..text_hints import LEVEL_WORDS
from .base import Decision, Knowledge, Player
from .beginner import BeginnerPlayer
from .expert import ExpertPlayer
from .heuristic import RULES_OF_THUMB, HeuristicPlayer
from .search import DEFAULT_SAMPLES, SearchPlayer
from .uniform import RandomPlayer
from .worlds import sample_state

__all__ = ["Decision", "Player", "Knowledge", "RandomPlayer", "BeginnerPlayer", "HeuristicPlayer",
           "SearchPlayer", "ExpertPlayer", "PLAYERS", "LEVELS", "Level", "RULES_OF_THUMB", "DEFAULT_SAMPLES",
           "get_player", "play_deal", "sample_state", "PlayerError", "position_rng"]


@dataclass(frozen=True)
class Level:
    """An opponent a learner can choose: its name, its label and one sentence on how it plays."""

    name: str     # what ``get_player``, the sandbox and ``simulate`` accept: "beginner"
    label: str    # what the chooser shows: "Beginner"
    about: str    # how it plays, in one plain sentence (the narrator's, :data:`text_hints.LEVEL_WORDS`)


LEVELS = {name: Level(name, label, about) for name, (label, about) in LEVEL_WORDS.items()}
"""The four opponents a learner chooses from, weakest first."""

PLAYERS = {"beginner": BeginnerPlayer, "casual": HeuristicPlayer, "strong": SearchPlayer,
           "expert": ExpertPlayer,
           # The names tools have always used: the random player, and Casual and Strong.
           "random": RandomPlayer, "heuristic": HeuristicPlayer, "search": SearchPlayer}


class PlayerError(ValueError):
    """An unknown opponent name or an option it does not take."""


def get_player(name: str, **options) -> Player:
    """A new opponent by name (a level of :data:`LEVELS`, or ``"random"``, ``"heuristic"``, ``"search"``).

    ``strong`` (``search``) takes ``samples`` (guesses per decision), ``time_limit`` (seconds)
    and ``epsilon``; ``expert`` takes those and ``budget``; the others take none.
    """
    try:
        cls = PLAYERS[name]
    except (KeyError, TypeError):
        raise PlayerError(f"unknown player {name!r} (choose one of {', '.join(PLAYERS)})") from None
    try:
        return cls(**options)
    except TypeError:
        raise PlayerError(f"player {name!r} takes no option(s) {', '.join(sorted(options))}") from None
    except ValueError as error:
        raise PlayerError(f"player {name!r}: {error}") from None


def play_deal(deal: Deal, players: Sequence[Player], rng: random.Random | int | None = None,
              on_decision=None, scores=None) -> State:
    """Play ``deal`` to the end, seat ``s`` choosing with ``players[s]``; the final state.

    ``on_decision(state, seat, decision, seconds, cpu_seconds)`` is called after each choice
    if given (wall-clock and processor time of the choice). ``scores``, the match score before
    this deal, is shown to every player (:meth:`View.with_scores`) so it can play for the match.
    """
    import time

    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    if len(players) != deal.rules.players:
        raise PlayerError(f"{deal.rules.players} players are needed, not {len(players)}")
    state = deal.start()
    while not state.finished:
        seat = state.to_play
        begin, cpu = time.perf_counter(), time.process_time()
        view = state.view(seat)
        decision = players[seat].choose(view if scores is None else view.with_scores(scores), rng)
        if on_decision is not None:
            on_decision(state, seat, decision, time.perf_counter() - begin, time.process_time() - cpu)
        state = state.play(decision.card)
    return state


def position_rng(seed: int, deal: int = 0) -> Callable[..., random.Random]:
    """The sandbox's randomness, one generator per position: ``rng(state, purpose="")`` for the
    session's ``seed``, the deal's number in its match, and the plays so far.

    So one position always gets the same choice: undo, then the same card, gives the same
    game, and "Same cards, played by the computer" (:mod:`calijack.drill`) meets the very
    opponent the learner met. ``purpose`` keeps apart draws for other ends (a hint)."""
    def rng(state: State, purpose: str = "") -> random.Random:
        return random.Random(f"{seed}/{deal}/{len(state.plays)}/{purpose}")
    return rng
