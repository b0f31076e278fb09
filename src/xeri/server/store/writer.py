"""The group commit: concurrent writers share one transaction, and each awaits the commit before it goes on.

A move is announced only once its write is committed, so whatever a client saw
survives a restart. The writer keeps one connection for the purpose (fewer
round trips); on PostgreSQL a batch of moves alone is one ``INSERT ... SELECT
unnest(...)`` through asyncpg, outside any transaction. A batch that fails is
retried write by write, so one bad write (a stale move) sinks no other.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from .failures import DB_ERRORS, translated
from .tables import moves_t

#: the statement of one move (``Games.add_move``): a batch of them alone takes the fast path
INSERT_MOVE = insert(moves_t)
#: a batch of moves in one statement on PostgreSQL (``_insert_moves``): one array per column
_INSERT_MOVES_PG = (f"INSERT INTO {moves_t.name} ({', '.join(c.name for c in moves_t.columns)}) SELECT * FROM "
                    "unnest($1::varchar[], $2::int[], $3::int[], $4::varchar[], $5::varchar[], $6::float8[])")


@dataclass
class _Write:
    statements: list[tuple[Any, Any]]
    done: asyncio.Future[None]


class GroupCommit:
    """Queued writes, committed in batches by one task on ``engine`` (``start`` it, ``stop`` it)."""

    def __init__(self, engine: AsyncEngine, is_sqlite: bool) -> None:
        self.engine = engine
        self.is_sqlite = is_sqlite
        self._queue: asyncio.Queue[_Write] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    @property
    def pending(self) -> int:
        """Writes queued and not yet taken into a batch."""
        return self._queue.qsize()

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None

    async def write(self, *statements: tuple[Any, Any], stale: bool = False) -> None:
        """Run ``(statement, params)`` pairs in one transaction (shared with other writes); return once committed.

        Raises a ``StoreError`` (``StaleMove`` for a taken key when ``stale``) and then nothing of it was written.
        """
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Write(list(statements), done))
        try:
            await done
        except DB_ERRORS as exc:
            raise translated(exc, stale) from None

    async def _loop(self) -> None:
        """Commit queued writes in batches, on one connection kept for the purpose (fewer round trips)."""
        conn: AsyncConnection | None = None
        driver: Any = None  # conn's asyncpg connection (PostgreSQL), for the batches of moves
        try:
            while True:
                batch = [await self._queue.get()]
                while not self._queue.empty() and len(batch) < 500:
                    batch.append(self._queue.get_nowait())
                statements = [s for w in batch for s in w.statements]
                try:
                    if conn is None:
                        conn = await self.engine.connect()
                    if not self.is_sqlite and all(stmt is INSERT_MOVE for stmt, _ in statements):
                        if driver is None:
                            driver = (await conn.get_raw_connection()).driver_connection
                        await _insert_moves(driver, [params for _, params in statements])
                    else:
                        async with conn.begin():
                            await execute(conn, _merged(statements))
                except Exception:
                    # A lost connection or one bad write must not sink the others: retry each on its own.
                    if conn is not None:
                        await _discard(conn)
                        conn = driver = None
                    for w in batch:
                        try:
                            async with self.engine.begin() as single:
                                await execute(single, w.statements)
                        except Exception as exc:
                            if not w.done.done():
                                w.done.set_exception(exc)
                        else:
                            if not w.done.done():
                                w.done.set_result(None)
                    continue
                for w in batch:
                    if not w.done.done():
                        w.done.set_result(None)
        finally:
            if conn is not None:
                await _discard(conn)


async def _discard(conn: AsyncConnection) -> None:
    try:
        await conn.close()
    except Exception:  # already broken: nothing left to release
        pass


def _merged(statements: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """Fold runs of the same statement with one row each into one executemany (the moves of a batch)."""
    out: list[tuple[Any, Any]] = []
    for stmt, params in statements:
        if out and out[-1][0] is stmt and isinstance(params, dict) and isinstance(out[-1][1], list):
            out[-1][1].append(params)
        else:
            out.append((stmt, [params] if isinstance(params, dict) else params))
    return out


async def _insert_moves(driver: Any, rows: list[dict[str, Any]]) -> None:
    """The usual batch, moves only, on PostgreSQL: one INSERT of them all through asyncpg, outside any
    transaction (one statement is atomic): one round trip instead of three (BEGIN, the rows, COMMIT) and no
    SQL compiled per batch: less than half the processor time per move of the same batch through SQLAlchemy
    in a transaction (batches of five moves on this machine). A failure stores none of them (the
    caller then retries each move on its own, through SQLAlchemy, which names the stale one)."""
    columns = [[row[c.name] for row in rows] for c in moves_t.columns]
    await driver.execute(_INSERT_MOVES_PG, *columns)


async def execute(conn: AsyncConnection, statements: Sequence[tuple[Any, Any]]) -> None:
    for stmt, params in statements:
        if params is None:
            await conn.execute(stmt)
        else:
            await conn.execute(stmt, params)
