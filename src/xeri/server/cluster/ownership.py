"""Which process owns which table, when several ``xeri serve`` processes share one PostgreSQL.

A table's owner holds a lease in the database (``xeri_leases``): taken with
one conditional UPDATE (``WHERE until < now() OR owner = me``), renewed for
every table at once, and given up on a clean stop. Only the owner applies
moves, runs bots and timers and writes; and the moves' primary key
``(table_id, idx)`` means that even an owner that lost its lease without
knowing can never store a move *n* another process stored (docs/scaling.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..store import Store

#: seconds a lease lasts unless renewed; a dead owner's tables move after at most this (plus one tick)
LEASE_SECONDS = 5.0


@dataclass
class Ownership:
    """This process's (``node``'s) leases on tables, ``lease`` seconds each."""

    store: Store
    node: str
    lease: float = LEASE_SECONDS

    @property
    def every(self) -> float:
        """How often leases are renewed and orphans looked for: three times per lease."""
        return self.lease / 3

    async def take(self, table_id: str) -> bool:
        """Own ``table_id`` if nobody live does (or this process already does)."""
        return await self.store.take_lease(table_id, self.node, self.lease)

    async def renew(self) -> set[str]:
        """Extend every lease held; returns the tables still owned (one that is missing was taken over)."""
        return await self.store.keep_alive(self.node, self.lease)

    async def owner(self, table_id: str) -> str | None:
        return await self.store.lease_owner(table_id)

    async def orphans(self) -> list[str]:
        """Unfinished tables nobody owns (their owner died or stopped): candidates to adopt."""
        return await self.store.orphans()

    async def release(self, table_ids: list[str] | None = None) -> None:
        await self.store.release_leases(self.node, table_ids)
