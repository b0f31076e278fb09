"""The operator's part of the database (``xeri admin``): barred addresses, the operator's actions, and the reads
behind ``admin tables`` and ``admin stats``.

Beside ``store.py`` and on its engine (this module and the store are the only ones that speak SQL; see
tests/server/store/test_server_store.py). Its two tables came with schema revision 0002 (server/store/migrations):

- ``xeri_bars``: an address or network (``203.0.113.7/32``) barred until a time (or until unbarred). Every
  process reads them every few seconds (server.ops.admin), so a bar holds on every process of a cluster.
- ``xeri_actions``: every change the operator made, with who made it and when (the audit trail), and the requests
  a server carries out (``close`` a table: its owner closes it, so the one writer of a table stays its owner).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Float, Text, delete, func, insert, literal, select, update

from ..store import Store
from ..store.tables import SeatRow, TableRow, actions_t, bars_t, leases_t, moves_t, results_t, seats_t, tables_t

bars_t_name = bars_t.name
actions_t_name = actions_t.name


@dataclass
class Bar:
    """One barred address or network."""

    network: str
    until: float | None
    reason: str | None
    actor: str
    created_at: float


@dataclass
class Action:
    """One of the operator's actions (the audit trail), or a request still to be carried out."""

    id: int
    at: float
    action: str
    target: str
    detail: str | None
    actor: str
    done_at: float | None = None
    done_by: str | None = None

    @property
    def reason(self) -> str | None:
        if not self.detail:
            return None
        value = json.loads(self.detail).get("reason")
        return value if isinstance(value, str) else None


