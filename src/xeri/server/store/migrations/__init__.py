"""The database schema's revisions (Alembic): made, checked and upgraded here, and nowhere else.

Each revision is a file in ``versions/``, shipped with the package. ``0001`` (the baseline) is exactly the schema
that ``xeri serve`` made with ``metadata.create_all`` before migrations existed; a database made then has no
version table and counts as ``0001``. The revision a database is at is kept in ``xeri_schema_version``.

- An empty database is made at the head in one go (``create_all``, then stamped: Alembic's recipe for a new
  database), and tests/server/store/migrations/test_server_migrations.py checks that this is the schema the
  revisions make.
- A database at the head is used as it is.
- An older one is upgraded only when asked: ``xeri db upgrade``, or ``xeri serve --auto-migrate`` (the default
  for SQLite, which one process owns). Otherwise the store refuses to open it (:class:`SchemaOutdated`), saying
  to run ``xeri db upgrade``.
- One at a revision this code does not know (made by a newer xeri) is refused (:class:`SchemaUnknown`).

On PostgreSQL all of it runs in one transaction under an advisory lock, so processes starting at once on a fresh
database (a cluster) make it once, and a failed upgrade changes nothing.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Column, MetaData, PrimaryKeyConstraint, String, Table, inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from ..failures import DB_ERRORS as _DB_ERRORS
from ..failures import StoreError
from ..failures import translated as _translated
from ..urls import normalize_url

#: the first revision: the schema of the servers before migrations (no version table)
BASELINE = "0001"
#: the revision this code needs (tests/server/store/migrations/test_server_migrations.py checks it is the head of
#: versions/)
HEAD = "0005_look_keys"
#: where Alembic keeps the revision a database is at
VERSION_TABLE = "xeri_schema_version"
#: the PostgreSQL advisory lock held while the schema is made or changed ("xeri" in ASCII)
LOCK_KEY = 0x78657269
HERE = Path(__file__).resolve().parent


class SchemaError(StoreError):
    """The database's schema is not the one this code needs; nothing was changed."""


class SchemaOutdated(SchemaError):
    """The schema is at an older revision than this code's: ``xeri db upgrade`` brings it up."""

    def __init__(self, revision: str) -> None:
        self.revision = revision
        super().__init__(f"the database schema is at revision {revision}, older than this xeri's {HEAD}: "
                         "run `xeri db upgrade` first (docs/operations.md)")


class SchemaUnknown(SchemaError):
    """The schema is at a revision this code does not know: a newer xeri made it."""


@dataclass(frozen=True)
class SchemaState:
    """Where a database's schema is."""

    #: the revision, or None for an empty database
    revision: str | None
    #: False for a database made before migrations (no version table: the baseline)
    stamped: bool

    @property
    def describe(self) -> str:
        if self.revision is None:
            return "empty (no xeri tables yet)"
        note = " (head)" if self.revision == HEAD else (" (older than this xeri's head " + HEAD + ")"
                                                         if known(self.revision) else " (unknown to this xeri)")
        if not self.stamped:
            note += ", made before migrations (no version table)"
        return self.revision + note


def target_metadata() -> MetaData:
    """Every table of the schema (the store's and the operator's)."""
    from ..tables import metadata  # the store's tables and the operator's (server.ops.operator_store)

    return metadata


def _version_table() -> Table:
    """The version table as Alembic makes it."""
    return Table(VERSION_TABLE, MetaData(), Column("version_num", String(32), nullable=False),
                 PrimaryKeyConstraint("version_num", name=f"{VERSION_TABLE}_pkc"))


def _config(connection: Connection) -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.attributes["connection"] = connection
    return cfg


def _script() -> Any:
    from alembic.script import ScriptDirectory

    return ScriptDirectory(str(HERE))


