"""The pairing service of one process: seeks in, tables out (docs/protocol.md, "Play online").

The pools (server.pairing.pools) are pure; this keeps what they do not: each seek's secret id, who holds it
(an account, for a seat bound to it), when it was last asked about (a seeker that stops asking is dropped, so
nobody is seated at a table they left), the seats of the pairings made, and the recent waits (the page's
"typical wait"). Pairing runs when any seek is made or asked about: each pairing makes exactly one table through
the lobby, every seat a person's, and hands each seeker its own seat and token.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import statistics
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..lobby.lobby import Holder
from ..lobby.pulse import Pulse
from ..rated.policy import RATED_TARGETS
from ..table.commands import Join, Origin, Outcome
from ..wire.refusals import ProtocolError
from .pools import FORMATS, Pairing, Pools, Seeker, SeekRefused

log = logging.getLogger("xeri.server")

#: a seeker not heard from for this many seconds leaves the pool
DROP_AFTER = 15.0
#: a pairing's seats are kept this long for their seekers to fetch
KEEP_PAIRED = 120.0
#: the recent waits the typical wait is the median of, per pool
RECENT_WAITS = 50
#: a poll pairs at most this often (seconds): a thousand seekers asking each second do not pair a thousand times
RUN_EVERY = 0.2
#: the open challenges the lobby lists at most (the oldest first)
CHALLENGES = 20


class SeatTaker(Protocol):
    """A made table as the service needs it: its id, and a join (server.table.handle TableHandle)."""

    @property
    def id(self) -> str: ...

    async def handle(self, command: Join, origin: Origin) -> Outcome: ...


class TableMaker(Protocol):
    """The lobby's create (server.lobby.lobby Lobby)."""

    async def create(self, body: Any, address: str | None = None,
                     account: Holder | None = None) -> tuple[SeatTaker, int | None, str | None]: ...


async def make_table(lobby: TableMaker, pairing: Pairing,
                     holders: list[Holder | None]) -> tuple[str, list[tuple[int, str]]]:
    """The one table of a pairing, every seat a person's, each in its seat order: its id and each seat's token."""
    fmt = FORMATS[pairing.format]
    first = pairing.seekers[0]
    body: dict[str, Any] = {"ruleset": fmt.ruleset, "players": fmt.players, "title": fmt.title,
                            "rated": pairing.rated, "name": first.name, "seat": 0}
    if pairing.rated:  # a standard end (server.rated.policy): the first target the server rates, 51 by default
        targets = getattr(lobby, "rated_targets", RATED_TARGETS) or RATED_TARGETS
        body["target"] = targets[0]
    table, seat, token = await lobby.create(body, None, holders[0])
    assert seat == 0 and token is not None
    seats = [(seat, token)]
    for i, (s, holder) in enumerate(zip(pairing.seekers[1:], holders[1:], strict=True), 1):
        joined = await table.handle(Join(name=s.name, seat=i, account=holder[0] if holder else None), Origin())
        seats.append(joined.seated())
    return table.id, seats


class Pairer(Protocol):
    """The pairing service the routes use: this process's pools (``PairingService``), or a cluster's, shared
    through Redis (server.pairing.shared ``SharedPairing``)."""

    async def seek(self, fmt: str, rated: bool, who: str, name: str, account: Holder | None = None,
                   rating: float | None = None, penalty: float = 0.0) -> str: ...

    async def poll(self, seek_id: str) -> dict[str, Any]: ...

    async def cancel(self, seek_id: str) -> bool: ...

    async def waiting(self) -> dict[tuple[str, bool], int]:
        """How many wait in each pool (the lobby shows it on the pools' buttons)."""
        ...

    async def challenges(self, limit: int = CHALLENGES) -> list[dict[str, Any]]:
        """The oldest waiting seeks, as anyone may see them (``challenge``): never an id, key or account."""
        ...

    async def pulse(self, here: Pulse) -> Pulse:
        """Every process's counts, given this one's (alone: ``here`` itself)."""
        ...

    async def close(self) -> None: ...


def challenge(seeker: Seeker, now: float) -> dict[str, Any]:
    """What the lobby shows of a waiting seek: its pool, the name its player shows, a rated seek's rating rounded,
    and the wait so far. The seek id is the seat's secret, and ``who`` a browser key or an account: neither."""
    return {"format": seeker.format, "rated": seeker.rated, "name": seeker.name,
            "rating": round(seeker.rating) if seeker.rated and seeker.rating is not None else None,
            "waited": round(max(0.0, now - seeker.joined_at), 1)}


@dataclass(frozen=True)
class Seated:
    """One seeker's seat at a pairing's table."""

    table_id: str
    seat: int
    token: str
    at: float


