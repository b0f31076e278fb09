"""Atomic writes: a write the database refuses changes nothing, in memory or stored; a finished match ends.

Failures are injected into the store itself (each write fails once, then the
client retries), not only by killing the process (test_server_restart.py).
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.server import Player, ThreadServer, create, db_url
from xeri import record
from xeri.server.store import Store, StoreUnavailable


class Faults:
    """Wraps a store's writes: each write whose number is in ``fail`` raises before it reaches the database."""

    def __init__(self, store: Store) -> None:
        self.count = 0
        self.fail: set[int] = set()
        self.every_other = False
        self._write = store.write
        store.write = self.write  # type: ignore[method-assign]

    async def write(self, *statements: Any, **kw: Any) -> None:
        self.count += 1
        if self.count in self.fail or (self.every_other and self.count % 2 == 1):
            raise StoreUnavailable("the database is unavailable: injected fault")
        await self._write(*statements, **kw)


@pytest.fixture
def faulty(tmp_path: Path) -> Iterator[tuple[ThreadServer, Faults]]:
    srv = ThreadServer(db_url(tmp_path))
    faults = Faults(srv.app.state.store)
    srv.start()
    yield srv, faults
    srv.stop()


def _refused(r: httpx.Response) -> None:
    assert r.status_code == 503, r.text
    assert r.json()["error"]["code"] == "unavailable" and "nothing changed" in r.json()["error"]["message"]


def test_each_write_that_fails_once_changes_nothing_and_the_retry_goes_through(
        faulty: tuple[ThreadServer, Faults], tmp_path: Path) -> None:
    srv, faults = faulty
    base = srv.base
    faults.every_other = True  # every write fails on its first try
    body = {"name": "Ann", "players": 2, "options": {"rounds": 1}, "takeover_after": None}
    _refused(httpx.post(f"{base}/api/tables", json=body))
    assert httpx.get(f"{base}/api/tables?status=all").json()["tables"] == []
    made = httpx.post(f"{base}/api/tables", json=body)
    assert made.status_code == 201
    tid = made.json()["table_id"]
    # A join that fills the table (and so starts it) fails: the seat is free again, the table waits.
    _refused(httpx.post(f"{base}/api/tables/{tid}/join", json={"name": "Bob"}))
    info = httpx.get(f"{base}/api/tables/{tid}").json()
    assert info["status"] == "waiting" and info["free_seats"] == [1]
    joined = httpx.post(f"{base}/api/tables/{tid}/join", json={"name": "Bob"})
    assert joined.status_code == 200 and joined.json()["table"]["status"] == "playing"
    tokens = {0: made.json()["token"], 1: joined.json()["token"]}
    players = {s: Player(srv.ws_base, tid, t) for s, t in tokens.items()}
    rng = random.Random(3)
    watcher = players[0]
    moves = 0
    while not watcher.wait_view(lambda v: True)["match_over"]:
        view = watcher.view
        assert view is not None
        p = players[view["turn"]]
        p.at_version(watcher.version)
        assert p.view is not None
        version, hand = p.version, list(p.view["hand"])
        card = rng.choice(p.view["legal_moves"])
        p.send(type="move", card=card, version=version)
        assert p.error()["code"] == "unavailable"
        p.send(type="sync")
        again = p.until(lambda m: m["type"] == "sync")
        assert again["version"] == version and again["view"]["hand"] == hand, "a refused move changed the table"
        if moves == 0 or view["hand_counts"] == [1, 0] or view["hand_counts"] == [0, 1]:
            assert httpx.get(f"{base}/api/tables/{tid}").json()["status"] == "playing"
            assert httpx.get(f"{base}/api/matches/{tid}/record").status_code == 409
        p.send(type="move", card=card, version=version)
        watcher.at_version(version + 1)
        moves += 1
    for p in players.values():
        p.close()
    faults.every_other = False
    assert httpx.get(f"{base}/api/tables/{tid}").json()["status"] == "finished"
    match = record.loads(httpx.get(f"{base}/api/matches/{tid}/record").text)
    assert match.is_over and sum(len(r.moves) for r in match.rounds) == moves == watcher.version
    stats = httpx.get(f"{base}/api/players/Ann/stats").json()
    assert stats["games"] == 1


