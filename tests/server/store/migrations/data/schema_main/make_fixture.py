"""The databases of tests/server/store/migrations/test_server_migrations.py: what `xeri serve` of main made before
migrations existed.

The schema then was made by ``metadata.create_all`` (no ``alembic_version`` table). This script plays, with the
server's own code (its ``Lobby`` and ``Store``), three finished one-round matches of bots (one of them private), a
match of a person against a bot left in play after a few moves, and a table waiting for its second player, into

- ``xeri-main.sqlite3``: a SQLite database, as ``xeri serve`` keeps it;
- ``xeri-main-pg.sql``: a plain-SQL ``pg_dump`` of the same on PostgreSQL (with ``--pg URL``: a server where a
  fresh database may be made);
- ``tokens.json``: the seat tokens of the tables still open (the database keeps only their hashes), for the test
  to play on after the upgrade.

It must be run on the code it is meant to capture, the commit named in ``README.md`` beside it:

    git worktree add /tmp/xeri-main COMMIT
    PYTHONPATH=/tmp/xeri-main/src python tests/server/store/migrations/data/schema_main/make_fixture.py --pg postgresql://postgres@HOST/postgres
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

from xeri.server.broker.pubsub import InProcessBroker
from xeri.server.limits.caps import Limits
from xeri.server.lobby.lobby import Lobby
from xeri.server.store import Store

HERE = Path(__file__).resolve().parent


async def fill(url: str) -> dict[str, dict[str, str]]:
    """Play the fixture's tables into the database at ``url``; returns the open tables' seat tokens."""
    store = Store(url)
    await store.open()
    lobby = Lobby(store, InProcessBroker(), bot_delay=0.0, limits=Limits())
    await lobby.start()
    tokens: dict[str, dict[str, str]] = {}
    try:
        finished = []
        for private in (False, False, True):
            table, _, _ = await lobby.create({"options": {"rounds": 1}, "private": private, "title": "fixture",
                                              "seats": [{"bot": "easy"}, {"bot": "medium"}]})
            finished.append(table)
        for _ in range(2000):
            if all(t.status == "finished" for t in finished):
                break
            await asyncio.sleep(0.01)  # the bots play on the event loop: let them
        assert all(t.status == "finished" for t in finished), "the bots' matches did not end"
        # A person against a bot, a few moves in: the test plays it to the end after the upgrade.
        table, seat, token = await lobby.create({"options": {"rounds": 1}, "name": "Ann",
                                                 "seats": [None, {"bot": "medium"}]})
        assert seat is not None and token is not None
        tokens[table.id] = {str(seat): token}
        while table.version < 6:
            m = table.match
            assert m is not None
            if m.turn == seat:
                await table.move(seat, m.legal_moves[0].code, table.version)
            else:
                await asyncio.sleep(0.01)  # the bot's turn
        # A table waiting for its second player.
        table, seat, token = await lobby.create({"options": {"rounds": 1}, "name": "Bob", "seats": [None, None]})
        assert seat is not None and token is not None
        tokens[table.id] = {str(seat): token}
    finally:
        lobby.stop()
        await store.close()
    return tokens


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pg", help="a PostgreSQL server where a throwaway database may be made (postgresql://.../db)")
    args = ap.parse_args()
    sqlite = HERE / "xeri-main.sqlite3"
    for path in (sqlite, Path(f"{sqlite}-wal"), Path(f"{sqlite}-shm"), Path(f"{sqlite}.lock")):
        path.unlink(missing_ok=True)
    tokens: dict[str, Any] = {"sqlite": asyncio.run(fill(str(sqlite)))}
    for path in (Path(f"{sqlite}-wal"), Path(f"{sqlite}-shm"), Path(f"{sqlite}.lock")):
        path.unlink(missing_ok=True)
    if args.pg:
        import asyncpg

        name = f"xeri_fixture_{uuid.uuid4().hex[:8]}"
        admin = args.pg.replace("postgresql://", "postgres://", 1)

        async def run(sql: str) -> None:
            conn = await asyncpg.connect(admin)
            try:
                await conn.execute(sql)
            finally:
                await conn.close()

        asyncio.run(run(f'CREATE DATABASE "{name}"'))
        try:
            url = args.pg.rsplit("/", 1)[0] + "/" + name
            tokens["postgresql"] = asyncio.run(fill(url))
            dump = subprocess.run(["pg_dump", "--no-owner", "--no-privileges", "--format=plain", url],
                                  check=True, capture_output=True, text=True).stdout
            (HERE / "xeri-main-pg.sql").write_text(dump)
        finally:
            asyncio.run(run(f'DROP DATABASE "{name}"'))
    (HERE / "tokens.json").write_text(json.dumps(tokens, indent=1) + "\n")
    print(f"wrote {sqlite.name}" + (", xeri-main-pg.sql" if args.pg else "") + " and tokens.json", file=sys.stderr)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("XERI_DATA_DIR", str(HERE / ".data"))
    sys.exit(main())
