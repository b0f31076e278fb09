"""Backups of a server's database while it serves: ``xeri db backup FILE`` and ``xeri db restore FILE``.

- SQLite: the online backup API (``sqlite3.Connection.backup``) copies one consistent moment of the database
  while the server goes on writing (a reader of the write-ahead log holds no writer up). The backup is itself a
  SQLite file; restoring copies it back the same way.
- PostgreSQL: ``pg_dump --format=custom`` (one consistent snapshot, taken beside the servers) and
  ``pg_restore``, into a database that holds no xeri tables yet (or, with ``--force``, over one).

Either way a backup is written to ``FILE.part`` and renamed once whole, so a failed one never leaves a file that
looks like a backup. docs/operations.md says how to schedule them.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

from ...errors import XeriError

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_MAGIC = b"PGDMP"


class BackupError(XeriError):
    """A backup or restore that could not be made; nothing was changed (a half-written file is removed)."""


@dataclass(frozen=True)
class Done:
    """What a backup or restore did: the file and its size, and the finished matches it holds."""

    path: Path
    size: int
    tables: int
    finished: int


def kind_of(path: Path) -> str:
    """"sqlite" or "postgresql" for a backup file (by its first bytes); BackupError for anything else."""
    try:
        with path.open("rb") as f:
            head = f.read(16)
    except OSError as exc:
        raise BackupError(f"cannot read {path}: {exc.strerror}") from None
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(PG_MAGIC):
        return "postgresql"
    raise BackupError(f"{path} is not a backup made by `xeri db backup` (neither a SQLite file nor a pg_dump archive)")


def _counts(conn: sqlite3.Connection, where: str) -> tuple[int, int]:
    try:
        tables = conn.execute("SELECT count(*) FROM xeri_tables").fetchone()[0]
        finished = conn.execute("SELECT count(*) FROM xeri_tables WHERE status = 'finished'").fetchone()[0]
    except sqlite3.DatabaseError:
        raise BackupError(f"{where} is not a xeri database (it has no xeri_tables)") from None
    return int(tables), int(finished)


def _part(dest: Path) -> Path:
    return dest.with_name(dest.name + ".part")


def _check_dest(dest: Path, force: bool) -> None:
    if dest.exists() and not force:
        raise BackupError(f"{dest} exists already: give another file, or --force to replace it")
    if not dest.parent.is_dir():
        raise BackupError(f"there is no folder {dest.parent}")


def backup_sqlite(database: str, dest: Path, force: bool = False) -> Done:
    """Copy the SQLite database at ``database`` (a file path) to ``dest`` while a server may be writing it."""
    _check_dest(dest, force)
    if not os.path.isfile(database):
        raise BackupError(f"there is no database at {database}")
    part = _part(dest)
    part.unlink(missing_ok=True)
    try:
        with contextlib.closing(sqlite3.connect(database, timeout=10)) as src:
            counts = _counts(src, database)
            with contextlib.closing(sqlite3.connect(part)) as out:
                src.backup(out)  # one consistent moment, page by page; the server's writes go on meanwhile
        os.replace(part, dest)
    except sqlite3.Error as exc:
        part.unlink(missing_ok=True)
        raise BackupError(f"the backup of {database} failed: {exc}") from None
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    return Done(dest, dest.stat().st_size, *counts)


def restore_sqlite(source: Path, database: str, force: bool = False) -> Done:
    """Copy the backup ``source`` into the SQLite database at ``database``, which no server may be serving.

    (The caller holds the database's owner lock: server.store.OwnerLock.)
    """
    if kind_of(source) != "sqlite":
        raise BackupError(f"{source} is a PostgreSQL backup: restore it with --db postgresql://...")
    with contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as src:
        counts = _counts(src, str(source))
        if os.path.exists(database) and os.path.getsize(database) > 0 and not force:
            with contextlib.closing(sqlite3.connect(database, timeout=10)) as existing:
                names = {r[0] for r in existing.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if "xeri_tables" in names:
                raise BackupError(f"{database} holds a xeri database already: restore into a new one, or pass "
                                  "--force to replace it")
        try:
            with contextlib.closing(sqlite3.connect(database, timeout=10)) as out:
                src.backup(out)
        except sqlite3.Error as exc:
            raise BackupError(f"the restore into {database} failed: {exc}") from None
    return Done(Path(database), os.path.getsize(database), *counts)


# --- PostgreSQL --------------------------------------------------------------------


def _tool(name: str) -> str:
    found = shutil.which(name) or next((str(p) for p in sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
                                        [-1:]), None)
    if found is None:
        raise BackupError(f"{name} is not installed: it comes with PostgreSQL's client (Debian: apt-get install "
                          "postgresql-client)")
    return found


def libpq(url: str) -> tuple[str, dict[str, str]]:
    """A ``--db`` URL as pg_dump takes it (no driver, no password) and the environment with the password."""
    parts = urlsplit(url)
    scheme = parts.scheme.split("+", 1)[0]
    if scheme == "postgres":
        scheme = "postgresql"
    env = dict(os.environ)
    netloc = parts.netloc
    if "@" in netloc:
        auth, host = netloc.rsplit("@", 1)
        user, _, password = auth.partition(":")
        if password:
            env["PGPASSWORD"] = unquote(password)
        netloc = f"{user}@{host}" if user else host
    return urlunsplit((scheme, netloc, parts.path, parts.query, "")), env


def _run(argv: list[str], env: dict[str, str], what: str) -> None:
    try:
        done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=3600)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise BackupError(f"{what} failed: {exc}") from None
    if done.returncode != 0:
        first = next((line for line in done.stderr.splitlines() if line.strip()), f"exit code {done.returncode}")
        raise BackupError(f"{what} failed: {first.strip()[:300]}")


def backup_postgresql(url: str, dest: Path, force: bool = False) -> Done:
    """``pg_dump`` the database at ``url`` to ``dest`` (custom format) while the servers run."""
    _check_dest(dest, force)
    target, env = libpq(url)
    part = _part(dest)
    part.unlink(missing_ok=True)
    try:
        _run([_tool("pg_dump"), "--format=custom", "--no-owner", "--no-privileges", "--file", str(part), target],
             env, "pg_dump")
        os.replace(part, dest)
    finally:
        part.unlink(missing_ok=True)
    return Done(dest, dest.stat().st_size, -1, -1)


def restore_postgresql(source: Path, url: str, force: bool = False) -> Done:
    """``pg_restore`` the backup ``source`` into the database at ``url`` (all of it or nothing)."""
    if kind_of(source) != "postgresql":
        raise BackupError(f"{source} is a SQLite backup: restore it with --db PATH (a SQLite file)")
    target, env = libpq(url)
    argv = [_tool("pg_restore"), "--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction",
            "--dbname", target]
    if force:
        argv += ["--clean", "--if-exists"]
    _run([*argv, str(source)], env, "pg_restore")
    return Done(source, source.stat().st_size, -1, -1)
