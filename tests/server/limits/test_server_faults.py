"""Issue 26's availability and fault findings: what one client (or a fault) may cost a server, counted, not timed.

The timings (a victim's p99 beside each abuse) are in benchmarks/abuse_server.py; here each promise is held
by counting the work done: syncs built per table version, finished matches rebuilt, rematch tables made.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.middleware.gzip import GZipResponder
from websockets.exceptions import ConnectionClosed

from support.server import LIFTED, Player, ThreadServer, create, db_url, play_out
from xeri.server import create_app
from xeri.server.broker.envelope import Envelope
from xeri.server.config import ServerConfig, Storage
from xeri.server.socket.connection import Client
from xeri.server.store import StoreUnavailable
from xeri.server.table import Table, views


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    srv = ThreadServer(db_url(tmp_path_factory.mktemp("faults"))).start()
    yield srv
    srv.stop()


def finished_bots_match(base: str, players: int = 4, rounds: int = 2) -> str:
    """A finished match of easy bots; its id."""
    made = create(base, players=players, seats=[{"bot": "easy"}] * players, options={"rounds": rounds})
    watcher = Player(base.replace("http://", "ws://"), made["table_id"])
    watcher.wait_view(lambda v: v["match_over"], timeout=60)
    watcher.close()
    return str(made["table_id"])


def finished_human_match(srv: ThreadServer) -> tuple[str, str]:
    """A finished match of a person (played here) against a bot; its id and the person's token."""
    made = create(srv.base, name="Ann", seats=[None, {"bot": "easy"}], options={"rounds": 1})
    p = Player(srv.ws_base, made["table_id"], made["token"])
    play_out([p], random.Random(3))
    p.close()
    return str(made["table_id"]), str(made["token"])


