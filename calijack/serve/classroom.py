"""The lesson server's rules for a classroom, as Voilà classes named in its configuration.

``calijack/serve/jupyter_config/voila.py`` selects them, so ``make serve``, the tests and a plain
``voila`` started at the top of the repository all run with them:

- :class:`LessonKernelManager`: one kernel per open lesson page, and
  - at most ``max_learners`` of them: past that a newcomer gets HTTP 503 and the friendly
    "the lessons are full" page (the template's ``503.html``), never a broken lesson;
  - a pre-heated kernel is checked alive (and its pre-rendered lesson whole) before a learner
    gets it; a dead one is dropped and replaced;
  - pools sized per lesson (``pool_sizes``), so the sandbox can keep more kernels ready, and
    filled ``fill_concurrency`` kernels at a time, so refills do not starve the learners;
  - kernels idle ``cull_idle_timeout`` seconds go when no page is connected to them, after
    ``cull_connected_timeout`` when a page still is (a forgotten tab); a lesson page whose
    kernel has never had its page connect yet (the page is still loading: its scripts, then
    its websocket) keeps it for at least ``page_connect_timeout`` seconds, however short the
    idle limit; and a pre-heated kernel waiting in its pool for a learner is never culled
    (it is checked alive when handed out), so culling never makes the server start
    replacements that take the processor from a learner who is waiting;
  - the dead are not restarted (``KernelRestarter.restart_limit = 0`` in the configuration):
    a fresh kernel would hold none of the page's widgets, so the page is told the kernel died
    and asks the learner to reload.
- :class:`LessonIdentityProvider`: Voilà's own, which also sets the ``_xsrf`` cookie on every
  page, so the shutdown request the page sends when its tab closes passes the XSRF check.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from datetime import datetime, timedelta, timezone
from typing import Any

from jupyter_server.auth.identity import PasswordIdentityProvider
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Dict, Integer

__all__ = ["LessonKernelManager", "LessonIdentityProvider", "LessonsFull"]

# Set by Voilà in the environment of the kernels it pre-heats (voila.utils.ENV_VARIABLE).
_PREHEAT = "VOILA_PREHEAT"


def utcnow() -> datetime:
    """Now, in UTC, aware: what jupyter_server stamps a kernel's ``last_activity`` with."""
    return datetime.now(timezone.utc)


class LessonsFull(web.HTTPError):
    """Every seat is taken: HTTP 503, shown with the template's ``503.html``."""

    def __init__(self, limit: int):
        super().__init__(503, "%d lesson pages are open, the most this server takes", limit,
                         reason="The lessons are full")


def _checked_pool_size(voila_get_pool_size):
    @functools.wraps(voila_get_pool_size)
    def get_pool_size(self, notebook_name: str) -> int:
        # The handler takes a pooled kernel only when this is > 0: none for a newcomer past the
        # cap (it then starts a kernel, which refuses), and only kernels ready or on their way:
        # one still queued behind other fills would come later than a kernel started now.
        if self._full():
            return 0
        self._replace(notebook_name, self._prune(notebook_name))
        return len(self._available(notebook_name))
    return get_pool_size


def _checked_handout(voila_get_rendered_notebook):
    @functools.wraps(voila_get_rendered_notebook)
    async def get_rendered_notebook(self, notebook_name: str, extra_kernel_env_variables: dict = {},
                                    **kwargs):  # noqa: B006 - Voilà's own signature
        await self._drop_dead(notebook_name)
        if self._full():
            raise LessonsFull(self.max_learners)
        pool = self._pools.setdefault(notebook_name, [])
        available = self._available(notebook_name)
        if available:  # Voilà hands out the first entry: make it the best one
            pool.remove(available[0])
            pool.insert(0, available[0])
        elif not pool:
            # Every pooled kernel was dead: start one now (the learner waits as for a new one).
            self.fill_if_needed(delay=0, notebook_name=notebook_name)
        render_task, rendered, kernel_id = await voila_get_rendered_notebook(
            self, notebook_name, extra_kernel_env_variables, **kwargs)
        self._learners.add(kernel_id)
        return render_task, rendered, kernel_id
    return get_rendered_notebook


