"""The schema's revisions (server.store.migrations, ``xeri db``), backups and restores, and ``xeri admin`` on SQLite.

A database made by main before migrations (tests/server/store/migrations/data/schema_main: SQLite, and a pg_dump for
PostgreSQL) is upgraded, and its matches are then played to their end and verified. The baseline revision makes
exactly that schema; a new database made in one go (``create_all`` and a stamp) is exactly what the revisions make.
A backup taken while matches are played restores into a fresh database whose every finished record verifies.
PostgreSQL comes from scripts/test.sh (XERI_TEST_PG_URL); the cluster's own tests are in
tests/server/ops/test_server_operations.py.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from support.cli import run_xeri
from support.cluster import PG_URL, fresh_database, poll
from support.server import Player, ThreadServer, create, free_port, join, play_to_the_end
from xeri.cli import main as xeri
from xeri.server.store import migrations

FIXTURE = Path(__file__).resolve().parent / "data" / "schema_main"
TOKENS = json.loads((FIXTURE / "tokens.json").read_text())
needs_pg = pytest.mark.skipif(not PG_URL, reason="needs XERI_TEST_PG_URL (scripts/test.sh starts PostgreSQL)")


def sqlite_copy(tmp: Path) -> Path:
    path = tmp / "main.sqlite3"
    shutil.copyfile(FIXTURE / "xeri-main.sqlite3", path)
    return path


def psql() -> str:
    found = shutil.which("psql") or next(iter(sorted(Path("/usr/lib/postgresql").glob("*/bin/psql"))[-1:]), None)
    assert found, "psql comes with PostgreSQL (scripts/test.sh installs it)"
    return str(found)


def load_pg_fixture(url: str) -> None:
    """The plain-SQL dump of main's database, into the (empty) database at ``url``."""
    subprocess.run([psql(), "-v", "ON_ERROR_STOP=1", "-q", "-d", url, "-f", str(FIXTURE / "xeri-main-pg.sql")],
                   check=True, capture_output=True, text=True)


# --- the schema, compared exactly ----------------------------------------------------------


def sqlite_schema(path: Path, version_table: bool = True) -> set[tuple[str, str, str, str]]:
    """Every table and index of a SQLite file with the SQL that made it, its whitespace folded (a column added by a
    revision, ``ALTER TABLE … ADD COLUMN``, is written into the table's SQL without the line break of one made in
    ``CREATE TABLE``)."""
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL").fetchall()
    return {(kind, name, table, " ".join(sql.split())) for kind, name, table, sql in rows
            if version_table or table != migrations.VERSION_TABLE}


def pg_schema(url: str, version_table: bool = True) -> dict[str, Any]:
    """Every column (type, length, nullability, default), index and constraint of the xeri tables."""
    import asyncpg

    async def read() -> dict[str, Any]:
        conn = await asyncpg.connect(url.replace("postgresql://", "postgres://", 1))
        try:
            columns = await conn.fetch(
                "SELECT table_name, column_name, ordinal_position, data_type, character_maximum_length, is_nullable, "
                "column_default FROM information_schema.columns WHERE table_schema = 'public'")
            indexes = await conn.fetch("SELECT tablename, indexname, indexdef FROM pg_indexes "
                                       "WHERE schemaname = 'public'")
            constraints = await conn.fetch(
                "SELECT table_name, constraint_name, constraint_type FROM information_schema.table_constraints "
                "WHERE table_schema = 'public'")
        finally:
            await conn.close()

        def keep(name: str) -> bool:
            return version_table or name != migrations.VERSION_TABLE

        return {"columns": sorted(tuple(r) for r in columns if keep(r[0])),
                "indexes": sorted(tuple(r) for r in indexes if keep(r[0])),
                # (NOT NULL shows as a CHECK named by the table's oid: the columns' nullability says it already)
                "constraints": sorted(tuple(r) for r in constraints if keep(r[0])
                                      and not re.fullmatch(r"\d+_\d+_\d+_not_null", r[1]))}

    return asyncio.run(read())


