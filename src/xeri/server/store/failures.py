"""The store's typed errors: what a caller may catch, whatever the driver raised."""

from __future__ import annotations

import asyncio

from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from ...errors import XeriError


class StoreError(Exception):
    """A write or read the database did not do; nothing was changed by it."""


class StoreConflict(StoreError):
    """A row that another writer stored first (a unique key taken)."""


class StaleMove(StoreConflict):
    """Another process stored this version's move first: the move is stale."""


class StoreUnavailable(StoreError):
    """The database cannot be reached or written (down, read-only, full)."""


class DatabaseInUse(StoreUnavailable):
    """Another process serves this SQLite file: one process owns a SQLite database (several need PostgreSQL)."""


class DatabaseURLError(XeriError):
    """A --db value that names no supported database."""


def first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).strip()
    return (text.splitlines() or [type(exc).__name__])[0][:200]


def translated(exc: BaseException, stale: bool = False) -> StoreError:
    """A driver's exception as the store's typed error (``stale``: a taken key is a ``StaleMove``)."""
    if isinstance(exc, StoreError):
        return exc
    if isinstance(exc, IntegrityError):
        return (StaleMove if stale else StoreConflict)(first_line(exc))
    return StoreUnavailable(f"the database is unavailable: {first_line(exc)}")


#: what a driver raises when the database is away or refuses
DB_ERRORS = (SQLAlchemyError, OSError, ConnectionError, asyncio.TimeoutError)