def _throttled_fill(voila_initialize):
    @functools.wraps(voila_initialize)
    async def _initialize(self, notebook_path: str, kernel_id: str | None = None, **kwargs):
        if kernel_id is not None:  # a restart, not a fill
            return await voila_initialize(self, notebook_path, kernel_id, **kwargs)
        # A pool entry is this very task (Voilà awaits this coroutine in it): it is "started"
        # once it holds a slot, and holds it until its lesson is rendered (or handed out).
        async with self._fill_slots:
            task = asyncio.current_task()
            self._filling.add(task)
            task.add_done_callback(self._filling.discard)
            content = await voila_initialize(self, notebook_path, kernel_id, **kwargs)
            with contextlib.suppress(Exception):
                await asyncio.shield(content["task"])
            return content
    return _initialize


class LessonKernelManager(AsyncMappingKernelManager):
    """jupyter_server's kernel manager with a cap, checked pre-heated kernels and two idle limits."""

    max_learners = Integer(40, config=True, help="""Lesson pages served at once (one kernel
        each); past this a newcomer gets HTTP 503, "the lessons are full". Pre-heated kernels
        waiting for a learner are not counted. 0: no limit.""")

    cull_connected_timeout = Integer(3600, config=True, help="""Seconds after which an idle
        kernel is shut down although a page is still connected to it (a forgotten tab); kernels
        with no page connected go after cull_idle_timeout. 0: never.""")

    pool_sizes = Dict(value_trait=Integer(), config=True, help="""Pre-heated kernels kept for
        each named lesson (path under the lessons folder), instead of Voilà's pool_size.""")

    page_connect_timeout = Integer(60, config=True, help="""Seconds a lesson page has to
        connect to its kernel once the lesson is rendered (it loads its scripts first): until
        then its kernel is not culled as one with no page, whatever cull_idle_timeout says.""")

    fill_concurrency = Integer(1, config=True, help="""Pre-heated kernels started at the same
        time, when the pools first fill and when learners have taken kernels from them: more
        would take the processor from the learners already playing.""")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Voilà builds its pre-heating class on top of the configured one
        # (voila.voila_kernel_manager.voila_kernel_manager_factory), so its methods come first:
        # the ones that count, hand out and fill pooled kernels are wrapped with the above.
        super().__init_subclass__(**kwargs)
        if "get_rendered_notebook" in cls.__dict__:
            cls.get_pool_size = _checked_pool_size(cls.__dict__["get_pool_size"])
            cls.get_rendered_notebook = _checked_handout(cls.__dict__["get_rendered_notebook"])
            cls._initialize = _throttled_fill(cls.__dict__["_initialize"])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._learners: set[str] = set()  # kernels of lesson pages (not waiting in a pool)
        self._starting = 0  # learner kernels being started, counted against the cap at once
        self._fill_slots = asyncio.Semaphore(max(self.fill_concurrency, 1))
        self._filling: set[asyncio.Task] = set()  # pool entries starting now (holding a slot)
        self._page_came: set[str] = set()  # learner kernels whose page has connected at least once
        pools = getattr(self, "kernel_pools_config", None)  # only with Voilà's pre-heating
        if pools is not None and self.pool_sizes:
            default = pools.get("default", {})
            self.kernel_pools_config = {**pools, **{name: {**default, "pool_size": size}
                                                    for name, size in self.pool_sizes.items()}}

    # -- the cap -------------------------------------------------------------------------------
    def _full(self) -> bool:
        return 0 < self.max_learners <= len(self._learners.intersection(self.list_kernel_ids())) + self._starting

    async def start_kernel(self, **kwargs: Any) -> str:
        """Start a kernel; one for a lesson page (not pre-heated) counts against the cap."""
        learner = (kwargs.get("env") or {}).get(_PREHEAT) != "True"
        if not learner:
            return await super().start_kernel(**kwargs)
        if self._full():
            self.log.warning("Lessons full: %d pages open, a newcomer was turned away", self.max_learners)
            raise LessonsFull(self.max_learners)
        self._starting += 1
        try:
            kernel_id = await super().start_kernel(**kwargs)
        finally:
            self._starting -= 1
        self._learners.add(kernel_id)
        return kernel_id

    def remove_kernel(self, kernel_id: str):
        """Forget a kernel (shut down, or dead) and free its seat."""
        self._learners.discard(kernel_id)
        self._page_came.discard(kernel_id)
        return super().remove_kernel(kernel_id)

    def _handle_kernel_died(self, kernel_id: str) -> None:
        # jupyter_server's callback for a kernel found dead: a pool it waited in is refilled.
        super()._handle_kernel_died(kernel_id)
        for name in list(getattr(self, "_pools", {})):
            self._replace(name, self._prune(name))

    async def shutdown_kernel(self, kernel_id: str, now: bool = False, restart: bool = False) -> None:
        """Shut a kernel down and free its seat; a page still connected is told it died.

        A kernel already gone is no error: a page whose kernel died still asks, as its tab
        closes, for that kernel to be shut down.
        """
        self._learners.discard(kernel_id)
        if kernel_id not in self:
            return None
        if not restart:
            _tell_pages_dead(kernel_id)
        return await super().shutdown_kernel(kernel_id, now=now, restart=restart)

    async def shutdown_all(self, now: bool = False) -> None:
        """Shut every kernel down; pool fills still waiting for their turn are dropped unstarted."""
        for pool in getattr(self, "_pools", {}).values():
            for task in [t for t in pool if not t.done() and t not in self._filling]:
                pool.remove(task)
                task.cancel()
        return await super().shutdown_all(now=now)

    # -- pre-heated kernels --------------------------------------------------------------------
    def _pool_entry(self, task: asyncio.Future) -> tuple[str | None, bool]:
        """(kernel id, usable) of a pool entry; (None, True) while it is still starting."""
        if not task.done():
            return None, True
        if task.cancelled() or task.exception() is not None:
            return None, False
        content = task.result()
        render = content["task"]
        broken = render.done() and (render.cancelled() or render.exception() is not None)
        return content["kernel_id"], content["kernel_id"] in self and not broken

    def _available(self, notebook_name: str) -> list[asyncio.Future]:
        """A lesson's pool entries a learner may take: ready ones first, then those starting."""
        pool = getattr(self, "_pools", {}).get(notebook_name, [])
        ready = [task for task in pool if task.done()]
        return ready + [task for task in pool if not task.done() and task in self._filling]

    def _prune(self, notebook_name: str) -> list[str]:
        """Drop unusable entries from a lesson's pool; return their kernels still in the map."""
        pool = getattr(self, "_pools", {}).get(notebook_name, [])
        dropped = []
        for task in list(pool):
            kernel_id, usable = self._pool_entry(task)
            if not usable:
                pool.remove(task)
                if kernel_id is not None and kernel_id in self:
                    dropped.append(kernel_id)
        return dropped

    def _replace(self, notebook_name: str, dropped: list[str]) -> None:
        """Shut down the kernels dropped from a lesson's pool, and top the pool up."""
        for kernel_id in dropped:
            self.log.warning("Pre-heated kernel %s is not usable: dropped from the pool", kernel_id)
            asyncio.ensure_future(self._quietly_shut_down(kernel_id))
        if dropped or len(self._pools.get(notebook_name, ())) < self._pool_target(notebook_name):
            self.fill_if_needed(notebook_name=notebook_name)

    def _pool_target(self, notebook_name: str) -> int:
        config = getattr(self, "kernel_pools_config", {})
        return config.get(notebook_name, config.get("default", {})).get("pool_size", 0)

    async def _quietly_shut_down(self, kernel_id: str) -> None:
        with contextlib.suppress(Exception):
            await self.shutdown_kernel(kernel_id, now=True)

    async def _drop_dead(self, notebook_name: str) -> None:
        """Check the ready kernels of a lesson's pool alive; drop and replace the others."""
        dropped = self._prune(notebook_name)
        for task in list(self._pools.get(notebook_name, [])):
            kernel_id, _ = self._pool_entry(task)
            if kernel_id is not None and not await self.get_kernel(kernel_id).is_alive():
                if task in self._pools[notebook_name]:
                    self._pools[notebook_name].remove(task)
                dropped.append(kernel_id)
        if dropped:
            self._replace(notebook_name, dropped)

    # -- idle kernels --------------------------------------------------------------------------
    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        """Cull an idle kernel: after cull_idle_timeout with no page, cull_connected_timeout with one.

        A pre-heated kernel waiting in its pool is left alone (unless dead), and a lesson page
        that has not connected yet has at least ``page_connect_timeout`` seconds to do so.
        """
        if kernel_id not in self:
            return None
        kernel = self.get_kernel(kernel_id)
        dead = getattr(kernel, "execution_state", "") == "dead"
        if kernel_id not in self._learners and not dead:
            return None  # waiting in a pool for a learner, not idle
        connected = self.kernel_model(kernel_id)["connections"] > 0  # pages open on it (the REST API's count)
        if connected:
            self._page_came.add(kernel_id)
        if dead or not connected:
            last = getattr(kernel, "last_activity", None)
            if (not dead and kernel_id not in self._page_came and last is not None
                    and utcnow() - last <= timedelta(seconds=self.page_connect_timeout)):
                return None  # its page is still on its way
            return await super().cull_kernel_if_idle(kernel_id)
        last = getattr(kernel, "last_activity", None)
        if not self.cull_connected_timeout or last is None or getattr(kernel, "execution_state", "") == "busy":
            return None
        idle = utcnow() - last
        if idle > timedelta(seconds=self.cull_connected_timeout):
            self.log.warning("Culling kernel %s: a page is connected but idle for %d s", kernel_id,
                             idle.total_seconds())
            await self.shutdown_kernel(kernel_id)
        return None