def test_a_sync_flood_builds_one_sync_per_table_version(server: ThreadServer,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    table_id = finished_bots_match(server.base)
    built = []
    real = views.sync_parts

    def counted(*args: Any, **kwargs: Any) -> Any:
        built.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(views, "sync_parts", counted)
    spectators = [Player(server.ws_base, table_id) for _ in range(4)]
    texts = set()
    for p in spectators:
        for _ in range(10):
            p.send(type="sync")
        p.send(type="ping")  # answered after the ten requests were handled
        p.until(lambda m: m["type"] == "pong")
        # The connection's own sync, and at most one more a second: each repeat meanwhile gets a short error.
        syncs = [m for m in p.messages if m["type"] == "sync"]
        unchanged = [m for m in p.messages if m.get("code") == "sync_unchanged"]
        assert len(syncs) <= 2 and len(syncs) + len(unchanged) == 11, "an unchanged sync was sent again at once"
        texts.update(json.dumps(m) for m in syncs)
    for p in spectators:
        p.close()
    assert len(texts) == 1, "the spectators' syncs of one finished table differ"
    # 4 connections and 40 requests, one table version: the spectator's events are built once.
    assert len(built) <= 1, f"the spectators' sync was rebuilt {len(built)} times at one version"


def test_a_finished_match_is_rebuilt_once_and_off_the_event_loop(server: ThreadServer,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    table_id = finished_bots_match(server.base)
    getattr(server.lobby, "finished", {}).pop(table_id, None)  # as if it had been evicted (or the server restarted)
    rebuilds: list[threading.Thread] = []
    real = Table.replay

    def counted(self: Table, moves: Any) -> None:
        rebuilds.append(threading.current_thread())
        real(self, moves)

    monkeypatch.setattr(Table, "replay", counted)
    for _ in range(4):
        assert httpx.get(f"{server.base}/api/tables/{table_id}").json()["status"] == "finished"
        assert httpx.get(f"{server.base}/api/tables/{table_id}/fairness").status_code == 200
        Player(server.ws_base, table_id).close()
    assert len(rebuilds) == 1, f"the finished match was replayed {len(rebuilds)} times"
    assert rebuilds[0] is not server.thread, "the finished match was replayed on the event loop's thread"


def test_a_rematch_race_makes_one_table_and_it_counts_for_the_address(tmp_path: Path) -> None:
    limits = dataclasses.replace(LIFTED, playing_per_address=2, ws_per_seat=8)
    srv = ThreadServer(db_url(tmp_path), limits=limits).start()
    try:
        table_id, token = finished_human_match(srv)
        sockets = [Player(srv.ws_base, table_id, token) for _ in range(4)]
        for p in sockets:
            p.send(type="rematch")
        for p in sockets:
            p.send(type="ping")  # answered once the offer before it was handled
        for p in sockets:
            p.until(lambda m: m["type"] == "pong")
        made = [t.id for t in list(srv.lobby.tables.values()) if t.id != table_id]
        assert len(made) == 1, f"four offers at once made {len(made)} rematch tables"
        for p in sockets:
            p.close()
        # The rematch table is the address's one table in play: one more is allowed, a third is not.
        body = {"name": "Ann", "seats": [None, {"bot": "easy"}]}
        assert httpx.post(f"{srv.base}/api/tables", json=body).status_code == 201
        refused = httpx.post(f"{srv.base}/api/tables", json=body)
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_many_tables"
    finally:
        srv.stop()


def test_leaving_a_finished_table_is_refused(server: ThreadServer) -> None:
    table_id, token = finished_human_match(server)
    r = httpx.post(f"{server.base}/api/tables/{table_id}/leave", json={"token": token})
    assert r.status_code == 409, r.text
    assert r.json()["error"]["code"] == "game_over" and "finished" in r.json()["error"]["message"]


def test_a_read_during_a_database_outage_does_not_say_could_not_be_stored(server: ThreadServer,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    async def down(*_args: Any, **_kwargs: Any) -> Any:
        raise StoreUnavailable("the database is unavailable: connection refused")

    monkeypatch.setattr(server.app.state.store, "finished_matches", down)
    r = httpx.get(f"{server.base}/api/matches")
    assert r.status_code == 503
    message = r.json()["error"]["message"]
    assert "stored" not in message and "connection refused" in message and r.json()["error"]["retry"] is True


@pytest.mark.parametrize("parts", [[b"{"], [], [b'{"name": "A', b"nn"]],
                         ids=["half-sent", "no-body", "broken-chunks"])
def test_a_client_gone_before_its_body_is_whole_is_not_an_error(tmp_path: Path, parts: list[bytes]) -> None:
    """What uvicorn hands the app when a client stops mid-body (or its chunked body does not parse)."""
    app = create_app(ServerConfig(storage=Storage(db=db_url(tmp_path)), limits=LIFTED))
    events = [{"type": "http.request", "body": p, "more_body": True} for p in parts]
    events.append({"type": "http.disconnect"})
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return events.pop(0) if events else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "http", "path": "/api/tables", "raw_path": b"/api/tables", "query_string": b"",
             "root_path": "", "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"),
                                          (b"content-length", b"100")],
             "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 80), "app": app, "state": {}}
    asyncio.run(app(scope, receive, send))  # on main: ClientDisconnect, which uvicorn logs as a traceback
    start = next(m for m in sent if m["type"] == "http.response.start")
    assert start["status"] == 400


def test_a_text_frame_that_is_not_utf8_closes_1007_and_logs_nothing(server: ThreadServer) -> None:
    made = create(server.base, seats=[{"bot": "easy"}] * 2, options={"rounds": 1})
    p = Player(server.ws_base, made["table_id"])
    p.ws.send(b"\xff\xfe{", text=True)
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            p.ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
    # The traceback check (tests/support/logs.py) fails this test if the server logged one.


def test_a_replay_is_compressed_once_not_per_request(server: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    table_id = finished_bots_match(server.base)
    compressed: list[int] = []
    real = GZipResponder._compress_body

    def counted(self: GZipResponder, body: bytes, more_body: bool) -> bytes:
        compressed.append(len(body))
        return real(self, body, more_body)

    monkeypatch.setattr(GZipResponder, "_compress_body", counted)
    bodies = []
    for _ in range(3):
        r = httpx.get(f"{server.base}/api/matches/{table_id}/replay", headers={"Accept-Encoding": "gzip"}, timeout=30)
        assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
        bodies.append(r.json())
    plain = httpx.get(f"{server.base}/api/matches/{table_id}/replay", headers={"Accept-Encoding": "identity"},
                      timeout=30)
    assert "content-encoding" not in plain.headers and plain.json() == bodies[0] == bodies[2]
    assert len(bodies[0]["steps"]) > 10
    # On main the gzip middleware compressed the whole replay (megabytes, at level 9) for every request.
    assert sum(compressed) == 0, f"{sum(compressed)} bytes of replay were gzipped again per request"


def test_a_sync_still_queued_answers_a_second_request_for_it() -> None:
    """A client that asks faster than it reads does not pile up copies of one sync in its queue."""

    class Quiet:
        id = "t"

    async def run() -> list[bytes]:
        client = Client(Any, Quiet(), None)  # type: ignore[arg-type]
        same = Envelope.sync(3, {"type": "sync", "version": 3})
        client.deliver(same)
        client.deliver(same)
        client.deliver(Envelope.sync(4, {"type": "sync", "version": 4}))
        return [client.out.get_nowait() or b"" for _ in range(client.out.qsize())]

    queued = asyncio.run(run())
    assert [json.loads(t)["version"] for t in queued] == [3, 4]
