"""The server's caps on what one client may hold: tables, connections, hints, the lobby's view.

One client address may hold only so many waiting and playing tables and so
many WebSocket connections (and one seat only so many), a seat asks for a
hint at most once per cooldown, a waiting table expires, and the lobby lists
at most a few tables per address, so one client can neither crowd the server
nor flood the lobby out of view. Every number is a :class:`Limits` field and a
``xeri serve`` option (docs/security.md). The counts live in memory: after a
restart a table's creator is no longer known, and its table counts for nobody.
In a cluster the connection counts live in Redis (:class:`SharedSockets`), and
the rates, hint cooldowns and tables per address too (server.limits.shared), so a cap
holds across every process instead of once per process.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from ...rules import Ruleset
from ..wire.refusals import ProtocolError

T = TypeVar("T")


class LimitExceeded(ProtocolError):
    """A cap was reached (HTTP 429, or a WebSocket error): nothing changed."""


@dataclass(frozen=True)
class Limits:
    """Every cap; ``None`` (where allowed) lifts one."""

    #: waiting tables (seats still free) one address may have created
    waiting_per_address: int = 10
    #: tables in play one address may have created
    playing_per_address: int = 16
    #: WebSocket connections at once from one address
    ws_per_address: int = 64
    #: WebSocket connections one address may open a second (bursts of four times that)
    ws_opens_per_second: float = 50.0
    #: WebSocket connections at once on one seat
    ws_per_seat: int = 4
    #: seconds between two hints for one seat
    hint_cooldown: float = 2.0
    #: seconds a table may wait for players before it is closed
    waiting_ttl: float = 1800.0
    #: tables of one address that the lobby lists (the newest)
    lobby_per_address: int = 3
    #: rounds in a match that ends by rounds
    max_rounds: int = 30
    #: the target score of a match that ends by a target
    max_target: int = 301
    #: the largest replay served, in bytes of JSON
    max_replay_bytes: int = 8 << 20
    #: sign-in attempts from one address per ``signin_address_window`` seconds (server.limits.sign_in)
    signins_per_address: int = 30
    signin_address_window: float = 600.0
    #: sign-in attempts for one name (from anywhere) per ``signin_name_window`` seconds
    signins_per_name: int = 10
    signin_name_window: float = 600.0
    #: accounts one address may make per ``signup_window`` seconds
    signups_per_address: int = 5
    signup_window: float = 600.0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ValueError(f"{f.name} must be a non-negative number, not {value!r}")
        if self.max_rounds < 1:
            raise ValueError("max_rounds must be at least 1")
        if self.ws_opens_per_second <= 0:
            raise ValueError("ws_opens_per_second must be above 0")


class AddressBook:
    """Which address created which table, and how many connections each address and seat holds."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.owners: dict[str, str] = {}  # table id -> the address that created it
        self.pending: dict[str, int] = {}  # address -> tables it is creating now
        self.sockets: dict[str, int] = {}  # address -> open WebSocket connections
        self.seat_sockets: dict[tuple[str, int], int] = {}  # (table id, seat) -> open connections

    # --- tables -------------------------------------------------------------

    def check_create(self, address: str, statuses: Callable[[str], str | None]) -> None:
        """Refuse a new table if ``address`` already holds its share; ``statuses(id)`` is a table's status now."""
        held = self.tables_of(address, statuses)
        waiting = sum(1 for s in held if s == "waiting") + self.pending.get(address, 0)
        playing = sum(1 for s in held if s == "playing")
        if waiting >= self.limits.waiting_per_address:
            raise LimitExceeded("too_many_tables", f"one address may have at most {self.limits.waiting_per_address} "
                                "tables waiting for players: start or leave one first")
        if playing >= self.limits.playing_per_address:
            raise LimitExceeded("too_many_tables", f"one address may have at most {self.limits.playing_per_address} "
                                "tables in play: finish or leave one first")

    @contextlib.contextmanager
    def creating(self, address: str, statuses: Callable[[str], str | None]) -> Iterator[None]:
        """Hold a place for a table ``address`` is creating (refused if over its share) until it exists."""
        self.check_create(address, statuses)
        self.pending[address] = self.pending.get(address, 0) + 1
        try:
            yield
        finally:
            _decrement(self.pending, address)

    def tables_of(self, address: str, statuses: Callable[[str], str | None]) -> list[str]:
        """The statuses of the live tables ``address`` created; forgets those that ended."""
        out = []
        for table_id, owner in list(self.owners.items()):
            status = statuses(table_id)
            if status not in ("waiting", "playing"):
                del self.owners[table_id]
            elif owner == address:
                out.append(status)
        return out

    def created(self, table_id: str, address: str) -> None:
        self.owners[table_id] = address

    def owner(self, table_id: str) -> str | None:
        return self.owners.get(table_id)

    # --- connections ----------------------------------------------------------

    def connect(self, address: str, table_id: str, seat: int | None) -> None:
        """Count one more connection, or refuse it (nothing counted)."""
        if self.sockets.get(address, 0) >= self.limits.ws_per_address:
            raise LimitExceeded("too_many_connections",
                                f"one address may hold at most {self.limits.ws_per_address} connections")
        key = (table_id, seat) if seat is not None else None
        if key is not None and self.seat_sockets.get(key, 0) >= self.limits.ws_per_seat:
            raise LimitExceeded("too_many_connections",
                                f"one seat may hold at most {self.limits.ws_per_seat} connections")
        self.sockets[address] = self.sockets.get(address, 0) + 1
        if key is not None:
            self.seat_sockets[key] = self.seat_sockets.get(key, 0) + 1

    def disconnect(self, address: str, table_id: str, seat: int | None) -> None:
        _decrement(self.sockets, address)
        if seat is not None:
            _decrement(self.seat_sockets, (table_id, seat))

    # --- the lobby --------------------------------------------------------------

    def listed(self, newest_first: Iterable[T], table_id: Callable[[T], str], limit: int) -> list[T]:
        """At most ``lobby_per_address`` tables of each creator, newest first, ``limit`` in all."""
        shown: dict[str, int] = {}
        out: list[T] = []
        for item in newest_first:
            owner = self.owners.get(table_id(item))
            if owner is not None:
                if shown.get(owner, 0) >= self.limits.lobby_per_address:
                    continue
                shown[owner] = shown.get(owner, 0) + 1
            out.append(item)
            if len(out) >= limit:
                break
        return out