class LessonIdentityProvider(PasswordIdentityProvider):
    """Voilà's identity provider (token or none), which also sets the XSRF cookie on pages.

    Voilà's lesson page sends a shutdown request when its tab closes, with the ``_xsrf``
    cookie's value; the page handler itself never sets that cookie, so the request was refused
    (403) and the kernel lived on. Every page (lesson or lesson list) now sets it.
    """

    async def get_user(self, handler: web.RequestHandler):
        """The request's user; on a page, the ``_xsrf`` cookie is set too."""
        user = super().get_user(handler)
        if asyncio.iscoroutine(user) or isinstance(user, asyncio.Future):
            user = await user
        if user is not None and handler.request.method == "GET" and _is_page(handler):
            # Reading the token sets the cookie when it is missing; it needs the user, which
            # jupyter_server's prepare() would set right after this anyway.
            handler.current_user = user
            handler.xsrf_token  # noqa: B018
        return user


def _tell_pages_dead(kernel_id: str) -> None:
    # A kernel shut down by the server (culled, or through the kernels API) leaves its page's
    # websocket open and silent; a "dead" status, as jupyter_server sends for a kernel that
    # died, makes the page say the lesson lost its connection. jupyter_server keeps its open
    # connections in ZMQChannelsWebsocketConnection._open_sockets (its own close_all uses it).
    try:
        from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

        for connection in list(ZMQChannelsWebsocketConnection._open_sockets):
            if connection.kernel_id == kernel_id:
                connection._send_status_message("dead")
    except Exception:  # noqa: BLE001 - a courtesy to the page; the shutdown goes on regardless
        pass


def _is_page(handler: web.RequestHandler) -> bool:
    from voila.handler import BaseVoilaHandler  # Voilà's page handlers (lesson and list)

    return isinstance(handler, BaseVoilaHandler)