class PairingService:
    """Seeks, polls and cancels, over the pools; ``clock`` is monotonic seconds (a benchmark passes its own)."""

    def __init__(self, lobby: TableMaker, clock: Callable[[], float] = time.monotonic) -> None:
        self.lobby = lobby
        self.clock = clock
        self.pools = Pools()
        self._holders: dict[str, Holder | None] = {}
        self._seen: dict[str, float] = {}
        self._seating: dict[str, Seeker] = {}
        self._paired: dict[str, Seated] = {}
        self._waits: dict[tuple[str, bool], deque[float]] = {}
        #: seeks whose table was refused for good (not a passing outage): their poll answers the refusal
        self._failed: dict[str, tuple[ProtocolError, float]] = {}
        self._last_run = -RUN_EVERY
        self._lock = asyncio.Lock()
        #: pairings made and tables made (a benchmark checks they are equal)
        self.pairings = 0

    async def seek(self, fmt: str, rated: bool, who: str, name: str, account: Holder | None = None,
                   rating: float | None = None, penalty: float = 0.0) -> str:
        """A new seek's secret id; the player's earlier seek, if still waiting, is given up."""
        now = self.clock()
        seek_id = secrets.token_urlsafe(18)
        try:
            old = self.pools.add(Seeker(id=seek_id, who=who, name=name, format=fmt, rated=rated, joined_at=now,
                                        rating=rating, penalty=penalty))
        except SeekRefused as exc:
            raise ProtocolError("bad_format", str(exc)) from None
        if old is not None:
            self._forget(old.id)
        self._holders[seek_id] = account
        self._seen[seek_id] = now
        await self.run()
        return seek_id

    async def poll(self, seek_id: str) -> dict[str, Any]:
        """A seek's state: waiting (with the pool's size and typical wait) or paired (its seat and token)."""
        now = self.clock()
        if seek_id in self.pools:
            self._seen[seek_id] = now
            if now - self._last_run >= RUN_EVERY:
                await self.run()
        failed = self._failed.get(seek_id)
        if failed is not None:
            raise failed[0]
        seated = self._paired.get(seek_id)
        if seated is not None:
            return {"status": "paired", "table_id": seated.table_id, "seat": seated.seat, "token": seated.token}
        seeker = self.pools.get(seek_id) or self._seating.get(seek_id)
        if seeker is None:
            raise ProtocolError("no_such_seek", "there is no such seek (cancelled, or not asked about for "
                                f"{DROP_AFTER:g} s): seek again")
        return {"status": "waiting", "format": seeker.format, "rated": seeker.rated,
                "players": self.pools.waiting(seeker.format, seeker.rated) + self._seating_in(seeker),
                "waited": round(max(0.0, now - seeker.joined_at), 1), "typical_wait": self.typical_wait(seeker.pool)}

    async def cancel(self, seek_id: str) -> bool:
        """Give up a waiting seek; False if it was not waiting (already paired, or unknown)."""
        if self.pools.remove(seek_id) is None:
            return False
        self._forget(seek_id)
        return True

    async def waiting(self) -> dict[tuple[str, bool], int]:
        return {(fmt, rated): self.pools.waiting(fmt, rated) for fmt in FORMATS for rated in (False, True)}

    async def challenges(self, limit: int = CHALLENGES) -> list[dict[str, Any]]:
        now = self.clock()
        live = [s for s in self.pools if now - self._seen.get(s.id, s.joined_at) <= DROP_AFTER]
        oldest = sorted(live, key=lambda s: (s.joined_at, s.id))[:limit]
        return [challenge(s, now) for s in oldest]

    async def pulse(self, here: Pulse) -> Pulse:
        return here

    async def close(self) -> None:
        """Nothing to close: the pools are this process's memory."""

    def typical_wait(self, pool: tuple[str, bool]) -> float | None:
        """The median of the pool's recent waits, in seconds (None before its first pairing)."""
        waits = self._waits.get(pool)
        return round(statistics.median(waits), 1) if waits else None

    def _seating_in(self, seeker: Seeker) -> int:
        return sum(1 for s in self._seating.values() if s.pool == seeker.pool)

    def _forget(self, seek_id: str) -> None:
        self._holders.pop(seek_id, None)
        self._seen.pop(seek_id, None)

    async def run(self) -> list[Pairing]:
        """Drop the silent seekers, pair the rest, and seat each pairing at its own table."""
        async with self._lock:
            now = self._last_run = self.clock()
            for s in self.pools:
                if now - self._seen.get(s.id, s.joined_at) > DROP_AFTER:
                    self.pools.remove(s.id)
                    self._forget(s.id)
            for seek_id, seated in list(self._paired.items()):
                if now - seated.at > KEEP_PAIRED:
                    del self._paired[seek_id]
            for seek_id, (_, at) in list(self._failed.items()):
                if now - at > KEEP_PAIRED:
                    del self._failed[seek_id]
            made = self.pools.pair(now)
            for pairing in made:
                await self._seat(pairing, now)
            return made

    async def _seat(self, pairing: Pairing, now: float) -> None:
        for s in pairing.seekers:
            self._seating[s.id] = s
        try:
            table_id, seats = await make_table(self.lobby, pairing, [self._holders.get(s.id) for s in pairing.seekers])
        except ProtocolError as exc:
            if exc.code == "unavailable":  # the database did not answer: the seekers wait on, in their places
                log.warning("pairing: the table of a %s pairing could not be made (%s); the seekers wait on",
                            pairing.format, exc.message)
                self.pools.restore(pairing.seekers)
                for s in pairing.seekers:
                    self._seen[s.id] = now
            else:  # refused for good (a rule of rated tables): each seeker is told, not paired again and again
                log.warning("pairing: the table of a %s pairing was refused: %s", pairing.format, exc.message)
                for s in pairing.seekers:
                    self._failed[s.id] = (exc, now)
                    self._forget(s.id)
            return
        finally:
            for s in pairing.seekers:
                self._seating.pop(s.id, None)
        self.pairings += 1
        waits = self._waits.setdefault((pairing.format, pairing.rated), deque(maxlen=RECENT_WAITS))
        for s, (seat, token) in zip(pairing.seekers, seats, strict=True):
            self._paired[s.id] = Seated(table_id, seat, token, now)
            waits.append(now - s.joined_at)
            self._forget(s.id)
