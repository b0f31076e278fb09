"""The server's database: tables, seats, moves and results, through SQLAlchemy's async engine.

One code path serves SQLite (aiosqlite, the default) and PostgreSQL
(asyncpg). Writes of moves go through a group commit: concurrent writers
share one transaction, and each awaits the commit before its move is
announced, so whatever a client saw survives a restart.

This is the only module that imports SQLAlchemy (tests/test_server_store.py
checks it): the rest of the server sees typed rows (dataclasses) and typed
errors (``StoreError``: ``StaleMove``, ``StoreUnavailable``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
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
    delete,
    event,
    func,
    insert,
    literal,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, ProgrammingError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from ..errors import XeriError
from ..paths import data_dir

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


# Several processes on one PostgreSQL (docs/scaling.md): who owns which table, and which processes are up.
leases_t = Table(
    "xeri_leases", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("owner", String(40), nullable=False),
    #: seconds since the epoch, by the database's clock (every process compares against the same clock)
    Column("until", Float, nullable=False),
)

nodes_t = Table(
    "xeri_nodes", metadata,
    Column("id", String(40), primary_key=True),
    Column("until", Float, nullable=False),
)


_INSERT_MOVE = insert(moves_t)
#: a batch of moves in one statement on PostgreSQL (``_insert_moves``): one array per column
_INSERT_MOVES_PG = (f"INSERT INTO {moves_t.name} ({', '.join(c.name for c in moves_t.columns)}) SELECT * FROM "
                    "unnest($1::varchar[], $2::int[], $3::int[], $4::varchar[], $5::varchar[], $6::float8[])")


# --- typed errors -------------------------------------------------------------


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


# --- typed rows -----------------------------------------------------------------


@dataclass
class TableRow:
    """One table as stored; ``ruleset``, ``names``, ``result`` and ``record`` are JSON text."""

    id: str
    status: str
    ruleset: str
    takeover_level: str
    match_seed: str
    salt_key: str
    created_at: float
    title: str = ""
    turn_timer: float | None = None
    takeover_after: float | None = None
    private: bool = False
    first_dealer: int = 0
    names: str | None = None
    started_at: float | None = None
    finished_at: float | None = None
    result: str | None = None
    record: str | None = None


@dataclass
class SeatRow:
    """One seat as stored: a bot (``bot_level``) or a person's (``name`` once joined)."""

    table_id: str
    seat: int
    human: bool
    bot_level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    left: bool = False


@dataclass
class MoveRow:
    """Move ``idx`` (0-based, the table's version before it) of a table."""

    table_id: str
    idx: int
    seat: int
    card: str
    auto: str | None
    at: float


@dataclass
class ResultRow:
    """One seat's result in a finished match (the players' statistics)."""

    table_id: str
    seat: int
    name: str
    human: bool
    side: int
    won: bool
    points: int
    xeris: int
    jack_xeris: int
    finished_at: float


@dataclass
class Finish:
    """The end of a match: written with its last move, in one transaction."""

    finished_at: float
    result: str
    record: str
    results: list[ResultRow] = field(default_factory=list)


@dataclass
class Start:
    """The start of a match: written with the seat that filled the table, in one transaction."""

    started_at: float
    names: str


@dataclass
class MatchRow:
    """A finished match as the history list needs it."""

    id: str
    title: str
    ruleset: str
    names: str | None
    result: str | None
    finished_at: float | None


@dataclass
class PlayerStats:
    """One person's totals over finished matches."""

    name: str
    games: int
    wins: int
    points: int
    xeris: int
    jack_xeris: int

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass
class LoadedTable:
    """A table's row, its seats in order and its moves in order."""

    table: TableRow
    seats: list[SeatRow]
    moves: list[MoveRow]


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


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).strip()
    return (text.splitlines() or [type(exc).__name__])[0][:200]


