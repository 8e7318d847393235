"""The teacher's review of one learner's deal: the sandbox's review board, worked out on the server.

:func:`board` is the CPU work (seconds at the coach's default): the engine reviews the learner's
plays (:func:`calijack.review.review`) and the render layer draws one frame per play
(:func:`calijack.render.review.review_steps`), as JSON for ``calijack/widgets/review.js``.
:class:`Reviews` runs it in a process of its own, never on the service's event loop, one
review at a time, and keeps the last ones in memory per (learner, deal). No widgets, no
tornado: the worker process imports only the engine and the render layer.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor

from ..progress import opponent_labels, read_deal
from ..render.review import review_steps
from ..review import DEFAULT_SAMPLES, review, samples_setting

__all__ = ["board", "samples", "Reviews"]

KEPT = 32
"""How many reviews the service keeps in memory (the oldest goes first)."""
def samples(env=None) -> int:
    """The worlds a play is rated over: the coach's default, fewer if the setting says so
    (:func:`calijack.review.samples_setting`, the sandbox's), never more on the class's server."""
    return samples_setting(env, most=DEFAULT_SAMPLES)


def board(entry: dict, learner: str, worlds: int) -> dict:
    """The review board's JSON for a kept deal ``entry`` of ``learner``: their plays, each rated
    over ``worlds`` worlds (seed 0: the same deal gives the same review)."""
    entry, state = read_deal(entry)
    seat = entry["seat"]
    reviews = review(state, seats=[seat], samples=worlds, seed=0)
    label = opponent_labels().get(entry["opponent"], entry["opponent"])
    names = [learner if s == seat else label for s in range(state.players)]
    return review_steps(state, reviews, seat, names=names)


class Reviews:
    """Reviews computed off the event loop by ``executor`` (a one-process pool by default, made
    when first needed), the last :data:`KEPT` kept per (learner, deal id, when it finished)."""

    def __init__(self, worlds: int | None = None, executor: Executor | None = None) -> None:
        self.worlds = samples() if worlds is None else worlds
        self._executor = executor
        self._kept: OrderedDict[tuple, asyncio.Future] = OrderedDict()

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(max_workers=1)
        return self._executor

    async def get(self, learner: str, entry: dict) -> dict:
        """The board of ``entry`` (computed once; two pages asking at once share the work)."""
        key = (learner, entry["id"], entry["when"])
        future = self._kept.get(key)
        if future is None:
            loop = asyncio.get_running_loop()
            future = loop.run_in_executor(self._pool(), board, entry, learner, self.worlds)
            self._kept[key] = future
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        self._kept.move_to_end(key)
        try:
            return await asyncio.shield(future)
        except Exception:
            self._kept.pop(key, None)  # not kept: the next visit tries again
            raise

    def close(self) -> None:
        """Stop the review process, if one was started."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
