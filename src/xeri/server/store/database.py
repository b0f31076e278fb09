"""The server's database connection: one code path for SQLite (aiosqlite, the default) and PostgreSQL (asyncpg).

``Database`` opens the engines, creates the schema (server.store.tables), and
gives its parts (games, history, leases) their transactions: reads, the group
commit of writes (server.store.writer), and the lease loop's own connection.

This package is the only part of the server that imports SQLAlchemy
(tests/server/store/test_server_store.py checks it): the rest sees typed rows (dataclasses)
and typed errors (``StoreError``: ``StaleMove``, ``StoreUnavailable``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import event, func, literal, select
from sqlalchemy.exc import IntegrityError, ProgrammingError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from .. import metrics
from .failures import DB_ERRORS, StoreUnavailable, translated
from .sqlite import OwnerLock, checkpoint_loop, pragmas
from .urls import normalize_url, sqlite_path
from .writer import GroupCommit


class Database:
    """Async access to the database; ``open()`` before use, ``close()`` after."""

    def __init__(self, url: str | None = None) -> None:
        self.url = normalize_url(url)
        self.engine: AsyncEngine | None = None
        self._writer: GroupCommit | None = None
        self._checkpointer: asyncio.Task[None] | None = None
        self._owner: OwnerLock | None = None
        self._lease_engine: AsyncEngine | None = None
        #: upgrade an older schema on open (server.store.migrations; `xeri serve --auto-migrate`), else refuse it
        self.auto_migrate = False
        #: hold the OS lock of a SQLite file (a server does; `xeri admin`, beside a running server, does not)
        self.exclusive = True
        #: (from, to) when open() made or upgraded the schema
        self.schema_change: tuple[str | None, str] | None = None

    @property
    def pending_writes(self) -> int:
        """Writes waiting for the group commit (server.metrics)."""
        return self._writer.pending if self._writer is not None else 0

    @property
    def is_sqlite(self) -> bool:
        return self.url.startswith("sqlite")

    async def open(self) -> None:
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            path = sqlite_path(self.url)
            if path:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                if self._owner is None and self.exclusive:
                    owner = OwnerLock(path)
                    owner.acquire()
                    self._owner = owner
        else:
            kwargs.update(pool_size=10, max_overflow=10)
            # The lease loop's own connection (server.cluster.ownership): a renewal must never queue behind a burst
            # of other queries (a thousand players connecting at once), or the leases lapse and the tables move.
            self._lease_engine = create_async_engine(self.url, pool_size=1, max_overflow=1)
        self.engine = create_async_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine.sync_engine, "connect", pragmas)
        from .migrations import prepare_schema  # made, checked or upgraded (Alembic revisions)

        for attempt in range(3):
            try:
                async with self.engine.begin() as conn:
                    self.schema_change = await conn.run_sync(prepare_schema, self.auto_migrate)
                break
            except DB_ERRORS as exc:
                # Several processes creating the same tables at once (a cluster starting) collide on a
                # name or a key: one of them won, so look again. A database that is away fails each time.
                if attempt == 2 or not isinstance(exc, (IntegrityError, ProgrammingError)):
                    raise translated(exc) from None
        self._writer = GroupCommit(self.engine, self.is_sqlite)
        self._writer.start()
        if self.is_sqlite:
            self._checkpointer = asyncio.create_task(checkpoint_loop(self.engine))

    async def close(self) -> None:
        if self._writer is not None:
            await self._writer.stop()
            self._writer = None
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            try:
                await self._checkpointer
            except asyncio.CancelledError:
                pass
            self._checkpointer = None
        if self.engine is not None:
            await self.engine.dispose()
            self.engine = None
        if self._lease_engine is not None:
            await self._lease_engine.dispose()
            self._lease_engine = None
        if self._owner is not None:
            self._owner.release()
            self._owner = None

    # --- transactions -----------------------------------------------------------------

    @metrics.timed_store("write")
    async def write(self, *statements: tuple[Any, Any], stale: bool = False) -> None:
        """Run ``(statement, params)`` pairs in one transaction, shared with other writes (server.store.writer)."""
        if self._writer is None:
            raise StoreUnavailable("the database is not open")
        await self._writer.write(*statements, stale=stale)

    @contextlib.asynccontextmanager
    async def _reading(self) -> AsyncIterator[AsyncConnection]:
        if self.engine is None:
            raise StoreUnavailable("the database is not open")
        try:
            async with self.engine.connect() as conn:
                yield conn
        except DB_ERRORS as exc:
            raise translated(exc) from None

    @metrics.timed_store("read")
    async def _rows(self, stmt: Any) -> list[dict[str, Any]]:
        async with self._reading() as conn:
            result = await conn.execute(stmt)
            return [dict(r._mapping) for r in result]

    @contextlib.asynccontextmanager
    async def _direct(self) -> AsyncIterator[AsyncConnection]:
        """A transaction of its own, beside the group commit (leases must not wait behind moves)."""
        if self.engine is None:
            raise StoreUnavailable("the database is not open")
        try:
            async with self.engine.begin() as conn:
                yield conn
        except DB_ERRORS as exc:
            raise translated(exc) from None

    @contextlib.asynccontextmanager
    async def _leasing(self) -> AsyncIterator[AsyncConnection]:
        """A transaction on the lease loop's own connection (PostgreSQL; else as ``_direct``)."""
        if self._lease_engine is None:
            async with self._direct() as conn:
                yield conn
            return
        try:
            async with self._lease_engine.begin() as conn:
                yield conn
        except DB_ERRORS as exc:
            raise translated(exc) from None

    def _now(self) -> Any:
        """The database's clock in seconds since the epoch: one clock for every process."""
        if self.is_sqlite:
            return (func.julianday("now") - 2440587.5) * 86400.0
        return func.extract("epoch", func.clock_timestamp())

    async def ping(self) -> None:
        """Raise ``StoreUnavailable`` unless the database answers (readiness checks)."""
        await self._rows(select(literal(1)))