@dataclass
class LiveTable:
    """An unfinished table as ``xeri admin tables`` shows it."""

    table: TableRow
    seats: list[SeatRow]
    moves: int
    #: the process holding its lease (a cluster), else None
    owner: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class OperatorStore:
    """The operator's reads and writes, on an open :class:`~xeri.server.store.Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def now(self) -> float:
        """The database's clock (the one every process compares a bar's end with)."""
        rows = await self.store._rows(select(self.store._now().label("now")))
        return float(rows[0]["now"])

    # --- bars --------------------------------------------------------------------

    async def bars(self) -> list[Bar]:
        """The bars in force now."""
        b = bars_t.c
        stmt = select(bars_t).where(b.until.is_(None) | (b.until > self.store._now())).order_by(b.created_at)
        return [Bar(**r) for r in await self.store._rows(stmt)]

    async def bar(self, network: str, seconds: float | None, reason: str | None, actor: str) -> Bar:
        """Bar ``network`` for ``seconds`` (None: until unbarred), replacing any bar of it; noted as an action."""
        now = self.store._now()
        until = now + seconds if seconds is not None else None
        detail = json.dumps({"reason": reason, "seconds": seconds})
        async with self.store._direct() as conn:
            await conn.execute(delete(bars_t).where(bars_t.c.network == network))
            await conn.execute(insert(bars_t).from_select(
                ["network", "until", "reason", "actor", "created_at"],
                select(literal(network), until if until is not None else literal(None, Float), literal(reason, Text),
                       literal(actor), now)))
            await conn.execute(insert(actions_t).from_select(
                ["at", "action", "target", "detail", "actor", "done_at", "done_by"],
                select(now, literal("bar"), literal(network), literal(detail), literal(actor), now, literal("admin"))))
            row = (await conn.execute(select(bars_t).where(bars_t.c.network == network))).one()
        return Bar(**row._mapping)

    async def unbar(self, network: str, actor: str) -> bool:
        """Lift the bar of ``network``; False if there was none. Noted as an action either way."""
        now = self.store._now()
        async with self.store._direct() as conn:
            gone = (await conn.execute(delete(bars_t).where(bars_t.c.network == network))).rowcount
            await conn.execute(insert(actions_t).from_select(
                ["at", "action", "target", "detail", "actor", "done_at", "done_by"],
                select(now, literal("unbar"), literal(network), literal(json.dumps({"found": bool(gone)})),
                       literal(actor), now, literal("admin"))))
        return bool(gone)

    # --- requests and the audit trail ------------------------------------------------

    async def request(self, action: str, target: str, detail: dict[str, Any], actor: str) -> int:
        """A request for the servers (``close``): its id, to wait for it to be done."""
        now = self.store._now()
        async with self.store._direct() as conn:
            made = await conn.execute(insert(actions_t).from_select(
                ["at", "action", "target", "detail", "actor"],
                select(now, literal(action), literal(target), literal(json.dumps(detail)), literal(actor)))
                .returning(actions_t.c.id))
            return int(made.scalar_one())

    async def pending(self) -> list[Action]:
        """Requests no server has carried out yet, the oldest first."""
        a = actions_t.c
        return [Action(**r) for r in await self.store._rows(select(actions_t).where(a.done_at.is_(None))
                                                              .order_by(a.id))]

    async def action(self, action_id: int) -> Action | None:
        rows = await self.store._rows(select(actions_t).where(actions_t.c.id == action_id))
        return Action(**rows[0]) if rows else None

    async def done(self, action_id: int, by: str, outcome: str | None = None) -> bool:
        """Mark a request carried out (once: False if another process did already)."""
        a = actions_t.c
        values: dict[str, Any] = {"done_at": self.store._now(), "done_by": by}
        if outcome is not None:
            found = await self.action(action_id)
            detail = json.loads(found.detail or "{}") if found else {}
            values["detail"] = json.dumps({**detail, "outcome": outcome})
        async with self.store._direct() as conn:
            stmt = update(actions_t).where(a.id == action_id, a.done_at.is_(None)).values(**values)
            return bool((await conn.execute(stmt)).rowcount == 1)

    async def actions(self, limit: int = 50) -> list[Action]:
        """The audit trail, the newest first."""
        rows = await self.store._rows(select(actions_t).order_by(actions_t.c.id.desc()).limit(limit))
        return [Action(**r) for r in rows]

    # --- tables ------------------------------------------------------------------------

    async def status(self, table_id: str) -> str | None:
        rows = await self.store._rows(select(tables_t.c.status).where(tables_t.c.id == table_id))
        return rows[0]["status"] if rows else None

    async def close_stored(self, table_id: str) -> bool:
        """Close an unfinished table that no server holds (nobody else writes it); False if it is not unfinished."""
        t = tables_t.c
        async with self.store._direct() as conn:
            stmt = (update(tables_t).where(t.id == table_id, t.status.in_(("waiting", "playing")))
                    .values(status="closed"))
            return bool((await conn.execute(stmt)).rowcount == 1)

    async def live_tables(self, limit: int = 500) -> list[LiveTable]:
        """The unfinished tables (private ones too), the oldest first, with their seats, moves and lease owner."""
        t, lc = tables_t.c, leases_t.c
        async with self.store._reading() as conn:
            rows = (await conn.execute(select(tables_t).where(t.status.in_(("waiting", "playing")))
                                       .order_by(t.created_at).limit(limit))).all()
            ids = [r._mapping["id"] for r in rows]
            seats: dict[str, list[SeatRow]] = {i: [] for i in ids}
            moves: dict[str, int] = {}
            owners: dict[str, str] = {}
            if ids:
                for s in await conn.execute(select(seats_t).where(seats_t.c.table_id.in_(ids))
                                            .order_by(seats_t.c.table_id, seats_t.c.seat)):
                    seats[s._mapping["table_id"]].append(SeatRow(**s._mapping))
                counted = select(moves_t.c.table_id, func.count().label("n")).where(
                    moves_t.c.table_id.in_(ids)).group_by(moves_t.c.table_id)
                moves = {r.table_id: int(r.n) for r in await conn.execute(counted)}
                leased = select(lc.table_id, lc.owner).where(lc.table_id.in_(ids), lc.until >= self.store._now())
                owners = {r.table_id: r.owner for r in await conn.execute(leased)}
        return [LiveTable(TableRow(**r._mapping), seats[r._mapping["id"]], moves.get(r._mapping["id"], 0),
                          owners.get(r._mapping["id"])) for r in rows]

    async def stats(self) -> dict[str, Any]:
        """Counts for ``xeri admin stats``: tables by status, moves, matches and players, processes, bars."""
        t = tables_t.c
        out: dict[str, Any] = {}
        by_status = select(t.status, func.count().label("n")).group_by(t.status)
        out["tables"] = {r["status"]: int(r["n"]) for r in await self.store._rows(by_status)}
        out["moves"] = int((await self.store._rows(select(func.count().label("n")).select_from(moves_t)))[0]["n"])
        day = self.store._now() - 86400.0
        recent = select(func.count().label("n")).where(t.status == "finished", t.finished_at >= day)
        out["finished_last_24h"] = int((await self.store._rows(recent))[0]["n"])
        people = select(func.count(func.distinct(func.lower(results_t.c.name))).label("n")).where(
            results_t.c.human.is_(True))
        out["players"] = int((await self.store._rows(people))[0]["n"])
        out["processes"] = len(await self.store.live_nodes())
        out["bars"] = len(await self.bars())
        pending = select(func.count().label("n")).where(actions_t.c.done_at.is_(None))
        out["pending_requests"] = int((await self.store._rows(pending))[0]["n"])
        return out