def revisions() -> list[tuple[str, str]]:
    """(revision, its first docstring line), the oldest first."""
    out = [(s.revision, (s.doc or "").strip().splitlines()[0] if s.doc else "") for s in _script().walk_revisions()]
    return list(reversed(out))


def known(revision: str) -> bool:
    return revision in {r for r, _doc in revisions()}


def _order(revision: str) -> int:
    """A known revision's place in the line of revisions (they form one line: no branches)."""
    return [r for r, _doc in revisions()].index(revision)


def state(conn: Connection) -> SchemaState:
    """Which revision the database on ``conn`` is at."""
    names = set(inspect(conn).get_table_names())
    if VERSION_TABLE in names:
        rows = conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalars().all()
        if len(rows) == 1:
            return SchemaState(str(rows[0]), True)
        if rows:
            raise SchemaUnknown(f"the database's {VERSION_TABLE} holds several revisions ({', '.join(rows)})")
    if "xeri_tables" in names:
        return SchemaState(BASELINE, False)
    return SchemaState(None, False)


def _lock(conn: Connection) -> None:
    """Hold the schema's lock to the end of this transaction (PostgreSQL; one process owns a SQLite file)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})


def prepare_schema(conn: Connection, auto_migrate: bool = False) -> tuple[str | None, str] | None:
    """Make an empty database, accept one at the head, upgrade an older one when ``auto_migrate``.

    Returns (from, to) when the schema was made or upgraded, None when it was at the head already.
    Raises :class:`SchemaOutdated` (an older revision, not ``auto_migrate``) or :class:`SchemaUnknown`.
    """
    _lock(conn)
    found = state(conn)
    if found.revision == HEAD:
        return None
    if found.revision is None:
        # Alembic's recipe for a new database (create_all, then stamp), without importing Alembic: a server's
        # first start stays quick. tests/server/store/migrations/test_server_migrations.py checks it equals what the
        # revisions make.
        target_metadata().create_all(conn)
        version = _version_table()
        version.create(conn)
        conn.execute(version.insert().values(version_num=HEAD))
        return None, HEAD
    if not known(found.revision):
        raise SchemaUnknown(f"the database schema is at revision {found.revision}, which this xeri does not know "
                            f"(its newest is {HEAD}): a newer xeri made it; run that one, or its `xeri db downgrade "
                            f"{HEAD}`")
    if not auto_migrate:
        raise SchemaOutdated(found.revision)
    return upgrade(conn, "head")


def upgrade(conn: Connection, target: str = "head") -> tuple[str | None, str]:
    """Upgrade to ``target`` (a revision, or "head"); (from, to). An empty database is made at the head as a
    server's first start makes it, or brought to an older ``target`` revision by revision."""
    from alembic import command

    if target != "head" and not known(target):
        raise SchemaError(f"no schema revision {target!r}: give one of {', '.join(r for r, _d in revisions())}")
    _lock(conn)
    found = state(conn)
    cfg = _config(conn)
    if found.revision is None:
        if target == "head":
            made = prepare_schema(conn)
            assert made is not None
            return made
        command.upgrade(cfg, target)
        return None, _now_at(conn)
    if not known(found.revision):
        raise SchemaUnknown(f"the database schema is at revision {found.revision}, which this xeri does not know "
                            f"(its newest is {HEAD}): a newer xeri made it")
    if target != "head" and _order(target) < _order(found.revision):
        raise SchemaError(f"revision {target} is older than the database's {found.revision}: use `xeri db downgrade`")
    if not found.stamped:
        command.stamp(cfg, BASELINE)  # made before migrations: it is the baseline
    command.upgrade(cfg, target)
    return found.revision, _now_at(conn)


