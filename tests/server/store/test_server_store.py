"""The server's store: the only importer of SQLAlchemy, with typed rows and typed errors; server bots' seeds."""

from __future__ import annotations

import ast
import asyncio
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from support.server import free_port, subprocess_server
from xeri.seeds import bot_seed
from xeri.server.store import (
    DatabaseInUse,
    LoadedTable,
    MoveRow,
    SeatRow,
    StaleMove,
    Store,
    StoreError,
    StoreUnavailable,
    TableRow,
)
from xeri.server.table.autoplay import SEED_DOMAIN, server_bot

SRC = Path(__file__).resolve().parents[3] / "src" / "xeri"


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def test_only_the_store_imports_sqlalchemy() -> None:
    """The store, its operator's part (server/ops/operator_store.py) and the schema's migrations speak SQL; nothing
    else."""
    importers = sorted(str(p.relative_to(SRC)) for p in SRC.rglob("*.py")
                       if any(m == "sqlalchemy" or m.startswith("sqlalchemy.") for m in _imports(p)))
    database = ("server/store/", "server/ops/operator_store.py", "server/store/migrations/")
    assert any(p.startswith("server/store/") for p in importers), importers
    assert [p for p in importers if not p.startswith(database)] == []


def _table(table_id: str = "t1") -> TableRow:
    return TableRow(id=table_id, status="playing", ruleset="{}", takeover_level="easy", match_seed="12",
                    salt_key="k", created_at=1.0)


def test_store_returns_typed_rows_and_raises_typed_errors(tmp_path: Path) -> None:
    async def run() -> None:
        store = Store(str(tmp_path / "db.sqlite3"))
        await store.open()
        try:
            await store.create_table(_table(), [SeatRow("t1", 0, True), SeatRow("t1", 1, False, "easy")])
            await store.add_move(MoveRow("t1", 0, 0, "TD", None, 2.0))
            with pytest.raises(StaleMove):
                await store.add_move(MoveRow("t1", 0, 1, "2C", None, 3.0))
            loaded = await store.load_table("t1")
            assert isinstance(loaded, LoadedTable)
            assert loaded.table.match_seed == "12" and [s.seat for s in loaded.seats] == [0, 1]
            assert loaded.moves == [MoveRow("t1", 0, 0, "TD", None, 2.0)]
        finally:
            await store.close()
        with pytest.raises(StoreUnavailable):
            await store.load_table("t1")

    asyncio.run(run())
    assert issubclass(StaleMove, StoreError) and issubclass(StoreUnavailable, StoreError)


def test_a_server_bot_is_seeded_one_way_never_from_the_match_seed_by_arithmetic() -> None:
    match_seed = 123456789
    seeds = {bot_seed(match_seed, seat, domain=SEED_DOMAIN, generation=v) for seat in range(4) for v in range(20)}
    assert len(seeds) == 80  # a fresh seed per seat and move
    old = {(match_seed + 7919 * (seat + 1)) % 2**63 for seat in range(4)}
    assert not seeds & old
    # No fixed offset leads back: the differences to the match seed are all distinct.
    assert len({s - match_seed for s in seeds}) == len(seeds)
    bot = server_bot("easy", match_seed, 1, 7)
    assert match_seed not in {v for v in vars(bot).values() if isinstance(v, int)}


def test_a_second_store_on_one_sqlite_file_is_refused_until_the_first_closes(tmp_path: Path) -> None:
    async def run() -> None:
        first, second = Store(str(tmp_path / "db.sqlite3")), Store(str(tmp_path / "db.sqlite3"))
        await first.open()
        try:
            with pytest.raises(DatabaseInUse, match="one server process per SQLite file"):
                await second.open()
        finally:
            await first.close()
        await second.open()
        await second.close()

    asyncio.run(run())


def test_a_second_server_process_on_one_sqlite_file_refuses_to_start(tmp_path: Path) -> None:
    db = str(tmp_path / "one.sqlite3")
    with subprocess_server(db) as (base, proc):
        second = subprocess.run([sys.executable, "-m", "xeri", "serve", "--port", str(free_port()), "--db", db],
                                capture_output=True, text=True, timeout=60)
        assert second.returncode == 2
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1 and f"pid {proc.pid}" in lines[0] and "one server process per SQLite file" in lines[0]
        assert "Traceback" not in second.stderr + second.stdout
        assert httpx.get(f"{base}/api/health").status_code == 200  # the first one goes on


def test_nothing_reachable_from_a_server_bot_opens_the_deal() -> None:
    """Walk everything a server bot holds (gc.get_referents): no match or round seed, and no card at all."""
    import gc

    from xeri.cards import Card
    from xeri.match import Match
    from xeri.rules import find_ruleset

    match_seed = 0x5EED_1234_ABCD
    match = Match(find_ruleset("classic"), seed=match_seed)
    secrets_ = {match_seed, *match.round_seeds}
    for level in ("easy", "medium", "hard", "expert"):
        bot = server_bot(level, match_seed, 1, 3)
        seen: set[int] = set()
        stack: list[object] = [bot]
        while stack:
            obj = stack.pop()
            if id(obj) in seen or isinstance(obj, type):
                continue
            seen.add(id(obj))
            assert not isinstance(obj, Card), f"{level} holds a card before it is shown a view"
            if isinstance(obj, int) and not isinstance(obj, bool):
                assert obj not in secrets_, f"{level} holds the match seed or a round seed"
            stack.extend(gc.get_referents(obj))