log = logging.getLogger("xeri.server")

#: the processes holding counts now: a sorted set of their hashes' keys, each scored by when it lapses (Redis's
#: own clock, so the processes' clocks need not agree)
LIVE = "xeri-caps:live"
#: takes one connection of each field (an address's, a seat's) if every live process's counts together leave
#: room: KEYS are this process's hash and the LIVE set; ARGV the milliseconds the hash lives unrenewed, then field
#: and cap pairs. A process joins LIVE with its first connection, so no process holding counts is ever left out
#: (whatever the lease loop has seen yet). Returns 0, or the number (1-based) of the first field over its cap.
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local keys = {KEYS[1]}
for _, key in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  if key ~= KEYS[1] then keys[#keys + 1] = key end
end
local pairs = (#ARGV - 1) / 2
for i = 1, pairs do
  local field, cap, held = ARGV[2 * i], tonumber(ARGV[2 * i + 1]), 0
  for _, key in ipairs(keys) do held = held + tonumber(redis.call('HGET', key, field) or '0') end
  if held >= cap then return i end
end
for i = 1, pairs do redis.call('HINCRBY', KEYS[1], ARGV[2 * i], 1) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[1]), KEYS[1])
return 0
"""
#: keeps this process's hash (KEYS[1]) and its place in the LIVE set (KEYS[2]) for ARGV[1] more milliseconds
_RENEW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[1]), KEYS[1])
return 0
"""
#: gives back one connection of each field (ARGV) in this process's hash (KEYS[1]), dropping fields at zero
_GIVE = """
for _, field in ipairs(ARGV) do
  if redis.call('HINCRBY', KEYS[1], field, -1) <= 0 then redis.call('HDEL', KEYS[1], field) end
end
return 0
"""


