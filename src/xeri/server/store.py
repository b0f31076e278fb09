"""The server's database: tables, seats, moves and results, through SQLAlchemy's async engine.

One code path serves SQLite (aiosqlite, the default) and PostgreSQL
(asyncpg). Writes of moves go through a group commit: concurrent writers
share one transaction, and each awaits the commit before its move is
announced, so whatever a client saw survives a restart.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from ..errors import XeriError
from ..paths import data_dir

#: a table's row, its seats and its moves
Loaded = tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]

metadata = MetaData()

tables_t = Table(
    "xeri_tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("title", String(100), nullable=False, default=""),
    Column("status", String(16), nullable=False, index=True),
    Column("ruleset", Text, nullable=False),
    Column("turn_timer", Float),
    Column("takeover_after", Float),
    Column("takeover_level", String(64), nullable=False),
    Column("private", Boolean, nullable=False, default=False),
    # 64-bit unsigned seeds do not fit a signed BIGINT: kept as decimal text.
    Column("match_seed", String(24), nullable=False),
    Column("salt_key", String(64), nullable=False),
    Column("first_dealer", Integer, nullable=False, default=0),
    Column("names", Text),
    Column("created_at", Float, nullable=False),
    Column("started_at", Float),
    Column("finished_at", Float, index=True),
    Column("result", Text),
    Column("record", Text),
)

seats_t = Table(
    "xeri_seats", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("human", Boolean, nullable=False),
    Column("bot_level", String(64)),
    Column("name", String(64)),
    Column("token_hash", String(64)),
    Column("left", Boolean, nullable=False, default=False),
)

moves_t = Table(
    "xeri_moves", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("card", String(2), nullable=False),
    Column("auto", String(16)),
    Column("at", Float, nullable=False),
)

results_t = Table(
    "xeri_results", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(64), nullable=False, index=True),
    Column("human", Boolean, nullable=False),
    Column("side", Integer, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("points", Integer, nullable=False),
    Column("xeris", Integer, nullable=False),
    Column("jack_xeris", Integer, nullable=False),
    Column("finished_at", Float, nullable=False),
)


_INSERT_MOVE = insert(moves_t)


class DatabaseURLError(XeriError):
    """A --db value that names no supported database."""


def normalize_url(db: str | None) -> str:
    """``None`` -> SQLite in the data dir; a path -> SQLite there; ``postgresql://`` -> asyncpg."""
    if not db:
        return f"sqlite+aiosqlite:///{data_dir() / 'server.sqlite3'}"
    if "://" not in db:
        return f"sqlite+aiosqlite:///{Path(db).expanduser().resolve()}"
    try:
        url = make_url(db)
    except ArgumentError:
        raise DatabaseURLError(f"cannot read the database URL {db!r}") from None
    backend = url.get_backend_name()
    if backend == "sqlite":
        return str(url.set(drivername="sqlite+aiosqlite"))
    if backend in ("postgresql", "postgres"):
        return url.set(drivername="postgresql+asyncpg").render_as_string(hide_password=False)
    raise DatabaseURLError(f"unsupported database {backend!r}: use sqlite:///PATH or postgresql://...")


@dataclass
class _Write:
    statements: list[tuple[Any, Any]]
    done: asyncio.Future[None]


