"""The Expert: the search, given more guesses where they are cheap and needed.

The search (:mod:`.search`) tries every legal card in each of a fixed number of guesses at
the hidden cards, and each try plays the deal out to its end. A try early in the deal plays
about fifty cards, one near the end of the stock a dozen: with the same time, late decisions
can afford several times as many guesses. The Expert spends a fixed *budget* of cards
played in tries per decision (:data:`BUDGET`, a guess itself counting as :data:`GUESS_COST`
cards), so it makes as many guesses as the budget pays for (between :data:`MIN_SAMPLES` and
:data:`MAX_SAMPLES`): its time per decision stays nearly flat while its estimates sharpen
where the stock runs low and every trick counts.
Once the stock is gone it plays exactly, as the search does.

Everything is counted, not timed, so a game replays exactly from its seed on any machine.
"""

from __future__ import annotations

from .base import Knowledge
from .search import SearchPlayer

__all__ = ["ExpertPlayer", "BUDGET", "MIN_SAMPLES", "MAX_SAMPLES", "GUESS_COST"]

BUDGET = 14_000     # cards played in tries per decision
MIN_SAMPLES = 24    # guesses per decision, at least …
MAX_SAMPLES = 300   # … and at most
GUESS_COST = 20     # what making one guess costs, in cards played (measured: about 0.09 ms, 18 cards)


class ExpertPlayer(SearchPlayer):
    """The search with a budget of cards played per decision instead of a fixed number of guesses.

    ``budget``, ``min_samples`` and ``max_samples`` set the guesses (see the module's
    docstring); ``samples``, as the search's option, sets the fewest (``min_samples``). The
    other options are :class:`.search.SearchPlayer`'s.
    """

    name = "expert"

    def __init__(self, budget: int = BUDGET, min_samples: int = MIN_SAMPLES, max_samples: int = MAX_SAMPLES,
                 **options):
        if options.get("samples") is not None:
            min_samples = options.pop("samples")
            max_samples = max(max_samples, min_samples) if isinstance(min_samples, int) else max_samples
        for label, value in (("budget", budget), ("min_samples", min_samples), ("max_samples", max_samples)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{label} must be a whole number of at least 1, not {value!r}")
        if min_samples > max_samples:
            raise ValueError(f"min_samples ({min_samples}) is more than max_samples ({max_samples})")
        options.pop("samples", None)
        super().__init__(samples=min_samples, **options)
        self.budget, self.min_samples, self.max_samples = budget, min_samples, max_samples

    def __repr__(self) -> str:
        return (f"ExpertPlayer(budget={self.budget!r}, min_samples={self.min_samples!r}, "
                f"max_samples={self.max_samples!r})")

    def _samples_for(self, k: Knowledge, moves) -> int:
        """As many guesses as the budget pays for: each is made, then tries every legal card to the
        end of the deal (every card in the hands and in the stock is played)."""
        per_guess = GUESS_COST + len(moves) * (sum(k.hand_sizes) + k.stock_count)
        return max(self.min_samples, min(self.max_samples, self.budget // per_guess))
