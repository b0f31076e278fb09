"""Who plays when no person does: the scheduler of a table's next automatic move, and its bots and hints.

One task per table waits for the next automatic move (a bot seat, a turn timer,
a stand-in for a player who is away or left). What is due when is read off the
table's state (``TableState.plan``); the job the service hands ``schedule``
plays the move through the table's own ``move``, so a bot's move is checked
like anyone's. The scheduler holds no pointer back to the table. Each bot move
gets a fresh bot seeded one-way from the match seed and the move number
(``xeri.seeds.bot_seed``): the seed opens nothing of the deal, and a restart
replays the same choices.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from ...bots import Bot, make_bot
from ...bots.hint import reason_for, suggest
from ...bots.master import strength_news
from ...cards import Card
from ...engine import SeatView
from ...events import Event
from ...seeds import bot_seed
from ..limits.caps import LimitExceeded
from ..wire.messages import Notice
from ..wire.refusals import ProtocolError
from ..workers import PoolBusy, Workers, hint_card

log = logging.getLogger("xeri.server")

#: the domain tag of server bots' seeds (xeri.seeds)
SEED_DOMAIN = "server"
RETRY_AFTER = 1.0
#: a bot's status worth telling the table of (``master.NOTICES``' keys) -> the notice the page words
NOTICE_NAMES: dict[str, Notice] = {"warming": "master_warming", "full": "master_ready",
                                   "strong-warming": "strong_warming", "strong-full": "strong_ready"}


def server_bot(level: str, match_seed: int, seat: int, version: int) -> Bot:
    """The bot that plays move ``version`` for ``seat``: seeded one-way, never with the match seed itself."""
    return make_bot(level, seed=bot_seed(match_seed, seat, domain=SEED_DOMAIN, generation=version))


class Autoplay:
    """The next automatic move of one table (one task at a time), and the bots and hints that serve it."""

    def __init__(self, hint_level: str | None = None) -> None:
        self.hint_level = hint_level
        #: seconds before a bot move the database refused is tried again
        self.retry_after = RETRY_AFTER
        self._driver: asyncio.Task[None] | None = None
        #: the pool that runs search bots and hints off the event loop (None: a thread, for a bare table)
        self.workers: Workers | None = None
        #: seconds between two hints for one seat, and when each seat last had one
        self.hint_cooldown = 0.0
        #: the notices about the master's strength already sent to this table (``strength_notice``)
        self._told: set[str] = set()
        #: the warming notice told and not yet followed by its ready one: a connection that comes later is told too
        self.warming: Notice | None = None
        self._last_hint: dict[int, float] = {}
        #: in a cluster, the hint cooldown counted across every process (server.limits.shared): True if it counted the
        #: hint, False if it could not (Redis away: counted here), or it raises ``hint_cooldown``
        self.shared_hint: Callable[[str, int], Awaitable[bool]] | None = None

    def use(self, workers: Workers | None, hint_cooldown: float,
            shared_hint: Callable[[str, int], Awaitable[bool]] | None = None) -> None:
        """Play bots and hints on ``workers``; a seat gets one hint per ``hint_cooldown`` seconds."""
        self.workers = workers
        self.hint_cooldown = hint_cooldown
        self.shared_hint = shared_hint

    def schedule(self, delay: float | None, job: Callable[[], Awaitable[None]] | None = None) -> None:
        """Run ``job`` in ``delay`` seconds instead of whatever was planned (None: nothing is planned now).

        The job that calls this (a bot's move, which plans the next one) is not cancelled: it goes on to its end.
        """
        current = asyncio.current_task()
        if self._driver is not None and self._driver is not current:
            self._driver.cancel()
        self._driver = None
        if delay is not None and job is not None:
            self._driver = asyncio.create_task(self._run(delay, job))

    def retry(self, job: Callable[[], Awaitable[None]]) -> None:
        """Run ``job`` again after ``retry_after`` (the database did not take its move), beside nothing else."""
        self._driver = asyncio.create_task(self._run(self.retry_after, job))

    @staticmethod
    async def _run(delay: float, job: Callable[[], Awaitable[None]]) -> None:
        if delay > 0:
            await asyncio.sleep(delay)  # the timer itself, not synchronisation
        await job()

    async def choose(self, level: str, seat: int, version: int, view: SeatView, history: tuple[Event, ...],
                     match_seed: int, table_id: str = "?") -> Card:
        """A bot's card for ``seat`` at ``version``, off the event loop (the pool's fallback bot if it is full)."""
        return (await self.choose_noted(level, seat, version, view, history, match_seed, table_id))[0]

    async def choose_noted(self, level: str, seat: int, version: int, view: SeatView, history: tuple[Event, ...],
                           match_seed: int, table_id: str = "?") -> tuple[Card, str | None]:
        """:meth:`choose`, and how the bot played (``MasterBot.status``, or None)."""
        try:
            if self.workers is not None:
                seed = bot_seed(match_seed, seat, domain=SEED_DOMAIN, generation=version)
                return await self.workers.choose_or_fallback_noted(level, seed, view, history)
            bot = server_bot(level, match_seed, seat, version)
            card = await asyncio.to_thread(bot.choose, view, history)
            return card, getattr(bot, "status", None)
        except Exception:
            # A faulty bot must not stall the table: play its seat's first legal card instead.
            log.exception("bot %s failed at table %s; playing the first legal card", level, table_id)
            return view.legal_moves[0], None

    def strength_notice(self, status: str | None) -> Notice | None:
        """The notice to send once: the master (or the strong level's 3-player master) plays by the counting rules
        while its rollouts load (``master_warming``, ``strong_warming``), then once more when it is itself
        (``master_ready``, ``strong_ready``); else None (``master.strength_news``)."""
        news = strength_news(status, self._told)
        if news is None:
            return None
        self.warming = NOTICE_NAMES[news] if news.endswith("warming") else None
        return NOTICE_NAMES[news]

    async def hint(self, view: SeatView, history: tuple[Event, ...]) -> tuple[Card, str]:
        """A suggested card and why, off the event loop; ``busy`` if the pool is full."""
        if self.workers is None:
            return await asyncio.to_thread(suggest, view, history, self.hint_level)
        try:
            card = await self.workers.run(hint_card, view, history, self.hint_level)
        except PoolBusy:
            raise ProtocolError("busy", "the server is busy: ask for a hint again in a moment") from None
        return card, reason_for(view, card)

    async def take_hint(self, table_id: str, seat: int) -> None:
        """Count a hint for ``seat`` now, or refuse it (``hint_cooldown``) if the last one was too recent."""
        if self.shared_hint is not None and await self.shared_hint(table_id, seat):
            return
        now = time.monotonic()
        last = self._last_hint.get(seat)
        if last is not None and now - last < self.hint_cooldown:
            raise LimitExceeded("hint_cooldown", f"one hint every {self.hint_cooldown:g} s: ask again in "
                                f"{self.hint_cooldown - (now - last):.1f} s")
        self._last_hint[seat] = now

    def stop(self) -> None:
        if self._driver is not None:
            self._driver.cancel()
            self._driver = None