class Store:
    """Async access to the database; ``open()`` before use, ``close()`` after."""

    def __init__(self, url: str | None = None) -> None:
        self.url = normalize_url(url)
        self.engine: AsyncEngine | None = None
        self._queue: asyncio.Queue[_Write] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self._checkpointer: asyncio.Task[None] | None = None

    @property
    def is_sqlite(self) -> bool:
        return self.url.startswith("sqlite")

    async def open(self) -> None:
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            path = make_url(self.url).database
            if path:
                os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        else:
            kwargs.update(pool_size=10, max_overflow=10)
        self.engine = create_async_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        async with self.engine.begin() as conn:
            await conn.run_sync(metadata.create_all)
        self._writer = asyncio.create_task(self._write_loop())
        if self.is_sqlite:
            self._checkpointer = asyncio.create_task(self._checkpoint_loop())

    async def close(self) -> None:
        for task in (self._writer, self._checkpointer):
            if task is not None:
                task.cancel()
                try:
                    await task
                except asyncio.CancelledError:
                    pass
        self._writer = self._checkpointer = None
        if self.engine is not None:
            await self.engine.dispose()
            self.engine = None

    async def _checkpoint_loop(self, every: float = 2.0) -> None:
        """Copy SQLite's write-ahead log into the database now and then, beside the writer, not in its way."""
        assert self.engine is not None
        while True:
            await asyncio.sleep(every)  # a period, not synchronisation
            try:
                async with self.engine.connect() as conn:
                    await conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception:  # a busy database: try again next time
                continue

    # --- writing: group commit ------------------------------------------------

    async def write(self, *statements: tuple[Any, Any]) -> None:
        """Run ``(statement, params)`` pairs in a shared transaction; return once committed."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Write(list(statements), done))
        await done

    async def _write_loop(self) -> None:
        """Commit queued writes in batches, on one connection kept for the purpose (fewer round trips)."""
        assert self.engine is not None
        conn: AsyncConnection | None = None
        try:
            while True:
                batch = [await self._queue.get()]
                while not self._queue.empty() and len(batch) < 500:
                    batch.append(self._queue.get_nowait())
                try:
                    if conn is None:
                        conn = await self.engine.connect()
                    async with conn.begin():
                        await _execute(conn, _merged([s for w in batch for s in w.statements]))
                except Exception:
                    # A lost connection or one bad write must not sink the others: retry each on its own.
                    if conn is not None:
                        await _discard(conn)
                        conn = None
                    for w in batch:
                        try:
                            async with self.engine.begin() as single:
                                await _execute(single, w.statements)
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

    # --- statements ----------------------------------------------------------

    async def create_table(self, row: dict[str, Any], seats: Sequence[dict[str, Any]]) -> None:
        await self.write((insert(tables_t), row), (insert(seats_t), list(seats)))

    async def update_table(self, table_id: str, **values: Any) -> None:
        await self.write((update(tables_t).where(tables_t.c.id == table_id).values(**values), None))

    async def update_seat(self, table_id: str, seat: int, **values: Any) -> None:
        stmt = update(seats_t).where(seats_t.c.table_id == table_id, seats_t.c.seat == seat).values(**values)
        await self.write((stmt, None))

    async def add_move(self, table_id: str, idx: int, seat: int, card: str, auto: str | None, at: float) -> None:
        row = {"table_id": table_id, "idx": idx, "seat": seat, "card": card, "auto": auto, "at": at}
        await self.write((_INSERT_MOVE, row))

    async def finish(self, table_id: str, values: dict[str, Any], results: Sequence[dict[str, Any]]) -> None:
        stmts: list[tuple[Any, Any]] = [(update(tables_t).where(tables_t.c.id == table_id).values(**values), None)]
        if results:
            stmts.append((insert(results_t), list(results)))
        await self.write(*stmts)

    # --- reading --------------------------------------------------------------

    async def _rows(self, stmt: Any) -> list[dict[str, Any]]:
        assert self.engine is not None
        async with self.engine.connect() as conn:
            result = await conn.execute(stmt)
            return [dict(r._mapping) for r in result]

    async def load_table(self, table_id: str) -> Loaded | None:
        """A table's row, its seats and its moves in order; None if there is no such table."""
        assert self.engine is not None
        async with self.engine.connect() as conn:
            return await _load(conn, table_id)

    async def unfinished_ids(self) -> list[str]:
        rows = await self._rows(select(tables_t.c.id).where(tables_t.c.status.in_(("waiting", "playing"))))
        return [r["id"] for r in rows]

    async def finished_matches(self, player: str | None, limit: int) -> list[dict[str, Any]]:
        stmt = select(tables_t.c.id, tables_t.c.title, tables_t.c.ruleset, tables_t.c.names, tables_t.c.result,
                      tables_t.c.finished_at).where(tables_t.c.status == "finished")
        if player:
            ids = select(results_t.c.table_id).where(func.lower(results_t.c.name) == player.lower(),
                                                     results_t.c.human.is_(True))
            stmt = stmt.where(tables_t.c.id.in_(ids))
        return await self._rows(stmt.order_by(tables_t.c.finished_at.desc()).limit(limit))

    async def record_text(self, table_id: str) -> tuple[str, str | None] | None:
        rows = await self._rows(select(tables_t.c.status, tables_t.c.record).where(tables_t.c.id == table_id))
        return (rows[0]["status"], rows[0]["record"]) if rows else None

    async def player_stats(self, name: str | None, limit: int = 50) -> list[dict[str, Any]]:
        r = results_t.c
        key = func.lower(r.name)
        stmt = (
            select(func.min(r.name).label("name"), func.count().label("games"),
                   func.sum(func.cast(r.won, Integer)).label("wins"), func.sum(r.points).label("points"),
                   func.sum(r.xeris).label("xeris"), func.sum(r.jack_xeris).label("jack_xeris"))
            .where(r.human.is_(True)).group_by(key)
        )
        if name is not None:
            stmt = stmt.where(key == name.lower())
        else:
            stmt = stmt.order_by(func.sum(func.cast(r.won, Integer)).desc(), func.count().desc()).limit(limit)
        return [{k: (int(v) if k != "name" and v is not None else v) for k, v in row.items()}
                for row in await self._rows(stmt)]


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


async def _execute(conn: AsyncConnection, statements: Sequence[tuple[Any, Any]]) -> None:
    for stmt, params in statements:
        if params is None:
            await conn.execute(stmt)
        else:
            await conn.execute(stmt, params)


async def _load(conn: AsyncConnection, table_id: str) -> Loaded | None:
    rows = (await conn.execute(select(tables_t).where(tables_t.c.id == table_id))).all()
    if not rows:
        return None
    seats = (await conn.execute(select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat))).all()
    moves = (await conn.execute(select(moves_t).where(moves_t.c.table_id == table_id).order_by(moves_t.c.idx))).all()
    return dict(rows[0]._mapping), [dict(s._mapping) for s in seats], [dict(m._mapping) for m in moves]


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=5000")
    # Commits never checkpoint (the fsync would stall every move behind it); _checkpoint_loop does.
    cur.execute("PRAGMA wal_autocheckpoint=0")
    cur.close()


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
