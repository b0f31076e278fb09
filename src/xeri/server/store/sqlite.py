"""SQLite's part: one process per database file (an OS lock), its pragmas, and its checkpoints.

Two processes on one SQLite file would each keep their own tables in memory and
both hand out the same seat, so the second one refuses to start. Commits never
checkpoint the write-ahead log (the fsync would stall every move behind it): a
loop beside the writer does.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from .failures import DatabaseInUse, StoreUnavailable


class OwnerLock:
    """An OS lock on ``<database>.lock``, held while this process serves a SQLite file.

    Two processes on one SQLite file would each keep their own tables in memory and both
    hand out the same seat; the second one refuses to start instead. The lock is released
    by ``release()`` or by the OS when the process ends (even by kill -9).
    """

    def __init__(self, database: str) -> None:
        self.path = database + ".lock"
        self._fd: int | None = None

    def acquire(self) -> None:
        try:
            import fcntl
        except ImportError:  # no fcntl (Windows): no lock, one process is the operator's to ensure
            return
        writable = True
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            writable = False  # a read-only folder: a lock file made earlier still locks
            try:
                fd = os.open(self.path, os.O_RDONLY)
            except OSError as exc:
                raise StoreUnavailable(f"cannot make the lock file {self.path}: {exc.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(fd, 32).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise DatabaseInUse(f"another process (pid {holder}) already serves {self.path[:-5]}: one server "
                                f"process per SQLite file; use PostgreSQL for several (docs/scaling.md)") from None
        if writable:
            os.ftruncate(fd, 0)
            os.write(fd, str(os.getpid()).encode())
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the lock
            self._fd = None


async def checkpoint_loop(engine: AsyncEngine, every: float = 2.0) -> None:
    """Copy SQLite's write-ahead log into the database now and then, beside the writer, not in its way."""
    while True:
        await asyncio.sleep(every)  # a period, not synchronisation
        try:
            async with engine.connect() as conn:
                await conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
        except Exception:  # a busy database: try again next time
            continue


def pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=5000")
    # Commits never checkpoint (the fsync would stall every move behind it); checkpoint_loop does.
    cur.execute("PRAGMA wal_autocheckpoint=0")
    cur.close()