def _translated(exc: BaseException, stale: bool = False) -> StoreError:
    """A driver's exception as this module's typed error."""
    if isinstance(exc, StoreError):
        return exc
    if isinstance(exc, IntegrityError):
        return (StaleMove if stale else StoreConflict)(_first_line(exc))
    return StoreUnavailable(f"the database is unavailable: {_first_line(exc)}")


_DB_ERRORS = (SQLAlchemyError, OSError, ConnectionError, asyncio.TimeoutError)


@dataclass
class _Write:
    statements: list[tuple[Any, Any]]
    done: asyncio.Future[None]


def _row(value: Any) -> dict[str, Any]:
    """A row's columns (its fields are plain values: no deep copy as ``dataclasses.asdict`` makes, per move)."""
    return dict(vars(value))


class Store:
    """Async access to the database; ``open()`` before use, ``close()`` after."""

    def __init__(self, url: str | None = None) -> None:
        self.url = normalize_url(url)
        self.engine: AsyncEngine | None = None
        self._queue: asyncio.Queue[_Write] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self._checkpointer: asyncio.Task[None] | None = None
        self._owner: OwnerLock | None = None
        self._lease_engine: AsyncEngine | None = None

    @property
    def is_sqlite(self) -> bool:
        return self.url.startswith("sqlite")

    async def open(self) -> None:
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            path = sqlite_path(self.url)
            if path:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                if self._owner is None:
                    owner = OwnerLock(path)
                    owner.acquire()
                    self._owner = owner
        else:
            kwargs.update(pool_size=10, max_overflow=10)
            # The lease loop's own connection (server.ownership): a renewal must never queue behind a burst of
            # other queries (a thousand players connecting at once), or the leases lapse and the tables move.
            self._lease_engine = create_async_engine(self.url, pool_size=1, max_overflow=1)
        self.engine = create_async_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        for attempt in range(3):
            try:
                async with self.engine.begin() as conn:
                    await conn.run_sync(metadata.create_all)
                break
            except _DB_ERRORS as exc:
                # Several processes creating the same tables at once (a cluster starting) collide on a
                # name or a key: one of them won, so look again. A database that is away fails each time.
                if attempt == 2 or not isinstance(exc, (IntegrityError, ProgrammingError)):
                    raise _translated(exc) from None
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
        if self._lease_engine is not None:
            await self._lease_engine.dispose()
            self._lease_engine = None
        if self._owner is not None:
            self._owner.release()
            self._owner = None

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

    async def write(self, *statements: tuple[Any, Any], stale: bool = False) -> None:
        """Run ``(statement, params)`` pairs in one transaction (shared with other writes); return once committed.

        Raises a ``StoreError`` (``StaleMove`` for a taken key when ``stale``) and then nothing of it was written.
        """
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Write(list(statements), done))
        try:
            await done
        except _DB_ERRORS as exc:
            raise _translated(exc, stale) from None

    async def _write_loop(self) -> None:
        """Commit queued writes in batches, on one connection kept for the purpose (fewer round trips)."""
        assert self.engine is not None
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
                    if not self.is_sqlite and all(stmt is _INSERT_MOVE for stmt, _ in statements):
                        if driver is None:
                            driver = (await conn.get_raw_connection()).driver_connection
                        await _insert_moves(driver, [params for _, params in statements])
                    else:
                        async with conn.begin():
                            await _execute(conn, _merged(statements))
                except Exception:
                    # A lost connection or one bad write must not sink the others: retry each on its own.
                    if conn is not None:
                        await _discard(conn)
                        conn = driver = None
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
            stmts.append((insert(results_t), [_row(r) for r in finish.results]))
        return stmts

    async def create_table(self, table: TableRow, seats: Sequence[SeatRow]) -> None:
        """A new table and its seats (a creator's seat may be taken already, and the match started)."""
        await self.write((insert(tables_t), _row(table)), (insert(seats_t), [_row(s) for s in seats]))

    async def take_seat(self, table_id: str, seat: int, name: str, token_hash: str, start: Start | None) -> None:
        """A person joins ``seat``; with ``start``, the table that is now full starts in the same transaction."""
        stmts = [self._seat(table_id, seat, name=name, token_hash=token_hash)]
        if start is not None:
            stmts.append(self._table(table_id, status="playing", started_at=start.started_at, names=start.names))
        await self.write(*stmts)

    async def start(self, table_id: str, start: Start) -> None:
        await self.write(self._table(table_id, status="playing", started_at=start.started_at, names=start.names))

    async def free_seat(self, table_id: str, seat: int, close: bool) -> None:
        """A seat given up before the start; ``close`` closes the table too (nobody is left at it)."""
        stmts = [self._seat(table_id, seat, name=None, token_hash=None)]
        if close:
            stmts.append(self._table(table_id, status="closed"))
        await self.write(*stmts)

    async def close_table(self, table_id: str) -> None:
        """A table that waited too long for players is closed (server.limits ``waiting_ttl``)."""
        await self.write(self._table(table_id, status="closed"))

    async def leave_seat(self, table_id: str, seat: int) -> None:
        """A seat given up after the start: a bot plays it, and its token opens nothing any more."""
        await self.write(self._seat(table_id, seat, left=True, token_hash=None))

    async def add_move(self, move: MoveRow, finish: Finish | None = None) -> None:
        """Store a move (and, with ``finish``, the end of the match in the same transaction).

        Raises ``StaleMove`` if this version's move is stored already.
        """
        stmts: list[tuple[Any, Any]] = [(_INSERT_MOVE, _row(move))]
        if finish is not None:
            stmts += self._finish(move.table_id, finish)
        await self.write(*stmts, stale=True)

    async def finish(self, table_id: str, finish: Finish) -> None:
        """The end of a match whose last move is stored already (found so at startup)."""
        await self.write(*self._finish(table_id, finish))

    # --- reading --------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _reading(self) -> AsyncIterator[AsyncConnection]:
        if self.engine is None:
            raise StoreUnavailable("the database is not open")
        try:
            async with self.engine.connect() as conn:
                yield conn
        except _DB_ERRORS as exc:
            raise _translated(exc) from None

    async def _rows(self, stmt: Any) -> list[dict[str, Any]]:
        async with self._reading() as conn:
            result = await conn.execute(stmt)
            return [dict(r._mapping) for r in result]

    async def load_table(self, table_id: str) -> LoadedTable | None:
        """A table's row, its seats and its moves in order; None if there is no such table."""
        async with self._reading() as conn:
            return await _load(conn, table_id)

    async def unfinished_ids(self) -> list[str]:
        rows = await self._rows(select(tables_t.c.id).where(tables_t.c.status.in_(("waiting", "playing"))))
        return [r["id"] for r in rows]

    async def finished_matches(self, player: str | None, limit: int) -> list[MatchRow]:
        """The public finished matches, newest first: a private one is shown only to its seats (``access``)."""
        stmt = select(tables_t.c.id, tables_t.c.title, tables_t.c.ruleset, tables_t.c.names, tables_t.c.result,
                      tables_t.c.finished_at).where(tables_t.c.status == "finished", tables_t.c.private.is_(False))
        if player:
            ids = select(results_t.c.table_id).where(func.lower(results_t.c.name) == player.lower(),
                                                     results_t.c.human.is_(True))
            stmt = stmt.where(tables_t.c.id.in_(ids))
        return [MatchRow(**r) for r in await self._rows(stmt.order_by(tables_t.c.finished_at.desc()).limit(limit))]

    async def record_text(self, table_id: str) -> tuple[str, str | None] | None:
        """(status, record JSON) of a table; None if there is no such table."""
        rows = await self._rows(select(tables_t.c.status, tables_t.c.record).where(tables_t.c.id == table_id))
        return (rows[0]["status"], rows[0]["record"]) if rows else None

    async def access(self, table_id: str) -> tuple[str, bool, list[str]] | None:
        """(status, private, its seats' token hashes) of a table; None if there is no such table."""
        rows = await self._rows(select(tables_t.c.status, tables_t.c.private).where(tables_t.c.id == table_id))
        if not rows:
            return None
        hashes = await self._rows(select(seats_t.c.token_hash).where(seats_t.c.table_id == table_id,
                                                                     seats_t.c.token_hash.is_not(None)))
        return rows[0]["status"], bool(rows[0]["private"]), [h["token_hash"] for h in hashes]

    async def player_stats(self, name: str | None, limit: int = 50) -> list[PlayerStats]:
        """People's totals over public finished matches (a private match's results count for nobody to see)."""
        r = results_t.c
        key = func.lower(r.name)
        public = select(tables_t.c.id).where(tables_t.c.private.is_(False))
        stmt = (
            select(func.min(r.name).label("name"), func.count().label("games"),
                   func.sum(func.cast(r.won, Integer)).label("wins"), func.sum(r.points).label("points"),
                   func.sum(r.xeris).label("xeris"), func.sum(r.jack_xeris).label("jack_xeris"))
            .where(r.human.is_(True), r.table_id.in_(public)).group_by(key)
        )
        if name is not None:
            stmt = stmt.where(key == name.lower())
        else:
            stmt = stmt.order_by(func.sum(func.cast(r.won, Integer)).desc(), func.count().desc()).limit(limit)
        return [PlayerStats(name=row["name"], games=int(row["games"] or 0), wins=int(row["wins"] or 0),
                            points=int(row["points"] or 0), xeris=int(row["xeris"] or 0),
                            jack_xeris=int(row["jack_xeris"] or 0))
                for row in await self._rows(stmt)]


    # --- ownership leases (several processes; server.ownership) ---------------------

    def _now(self) -> Any:
        """The database's clock in seconds since the epoch: one clock for every process."""
        if self.is_sqlite:
            return (func.julianday("now") - 2440587.5) * 86400.0
        return func.extract("epoch", func.clock_timestamp())

    @contextlib.asynccontextmanager
    async def _direct(self) -> AsyncIterator[AsyncConnection]:
        """A transaction of its own, beside the group commit (leases must not wait behind moves)."""
        if self.engine is None:
            raise StoreUnavailable("the database is not open")
        try:
            async with self.engine.begin() as conn:
                yield conn
        except _DB_ERRORS as exc:
            raise _translated(exc) from None

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
        except _DB_ERRORS as exc:
            raise _translated(exc) from None

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

    async def ping(self) -> None:
        """Raise ``StoreUnavailable`` unless the database answers (readiness checks)."""
        await self._rows(select(literal(1)))

    async def listed_tables(self, statuses: Sequence[str], limit: int) -> list[tuple[TableRow, list[SeatRow]]]:
        """Public unfinished tables, the newest first, with their seats: the lobby of every process."""
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
        return [(TableRow(**r._mapping), seats[r._mapping["id"]]) for r in rows]


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


async def _execute(conn: AsyncConnection, statements: Sequence[tuple[Any, Any]]) -> None:
    for stmt, params in statements:
        if params is None:
            await conn.execute(stmt)
        else:
            await conn.execute(stmt, params)


async def _load(conn: AsyncConnection, table_id: str) -> LoadedTable | None:
    rows = (await conn.execute(select(tables_t).where(tables_t.c.id == table_id))).all()
    if not rows:
        return None
    seats = (await conn.execute(select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat))).all()
    moves = (await conn.execute(select(moves_t).where(moves_t.c.table_id == table_id).order_by(moves_t.c.idx))).all()
    return LoadedTable(TableRow(**rows[0]._mapping), [SeatRow(**s._mapping) for s in seats],
                       [MoveRow(**m._mapping) for m in moves])


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