class SharedSockets:
    """The connections each address and each seat holds on every process of a cluster, in Redis.

    Each process keeps its own counts in one hash (``xeri-caps:{node}``), renewed with its lease loop and gone
    soon after it dies (its players' new connections elsewhere are not counted twice for long); a connection is
    taken only if every live process's counts together leave room, in one script (no two processes can both
    take the last place). If Redis is away, the process falls back to its own counts (``AddressBook``).
    """

    def __init__(self, url: str, node: str, limits: Limits, ttl: float) -> None:
        import redis.asyncio

        self.redis = redis.asyncio.from_url(url, socket_timeout=2.0, socket_connect_timeout=2.0)
        self.limits = limits
        self.node = node
        self.ttl_ms = int(ttl * 1000)
        self._take = self.redis.register_script(_TAKE)
        self._give = self.redis.register_script(_GIVE)
        self._renew = self.redis.register_script(_RENEW)

    def key(self, node: str) -> str:
        return f"xeri-caps:{node}"

    @staticmethod
    def fields(address: str, table_id: str, seat: int | None) -> list[str]:
        return [f"a:{address}"] + ([f"s:{table_id}:{seat}"] if seat is not None else [])

    async def connect(self, address: str, table_id: str, seat: int | None) -> None:
        """Count one more connection of ``address`` (and ``seat``) cluster-wide, or raise ``LimitExceeded``."""
        fields = self.fields(address, table_id, seat)
        caps = [self.limits.ws_per_address, self.limits.ws_per_seat]
        keys = [self.key(self.node), LIVE]
        args: list[Any] = [self.ttl_ms]
        for field, cap in zip(fields, caps, strict=False):
            args += [field, cap]
        over = int(await self._take(keys=keys, args=args))
        if over == 1:
            raise LimitExceeded("too_many_connections",
                                f"one address may hold at most {self.limits.ws_per_address} connections")
        if over == 2:
            raise LimitExceeded("too_many_connections",
                                f"one seat may hold at most {self.limits.ws_per_seat} connections")

    async def disconnect(self, address: str, table_id: str, seat: int | None) -> None:
        await self._give(keys=[self.key(self.node)], args=self.fields(address, table_id, seat))

    async def renew(self) -> None:
        """The lease loop's tick: this process's counts, and its place among the live ones, kept alive."""
        await self._renew(keys=[self.key(self.node), LIVE], args=[self.ttl_ms])

    async def close(self) -> None:
        try:
            await self.redis.zrem(LIVE, self.key(self.node))
            await self.redis.delete(self.key(self.node))
        except Exception:  # Redis away: the hash expires by itself
            pass
        await self.redis.aclose()


class Connections:
    """Where a connection's address and seat are counted: in Redis across a cluster (``SharedSockets``), or in
    this process (``AddressBook``), the fallback while Redis is away. ``connect`` returns how to give it back."""

    def __init__(self, book: AddressBook, shared: SharedSockets | None = None) -> None:
        self.book = book
        self.shared = shared

    async def connect(self, address: str, table_id: str, seat: int | None) -> Callable[[], Awaitable[None]]:
        """Count one connection or raise ``LimitExceeded`` (nothing counted)."""
        shared = self.shared
        if shared is not None:
            try:
                await shared.connect(address, table_id, seat)
            except LimitExceeded:
                raise
            except Exception as exc:
                log.warning("connection caps fall back to this process's counts (Redis: %s)", exc)
            else:
                async def give_back_shared() -> None:
                    try:
                        await shared.disconnect(address, table_id, seat)
                    except Exception as exc:
                        log.warning("a connection's count stays in Redis until this process stops: %s", exc)

                return give_back_shared
        self.book.connect(address, table_id, seat)

        async def give_back() -> None:
            self.book.disconnect(address, table_id, seat)

        return give_back


def _decrement(counts: dict[Any, int], key: Any) -> None:
    left = counts.get(key, 0) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)


def check_match_size(ruleset: Ruleset, limits: Limits) -> None:
    """Refuse a match longer than the server plays: too many rounds, or too high a target."""
    if ruleset.match_end == "rounds" and ruleset.rounds > limits.max_rounds:
        raise ProtocolError("bad_ruleset", f"this server plays at most {limits.max_rounds} rounds a match, "
                            f"not {ruleset.rounds}")
    if ruleset.match_end == "target" and ruleset.target > limits.max_target:
        raise ProtocolError("bad_ruleset", f"this server plays to a target of at most {limits.max_target}, "
                            f"not {ruleset.target}")


def expired(created_at: float, now: float, ttl: float) -> bool:
    """Whether a table created at ``created_at`` (wall-clock seconds) has waited past ``ttl``."""
    return now - created_at >= ttl
