"""Search bots, hints and replays off the event loop, on a small bounded process pool.

A search bot's move is CPU-bound Python: run on the event loop, or in a thread
(which holds the GIL), it stalls every other table. Here each such job is a
pure function of its inputs (a bot spec, a one-way per-move seed, the seat's
view and redacted history), run in another process. A job waits its turn for a
free worker, first come first served, so a busy pool slows the tables that use
it (a dozen tables of search bots share the workers) and nothing else; at most
``queue`` jobs wait, and one beyond is refused (:class:`PoolBusy`): a bot move
is then played by the quick fallback bot, a hint or a replay gets ``busy``.
Cheap bots (random, greedy, expert: well under a millisecond a move) play inline.

The server caps a search bot's budget (``seconds``, ``iterations``) whatever
level or spec asked for more.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import inspect
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ..bots import BOTS, LEVELS, make_bot, parse_spec
from ..bots.hint import suggest
from ..bots.registry import SEARCH_BOTS
from ..cards import Card
from ..engine import SeatView
from ..events import Event
from . import metrics

log = logging.getLogger("xeri.server")

T = TypeVar("T")

#: Bots cheap enough to play on the event loop (measured: expert ~0.15 ms a move).
INLINE_BOTS = frozenset({"random", "greedy", "expert"})
#: The bot that plays a search bot's move when the pool is full.
FALLBACK_SPEC = "expert"


class PoolBusy(Exception):
    """The pool already holds as many jobs as it may: nothing was queued."""


def default_workers() -> int:
    """One process per core, less one for the event loop (at least one)."""
    return max(1, (os.cpu_count() or 2) - 1)


@dataclass(frozen=True)
class BotBudget:
    """The most a search bot may spend on one move, whatever its spec asks."""

    seconds: float = 1.0
    iterations: int = 2000

    def __post_init__(self) -> None:
        if not 0 < self.seconds <= 60:
            raise ValueError("a bot's seconds per move must be in (0, 60]")
        if not 1 <= self.iterations <= 1_000_000:
            raise ValueError("a bot's iterations per move must be 1..1000000")


def capped_spec(spec: str, budget: BotBudget) -> str:
    """``spec`` (a level or a bot spec) with its ``seconds`` and ``iterations`` held within ``budget``.

    A bot that takes a ``seconds`` budget always gets one, so no move runs unbounded: those whose signature
    names it, and the search bots (``SEARCH_BOTS``: the strong level's factory takes ``**params``).
    """
    resolved = LEVELS.get(spec.strip().lower(), spec)
    name, params = parse_spec(resolved)
    factory = BOTS.get(name)
    if factory is None:
        return resolved  # make_bot reports the unknown name
    accepted = inspect.signature(factory).parameters
    if "seconds" in accepted or name in SEARCH_BOTS:
        asked = params.get("seconds")
        params["seconds"] = budget.seconds if not isinstance(asked, (int, float)) else min(asked, budget.seconds)
    if "iterations" in accepted and isinstance(params.get("iterations"), int):
        params["iterations"] = min(params["iterations"], budget.iterations)
    if not params:
        return name
    return f"{name}:" + ",".join(f"{k}={v}" for k, v in params.items())


def is_inline(spec: str) -> bool:
    """Whether the bot is cheap enough to play on the event loop."""
    return parse_spec(LEVELS.get(spec.strip().lower(), spec))[0] in INLINE_BOTS


def choose_card(spec: str, seed: int, view: SeatView, history: Sequence[Event]) -> Card:
    """The pool's job: a fresh bot from ``spec`` and ``seed`` picks a card. Pure, so any process may run it."""
    return make_bot(spec, seed=seed).choose(view, history)


def choose_card_noted(spec: str, seed: int, view: SeatView, history: Sequence[Event]) -> tuple[Card, str | None]:
    """``choose_card`` and how the bot played (``MasterBot.status``: ``warming`` while the master's rollouts load
    in that worker, ``full`` once they are there; None for other bots)."""
    bot = make_bot(spec, seed=seed)
    card = bot.choose(view, history)
    return card, getattr(bot, "status", None)


def hint_card(view: SeatView, history: Sequence[Event], level: str | None) -> Card:
    """The pool's job for a hint: the card ``suggest`` picks (its reason is read off the view by the caller)."""
    return suggest(view, history, level)[0]


def _ready() -> bool:
    return True


def _exit_with_parent() -> None:
    """A worker's start: end this process when the server's ends, even by kill -9 (nothing else would)."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="xeri-parent-watch", daemon=True).start()


class Workers:
    """The bounded process pool; ``workers=0`` runs jobs in a thread instead (tests, tiny machines).

    A job waits, first come first served, for a free worker; at most ``queue`` jobs wait. Jobs are
    handed to the executor only when a worker is free, so the order is ours and nothing queues unseen.
    """

    def __init__(self, workers: int | None = None, queue: int | None = None,
                 budget: BotBudget | None = None) -> None:
        self.size = default_workers() if workers is None else workers
        if not 0 <= self.size <= 256:
            raise ValueError("workers must be 0..256")
        self.queue = 64 if queue is None else queue
        if not 0 <= self.queue <= 10_000:
            raise ValueError("the worker queue must be 0..10000")
        self.budget = budget or BotBudget()
        self.slots = max(1, self.size)
        self.in_flight = 0
        self.refused = 0
        self._free = self.slots
        self._waiters: collections.deque[asyncio.Future[None]] = collections.deque()
        self._pool: concurrent.futures.Executor | None = None
        self._warned = 0.0

    @property
    def waiting(self) -> int:
        return sum(1 for w in self._waiters if not w.done())

    def start(self) -> None:
        """Start the processes (spawned: the server's threads are not forked with them)."""
        if self._pool is not None:
            return
        if self.size == 0:
            self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="xeri-worker")
        else:
            ctx = multiprocessing.get_context("spawn")
            self._pool = concurrent.futures.ProcessPoolExecutor(self.size, mp_context=ctx,
                                                                initializer=_exit_with_parent)

    async def warm(self) -> None:
        """Start every process now rather than on the first bot move."""
        self.start()
        assert self._pool is not None
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self._pool, _ready) for _ in range(self.slots)))

    def close(self) -> None:
        if self._pool is not None:
            # Queued jobs are dropped; the running ones (each bounded by the bot budget) end first.
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    # --- slots ------------------------------------------------------------------

    def _busy(self) -> PoolBusy:
        self.refused += 1
        return PoolBusy(f"the server's {self.slots} workers are busy and {self.queue} jobs wait already")

    async def _take(self) -> None:
        """A free worker, now or in turn; :class:`PoolBusy` at once if ``queue`` jobs wait already."""
        if self._free > 0 and not self.waiting:
            self._free -= 1
            return
        if self.waiting >= self.queue:
            raise self._busy()
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._give()  # the worker was handed over as we were cancelled: pass it on
            raise

    def _give(self) -> None:
        """A worker came free: to the first job waiting, else back to the free ones."""
        while self._waiters:
            turn = self._waiters.popleft()
            if not turn.done():
                turn.set_result(None)
                return
        self._free += 1

    @metrics.timed_job
    def _launch(self, fn: Callable[..., T], args: tuple[Any, ...]) -> asyncio.Future[T]:
        self.start()
        assert self._pool is not None
        loop = asyncio.get_running_loop()
        try:
            job = self._pool.submit(fn, *args)
        except BaseException:
            self._give()
            raise
        self.in_flight += 1
        job.add_done_callback(lambda _job: loop.call_soon_threadsafe(self._finished))
        return asyncio.wrap_future(job, loop=loop)

    def _finished(self) -> None:
        self.in_flight -= 1
        self._give()

    def submit(self, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """``fn(*args)`` on a free worker now, or :class:`PoolBusy` (nothing queued) if none is free.

        The worker is held until the job itself ends, even if its awaiter gives up first.
        """
        if self._free <= 0 or self.waiting:
            raise self._busy()
        self._free -= 1
        return self._launch(fn, args)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the next free worker, in turn; :class:`PoolBusy` at once if the queue is full."""
        await self._take()
        return await self._launch(fn, args)

    # --- bots -----------------------------------------------------------------------

    async def choose(self, spec: str, seed: int, view: SeatView, history: Sequence[Event]) -> Card:
        """A bot's card: inline for a cheap bot, in the pool (within the budget) for a search bot.

        A full queue gives :class:`PoolBusy`; the caller picks the fallback.
        """
        return (await self.choose_noted(spec, seed, view, history))[0]

    async def choose_noted(self, spec: str, seed: int, view: SeatView,
                           history: Sequence[Event]) -> tuple[Card, str | None]:
        """:meth:`choose`, and how the bot played (``choose_card_noted``)."""
        if is_inline(spec):
            return choose_card(spec, seed, view, history), None
        return await self.run(choose_card_noted, capped_spec(spec, self.budget), seed, view, tuple(history))

    async def choose_or_fallback(self, spec: str, seed: int, view: SeatView, history: Sequence[Event]) -> Card:
        """As :meth:`choose`, but with the queue full the fallback bot plays at once instead of waiting."""
        return (await self.choose_or_fallback_noted(spec, seed, view, history))[0]

    async def choose_or_fallback_noted(self, spec: str, seed: int, view: SeatView,
                                       history: Sequence[Event]) -> tuple[Card, str | None]:
        """:meth:`choose_or_fallback`, and how the bot played (None for the fallback)."""
        try:
            return await self.choose_noted(spec, seed, view, history)
        except PoolBusy:
            now = time.monotonic()
            if now - self._warned > 60:
                self._warned = now
                log.warning("bot queue full: %s moves are played by %s for now", spec, FALLBACK_SPEC)
            return choose_card(FALLBACK_SPEC, seed, view, history), None
