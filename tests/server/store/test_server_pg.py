"""The same server on PostgreSQL (asyncpg): play, restart, resume, history and stats.

scripts/test.sh starts a throwaway PostgreSQL cluster and sets XERI_TEST_PG_URL;
when it is set, a database that cannot be reached fails this test.
"""

from __future__ import annotations

import os
import random
import uuid

import httpx
import pytest

from support.server import Player, ThreadServer, create
from xeri import record

PG_URL = os.environ.get("XERI_TEST_PG_URL")


@pytest.mark.skipif(
    not PG_URL and not os.environ.get("XERI_REQUIRE_SERVICES"),
    reason="needs XERI_TEST_PG_URL (scripts/test.sh starts PostgreSQL and sets it)",
)
def test_play_restart_and_finish_on_postgresql() -> None:
    assert PG_URL, "scripts/test.sh should have started PostgreSQL and set XERI_TEST_PG_URL"
    name = f"pg-{uuid.uuid4().hex[:8]}"
    rng = random.Random(4)
    srv = ThreadServer(PG_URL).start()
    try:
        made = create(srv.base, name=name, seats=[None, {"bot": "easy"}], options={"rounds": 1})
        tid = made["table_id"]
        p = Player(srv.ws_base, tid, made["token"])
        for _ in range(10):
            view = p.wait_view(lambda v: v["turn"] == 0)
            p.send(type="move", card=rng.choice(view["legal_moves"]), version=p.version)
            p.at_version(p.version + 1)
        before = (p.wait_view(lambda v: v["turn"] == 0), p.version)
        p.close()
    finally:
        srv.stop()
    srv = ThreadServer(PG_URL).start()
    try:
        p = Player(srv.ws_base, tid, made["token"])
        assert (p.sync["view"], p.sync["version"]) == before
        while True:
            view = p.wait_view(lambda v: v["turn"] == 0 or v["match_over"])
            if view["match_over"]:
                break
            p.send(type="move", card=rng.choice(view["legal_moves"]), version=p.version)
            p.at_version(p.version + 1)
        p.close()
        match = record.loads(httpx.get(f"{srv.base}/api/matches/{tid}/record").text)
        assert match.is_over and sum(len(r.moves) for r in match.rounds) == p.version
        stats = httpx.get(f"{srv.base}/api/players/{name}/stats").json()
        assert stats["games"] == 1 and stats["points"] == match.scores[0]
        listed = httpx.get(f"{srv.base}/api/matches", params={"player": name}).json()["matches"]
        assert [m["id"] for m in listed] == [tid]
    finally:
        srv.stop()


@pytest.mark.skipif(
    not PG_URL and not os.environ.get("XERI_REQUIRE_SERVICES"),
    reason="needs XERI_TEST_PG_URL (scripts/test.sh starts PostgreSQL and sets it)",
)
def test_nul_in_a_path_query_or_body_is_a_400_on_postgresql() -> None:
    """PostgreSQL refuses NUL in text: the server refuses it first, with a 4xx, not a 500 from the driver."""
    assert PG_URL, "scripts/test.sh should have started PostgreSQL and set XERI_TEST_PG_URL"
    srv = ThreadServer(PG_URL).start()
    try:
        for method, path in [("GET", "/api/tables/%00"), ("GET", "/api/tables/ab%00cd"),
                             ("GET", "/api/matches?player=%00"), ("GET", "/api/players/a%00/stats"),
                             ("GET", "/api/matches/%00/record"), ("POST", "/api/tables/%00/join")]:
            r = httpx.request(method, srv.base + path, json={"name": "A"})
            assert 400 <= r.status_code < 500 and r.json()["error"]["message"], (path, r.status_code, r.text)
        r = httpx.post(f"{srv.base}/api/tables", json={"name": "Ann", "title": "a\x00b"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
        assert httpx.get(f"{srv.base}/api/health").status_code == 200
    finally:
        srv.stop()


@pytest.mark.skipif(
    not PG_URL and not os.environ.get("XERI_REQUIRE_SERVICES"),
    reason="needs XERI_TEST_PG_URL (scripts/test.sh starts PostgreSQL and sets it)",
)
def test_a_batch_of_moves_is_one_statement_and_a_stale_move_fails_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Concurrent moves share one INSERT (group commit); when one of them is stale, none of that INSERT is
    stored, each move is retried alone, and only the stale one is refused."""
    import asyncio
    import time

    from xeri.server.store import MoveRow, SeatRow, StaleMove, Store, TableRow
    from xeri.server.store import writer as store_module

    assert PG_URL
    batches: list[int] = []
    one_statement = store_module._insert_moves

    async def counted(driver: object, rows: list[dict[str, object]]) -> None:
        await one_statement(driver, rows)
        batches.append(len(rows))  # stored

    monkeypatch.setattr(store_module, "_insert_moves", counted)

    async def scenario() -> tuple[list[object], list[int], list[object]]:
        store = Store(PG_URL)
        await store.open()
        try:
            tid = uuid.uuid4().hex[:16]
            await store.create_table(TableRow(id=tid, status="closed", ruleset="{}", takeover_level="easy",
                                              match_seed="1", salt_key="k", created_at=time.time()),
                                     [SeatRow(tid, 0, True), SeatRow(tid, 1, True)])
            await store.add_move(MoveRow(tid, 0, 0, "TD", None, time.time()))
            fresh = await asyncio.gather(*(store.add_move(MoveRow(tid, i, i % 2, "2C", None, 1.5)) for i in (1, 2)))
            later = (store.add_move(MoveRow(tid, i, i % 2, "3C", "away", 2.5)) for i in (3, 0, 4))
            mixed = await asyncio.gather(*later, return_exceptions=True)
            loaded = await store.load_table(tid)
            assert loaded is not None
            assert [(m.idx, m.card) for m in loaded.moves] == [(0, "TD"), (1, "2C"), (2, "2C"), (3, "3C"), (4, "3C")]
            assert loaded.moves[3].auto == "away" and loaded.moves[1].at == 1.5
            return list(fresh), batches[:], list(mixed)
        finally:
            await store.close()

    fresh, seen, mixed = asyncio.run(scenario())
    assert fresh == [None, None]
    assert mixed[0] is None and isinstance(mixed[1], StaleMove) and mixed[2] is None
    assert seen == [1, 2]  # the first move alone, then the two as one statement; the stale batch of three failed
