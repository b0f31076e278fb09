"""The pairing pools of a cluster, shared by every process through Redis (docs/protocol.md, "Play online").

One process alone keeps its pools in memory (server.pairing.service). In a cluster the balancer may send two
seekers to two processes, so the pools live in Redis, under ``xeri-pair:{<database digest>}:`` (a hash tag: the
keys of one cluster share a Redis Cluster slot):

- ``pool:<format>:<rated>``, a sorted set of the waiting seek ids by arrival time (the pools' order);
- ``seekers``, a hash of each seek's seeker and account (JSON), ``poolof`` its pool, ``who`` each player's one
  seek, ``seen`` a sorted set of when each was last asked about (silent ones are dropped);
- ``paired:<seek id>`` and ``failed:<seek id>``, the outcome of a seek, kept two minutes;
- ``waits:<format>:<rated>``, the pool's recent waits;
- ``pulse``, a hash of each process's lobby counts (server.lobby.pulse) and when it gave them: the lobby's players
  online and tables in play are their sum, over the processes heard from in the last ``PULSE_FRESH`` seconds.

Any process may pair: it reads the pools, pairs them with the pure pools (server.pairing.pools), and then claims
each pairing with one Lua script that takes every seek out of its pool only if every one is still there. Two
processes pairing at the same moment may find the same group (or overlapping ones); exactly one claim wins, and
only its process makes the table. A player is in at most one pool (``who``), so never seated twice at once.

Times are wall-clock seconds (``time.time``): every process reads the same clock in the pools.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
import statistics
import time
from collections.abc import Callable
from typing import Any

from ..lobby.lobby import Holder
from ..lobby.pulse import Pulse
from ..wire.refusals import ProtocolError
from .pools import FORMATS, Pairing, Pools, Seeker, SeekRefused
from .service import CHALLENGES, DROP_AFTER, KEEP_PAIRED, RECENT_WAITS, RUN_EVERY, TableMaker, challenge, make_table

log = logging.getLogger("xeri.server")

PREFIX = "xeri-pair"
#: a process's lobby counts are summed this many seconds after it gave them (it gives them every ``PULSE_EVERY``)
PULSE_FRESH = 15.0
PULSE_EVERY = 5.0

#: KEYS: who, seekers, poolof, seen, the new pool. ARGV: who, seek id, seeker JSON, joined_at, pool key.
#: The player's earlier seek (if still waiting) leaves its pool; the new one joins. Returns the earlier id or "".
_ADD = """
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old then
  local oldpool = redis.call('HGET', KEYS[3], old)
  if oldpool then redis.call('ZREM', oldpool, old) end
  redis.call('HDEL', KEYS[2], old)
  redis.call('HDEL', KEYS[3], old)
  redis.call('ZREM', KEYS[4], old)
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('HSET', KEYS[3], ARGV[2], ARGV[5])
redis.call('ZADD', KEYS[4], ARGV[4], ARGV[2])
redis.call('ZADD', ARGV[5], ARGV[4], ARGV[2])
return old or ''
"""

#: KEYS: who, seekers, poolof, seen, the pool. ARGV: pairs of (seek id, who); ``keep``: 1 keeps the seekers'
#: entries (a claim: the table is still to be made), 0 forgets them (a cancel or a drop). All are taken out of
#: the pool only if all are in it: 1, else nothing changes and 0.
_TAKE = """
local keep = ARGV[#ARGV]
for i = 1, #ARGV - 1, 2 do
  if not redis.call('ZSCORE', KEYS[5], ARGV[i]) then return 0 end
end
for i = 1, #ARGV - 1, 2 do
  redis.call('ZREM', KEYS[5], ARGV[i])
  redis.call('ZREM', KEYS[4], ARGV[i])
  redis.call('HDEL', KEYS[3], ARGV[i])
  if redis.call('HGET', KEYS[1], ARGV[i + 1]) == ARGV[i] then redis.call('HDEL', KEYS[1], ARGV[i + 1]) end
  if keep == '0' then redis.call('HDEL', KEYS[2], ARGV[i]) end
end
return 1
"""


def _pool_name(fmt: str, rated: bool) -> str:
    return f"{fmt}:{int(rated)}"


class SharedPairing:
    """The pairing service of a cluster's process: the same calls as ``PairingService``, on pools in Redis."""

    def __init__(self, url: str, lobby: TableMaker, database: str = "",
                 clock: Callable[[], float] = time.time) -> None:
        import redis.asyncio

        self.lobby = lobby
        self.clock = clock
        self.prefix = f"{PREFIX}:{{{hashlib.sha256(database.encode()).hexdigest()[:12]}}}"
        self.redis = redis.asyncio.from_url(url, socket_timeout=2.0, socket_connect_timeout=2.0, decode_responses=True)
        self._add = self.redis.register_script(_ADD)
        self._take = self.redis.register_script(_TAKE)
        self._last_run = -RUN_EVERY
        #: this process's field in ``pulse``
        self.node = secrets.token_hex(8)
        #: the pairings this process made a table for
        self.pairings = 0

    def _key(self, name: str) -> str:
        return f"{self.prefix}:{name}"

    def _fixed(self) -> list[str]:
        return [self._key("who"), self._key("seekers"), self._key("poolof"), self._key("seen")]

    async def close(self) -> None:
        try:
            await self.redis.hdel(self._key("pulse"), self.node)
        except Exception:  # Redis away: the counts go stale by themselves
            pass
        await self.redis.aclose()

    async def seek(self, fmt: str, rated: bool, who: str, name: str, account: Holder | None = None,
                   rating: float | None = None, penalty: float = 0.0) -> str:
        now = self.clock()
        seek_id = secrets.token_urlsafe(18)
        seeker = Seeker(id=seek_id, who=who, name=name, format=fmt, rated=rated, joined_at=now, rating=rating,
                        penalty=penalty)
        try:
            Pools().add(seeker)  # the same refusals as alone
        except SeekRefused as exc:
            raise ProtocolError("bad_format", str(exc)) from None
        data = json.dumps({"who": who, "name": name, "format": fmt, "rated": rated, "joined_at": now,
                           "rating": rating, "penalty": penalty, "account": list(account) if account else None})
        pool = self._key(f"pool:{_pool_name(fmt, rated)}")
        await self._add(keys=[*self._fixed(), pool], args=[who, seek_id, data, repr(now), pool])
        await self.run()
        return seek_id

    async def poll(self, seek_id: str) -> dict[str, Any]:
        now = self.clock()
        raw = await self.redis.hget(self._key("seekers"), seek_id)
        if raw is not None and await self.redis.zscore(self._key("seen"), seek_id) is not None:
            await self.redis.zadd(self._key("seen"), {seek_id: now}, xx=True)
            if now - self._last_run >= RUN_EVERY:
                await self.run()
        paired = await self.redis.get(self._key(f"paired:{seek_id}"))
        if paired is not None:
            return {"status": "paired", **json.loads(paired)}
        failed = await self.redis.get(self._key(f"failed:{seek_id}"))
        if failed is not None:
            code, message = json.loads(failed)
            raise ProtocolError(code, message)
        raw = await self.redis.hget(self._key("seekers"), seek_id)
        if raw is None:
            raise ProtocolError("no_such_seek", "there is no such seek (cancelled, or not asked about for "
                                f"{DROP_AFTER:g} s): seek again")
        data = json.loads(raw)
        pool = _pool_name(data["format"], data["rated"])
        return {"status": "waiting", "format": data["format"], "rated": data["rated"],
                "players": await self.redis.zcard(self._key(f"pool:{pool}")),
                "waited": round(max(0.0, now - data["joined_at"]), 1), "typical_wait": await self._typical(pool)}

    async def waiting(self) -> dict[tuple[str, bool], int]:
        pools = [(fmt, rated) for fmt in FORMATS for rated in (False, True)]
        async with self.redis.pipeline(transaction=False) as pipe:
            for fmt, rated in pools:
                pipe.zcard(self._key(f"pool:{_pool_name(fmt, rated)}"))
            counts = await pipe.execute()
        return {pool: int(n) for pool, n in zip(pools, counts, strict=True)}

    async def challenges(self, limit: int = CHALLENGES) -> list[dict[str, Any]]:
        """The oldest ``limit`` seeks of every pool (each pool's own oldest ``limit``, merged by arrival)."""
        now = self.clock()
        pools = [_pool_name(name, rated) for name, fmt in FORMATS.items()
                 for rated in (False, True) if fmt.ratable or not rated]
        async with self.redis.pipeline(transaction=False) as pipe:
            for pool in pools:
                pipe.zrange(self._key(f"pool:{pool}"), 0, limit - 1)
            found = await pipe.execute()
        ids = [str(i) for ids in found for i in ids]
        if not ids:
            return []
        seekers = [self._seeker(i, raw) for i, raw in zip(ids, await self.redis.hmget(self._key("seekers"), ids),
                                                             strict=True) if raw is not None]
        oldest = sorted(seekers, key=lambda s: (s.joined_at, s.id))[:limit]
        return [challenge(s, now) for s in oldest]

    async def pulse(self, here: Pulse) -> Pulse:
        """Give this process's counts, and sum every process's that are fresh (forgetting the stale ones)."""
        now = self.clock()
        key = self._key("pulse")
        await self.redis.hset(key, self.node, json.dumps([here.seated, here.playing, now]))
        total, stale = Pulse(), []
        for node, raw in (await self.redis.hgetall(key)).items():
            seated, playing, at = json.loads(raw)
            if now - at > PULSE_FRESH:
                stale.append(node)
            else:
                total += Pulse(int(seated), int(playing))
        if stale:
            await self.redis.hdel(key, *stale)
        return total

    async def beat(self, here: Callable[[], Pulse]) -> None:
        """Give this process's counts every ``PULSE_EVERY`` seconds (the lifespan's task), so that a process no
        lobby asks is still counted; Redis away, it tries again next time."""
        while True:
            try:
                await self.pulse(here())
            except Exception as exc:
                log.warning("cannot give the lobby's counts: %s", str(exc) or type(exc).__name__)
            await asyncio.sleep(PULSE_EVERY)

    async def _typical(self, pool: str) -> float | None:
        waits = [float(w) for w in await self.redis.lrange(self._key(f"waits:{pool}"), 0, -1)]
        return round(statistics.median(waits), 1) if waits else None

    async def cancel(self, seek_id: str) -> bool:
        raw = await self.redis.hget(self._key("seekers"), seek_id)
        if raw is None:
            return False
        return await self._take_out([self._seeker(seek_id, raw)], keep=False)

    async def _take_out(self, seekers: list[Seeker], keep: bool) -> bool:
        pool = self._key(f"pool:{_pool_name(seekers[0].format, seekers[0].rated)}")
        args = [x for s in seekers for x in (s.id, s.who)] + ["1" if keep else "0"]
        return bool(await self._take(keys=[*self._fixed(), pool], args=args))

    @staticmethod
    def _seeker(seek_id: str, raw: bytes | str) -> Seeker:
        d = json.loads(raw)
        return Seeker(id=seek_id, who=d["who"], name=d["name"], format=d["format"], rated=d["rated"],
                      joined_at=d["joined_at"], rating=d["rating"], penalty=d["penalty"])

    async def run(self) -> list[Pairing]:
        """Drop the silent seekers, pair the pools as they are now, and make a table for each pairing this
        process claims (another process may claim the same seekers first: then it makes the table)."""
        now = self._last_run = self.clock()
        silent = await self.redis.zrangebyscore(self._key("seen"), "-inf", now - DROP_AFTER)
        for seek_id in map(str, silent):
            raw = await self.redis.hget(self._key("seekers"), seek_id)
            if raw is not None:
                await self._take_out([self._seeker(seek_id, raw)], keep=False)
            else:
                await self.redis.zrem(self._key("seen"), seek_id)
        pools = Pools()
        accounts: dict[str, Holder | None] = {}
        for name, fmt in FORMATS.items():
            for rated in (False, True) if fmt.ratable else (False,):
                ids = [str(i) for i in await self.redis.zrange(self._key(f"pool:{_pool_name(name, rated)}"),
                                                                   0, -1)]
                if not ids:
                    continue
                for seek_id, raw in zip(ids, await self.redis.hmget(self._key("seekers"), ids), strict=True):
                    if raw is None:
                        continue
                    pools.add(self._seeker(seek_id, raw))
                    account = json.loads(raw)["account"]
                    accounts[seek_id] = (account[0], account[1]) if account else None
        made = []
        for pairing in pools.pair(now):
            if not await self._take_out(list(pairing.seekers), keep=True):
                continue  # another process claimed one of them first
            made.append(pairing)
            await self._seat(pairing, [accounts.get(s.id) for s in pairing.seekers], now)
        return made

    async def _seat(self, pairing: Pairing, holders: list[Holder | None], now: float) -> None:
        try:
            table_id, seats = await make_table(self.lobby, pairing, holders)
        except ProtocolError as exc:
            log.warning("pairing: the table of a %s pairing could not be made: %s", pairing.format, exc.message)
            if exc.code == "unavailable":  # the seekers wait on, in their places
                for s in pairing.seekers:
                    data = await self.redis.hget(self._key("seekers"), s.id)
                    if data is not None:
                        pool = self._key(f"pool:{_pool_name(s.format, s.rated)}")
                        await self._add(keys=[*self._fixed(), pool],
                                        args=[s.who, s.id, data, repr(s.joined_at), pool])
                        await self.redis.zadd(self._key("seen"), {s.id: now})
                return
            for s in pairing.seekers:
                await self.redis.set(self._key(f"failed:{s.id}"), json.dumps([exc.code, exc.message]),
                                     ex=int(KEEP_PAIRED))
                await self.redis.hdel(self._key("seekers"), s.id)
            return
        self.pairings += 1
        waits = self._key(f"waits:{_pool_name(pairing.format, pairing.rated)}")
        async with self.redis.pipeline(transaction=True) as pipe:
            for s, (seat, token) in zip(pairing.seekers, seats, strict=True):
                pipe.set(self._key(f"paired:{s.id}"),
                         json.dumps({"table_id": table_id, "seat": seat, "token": token}), ex=int(KEEP_PAIRED))
                pipe.hdel(self._key("seekers"), s.id)
                pipe.lpush(waits, repr(round(now - s.joined_at, 3)))
            pipe.ltrim(waits, 0, RECENT_WAITS - 1)
            await pipe.execute()
