"""A game's rows: creating a table, its seats, its start, its moves and its end; loading it again.

Every write goes through the group commit (server.store.writer); a move and the
end of the match it finishes are one transaction, so a restart finds either both
or neither.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from .. import metrics
from .database import Database
from .tables import (
    Finish,
    LoadedTable,
    MoveRow,
    SeatRow,
    Start,
    TableRow,
    moves_t,
    rated_tables_t,
    results_t,
    row_of,
    seat_accounts_t,
    seats_t,
    tables_t,
)
from .writer import INSERT_MOVE


class Games(Database):
    """The writes and reads of tables in play (and of a finished one's record)."""

    # --- statements ----------------------------------------------------------

    @staticmethod
    def _table(table_id: str, **values: Any) -> tuple[Any, Any]:
        return (update(tables_t).where(tables_t.c.id == table_id).values(**values), None)

    @staticmethod
    def _seat(table_id: str, seat: int, **values: Any) -> tuple[Any, Any]:
        stmt = update(seats_t).where(seats_t.c.table_id == table_id, seats_t.c.seat == seat).values(**values)
        return (stmt, None)

    @classmethod
    def _finish(cls, table_id: str, finish: Finish) -> list[tuple[Any, Any]]:
        stmts = [cls._table(table_id, status="finished", finished_at=finish.finished_at, result=finish.result,
                            record=finish.record)]
        if finish.results:
            stmts.append((insert(results_t), [row_of(r) for r in finish.results]))
        return stmts

    @staticmethod
    def _bind(table_id: str, seat: int, account_id: str, at: float) -> tuple[Any, Any]:
        return (insert(seat_accounts_t), {"table_id": table_id, "seat": seat, "account_id": account_id,
                                          "bound_at": at, "claimed": False})

    async def create_table(self, table: TableRow, seats: Sequence[SeatRow], rated: str | None = None) -> None:
        """A new table and its seats (a creator's seat may be taken already, bound to an account, and the match
        started); ``rated``: the format it is rated in (xeri_rated_tables, server.store.ratings)."""
        stmts = [(insert(tables_t), row_of(table)), (insert(seats_t), [_seat_columns(s) for s in seats])]
        stmts += [self._bind(table.id, s.seat, s.account_id, table.created_at) for s in seats if s.account_id]
        if rated is not None:
            stmts.append((insert(rated_tables_t), {"table_id": table.id, "format": rated, "rated_at": None}))
        await self.write(*stmts)

    async def take_seat(self, table_id: str, seat: int, name: str, token_hash: str, start: Start | None,
                        account_id: str | None = None, at: float = 0.0) -> None:
        """A person joins ``seat`` (signed in: bound to ``account_id``); with ``start``, the table that is now full
        starts in the same transaction."""
        stmts = [self._seat(table_id, seat, name=name, token_hash=token_hash)]
        if account_id is not None:
            stmts.append(self._bind(table_id, seat, account_id, at))
        if start is not None:
            stmts.append(self._table(table_id, status="playing", started_at=start.started_at, names=start.names))
        await self.write(*stmts)

    async def start(self, table_id: str, start: Start) -> None:
        await self.write(self._table(table_id, status="playing", started_at=start.started_at, names=start.names))

    async def free_seat(self, table_id: str, seat: int, close: bool) -> None:
        """A seat given up before the start; ``close`` closes the table too (nobody is left at it)."""
        stmts = [self._seat(table_id, seat, name=None, token_hash=None),
                 (delete(seat_accounts_t).where(seat_accounts_t.c.table_id == table_id,
                                                seat_accounts_t.c.seat == seat), None)]
        if close:
            stmts.append(self._table(table_id, status="closed"))
        await self.write(*stmts)

    async def close_table(self, table_id: str) -> None:
        """A table that waited too long for players is closed (server.limits.caps ``waiting_ttl``)."""
        await self.write(self._table(table_id, status="closed"))

    async def leave_seat(self, table_id: str, seat: int) -> None:
        """A seat given up after the start: a bot plays it, and its token opens nothing any more."""
        await self.write(self._seat(table_id, seat, left=True, token_hash=None))

    async def add_move(self, move: MoveRow, finish: Finish | None = None) -> None:
        """Store a move (and, with ``finish``, the end of the match in the same transaction).

        Raises ``StaleMove`` if this version's move is stored already.
        """
        stmts: list[tuple[Any, Any]] = [(INSERT_MOVE, row_of(move))]
        if finish is not None:
            stmts += self._finish(move.table_id, finish)
        await self.write(*stmts, stale=True)

    async def forfeit(self, table_id: str, seat: int, finish: Finish) -> None:
        """A rated match ended by ``seat``'s forfeit (server.rated.policy): the seat counts as left (the leave
        penalty counts it, ``Ratings.rated_leaves``) and the end is stored with it, in one transaction. The seat's
        token still opens the finished table, to see how it ended."""
        await self.write(self._seat(table_id, seat, left=True), *self._finish(table_id, finish))

    async def finish(self, table_id: str, finish: Finish) -> None:
        """The end of a match whose last move is stored already (found so at startup)."""
        await self.write(*self._finish(table_id, finish))

    # --- reading --------------------------------------------------------------

    @metrics.timed_store("load")
    async def load_table(self, table_id: str) -> LoadedTable | None:
        """A table's row, its seats and its moves in order; None if there is no such table."""
        async with self._reading() as conn:
            return await _load(conn, table_id)

    async def unfinished_ids(self) -> list[str]:
        rows = await self._rows(select(tables_t.c.id).where(tables_t.c.status.in_(("waiting", "playing"))))
        return [r["id"] for r in rows]

    async def statuses(self, table_ids: list[str]) -> dict[str, str]:
        """The status of each of ``table_ids`` that exists (the cluster's tables-per-address cap,
        server.limits.shared)."""
        if not table_ids:
            return {}
        rows = await self._rows(select(tables_t.c.id, tables_t.c.status).where(tables_t.c.id.in_(table_ids)))
        return {r["id"]: r["status"] for r in rows}

    async def record_text(self, table_id: str) -> tuple[str, str | None] | None:
        """(status, record JSON) of a table; None if there is no such table."""
        rows = await self._rows(select(tables_t.c.status, tables_t.c.record).where(tables_t.c.id == table_id))
        return (rows[0]["status"], rows[0]["record"]) if rows else None

    async def access(self, table_id: str) -> tuple[str, bool, list[tuple[int, str]]] | None:
        """(status, private, (seat, token hash) of its seats holding one) of a table; None if there is no such
        table."""
        rows = await self._rows(select(tables_t.c.status, tables_t.c.private).where(tables_t.c.id == table_id))
        if not rows:
            return None
        hashes = await self._rows(select(seats_t.c.seat, seats_t.c.token_hash).where(
            seats_t.c.table_id == table_id, seats_t.c.token_hash.is_not(None)))
        return rows[0]["status"], bool(rows[0]["private"]), [(int(h["seat"]), h["token_hash"]) for h in hashes]

    async def seat_accounts(self, table_id: str) -> dict[int, tuple[str, bool]]:
        """Which account holds which seat of a table, and whether it claimed it later (server.accounts.service); guests'
        and bots' seats are not there."""
        c = seat_accounts_t.c
        rows = await self._rows(select(c.seat, c.account_id, c.claimed).where(c.table_id == table_id))
        return {int(r["seat"]): (r["account_id"], bool(r["claimed"])) for r in rows}

    async def listed_tables(self, statuses: Sequence[str],
                            limit: int) -> list[tuple[TableRow, list[SeatRow], str | None]]:
        """Public unfinished tables, the newest first, with their seats and the format each is rated in (None:
        casual): the lobby of every process."""
        t = tables_t.c
        async with self._reading() as conn:
            rows = (await conn.execute(select(tables_t).where(t.status.in_(list(statuses)), t.private.is_(False))
                                       .order_by(t.created_at.desc()).limit(limit))).all()
            ids = [r._mapping["id"] for r in rows]
            seats: dict[str, list[SeatRow]] = {i: [] for i in ids}
            if ids:
                found = await conn.execute(select(seats_t).where(seats_t.c.table_id.in_(ids))
                                           .order_by(seats_t.c.table_id, seats_t.c.seat))
                for s in found:
                    seats[s._mapping["table_id"]].append(SeatRow(**s._mapping))
            rated: dict[str, str] = {}
            if ids:
                rated = {r[0]: r[1] for r in await conn.execute(
                    select(rated_tables_t.c.table_id, rated_tables_t.c.format)
                    .where(rated_tables_t.c.table_id.in_(ids)))}
        return [(TableRow(**r._mapping), seats[r._mapping["id"]], rated.get(r._mapping["id"])) for r in rows]


async def _load(conn: AsyncConnection, table_id: str) -> LoadedTable | None:
    rows = (await conn.execute(select(tables_t).where(tables_t.c.id == table_id))).all()
    if not rows:
        return None
    seats = (await conn.execute(select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat))).all()
    moves = (await conn.execute(select(moves_t).where(moves_t.c.table_id == table_id).order_by(moves_t.c.idx))).all()
    bound = {r[0]: r[1] for r in await conn.execute(select(seat_accounts_t.c.seat, seat_accounts_t.c.account_id)
                                                    .where(seat_accounts_t.c.table_id == table_id,
                                                           seat_accounts_t.c.claimed.is_(False)))}
    rated = (await conn.execute(select(rated_tables_t.c.format).where(rated_tables_t.c.table_id == table_id))).first()
    return LoadedTable(TableRow(**rows[0]._mapping),
                       [SeatRow(**s._mapping, account_id=bound.get(s._mapping["seat"])) for s in seats],
                       [MoveRow(**m._mapping) for m in moves], rated=rated[0] if rated is not None else None)


def _seat_columns(seat: SeatRow) -> dict[str, Any]:
    """A seat's row of xeri_seats (its account, if any, is a row of xeri_seat_accounts)."""
    out = row_of(seat)
    del out["account_id"]
    return out