def test_a_refused_leave_keeps_the_seat(faulty: tuple[ThreadServer, Faults]) -> None:
    srv, faults = faulty
    made = create(srv.base, name="Ann", players=2)
    tid, token = made["table_id"], made["token"]
    faults.fail = {faults.count + 1}
    _refused(httpx.post(f"{srv.base}/api/tables/{tid}/leave", json={"token": token}))
    info = httpx.get(f"{srv.base}/api/tables/{tid}").json()
    assert info["status"] == "waiting" and info["seats"][0]["name"] == "Ann"
    assert httpx.post(f"{srv.base}/api/tables/{tid}/leave", json={"token": token}).status_code == 200
    assert httpx.get(f"{srv.base}/api/tables/{tid}").json()["status"] == "closed"


def test_a_bot_move_the_database_refused_is_tried_again(faulty: tuple[ThreadServer, Faults]) -> None:
    srv, faults = faulty
    made = create(srv.base, name="Ann", seats=[None, {"bot": "easy"}], takeover_after=None)
    tid = made["table_id"]
    srv.lobby.tables[tid].autoplay.retry_after = 0.05
    p = Player(srv.ws_base, tid, made["token"])
    view = p.wait_view(lambda v: v["turn"] is not None)
    if view["turn"] == 1:  # the bot moves first: let its first move fail
        faults.fail = {faults.count + 1}
    else:
        faults.fail = {faults.count + 2}  # our move goes through, the bot's answer fails once
        p.send(type="move", card=view["legal_moves"][0], version=p.version)
    before = faults.count
    p.wait_view(lambda v: v["turn"] == 0 and p.version >= 1 + (view["turn"] == 0))
    assert faults.count >= before + 1 and faults.fail <= set(range(1, faults.count + 1))
    p.close()


def test_startup_finishes_a_table_whose_stored_moves_end_the_match(tmp_path: Path) -> None:
    db = db_url(tmp_path)
    srv = ThreadServer(db).start()
    made = create(srv.base, name="Ann", seats=[None, {"bot": "easy"}], options={"rounds": 1}, takeover_after=None)
    tid = made["table_id"]
    p = Player(srv.ws_base, tid, made["token"])
    while not (view := p.wait_view(lambda v: v["turn"] == 0 or v["match_over"]))["match_over"]:
        p.send(type="move", card=view["legal_moves"][0], version=p.version)
        p.at_version(p.version + 1)
    p.close()
    srv.stop()
    # As an older server could leave it: every move stored, the match's end not.
    with sqlite3.connect(tmp_path / "server.sqlite3") as con:
        con.execute("UPDATE xeri_tables SET status='playing', finished_at=NULL, result=NULL, record=NULL")
        con.execute("DELETE FROM xeri_results")
    srv = ThreadServer(db).start()
    try:
        assert httpx.get(f"{srv.base}/api/tables/{tid}").json()["status"] == "finished"
        assert record.loads(httpx.get(f"{srv.base}/api/matches/{tid}/record").text).is_over
        assert httpx.get(f"{srv.base}/api/players/Ann/stats").json()["games"] == 1
        assert tid not in srv.lobby.tables  # finished and nobody watching: not kept in memory
    finally:
        srv.stop()


def test_retryable_refusals_do_not_close_the_socket_as_a_flood(faulty: tuple[ThreadServer, Faults]) -> None:
    """While the database is away, a client may keep retrying: 'unavailable' is not the client's fault."""
    srv, faults = faulty
    made = create(srv.base, name="Ann", seats=[None, {"bot": "easy"}], takeover_after=None)
    p = Player(srv.ws_base, made["table_id"], made["token"])
    view = p.wait_view(lambda v: v["turn"] == 0)
    faults.every_other = False
    faults.fail = set(range(faults.count + 1, faults.count + 400))
    for _ in range(210):  # more than the 200 rejected messages in a row that close a flooding socket
        p.send(type="move", card=view["legal_moves"][0], version=p.version)
        refused = p.error()
        assert refused["code"] == "unavailable" and refused.get("retry") is True, refused
    faults.fail = set()
    version = p.version
    p.send(type="move", card=view["legal_moves"][0], version=version)
    p.wait_view(lambda v: p.version > version)
    p.close()
