"""Who plays when no person does: bot seats, turn timers, and stand-ins for players who are away or left.

One task per table waits for the next automatic move and plays it through
the table's own ``move``, so a bot's move is checked like anyone's. Each bot
move gets a fresh bot seeded one-way from the match seed and the move number
(``xeri.seeds.bot_seed``): the seed opens nothing of the deal, and a restart
replays the same choices.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from ..bots import Bot, make_bot
from ..bots.hint import reason_for, suggest
from ..bots.registry import partnered
from ..cards import Card
from ..engine import SeatView
from ..events import Event
from ..seeds import bot_seed
from .errors import ProtocolError
from .limits import LimitExceeded
from .seats import Seat
from .workers import PoolBusy, Workers, hint_card

if TYPE_CHECKING:
    from .table import Table

log = logging.getLogger("xeri.server")

#: the domain tag of server bots' seeds (xeri.seeds)
SEED_DOMAIN = "server"
RETRY_AFTER = 1.0


def server_bot(level: str, match_seed: int, seat: int, version: int) -> Bot:
    """The bot that plays move ``version`` for ``seat``: seeded one-way, never with the match seed itself."""
    return make_bot(level, seed=bot_seed(match_seed, seat, domain=SEED_DOMAIN, generation=version))


class Autoplay:
    """The bots and timers of one table."""

    def __init__(self, table: Table, bot_delay: float, hint_level: str | None = None) -> None:
        self.table = table
        self.bot_delay = bot_delay
        self.hint_level = hint_level
        #: seconds before a bot move the database refused is tried again
        self.retry_after = RETRY_AFTER
        self._driver: asyncio.Task[None] | None = None
        #: the pool that runs search bots and hints off the event loop (None: a thread, for a bare table)
        self.workers: Workers | None = None
        #: seconds between two hints for one seat, and when each seat last had one
        self.hint_cooldown = 0.0
        self._last_hint: dict[int, float] = {}
        #: the notices about the master's strength already sent to this table (``_say_strength``)
        self._told: set[str] = set()

    def use(self, workers: Workers | None, hint_cooldown: float) -> None:
        """Play bots and hints on ``workers``; a seat gets one hint per ``hint_cooldown`` seconds."""
        self.workers = workers
        self.hint_cooldown = hint_cooldown

    def playing_level(self, s: Seat) -> str | None:
        """The bot level playing a seat now, or None when a person plays it."""
        t = self.table
        if not s.human:
            return s.bot_level
        if s.left:
            return t.takeover_level
        if (s.name is not None and s.connections == 0 and t.takeover_after is not None
                and t.status == "playing" and time.monotonic() >= s.away_since + t.takeover_after):
            return t.takeover_level
        return None

    def plan(self, s: Seat, now: float) -> tuple[float, str | None, str] | None:
        """(delay, reason, level) of the next bot move for seat ``s`` to play, or None if a person plays."""
        t = self.table
        # Between rounds nobody moves until the players have closed the round summary (or it times out).
        wait = t.pause_until - now if t.paused() else 0.0
        if not s.human:
            return (max(self.bot_delay, wait), None, partnered(s.bot_level or t.takeover_level, self._partner(s)))
        if s.left:
            return (max(self.bot_delay, wait), "left", t.takeover_level)
        options: list[tuple[float, str]] = []
        if t.turn_timer is not None:
            # A turn's time starts when the round's summary is closed, not while it is read.
            options.append((max(t.turn_started, t.pause_until) + t.turn_timer - now, "timer"))
        if t.takeover_after is not None and s.connections == 0:
            options.append((max(s.away_since + t.takeover_after - now, self.bot_delay, wait), "away"))
        if not options:
            return None
        delay, reason = min(options)
        return (max(delay, wait, 0.0), reason, t.takeover_level)

    def _partner(self, s: Seat) -> str | None:
        """The level of the bot at the partner's seat with 4 players (None: a person, or no partner)."""
        seats = self.table.seats
        if len(seats) != 4:
            return None
        mate = seats[(s.seat + 2) % 4]
        return None if mate.human else mate.bot_level or self.table.takeover_level

    def timer(self) -> dict[str, Any] | None:
        """When a bot will play for a human seat to move (a turn timer or an away player), else None."""
        t = self.table
        m = t.match
        if m is None or m.turn is None or t.status != "playing":
            return None
        s = t.seats[m.turn]
        if not s.human or s.left:
            return None
        plan = self.plan(s, time.monotonic())
        if plan is None:
            return None
        return {"seat": s.seat, "remaining": round(plan[0], 2), "reason": plan[1]}

    def reschedule(self) -> None:
        """Plan the next bot move (a bot seat, a timed-out or away player) after any change."""
        current = asyncio.current_task()
        if self._driver is not None and self._driver is not current:
            self._driver.cancel()
        self._driver = None
        t = self.table
        m = t.match
        if t.status != "playing" or m is None or m.turn is None:
            return
        plan = self.plan(t.seats[m.turn], time.monotonic())
        if plan is not None:
            self._driver = asyncio.create_task(self._drive(t.version, *plan))

    async def _drive(self, version: int, delay: float, reason: str | None, level: str) -> None:
        t = self.table
        if delay > 0:
            await asyncio.sleep(delay)  # the timer itself, not synchronisation
        async with t.lock:
            m = t.match
            if m is None or t.version != version or m.turn is None or t.status != "playing":
                return
            seat = m.turn
            view, history = m.view(seat), m.round.log_for(seat)
        card, status = await self.choose_noted(level, seat, version, view, history)
        try:
            await t.move(seat, card.code, version, auto=reason)
            await self._say_strength(status)
        except ProtocolError as exc:
            if exc.code == "unavailable" and t.owned:
                # The database did not take the move: nothing changed, so try again after a pause.
                self._driver = asyncio.create_task(self._drive(version, self.retry_after, reason, level))
            # otherwise the player moved first, the table changed or moved to another process (server.cluster):
            # the newer state wins

    async def choose(self, level: str, seat: int, version: int, view: SeatView,
                     history: tuple[Event, ...]) -> Card:
        """A bot's card for ``seat`` at ``version``, off the event loop (the pool's fallback bot if it is full)."""
        return (await self.choose_noted(level, seat, version, view, history))[0]

    async def choose_noted(self, level: str, seat: int, version: int, view: SeatView,
                           history: tuple[Event, ...]) -> tuple[Card, str | None]:
        """:meth:`choose`, and how the bot played (``MasterBot.status``, or None)."""
        try:
            if self.workers is not None:
                seed = bot_seed(self.table.match_seed, seat, domain=SEED_DOMAIN, generation=version)
                return await self.workers.choose_or_fallback_noted(level, seed, view, history)
            bot = server_bot(level, self.table.match_seed, seat, version)
            card = await asyncio.to_thread(bot.choose, view, history)
            return card, getattr(bot, "status", None)
        except Exception:
            # A faulty bot must not stall the table: play its seat's first legal card instead.
            log.exception("bot %s failed at table %s; playing the first legal card", level, self.table.id)
            return view.legal_moves[0], None

    async def _say_strength(self, status: str | None) -> None:
        """Tell the table's players, once, that the master plays by the counting rules while its rollouts load
        (``master_warming``), and once more when the full master takes over (``master_ready``)."""
        told = self._told
        if status == "warming" and "master_warming" not in told:
            told.add("master_warming")
            await self.table.publish_notice("master_warming")
        elif status == "full" and "master_warming" in told and "master_ready" not in told:
            told.add("master_ready")
            await self.table.publish_notice("master_ready")

    async def hint(self, view: SeatView, history: tuple[Event, ...]) -> tuple[Card, str]:
        """A suggested card and why, off the event loop; ``busy`` if the pool is full."""
        if self.workers is None:
            return await asyncio.to_thread(suggest, view, history, self.hint_level)
        try:
            card = await self.workers.run(hint_card, view, history, self.hint_level)
        except PoolBusy:
            raise ProtocolError("busy", "the server is busy: ask for a hint again in a moment") from None
        return card, reason_for(view, card)

    def take_hint(self, seat: int) -> None:
        """Count a hint for ``seat`` now, or refuse it (``hint_cooldown``) if the last one was too recent."""
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
