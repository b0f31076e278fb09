"""The per-address caps of a cluster, counted across every process in Redis: requests, hints and tables.

One process alone counts in memory (server.limits.caps, the app's token buckets).
When a cluster runs, a client whose requests the balancer spreads over three
processes must not get three times its share, so:

- the HTTP request rate of an address, its WebSocket opens a second, and the hint cooldown of a seat are
  rate limits of the ``limits`` library, on its Redis storage (through
  redis-py, which the relay already uses): a sliding window of ``http_burst``
  requests per ``http_burst / http_rate`` seconds (the token bucket's burst
  and its average rate), and a moving window of one hint per cooldown;
- the waiting and playing tables an address created are no rate, but a count
  of tables alive now, which ``limits`` does not keep (it counts hits, it
  gives nothing back): each address has a sorted set of the tables it created
  (``xeri-caps:{database}:tables:{address}``), a new table's id is added *before* the set
  is counted (so two processes creating at once can both refuse, but never
  both pass the cap), and the statuses come from the database every process
  shares. An id the database does not know yet is a table being created; one
  still unknown after a minute never was, and is dropped.

If Redis is away, each falls back to this process's own count (one warning
per outage), as the shared connection counts do (``SharedSockets``).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import math
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from limits import RateLimitItem, RateLimitItemPerSecond
from limits.aio.strategies import MovingWindowRateLimiter, SlidingWindowCounterRateLimiter
from limits.storage import storage_from_string

from .caps import LimitExceeded, Limits

log = logging.getLogger("xeri.server")

#: seconds a table id may stay unknown to the database (its creation under way) before it counts for nobody
PENDING_SECONDS = 60.0
#: the keys' prefix, beside the connection counts' (``xeri-caps:``); a cluster's own keys add its database's digest
PREFIX = "xeri-caps"


def window(amount: float, seconds: float) -> RateLimitItem:
    """``amount`` hits per ``seconds`` (whole seconds, rounded up: the library's granularity)."""
    return RateLimitItemPerSecond(max(1, int(amount)), max(1, math.ceil(seconds)))


class SharedCaps:
    """The caps of every process of a cluster together: requests per address, hints per seat, tables per address.

    ``statuses`` is the store's (server.store): each table's status, from the database every process shares.
    ``database`` names that database: two clusters on one Redis (on two databases) count apart.
    """

    def __init__(self, url: str, limits: Limits, statuses: Callable[[list[str]], Awaitable[dict[str, str]]],
                 http_rate: float, http_burst: float, database: str = "") -> None:
        import redis.asyncio

        self.limits = limits
        self.statuses = statuses
        self.prefix = f"{PREFIX}:{hashlib.sha256(database.encode()).hexdigest()[:12]}"
        self.redis = redis.asyncio.from_url(url, socket_timeout=2.0, socket_connect_timeout=2.0)
        # One connection pool for the library's counts and the table sets: ``close`` closes both.
        shared: dict[str, Any] = {"connection_pool": self.redis.connection_pool}
        self.storage = storage_from_string(f"async+{url}", implementation="redispy", key_prefix=self.prefix,
                                           **shared)
        self.requests = SlidingWindowCounterRateLimiter(self.storage)
        self.moving = MovingWindowRateLimiter(self.storage)
        self.http_item = window(http_burst, http_burst / http_rate)
        #: the WebSocket opens of an address: ``ws_opens_per_second``, in bursts of four times that (as alone)
        self.open_item = window(max(4 * limits.ws_opens_per_second, 1.0), 4.0)
        self.hint_item = window(1, limits.hint_cooldown) if limits.hint_cooldown > 0 else None
        #: True while Redis is away (one warning when it goes, one line when it is back)
        self.down = False

    def _away(self, what: str, exc: BaseException) -> None:
        if not self.down:
            log.warning("%s fall back to this process's counts (Redis: %s)", what, str(exc) or type(exc).__name__)
        self.down = True

    def _back(self) -> None:
        if self.down:
            log.info("the per-address caps count across the cluster again")
        self.down = False

    async def allow_request(self, address: str) -> bool | None:
        """Whether ``address`` may make one more HTTP request now; None when Redis is away (the caller decides)."""
        return await self._hit(self.http_item, "http", address, "request rates")

    async def allow_open(self, address: str) -> bool | None:
        """Whether ``address`` may open one more WebSocket now; None when Redis is away (the caller decides)."""
        return await self._hit(self.open_item, "ws", address, "connection rates")

    async def _hit(self, item: RateLimitItem, kind: str, address: str, what: str) -> bool | None:
        try:
            allowed = await self.requests.hit(item, kind, address)
        except Exception as exc:
            self._away(what, exc)
            return None
        self._back()
        return bool(allowed)

    async def take_hint(self, table_id: str, seat: int) -> bool:
        """Count a hint for ``seat`` or raise ``hint_cooldown``; False when Redis is away (the caller counts it)."""
        if self.hint_item is None:
            return True
        try:
            allowed = await self.moving.hit(self.hint_item, "hint", table_id, str(seat))
        except Exception as exc:
            self._away("hint cooldowns", exc)
            return False
        self._back()
        if not allowed:
            cooldown = self.limits.hint_cooldown
            raise LimitExceeded("hint_cooldown", f"one hint every {cooldown:g} s: ask again in a moment")
        return True

    def _key(self, address: str) -> str:
        return f"{self.prefix}:tables:{address}"

    @contextlib.asynccontextmanager
    async def creating(self, address: str, table_id: str) -> AsyncIterator[bool]:
        """Hold ``table_id``'s place among the tables ``address`` created, refused (``LimitExceeded``) if over its
        share. Yields True if counted in Redis, False if Redis is away (the caller counts it itself)."""
        key = self._key(address)
        now = time.time()
        try:
            await self.redis.zadd(key, {table_id: now})
            await self.redis.expire(key, int(max(self.limits.waiting_ttl, 3600) * 2))
            found: Any = await self.redis.zrange(key, 0, -1, withscores=True)  # [(member, score), ...]
            members = [(m, float(s)) for m, s in found]
        except Exception as exc:
            self._away("tables per address", exc)
            yield False
            return
        self._back()
        ids = [m.decode() if isinstance(m, bytes) else str(m) for m, _ in members]
        added = dict(zip(ids, (s for _, s in members), strict=True))
        try:
            gone = self._check(ids, added, table_id, now, await self.statuses(ids))
        except BaseException:
            await self._forget(key, [table_id])
            raise
        if gone:
            await self._forget(key, gone)
        try:
            yield True
        except BaseException:
            await self._forget(key, [table_id])  # not created: it holds no place
            raise

    def _check(self, ids: list[str], added: dict[str, float], table_id: str, now: float,
               statuses: dict[str, str]) -> list[str]:
        """Refuse ``table_id`` if ``address``'s tables (it among them) are over a cap; returns the ids that count
        for nobody any more (ended, or never created), to drop."""
        waiting = playing = 0
        gone = []
        for other in ids:
            status = statuses.get(other)
            if status is None:
                if other != table_id and now - added[other] > PENDING_SECONDS:
                    gone.append(other)  # never created (its process died on the way)
                else:
                    waiting += 1  # being created: a table waits until it is full
            elif status == "waiting":
                waiting += 1
            elif status == "playing":
                playing += 1
            else:
                gone.append(other)
        if waiting > self.limits.waiting_per_address:
            raise LimitExceeded("too_many_tables", f"one address may have at most {self.limits.waiting_per_address} "
                                "tables waiting for players: start or leave one first")
        if playing >= self.limits.playing_per_address:
            raise LimitExceeded("too_many_tables", f"one address may have at most {self.limits.playing_per_address} "
                                "tables in play: finish or leave one first")
        return gone

    async def _forget(self, key: str, ids: list[str]) -> None:
        try:
            await self.redis.zrem(key, *ids)
        except Exception as exc:  # Redis away: the id counts as pending for a minute, then for nobody
            self._away("tables per address", exc)

    async def close(self) -> None:
        await self.redis.aclose()
