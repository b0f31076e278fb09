"""The pairing pools of "Play online": who waits for which format, and who is seated with whom (docs/web.md).

Pure and deterministic: no clock, no I/O, no randomness. The caller passes ``now`` (its own clock's seconds) and
gets the groups to seat; the same calls in the same order give the same groups. A casual pool seats in arrival
order; a rated pool seats players whose rating windows overlap, each window widening with the wait, as lichess's
pools do. A 4-player format seats two partnerships (partners opposite, seats 0 and 2 against 1 and 3), balanced by
rating: the best and the worst against the middle two.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

#: a rated seeker's window: ± this many rating points at first ...
WINDOW_START = 100.0
#: ... widened by this many a second waited ...
WINDOW_PER_SECOND = 25.0
#: ... and unbounded once the seeker has waited this long (anyone is better than nobody)
WINDOW_OPEN_AFTER = 30.0


@dataclass(frozen=True)
class PoolFormat:
    """A format people are paired for: the ruleset preset and its number of players."""

    name: str
    ruleset: str
    players: int
    #: whether a rated pool exists (rated formats are classic's: server.rated.policy)
    ratable: bool
    #: the title of a pairing's table
    title: str


#: the formats of "Play online", by name
FORMATS: dict[str, PoolFormat] = {f.name: f for f in (
    PoolFormat("xeri-2", "classic", 2, True, "Xeri online"),
    PoolFormat("xeri-4", "classic", 4, True, "Xeri online"),
    PoolFormat("pisti-2", "pisti", 2, False, "Pişti online"),
    PoolFormat("pisti-4", "pisti", 4, False, "Pişti online"),
)}


class SeekRefused(ValueError):
    """A seek the pools cannot take: an unknown format, a rated seek of a casual format or without a rating."""


@dataclass(frozen=True)
class Seeker:
    """One player waiting: ``who`` is the player (an account, or a guest's browser key), one seek at a time."""

    id: str
    who: str
    name: str
    format: str
    rated: bool
    joined_at: float
    #: the player's rating in the format (rated pools need one; a casual 4-player pool balances with them)
    rating: float | None = None
    #: extra seconds before this seeker is paired (one who often leaves rated matches early waits longer)
    penalty: float = 0.0

    @property
    def pool(self) -> tuple[str, bool]:
        return self.format, self.rated

    def ready(self, now: float) -> bool:
        return now >= self.joined_at + self.penalty

    def window(self, now: float) -> float:
        """The half-width of the rating window at ``now``: it widens with the wait past the penalty."""
        waited = max(0.0, now - self.joined_at - self.penalty)
        if waited >= WINDOW_OPEN_AFTER:
            return math.inf
        return WINDOW_START + WINDOW_PER_SECOND * waited


@dataclass(frozen=True)
class Pairing:
    """A group to seat at one table, in seat order (in a 4-player format, seats 0 and 2 are partners)."""

    format: str
    rated: bool
    seekers: tuple[Seeker, ...]


def overlap(a: Seeker, b: Seeker, now: float) -> bool:
    """Whether two rated seekers' windows overlap (a seeker without a rating overlaps nobody)."""
    if a.rating is None or b.rating is None:
        return False
    return abs(a.rating - b.rating) <= a.window(now) + b.window(now)


def teams(group: list[Seeker]) -> tuple[Seeker, ...]:
    """Four players as two balanced partnerships: the best and the worst (seats 0 and 2) against the middle two
    (seats 1 and 3). Without every rating, arrival order (the first two arrivals are not partners)."""
    if len(group) != 4 or any(s.rating is None for s in group):
        return tuple(group)
    ranked = sorted(group, key=lambda s: (-(s.rating or 0.0), s.joined_at, s.id))
    return ranked[0], ranked[1], ranked[3], ranked[2]


class Pools:
    """Every pool: seekers by format and rated flag, in arrival order; a player in at most one pool."""

    def __init__(self) -> None:
        self._pools: dict[tuple[str, bool], dict[str, Seeker]] = {}
        self._by_who: dict[str, str] = {}
        self._by_id: dict[str, Seeker] = {}

    def __len__(self) -> int:
        return len(self._by_id)

    def __contains__(self, seek_id: object) -> bool:
        return seek_id in self._by_id

    def __iter__(self) -> Iterator[Seeker]:
        return iter(list(self._by_id.values()))

    def get(self, seek_id: str) -> Seeker | None:
        return self._by_id.get(seek_id)

    def waiting(self, fmt: str, rated: bool) -> int:
        """How many wait in a pool."""
        return len(self._pools.get((fmt, rated), {}))

    def add(self, seeker: Seeker) -> Seeker | None:
        """Put ``seeker`` in its pool; a player's earlier seek, if any, is replaced (and returned)."""
        fmt = FORMATS.get(seeker.format)
        if fmt is None:
            raise SeekRefused(f"there is no format {seeker.format[:40]!r}; formats are: {', '.join(FORMATS)}")
        if seeker.rated and not fmt.ratable:
            raise SeekRefused(f"{fmt.name} is played casual only: rated formats are "
                              + ", ".join(f.name for f in FORMATS.values() if f.ratable))
        if seeker.rated and seeker.rating is None:
            raise SeekRefused("a rated seek needs the player's rating")
        if seeker.id in self._by_id:
            raise SeekRefused("that seek is already in a pool")
        before = self._by_who.get(seeker.who)
        old = self.remove(before) if before is not None else None
        self._pools.setdefault(seeker.pool, {})[seeker.id] = seeker
        self._by_who[seeker.who] = seeker.id
        self._by_id[seeker.id] = seeker
        return old

    def remove(self, seek_id: str) -> Seeker | None:
        """Take a seek out of its pool (a cancel, or a seeker that stopped asking); None if it was not there."""
        seeker = self._by_id.pop(seek_id, None)
        if seeker is None:
            return None
        del self._pools[seeker.pool][seek_id]
        if not self._pools[seeker.pool]:
            del self._pools[seeker.pool]
        if self._by_who.get(seeker.who) == seek_id:
            del self._by_who[seeker.who]
        return seeker

    def restore(self, seekers: tuple[Seeker, ...]) -> None:
        """Put back the seekers of a pairing whose table could not be made, keeping their place by arrival."""
        for s in seekers:
            if s.who not in self._by_who and s.id not in self._by_id:
                self.add(s)
        for key, pool in list(self._pools.items()):
            self._pools[key] = dict(sorted(pool.items(), key=lambda kv: (kv[1].joined_at, kv[0])))

    def pair(self, now: float) -> list[Pairing]:
        """The groups to seat now, taken out of their pools; the pools in a fixed order (by format, casual first)."""
        found: list[Pairing] = []
        for key in sorted(self._pools):
            fmt = FORMATS[key[0]]
            ready = [s for s in self._pools[key].values() if s.ready(now)]
            groups = _rated(ready, fmt.players, now) if key[1] else _casual(ready, fmt.players)
            for group in groups:
                for s in group:
                    self.remove(s.id)
                found.append(Pairing(fmt.name, key[1], teams(group) if fmt.players == 4 else tuple(group)))
        return found


def _casual(ready: list[Seeker], players: int) -> list[list[Seeker]]:
    """Groups in arrival order (every ``who`` in a pool is different already)."""
    return [ready[i:i + players] for i in range(0, len(ready) - players + 1, players)]


def _rated(ready: list[Seeker], players: int, now: float) -> list[list[Seeker]]:
    """Groups whose every two windows overlap: the longest waiting first, each with the closest ratings it fits."""
    left = list(ready)
    groups: list[list[Seeker]] = []
    while left:
        first = left.pop(0)
        others = sorted((s for s in left if overlap(first, s, now)),
                        key=lambda s: (abs((s.rating or 0.0) - (first.rating or 0.0)), s.joined_at, s.id))
        group = [first]
        for s in others:
            if all(overlap(s, g, now) for g in group):
                group.append(s)
                if len(group) == players:
                    break
        if len(group) == players:
            groups.append(group)
            left = [s for s in left if s not in group]
    return groups
