"""Search bots, hints and replays off the event loop, on a small bounded process pool.

A search bot's move is CPU-bound Python: run on the event loop, or in a thread
(which holds the GIL), it stalls every other table. Here each such job is a
pure function of its inputs (a bot spec, a one-way per-move seed, the seat's
view and redacted history), run in another process. The pool takes at most
``workers + queue`` jobs at once; a job beyond that is refused
(:class:`PoolBusy`), and the caller decides: a bot move is played by the quick
fallback bot, a hint or a replay gets a ``busy`` answer. Cheap bots (random,
greedy, expert: well under a millisecond a move) play inline.

The server caps a search bot's budget (``seconds``, ``iterations``) whatever
level or spec asked for more.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
import logging
import multiprocessing
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ..bots import BOTS, LEVELS, make_bot, parse_spec
from ..bots.hint import suggest
from ..cards import Card
from ..engine import SeatView
from ..events import Event

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

    A bot that takes a ``seconds`` budget always gets one, so no move runs unbounded.
    """
    resolved = LEVELS.get(spec.strip().lower(), spec)
    name, params = parse_spec(resolved)
    factory = BOTS.get(name)
    if factory is None:
        return resolved  # make_bot reports the unknown name
    accepted = inspect.signature(factory).parameters
    if "seconds" in accepted:
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


def hint_card(view: SeatView, history: Sequence[Event], level: str | None) -> Card:
    """The pool's job for a hint: the card ``suggest`` picks (its reason is read off the view by the caller)."""
    return suggest(view, history, level)[0]


def _ready() -> bool:
    return True


class Workers:
    """The bounded process pool; ``workers=0`` runs jobs in a thread instead (tests, tiny machines)."""

    def __init__(self, workers: int | None = None, queue: int | None = None,
                 budget: BotBudget | None = None) -> None:
        self.size = default_workers() if workers is None else workers
        if not 0 <= self.size <= 256:
            raise ValueError("workers must be 0..256")
        self.queue = 4 * max(1, self.size) if queue is None else queue
        if not 0 <= self.queue <= 10_000:
            raise ValueError("the worker queue must be 0..10000")
        self.budget = budget or BotBudget()
        self.capacity = max(1, self.size) + self.queue
        self.in_flight = 0
        self.refused = 0
        self._pool: concurrent.futures.Executor | None = None

    def start(self) -> None:
        """Start the processes (spawned: the server's threads are not forked with them)."""
        if self._pool is not None:
            return
        if self.size == 0:
            self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="xeri-worker")
        else:
            ctx = multiprocessing.get_context("spawn")
            self._pool = concurrent.futures.ProcessPoolExecutor(self.size, mp_context=ctx)

    async def warm(self) -> None:
        """Start every process now rather than on the first bot move."""
        self.start()
        assert self._pool is not None
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self._pool, _ready) for _ in range(max(1, self.size))))

    def close(self) -> None:
        if self._pool is not None:
            # Queued jobs are dropped; the running ones (each bounded by the bot budget) end first.
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def submit(self, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """Queue ``fn(*args)`` in the pool now; :class:`PoolBusy` at once (nothing queued) if it is full.

        The slot is held until the job itself ends, even if its awaiter gives up first.
        """
        if self.in_flight >= self.capacity:
            self.refused += 1
            raise PoolBusy(f"the server's {self.capacity} bot and replay slots are all busy")
        self.start()
        assert self._pool is not None
        loop = asyncio.get_running_loop()
        job = self._pool.submit(fn, *args)
        self.in_flight += 1
        job.add_done_callback(lambda _job: loop.call_soon_threadsafe(self._finished))
        return asyncio.wrap_future(job, loop=loop)

    def _finished(self) -> None:
        self.in_flight -= 1

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the pool, awaited; :class:`PoolBusy` at once if the pool is full."""
        return await self.submit(fn, *args)

    async def choose(self, spec: str, seed: int, view: SeatView, history: Sequence[Event]) -> Card:
        """A bot's card: inline for a cheap bot, in the pool (within the budget) for a search bot.

        A full pool gives :class:`PoolBusy`; the caller picks the fallback.
        """
        if is_inline(spec):
            return choose_card(spec, seed, view, history)
        return await self.run(choose_card, capped_spec(spec, self.budget), seed, view, tuple(history))

    async def choose_or_fallback(self, spec: str, seed: int, view: SeatView, history: Sequence[Event]) -> Card:
        """As :meth:`choose`, but a full pool plays the fallback bot's card instead of waiting."""
        try:
            return await self.choose(spec, seed, view, history)
        except PoolBusy:
            log.warning("bot pool full: the %s move is played by %s", spec, FALLBACK_SPEC)
            return choose_card(FALLBACK_SPEC, seed, view, history)
