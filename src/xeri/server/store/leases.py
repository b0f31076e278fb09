"""The cluster's rows (server.cluster): which process owns which table (a lease), and which processes are up.

A lease is taken with one conditional UPDATE (``WHERE until < now OR owner = me``),
renewed for every table at once, and given up on a clean stop; every time is the
database's clock, so the processes' clocks need not agree.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import delete, insert, literal, select, update

from .. import metrics
from .database import Database
from .failures import StoreConflict
from .tables import leases_t, nodes_t, tables_t


class Leases(Database):
    """Table leases and process heartbeats, on the lease loop's own connection where one is kept."""

    async def take_lease(self, table_id: str, owner: str, seconds: float) -> bool:
        """Own ``table_id`` for ``seconds`` if its lease has expired, is missing or is ``owner``'s already.

        One conditional UPDATE (or the INSERT of a first lease, guarded by the primary key), so two
        processes can never both win the same lease.
        """
        now = self._now()
        lc = leases_t.c
        stmt = (update(leases_t).where(lc.table_id == table_id, (lc.until < now) | (lc.owner == owner))
                .values(owner=owner, until=now + seconds))
        async with self._direct() as conn:
            if (await conn.execute(stmt)).rowcount == 1:
                return True
            if (await conn.execute(select(lc.table_id).where(lc.table_id == table_id))).first() is not None:
                return False
        try:
            async with self._direct() as conn:
                await conn.execute(insert(leases_t).from_select(
                    ["table_id", "owner", "until"], select(literal(table_id), literal(owner), now + seconds)))
            return True
        except StoreConflict:
            return False  # another process inserted the first lease at the same time

    async def renew_leases(self, owner: str, seconds: float) -> set[str]:
        """Extend every lease ``owner`` holds (expired or not, if nobody took it since); returns their tables."""
        now = self._now()
        stmt = (update(leases_t).where(leases_t.c.owner == owner).values(until=now + seconds)
                .returning(leases_t.c.table_id))
        async with self._leasing() as conn:
            if not self.is_sqlite:
                return {r[0] for r in (await conn.execute(stmt))}
            await conn.execute(update(leases_t).where(leases_t.c.owner == owner).values(until=now + seconds))
            rows = await conn.execute(select(leases_t.c.table_id).where(leases_t.c.owner == owner))
            return {r[0] for r in rows}

    async def hand_lease(self, table_id: str, owner: str, to: str, seconds: float) -> bool:
        """Pass ``owner``'s live lease on ``table_id`` to the live process ``to`` (a handover, server.cluster).

        One conditional UPDATE: it fails, changing nothing, if ``owner`` no longer holds the lease or ``to``'s
        heartbeat has expired (a dead process must not be handed a table).
        """
        now = self._now()
        lc = leases_t.c
        alive = select(nodes_t.c.id).where(nodes_t.c.id == to, nodes_t.c.until >= now).exists()
        stmt = (update(leases_t).where(lc.table_id == table_id, lc.owner == owner, lc.until >= now, alive)
                .values(owner=to, until=now + seconds))
        async with self._direct() as conn:
            return bool((await conn.execute(stmt)).rowcount == 1)

    @metrics.timed_store("lease")
    async def keep_alive(self, node: str, seconds: float) -> set[str]:
        """``heartbeat`` and ``renew_leases`` in one transaction (fewer round trips on a busy process)."""
        now = self._now()
        lc = leases_t.c
        async with self._leasing() as conn:
            if not (await conn.execute(update(nodes_t).where(nodes_t.c.id == node).values(until=now + seconds))
                    ).rowcount:
                await conn.execute(insert(nodes_t).from_select(["id", "until"], select(literal(node), now + seconds)))
            if self.is_sqlite:
                await conn.execute(update(leases_t).where(lc.owner == node).values(until=now + seconds))
                return {r[0] for r in await conn.execute(select(lc.table_id).where(lc.owner == node))}
            stmt = update(leases_t).where(lc.owner == node).values(until=now + seconds).returning(lc.table_id)
            return {r[0] for r in await conn.execute(stmt)}

    async def release_leases(self, owner: str, table_ids: Sequence[str] | None = None) -> None:
        """Give leases up at once (a clean stop, a finished table): another process may take them now."""
        stmt = delete(leases_t).where(leases_t.c.owner == owner)
        if table_ids is not None:
            stmt = stmt.where(leases_t.c.table_id.in_(list(table_ids)))
        async with self._direct() as conn:
            await conn.execute(stmt)

    async def lease_owner(self, table_id: str) -> str | None:
        """The process holding a live lease on ``table_id``, or None (expired or never taken)."""
        lc = leases_t.c
        rows = await self._rows(select(lc.owner).where(lc.table_id == table_id, lc.until >= self._now()))
        return rows[0]["owner"] if rows else None

    async def unfinished_among(self, table_ids: Sequence[str]) -> set[str]:
        """Which of ``table_ids`` are still waiting or playing."""
        t = tables_t.c
        rows = await self._rows(select(t.id).where(t.id.in_(list(table_ids)), t.status.in_(("waiting", "playing"))))
        return {r["id"] for r in rows}

    async def orphans(self, limit: int = 100) -> list[str]:
        """Unfinished tables whose lease expired or was never taken (their owner died): to adopt."""
        t, lc = tables_t.c, leases_t.c
        live = select(lc.table_id).where(lc.until >= self._now())
        stmt = (select(t.id).where(t.status.in_(("waiting", "playing")), t.id.not_in(live))
                .order_by(t.created_at).limit(limit))
        return [r["id"] for r in await self._rows(stmt)]

    async def heartbeat(self, node: str, seconds: float) -> None:
        """Say that process ``node`` is up (in cluster mode) for the next ``seconds``."""
        now = self._now()
        async with self._leasing() as conn:
            if (await conn.execute(update(nodes_t).where(nodes_t.c.id == node).values(until=now + seconds))).rowcount:
                return
            await conn.execute(insert(nodes_t).from_select(["id", "until"], select(literal(node), now + seconds)))

    async def leave_cluster(self, node: str) -> None:
        async with self._direct() as conn:
            await conn.execute(delete(nodes_t).where(nodes_t.c.id == node))

    async def live_nodes(self) -> list[str]:
        """The processes serving this database in cluster mode now (their heartbeat has not expired)."""
        rows = await self._rows(select(nodes_t.c.id).where(nodes_t.c.until >= self._now()))
        return [r["id"] for r in rows]
