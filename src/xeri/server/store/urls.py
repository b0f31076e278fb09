"""Database URLs: what ``--db`` may say, and the form SQLAlchemy's async drivers take."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from ...paths import data_dir
from .failures import DatabaseURLError


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


def display_url(url: str) -> str:
    """A database URL fit to show: its password hidden."""
    return make_url(url).render_as_string(hide_password=True)


def sqlite_path(url: str) -> str | None:
    """The file of a SQLite URL (None for another database or an in-memory one)."""
    parsed = make_url(url)
    database = parsed.database
    if parsed.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return None
    if database.startswith("file:"):  # a URI filename (sqlite:///file:PATH?mode=ro&uri=true)
        database = database[5:].partition("?")[0]
        if not database or database == ":memory:" or parsed.query.get("mode") == "memory":
            return None
    return os.path.abspath(database)