def downgrade(conn: Connection, target: str) -> tuple[str | None, str]:
    """Downgrade to ``target`` (a revision id, never below the baseline: that would drop every table); (from, to)."""
    from alembic import command

    if not known(target):
        raise SchemaError(f"no schema revision {target!r}: give one of {', '.join(r for r, _d in revisions())}")
    _lock(conn)
    found = state(conn)
    if found.revision is None:
        raise SchemaError("the database is empty: there is nothing to downgrade")
    cfg = _config(conn)
    if not known(found.revision):
        raise SchemaUnknown(f"the database schema is at revision {found.revision}, which this xeri does not know: "
                            "downgrade it with the xeri that made it")
    if _order(target) > _order(found.revision):
        raise SchemaError(f"revision {target} is newer than the database's {found.revision}: use `xeri db upgrade`")
    if not found.stamped:
        command.stamp(cfg, BASELINE)
    command.downgrade(cfg, target)
    return found.revision, _now_at(conn)


def _now_at(conn: Connection) -> str:
    at = state(conn).revision
    assert at is not None
    return at


async def on_database(url: str | None, fn: Any, *args: Any) -> Any:
    """``fn(connection, *args)`` in one transaction on the database at ``url`` (a ``--db`` value)."""
    engine = create_async_engine(normalize_url(url))
    try:
        async with engine.begin() as conn:
            return await conn.run_sync(fn, *args)
    except _DB_ERRORS as exc:
        raise _translated(exc) from None
    finally:
        await engine.dispose()


def run(url: str | None, fn: Any, *args: Any) -> Any:
    """:func:`on_database` from synchronous code (the ``xeri db`` commands)."""
    return asyncio.run(on_database(url, fn, *args))


def counts(conn: Connection) -> tuple[int, int] | None:
    """(tables, finished matches) of a xeri database; None for one without xeri tables."""
    if "xeri_tables" not in set(inspect(conn).get_table_names()):
        return None
    tables = conn.execute(text("SELECT count(*) FROM xeri_tables")).scalar_one()
    finished = conn.execute(text("SELECT count(*) FROM xeri_tables WHERE status = 'finished'")).scalar_one()
    return int(tables), int(finished)


#: tables a copy leaves out: who owns what and which processes are up, true only of the running servers
RUNTIME_TABLES = ("xeri_leases", "xeri_nodes")


async def copy_database(source: str | None, target: str, batch: int = 1000) -> dict[str, int]:
    """Copy every row of the database at ``source`` into the empty one at ``target`` (made at the head here): to
    move from one SQLite process to several on PostgreSQL. Both at this xeri's schema; rows per table copied."""
    from sqlalchemy import func, insert, select

    src = create_async_engine(normalize_url(source))
    dst = create_async_engine(normalize_url(target))
    counts: dict[str, int] = {}
    try:
        async with src.connect() as reading:
            found = await reading.run_sync(state)
            if found.revision != HEAD:
                raise SchemaOutdated(found.revision or "none") if found.revision else SchemaError(
                    "the source database is empty: there is nothing to copy")
            async with dst.begin() as writing:
                await writing.run_sync(_lock)
                if (await writing.run_sync(state)).revision is not None:
                    raise SchemaError("the target database holds xeri tables already: copy into an empty one")
                await writing.run_sync(prepare_schema)
                for table in target_metadata().sorted_tables:
                    if table.name in RUNTIME_TABLES:
                        continue
                    counts[table.name] = 0
                    result = await reading.stream(select(table))
                    async for rows in result.mappings().partitions(batch):
                        await writing.execute(insert(table), [dict(r) for r in rows])
                        counts[table.name] += len(rows)
                if writing.dialect.name == "postgresql":  # the next action's id follows the copied ones
                    from ..tables import actions_t

                    top = (await writing.execute(select(func.max(actions_t.c.id)))).scalar()
                    if top is not None:
                        await writing.execute(text("SELECT setval(pg_get_serial_sequence('xeri_actions', 'id'), "
                                                   ":top)"), {"top": top})
    except _DB_ERRORS as exc:
        raise _translated(exc) from None
    finally:
        await src.dispose()
        await dst.dispose()
    return counts
