"""``xeri db``: the server database's schema revisions (upgrade, current, downgrade) and its backups.

    xeri db upgrade [REVISION] [--db URL]     bring the schema up to this xeri's (or to REVISION)
    xeri db current [--db URL]                the revision the database is at
    xeri db downgrade REVISION [--db URL]     back to an older revision (to run an older xeri)
    xeri db backup FILE [--db URL]            a copy while the servers run (SQLite's backup API, or pg_dump)
    xeri db restore FILE [--db URL]           into a new database (SQLite file, or pg_restore)
    xeri db copy --to URL [--db URL]          every match into an empty database (SQLite to PostgreSQL)

``--db`` takes what ``xeri serve --db`` takes (default: SQLite in the data folder). docs/operations.md says
when to run each.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from ..errors import XeriError


class DbError(XeriError):
    """A database command that could not run; nothing was changed."""


def add_database(parser: argparse.ArgumentParser) -> None:
    """``--db`` and ``--data-dir``, as ``xeri serve`` takes them."""
    parser.add_argument("--db", default=None, metavar="URL",
                        help="database: sqlite:///PATH, a file path, or postgresql://user:pass@host/db "
                             "(default: SQLite in the data directory)")
    parser.add_argument("--data-dir", help="where the default SQLite database lives "
                        "(default: the user data folder, or $XERI_DATA_DIR)")


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=type(parser), required=True)
    p = sub.add_parser("upgrade", help="upgrade the schema to this xeri's (the default) or to REVISION",
                       description="Upgrade the schema (on SQLite, with no server running on the file; on "
                                   "PostgreSQL, see docs/operations.md for the order with running servers).")
    p.add_argument("revision", nargs="?", default="head", help="the revision to reach (default: head)")
    add_database(p)
    p = sub.add_parser("current", help="the schema revision the database is at")
    add_database(p)
    p = sub.add_parser("downgrade", help="back to an older revision (to run an older xeri on the database)")
    p.add_argument("revision", help="the revision to go back to (never below the baseline, 0001)")
    add_database(p)
    p = sub.add_parser("backup", help="copy the database to FILE while the servers run")
    p.add_argument("file", type=Path, help="the backup to write (SQLite: a SQLite file; PostgreSQL: a pg_dump archive)")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")
    add_database(p)
    p = sub.add_parser("restore", help="restore a backup into a database that has no xeri tables yet")
    p.add_argument("file", type=Path, help="a file made by `xeri db backup`")
    p.add_argument("--force", action="store_true", help="replace what the database holds (stop every server first)")
    add_database(p)
    p = sub.add_parser("copy", help="copy every table, seat, move and result into an empty database (to move "
                                    "from SQLite to PostgreSQL: docs/operations.md)")
    p.add_argument("--to", required=True, metavar="URL", help="the empty database to fill (postgresql://...)")
    add_database(p)


def database(args: argparse.Namespace) -> str | None:
    """The ``--db`` value, or the SQLite file of ``--data-dir`` (as ``xeri serve`` reads them)."""
    if args.db is None and getattr(args, "data_dir", None):
        from ..paths import data_dir

        try:
            return str(data_dir(args.data_dir) / "server.sqlite3")
        except OSError as exc:
            raise DbError(f"cannot use the data folder {args.data_dir}: {exc.strerror}") from None
    return args.db  # type: ignore[no-any-return]


def _server_modules() -> tuple[Any, Any]:
    try:
        from ..server import store
        from ..server.store import migrations
    except ImportError as exc:
        raise DbError(f"xeri db needs the server extra: pip install 'xeri[server]' ({exc.name} is missing)") from None
    return migrations, store


def run(args: argparse.Namespace) -> int:
    migrations, store = _server_modules()
    db = database(args)
    url = store.normalize_url(db)  # a bad URL is one line
    path = store.sqlite_path(url)
    shown = path or store.display_url(url).replace("postgresql+asyncpg://", "postgresql://", 1)
    action = args.action
    if action in ("current", "downgrade", "backup") and url.startswith("sqlite"):
        if path is None or not os.path.isfile(path):
            raise DbError(f"there is no database at {path or shown}")
    try:
        if action == "backup":
            return _backup(args, url, shown, path)
        if action == "restore":
            return _restore(args, url, shown, path, migrations, store)
        if action == "copy":
            return _copy(args, url, shown, path, migrations, store)
        lock = None
        if path is not None and action != "current":
            # No server may be changing a SQLite file while its schema changes (one holds its lock).
            os.makedirs(os.path.dirname(path), exist_ok=True)
            lock = store.OwnerLock(path)
            lock.acquire()
        try:
            if action == "current":
                found = migrations.run(db, migrations.state)
                print(f"{shown}: schema revision {found.describe}")
                return 0
            if action == "upgrade":
                before, after = migrations.run(db, migrations.upgrade, args.revision)
            else:
                before, after = migrations.run(db, migrations.downgrade, args.revision)
        finally:
            if lock is not None:
                lock.release()
    except store.DatabaseInUse as exc:
        raise DbError(f"refusing: {_first_line(exc)}; stop it before changing the schema") from None
    except store.StoreError as exc:
        raise DbError(_first_line(exc)) from None
    if before == after:
        print(f"{shown}: schema revision {after} already; nothing to do")
    elif before is None:
        print(f"{shown}: made the schema at revision {after}")
    else:
        print(f"{shown}: {'upgraded' if action == 'upgrade' else 'downgraded'} the schema from revision {before} "
              f"to {after}")
    return 0


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def _size(n: int) -> str:
    return f"{n / 1024:.0f} KiB" if n < 1 << 20 else f"{n / (1 << 20):.1f} MiB"


def _backup(args: argparse.Namespace, url: str, shown: str, path: str | None) -> int:
    from ..server.ops import backup
    from ..server.store import migrations

    dest: Path = args.file
    if path is not None:
        done = backup.backup_sqlite(path, dest, args.force)
        tables, finished = done.tables, done.finished
    else:
        found = migrations.run(url, migrations.counts)
        if found is None:
            raise DbError(f"{shown} holds no xeri tables: nothing to back up")
        tables, finished = found
        done = backup.backup_postgresql(url, dest, args.force)
    print(f"backed up {shown} to {dest} ({_size(done.size)}; {tables} tables, {finished} finished matches)")
    return 0


def _restore(args: argparse.Namespace, url: str, shown: str, path: str | None, migrations: Any, store: Any) -> int:
    from ..server.ops import backup

    source: Path = args.file
    if not source.is_file():
        raise DbError(f"there is no backup {source}")
    backup.kind_of(source)
    if path is not None:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        lock = store.OwnerLock(path)  # no server may be serving the file being replaced
        lock.acquire()
        try:
            backup.restore_sqlite(source, path, args.force)
        finally:
            lock.release()
    else:
        if backup.kind_of(source) != "postgresql":
            raise DbError(f"{source} is a SQLite backup: restore it with --db PATH (a SQLite file)")
        if migrations.run(url, migrations.counts) is not None and not args.force:
            raise DbError(f"{shown} holds xeri tables already: restore into a new database, or pass --force to "
                          "replace them (stop every server first)")
        backup.restore_postgresql(source, url, args.force)
    found = migrations.run(url, migrations.state)
    tables, finished = migrations.run(url, migrations.counts) or (0, 0)
    note = "" if found.revision == migrations.HEAD else "; run `xeri db upgrade` before serving it"
    print(f"restored {source} into {shown} ({tables} tables, {finished} finished matches; schema revision "
          f"{found.describe}){note}")
    return 0


def _copy(args: argparse.Namespace, url: str, shown: str, path: str | None, migrations: Any, store: Any) -> int:
    import asyncio

    target = store.normalize_url(args.to)
    if target == url:
        raise DbError("--to names the database being copied")
    lock = None
    if path is not None:  # the copy is of one moment: no server may be writing the file meanwhile
        lock = store.OwnerLock(path)
        lock.acquire()
    try:
        counts = asyncio.run(migrations.copy_database(url, args.to))
    finally:
        if lock is not None:
            lock.release()
    to = store.sqlite_path(target) or store.display_url(target).replace("postgresql+asyncpg://", "postgresql://", 1)
    print(f"copied {shown} into {to}: " + ", ".join(f"{n} {name.removeprefix('xeri_')}" for name, n in counts.items()))
    return 0
