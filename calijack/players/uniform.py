"""The random opponent: any legal card, uniformly, through the engine's one random choice."""

from __future__ import annotations

import random

from .. import core
from .. import text_hints as hints
from ..cards import DECK
from ..view import View
from .base import Decision, Knowledge

__all__ = ["RandomPlayer"]


class RandomPlayer:
    """Plays a legal card chosen uniformly at random (``core.pick`` over index order)."""

    name = "random"

    def choose(self, view: View, rng: random.Random) -> Decision:
        """A uniformly random legal card."""
        legal = core.bit_list(Knowledge.from_view(view).legal)
        card = DECK[legal[core.pick(rng, len(legal))]]
        return Decision(card, hints.why_only(card) if len(legal) == 1 else hints.why_random(len(legal)))

    def __repr__(self) -> str:
        return "RandomPlayer()"