def test_the_baseline_revision_is_exactly_the_schema_main_made_on_sqlite(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    made_by_main = sqlite_schema(sqlite_copy(tmp_path))
    assert {name for _t, name, _tbl, _sql in made_by_main} >= {"xeri_tables", "xeri_moves", "ix_xeri_results_name"}
    baseline = tmp_path / "baseline.sqlite3"
    code, out, err = run_xeri(capsys, "db", "upgrade", migrations.BASELINE, "--db", str(baseline))
    assert code == 0 and "made the schema at revision 0001" in out, err
    assert sqlite_schema(baseline, version_table=False) == made_by_main
    # A new database made in one go (a server's first start) is what the revisions make, version table included.
    by_revisions = tmp_path / "revisions.sqlite3"
    assert run_xeri(capsys, "db", "upgrade", migrations.BASELINE, "--db", str(by_revisions))[0] == 0
    assert run_xeri(capsys, "db", "upgrade", "--db", str(by_revisions))[0] == 0
    in_one_go = tmp_path / "one-go.sqlite3"
    code, out, _err = run_xeri(capsys, "db", "upgrade", "--db", str(in_one_go))
    assert code == 0 and f"made the schema at revision {migrations.HEAD}" in out
    assert sqlite_schema(by_revisions) == sqlite_schema(in_one_go)
    # The head named in the code is the newest revision file.
    assert migrations.revisions()[-1][0] == migrations.HEAD and migrations.revisions()[0][0] == migrations.BASELINE


@needs_pg
def test_the_baseline_revision_is_exactly_the_schema_main_made_on_postgresql(capsys: pytest.CaptureFixture[str]
                                                                           ) -> None:
    with fresh_database("xeri_mig") as by_main, fresh_database("xeri_mig") as baseline, \
            fresh_database("xeri_mig") as by_revisions, fresh_database("xeri_mig") as in_one_go:
        load_pg_fixture(by_main)
        assert run_xeri(capsys, "db", "upgrade", migrations.BASELINE, "--db", baseline)[0] == 0
        assert pg_schema(baseline, version_table=False) == pg_schema(by_main)
        assert run_xeri(capsys, "db", "upgrade", migrations.BASELINE, "--db", by_revisions)[0] == 0
        assert run_xeri(capsys, "db", "upgrade", "--db", by_revisions)[0] == 0
        code, out, _err = run_xeri(capsys, "db", "upgrade", "--db", in_one_go)
        assert code == 0 and f"made the schema at revision {migrations.HEAD}" in out
        assert pg_schema(by_revisions) == pg_schema(in_one_go)


ACCOUNT_TABLES = {"xeri_accounts", "xeri_sessions", "xeri_seat_accounts"}


def table_names(db: str) -> set[str]:
    from sqlalchemy import inspect

    return migrations.run(db, lambda conn: set(inspect(conn).get_table_names()))  # type: ignore[no-any-return]


def revision_up_and_down(db: str, capsys: pytest.CaptureFixture[str], schema: Any, below: str, revision: str,
                         tables: set[str]) -> None:
    """A database at ``below`` takes ``revision`` (its ``tables``, empty), and gives it back on a downgrade."""
    assert run_xeri(capsys, "db", "upgrade", below, "--db", db)[0] == 0
    before = schema()
    assert not table_names(db) & tables
    code, out, err = run_xeri(capsys, "db", "upgrade", revision, "--db", db)
    assert code == 0 and f"from revision {below} to {revision}" in out, out + err
    assert table_names(db) >= tables
    code, out, err = run_xeri(capsys, "db", "downgrade", below, "--db", db)
    assert code == 0 and f"from revision {revision} to {below}" in out, out + err
    assert schema() == before


def accounts_up_and_down(db: str, capsys: pytest.CaptureFixture[str], schema: Any) -> None:
    revision_up_and_down(db, capsys, schema, "0002", "0003_accounts", ACCOUNT_TABLES)


def test_a_sqlite_database_at_0002_upgrades_to_the_accounts_and_downgrades(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "at-0002.sqlite3"
    accounts_up_and_down(str(db), capsys, lambda: sqlite_schema(db))


@needs_pg
def test_a_postgresql_database_at_0002_upgrades_to_the_accounts_and_downgrades(
        capsys: pytest.CaptureFixture[str]) -> None:
    with fresh_database("xeri_mig") as url:
        accounts_up_and_down(url, capsys, lambda: pg_schema(url))


RATING_TABLES = {"xeri_rated_tables", "xeri_ratings", "xeri_rating_history"}


def ratings_up_and_down(db: str, capsys: pytest.CaptureFixture[str], schema: Any) -> None:
    revision_up_and_down(db, capsys, schema, "0003_accounts", "0004_ratings", RATING_TABLES)


def test_a_sqlite_database_at_0003_upgrades_to_the_ratings_and_downgrades(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "at-0003.sqlite3"
    ratings_up_and_down(str(db), capsys, lambda: sqlite_schema(db))


@needs_pg
def test_a_postgresql_database_at_0003_upgrades_to_the_ratings_and_downgrades(
        capsys: pytest.CaptureFixture[str]) -> None:
    with fresh_database("xeri_mig") as url:
        ratings_up_and_down(url, capsys, lambda: pg_schema(url))


# --- xeri serve and an older schema --------------------------------------------------------


def look_keys_up_and_down(db: str, capsys: pytest.CaptureFixture[str], schema: Any) -> None:
    """Revision 0005 backfills each live account's look key in the order they were made; of two look-alikes made
    before (Bill, then BiIl), the later keeps its account with none, and a deleted account has none."""
    from sqlalchemy import text

    from xeri.server.accounts.names import look_key

    assert run_xeri(capsys, "db", "upgrade", "0004_ratings", "--db", db)[0] == 0
    before = schema()
    made = [("a1", "BiIl", 2.0, False), ("a2", "Bill", 1.0, False), ("a3", "Ada", 3.0, False),
            ("a4", "deleted player 0123abcd", 0.5, True)]

    def insert(conn: Any) -> None:
        for account_id, name, at, deleted in made:
            conn.execute(text("INSERT INTO xeri_accounts (id, name, name_key, created_at, deleted, hidden) "
                              "VALUES (:id, :name, :key, :at, :deleted, false)"),
                         {"id": account_id, "name": name, "key": f"key-{account_id}", "at": at, "deleted": deleted})

    migrations.run(db, insert)
    code, out, err = run_xeri(capsys, "db", "upgrade", "0005_look_keys", "--db", db)
    assert code == 0 and "from revision 0004_ratings to 0005_look_keys" in out, out + err
    keys = migrations.run(db, lambda conn: dict(conn.execute(text("SELECT id, look_key FROM xeri_accounts")).all()))
    assert keys == {"a1": None, "a2": look_key("Bill"), "a3": look_key("Ada"), "a4": None}
    code, out, err = run_xeri(capsys, "db", "downgrade", "0004_ratings", "--db", db)
    assert code == 0 and "from revision 0005_look_keys to 0004_ratings" in out, out + err
    migrations.run(db, lambda conn: conn.execute(text("DELETE FROM xeri_accounts")))
    assert schema() == before


def test_a_sqlite_database_at_0004_backfills_the_look_keys_and_downgrades(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "at-0004.sqlite3"
    look_keys_up_and_down(str(db), capsys, lambda: sqlite_schema(db))


@needs_pg
def test_a_postgresql_database_at_0004_backfills_the_look_keys_and_downgrades(
        capsys: pytest.CaptureFixture[str]) -> None:
    with fresh_database("xeri_mig") as url:
        look_keys_up_and_down(url, capsys, lambda: pg_schema(url))


def serve(db: str, *extra: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``xeri serve`` that is expected to stop by itself (a refusal)."""
    return subprocess.run([sys.executable, "-m", "xeri", "serve", "--port", str(free_port()), "--db", db, *extra],
                          capture_output=True, text=True, timeout=timeout)


def test_serve_refuses_an_older_schema_in_one_line_and_upgrades_sqlite_by_default(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = sqlite_copy(tmp_path)
    before = path.read_bytes()
    done = serve(str(path), "--no-auto-migrate")
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert "xeri db upgrade" in lines[0] and "0001" in lines[0]
    assert path.read_bytes() == before, "a refusal changes nothing"
    # On SQLite --auto-migrate is the default: before it starts, the server upgrades the file and says so.
    from xeri.commands.serve import _check_services

    capsys.readouterr()
    _check_services(str(path), None)
    assert "upgraded the schema of" in capsys.readouterr().out
    assert migrations.run(str(path), migrations.state).revision == migrations.HEAD


@needs_pg
def test_serve_refuses_an_older_postgresql_schema_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with fresh_database("xeri_mig") as url:
        load_pg_fixture(url)
        done = serve(url)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1, done.stderr
        assert "xeri db upgrade" in lines[0] and "revision 0001" in lines[0]
        assert migrations.run(url, migrations.state).revision == migrations.BASELINE  # unchanged, unstamped
        # Asked for, a server upgrades PostgreSQL itself (what `xeri serve --auto-migrate` runs before it starts).
        from xeri.commands.serve import _check_services

        _check_services(url, None, auto_migrate=True)
        assert "upgraded the schema" in capsys.readouterr().out
        assert migrations.run(url, migrations.state).revision == migrations.HEAD


# --- upgrading main's database, then playing and verifying its matches ----------------------------


def finished_ids(db: str) -> list[str]:
    from sqlalchemy import text  # the test reads the database directly

    def ids(conn: Any) -> list[str]:
        return [r[0] for r in conn.execute(text("SELECT id FROM xeri_tables WHERE status = 'finished' ORDER BY id"))]

    return migrations.run(db, ids)  # type: ignore[no-any-return]


def verify_all(db: str, tmp: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    """Every finished match, exported with ``xeri admin export`` (private ones too) and checked by ``xeri verify``."""
    records = {}
    for tid in finished_ids(db):
        path = tmp / f"{tid}.json"
        code, _out, err = run_xeri(capsys, "admin", "export", "-o", str(path), "--db", db, "--", tid)
        assert code == 0, err
        code, out, err = run_xeri(capsys, "verify", str(path))
        assert code == 0 and "verified" in out, out + err
        records[tid] = path.read_text()
    return records


def upgrade_play_and_verify(db: str, tokens: dict[str, dict[str, str]], tmp: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run_xeri(capsys, "db", "current", "--db", db)
    assert code == 0 and "revision 0001" in out and "made before migrations" in out, out
    before = stored_records(db)
    assert len(before) == 3
    code, out, _err = run_xeri(capsys, "db", "upgrade", "--db", db)
    assert code == 0 and f"from revision 0001 to {migrations.HEAD}" in out, out
    assert "(head)" in run_xeri(capsys, "db", "current", "--db", db)[1]
    # Down to the baseline (an older xeri could run on it) and up again.
    code, out, _err = run_xeri(capsys, "db", "downgrade", migrations.BASELINE, "--db", db)
    assert code == 0 and f"from revision {migrations.HEAD} to 0001" in out
    assert "revision 0001 (older" in run_xeri(capsys, "db", "current", "--db", db)[1]
    assert run_xeri(capsys, "db", "upgrade", "--db", db)[0] == 0
    assert "nothing to do" in run_xeri(capsys, "db", "upgrade", "--db", db)[1]
    server = ThreadServer(db).start()
    try:
        (ann_table, ann), (bob_table, bob) = ((tid, seats["0"]) for tid, seats in tokens.items()
                                              if tid in _unfinished(db))
        # Ann's match, six moves in, plays on against its bot to the end.
        player = Player(server.ws_base, ann_table, ann)
        assert player.version >= 6
        play_to_the_end(player, 0)
        player.close()
        # Bob's table was waiting for a second player: Cleo joins, and they play it out.
        joined = join(server.base, bob_table, "Cleo")
        first = Player(server.ws_base, bob_table, bob)
        second = Player(server.ws_base, bob_table, joined["token"])
        play_to_the_end(first, 0, {1: second})
        first.close()
        second.close()
        poll("both matches stored as finished", lambda: len(finished_ids(db)) == 5)
    finally:
        server.stop()
    after = {tid: json.loads(text) for tid, text in verify_all(db, tmp, capsys).items()}
    assert set(after) == set(before) | {ann_table, bob_table}
    assert all(after[tid] == before[tid] for tid in before), "an upgrade changed a finished record"


def stored_records(db: str) -> dict[str, Any]:
    """The finished matches' records as stored (read directly: ``xeri admin`` refuses an older schema)."""
    from sqlalchemy import text

    def read(conn: Any) -> dict[str, Any]:
        rows = conn.execute(text("SELECT id, record FROM xeri_tables WHERE status = 'finished'"))
        return {tid: json.loads(record) for tid, record in rows}

    return migrations.run(db, read)  # type: ignore[no-any-return]


def _unfinished(db: str) -> set[str]:
    from sqlalchemy import text

    def ids(conn: Any) -> set[str]:
        return {r[0] for r in conn.execute(text("SELECT id FROM xeri_tables WHERE status IN ('waiting', 'playing')"))}

    return migrations.run(db, ids)  # type: ignore[no-any-return]


def test_main_s_sqlite_database_upgrades_then_its_matches_play_and_verify(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    upgrade_play_and_verify(str(sqlite_copy(tmp_path)), TOKENS["sqlite"], tmp_path, capsys)


@needs_pg
def test_main_s_postgresql_database_upgrades_then_its_matches_play_and_verify(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with fresh_database("xeri_mig") as url:
        load_pg_fixture(url)
        upgrade_play_and_verify(url, TOKENS["postgresql"], tmp_path, capsys)


@needs_pg
def test_one_sqlite_process_moves_to_postgresql_with_db_copy(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Scaling from one process to several: every table, seat, move and result of the SQLite file, into PostgreSQL."""
    sqlite = str(sqlite_copy(tmp_path))
    code, _out, err = run_xeri(capsys, "db", "copy", "--to", "postgresql://unused/x", "--db", sqlite)
    assert code == 2 and "xeri db upgrade" in err  # an older schema is upgraded first
    assert run_xeri(capsys, "db", "upgrade", "--db", sqlite)[0] == 0
    with fresh_database("xeri_copy") as url:
        code, out, err = run_xeri(capsys, "db", "copy", "--to", url, "--db", sqlite)
        assert code == 0 and "5 tables" in out and "150 moves" in out, out + err
        assert moves_of(url) == moves_of(sqlite)
        (tmp_path / "pg").mkdir()
        (tmp_path / "sqlite").mkdir()
        assert verify_all(url, tmp_path / "pg", capsys) == verify_all(sqlite, tmp_path / "sqlite", capsys)
        assert "(head)" in run_xeri(capsys, "db", "current", "--db", url)[1]
        code, _out, err = run_xeri(capsys, "db", "copy", "--to", url, "--db", sqlite)
        assert code == 2 and "holds xeri tables already" in err


# --- backups while matches are played ----------------------------------------------------


def moves_of(db: str) -> dict[str, list[tuple[int, str]]]:
    from sqlalchemy import text

    def read(conn: Any) -> dict[str, list[tuple[int, str]]]:
        out: dict[str, list[tuple[int, str]]] = {}
        for tid, seat, card in conn.execute(text("SELECT table_id, seat, card FROM xeri_moves ORDER BY table_id, idx")):
            out.setdefault(tid, []).append((seat, card))
        return out

    return migrations.run(db, read)  # type: ignore[no-any-return]


def backup_while_playing(db: str, restored: str, tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Bots play several matches; a backup is taken while some are in play and restored into ``restored``."""
    server = ThreadServer(db, bot_delay=0.01).start()
    try:
        bots = {"options": {"rounds": 1}, "seats": [{"bot": "easy"}, {"bot": "medium"}]}
        first = [create(server.base, **bots)["table_id"] for _ in range(2)]
        poll("two matches finished", lambda: set(first) <= set(finished_ids(db)), timeout=60)
        playing = [create(server.base, **bots)["table_id"] for _ in range(3)]
        poll("moves being played", lambda: sum(len(m) for t, m in moves_of(db).items() if t in playing) >= 10)
        backup = tmp / "xeri.backup"
        code, out, err = run_xeri(capsys, "db", "backup", str(backup), "--db", db)
        assert code == 0 and "backed up" in out, err
        at_backup = moves_of(db)
        poll("the matches played on", lambda: set(playing) <= set(finished_ids(db)), timeout=60)
    finally:
        server.stop()
    assert any(len(moves_of(db)[t]) > len(at_backup.get(t, [])) for t in playing), "nothing was played after it"
    code, out, err = run_xeri(capsys, "db", "restore", str(backup), "--db", restored)
    assert code == 0 and "restored" in out and "(head)" in out, out + err
    # Every finished record of the restored database is the original's, and verifies.
    originals = {}
    for tid in finished_ids(db):
        path = tmp / f"original-{tid}.json"
        assert run_xeri(capsys, "admin", "export", "-o", str(path), "--db", db, "--", tid)[0] == 0
        originals[tid] = path.read_text()
    restored_records = verify_all(restored, tmp, capsys)
    assert set(first) <= set(restored_records) and restored_records
    assert all(restored_records[tid] == originals[tid] for tid in restored_records)
    # What was in play is there as it was at some moment: a prefix of what was played in the end.
    final, back = moves_of(db), moves_of(restored)
    assert all(final[t][:len(moves)] == moves for t, moves in back.items())
    # A second restore into the same database is refused (it holds xeri tables now), and changes nothing.
    code, _out, err = run_xeri(capsys, "db", "restore", str(backup), "--db", restored)
    assert code == 2 and "holds" in err and len(err.strip().splitlines()) == 1
    assert moves_of(restored) == back


def test_a_sqlite_backup_taken_while_matches_play_restores_and_verifies(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    backup_while_playing(str(tmp_path / "live.sqlite3"), str(tmp_path / "restored.sqlite3"), tmp_path, capsys)


@needs_pg
def test_a_postgresql_backup_taken_while_matches_play_restores_and_verifies(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with fresh_database("xeri_backup") as live, fresh_database("xeri_restore") as restored:
        backup_while_playing(live, restored, tmp_path, capsys)


# --- xeri admin on one SQLite process ------------------------------------------------------


@pytest.fixture
def admin_server(tmp_path: Path) -> Iterator[tuple[ThreadServer, str]]:
    db = str(tmp_path / "admin.sqlite3")
    server = ThreadServer(db, bot_delay=0.0, admin_every=0.1).start()
    try:
        yield server, db
    finally:
        server.stop()


def test_xeri_admin_on_a_running_sqlite_server(admin_server: tuple[ThreadServer, str], tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    server, db = admin_server
    made = create(server.base, name="Ann", options={"rounds": 1}, seats=[None, {"bot": "easy"}])
    tid = made["table_id"]
    ann = Player(server.ws_base, tid, made["token"])
    ann.wait_view(lambda v: v["turn"] == 0)
    ann.send(type="move", card=ann.view["legal_moves"][0], version=ann.version)  # type: ignore[index]
    ann.at_version(1)
    waiting = create(server.base, name="Bob", seats=[None, None])["table_id"]
    # tables: both, the server that holds them (this process's pid: it holds the file's lock), the players
    code, out, _err = run_xeri(capsys, "admin", "tables", "--db", db)
    assert code == 0
    lines = {line.split()[0]: line for line in out.splitlines() if line.startswith((tid, waiting))}
    assert "playing" in lines[tid] and "Ann, [easy bot]" in lines[tid] and "pid " in lines[tid]
    assert "waiting" in lines[waiting] and "Bob, (free)" in lines[waiting]
    # close: the server holding the table closes it; its player is told, and its moves are kept
    code, out, err = run_xeri(capsys, "admin", "close", "--reason", "maintenance", "--db", db, "--", tid)
    assert code == 0 and "closed table" in out, err
    told = ann.error()
    assert told["code"] == "table_closed" and "maintenance" in told["message"]
    ann.until(lambda m: m["type"] == "table" and m["table"]["status"] == "closed")
    assert httpx.get(f"{server.base}/api/tables/{tid}").json()["status"] == "closed"
    ann.send(type="move", card="TD", version=ann.version)
    assert ann.error()["message"] == "this table was closed"
    export = tmp_path / "closed.json"
    assert run_xeri(capsys, "admin", "export", "-o", str(export), "--db", db, "--", tid)[0] == 0
    record = json.loads(export.read_text())
    assert record["closed"] is True and sum(len(r["moves"]) for r in record["rounds"]) >= 1
    code, _out, err = run_xeri(capsys, "admin", "close", "--db", db, "--", tid)
    assert code == 2 and "closed already" in err
    # bar: this address is refused (its open socket closed), the health checks are not; unbar lets it back
    code, out, _err = run_xeri(capsys, "admin", "bar", "127.0.0.1", "--for", "1h", "--reason", "a test", "--db", db)
    assert code == 0 and "barred 127.0.0.1/32 until" in out
    poll("the bar obeyed", lambda: httpx.get(f"{server.base}/api/tables").status_code == 403)
    assert httpx.get(f"{server.base}/api/tables").json()["error"]["code"] == "barred"
    assert httpx.get(f"{server.base}/healthz").status_code == 200
    with pytest.raises(ConnectionClosed):
        for _ in range(50):
            ann.recv(timeout=5)  # the server closes the barred address's socket
    assert "127.0.0.1/32" in run_xeri(capsys, "admin", "bars", "--db", db)[1]
    assert run_xeri(capsys, "admin", "unbar", "127.0.0.1", "--db", db)[0] == 0
    poll("the bar lifted", lambda: httpx.get(f"{server.base}/api/tables").status_code == 200)
    # stats and the audit trail
    stats = json.loads(run_xeri(capsys, "admin", "stats", "--json", "--db", db)[1])
    assert stats["tables"] == {"closed": 1, "waiting": 1} and stats["moves"] >= 1 and stats["bars"] == 0
    actions = json.loads(run_xeri(capsys, "admin", "actions", "--json", "--db", db)[1])
    assert [a["action"] for a in actions] == ["unbar", "bar", "close"]
    assert all(a["actor"] and a["done_at"] for a in actions)
    # With the server stopped, close acts on the file itself (holding its lock while it does).
    server.stop()
    code, out, err = run_xeri(capsys, "admin", "close", "--db", db, "--", waiting)
    assert code == 0 and "no server was running" in out, err
    assert json.loads(run_xeri(capsys, "admin", "stats", "--json", "--db", db)[1])["tables"] == {"closed": 2}


@pytest.fixture(scope="module")
def bad_input_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One database for every bad command: each must leave it as it was."""
    db = tmp_path_factory.mktemp("bad") / "bad.sqlite3"
    assert xeri(["db", "upgrade", "--db", str(db)]) == 0
    return db


@pytest.mark.parametrize("argv, says", [
    (["admin", "bar", "example.org"], "IP address or a network"),
    (["admin", "bar", "10.0.0.1", "--for", "5 parsecs"], "duration"),
    (["admin", "bar", "10.0.0.1", "--for", "0s"], "more than 0"),
    (["admin", "close", "nosuchtable"], "no table"),
    (["admin", "export", "nosuchmatch"], "no match"),
    (["admin", "unbar", "10.9.9.9"], "not barred"),
    (["admin", "actions", "--limit", "0"], "--limit"),
    (["admin", "frobnicate"], "invalid choice"),
    (["db", "downgrade", "9999"], "no schema revision"),
    (["db", "upgrade", "0099"], "no schema revision"),
    (["db", "restore", "missing.backup"], "no backup"),
    (["serve", "--metrics-port", "0"], "--metrics-port"),
    (["serve", "--log-format", "xml"], "invalid choice"),
    (["serve", "--leaderboard-games", "-1"], "--leaderboard-games"),
    (["serve", "--leaderboard-deviation", "nan"], "--leaderboard-deviation"),
    (["serve", "--rated-targets", "51,x"], "--rated-targets"),
    (["serve", "--rated-targets", "0"], "--rated-targets"),
])
def test_bad_input_is_one_line_and_exit_2(argv: list[str], says: str, bad_input_db: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    db = bad_input_db
    before = sqlite_schema(db), db.stat().st_size
    code, out, err = run_xeri(capsys, *argv, *(["--db", str(db)] if argv[0] in ("admin", "db") else []))
    assert code == 2, out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], err
    assert (sqlite_schema(db), db.stat().st_size) == before


def test_db_commands_refuse_a_sqlite_file_a_server_is_serving(
        admin_server: tuple[ThreadServer, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _server, db = admin_server
    code, _out, err = run_xeri(capsys, "db", "downgrade", migrations.BASELINE, "--db", db)
    assert code == 2 and "refusing" in err and "pid" in err
    assert "(head)" in run_xeri(capsys, "db", "current", "--db", db)[1]
    # A backup is the one thing that runs beside the server (online); a restore over it is refused.
    backup = tmp_path / "b.sqlite3"
    assert run_xeri(capsys, "db", "backup", str(backup), "--db", db)[0] == 0
    code, _out, err = run_xeri(capsys, "db", "restore", str(backup), "--db", db, "--force")
    assert code == 2 and "pid" in err
