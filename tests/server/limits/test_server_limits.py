"""One client cannot crowd the server: caps on tables, connections, hints, match length, replays and requests."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from support.server import Player, ThreadServer, create, db_url, free_port, subprocess_server
from xeri.server.limits.caps import Limits

OTHER = "127.0.0.2"  # a second client address on the loopback


def wait_for(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait until ``condition()`` holds (polled), failing at the deadline."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition did not hold in time"
        time.sleep(0.01)  # poll interval


def post(base: str, path: str, address: str | None = None, **body: Any) -> httpx.Response:
    transport = httpx.HTTPTransport(local_address=address) if address else None
    with httpx.Client(base_url=base, transport=transport, timeout=30) as http:
        return http.post(path, json=body)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    limits = Limits(waiting_per_address=2, playing_per_address=2, ws_per_address=6, ws_per_seat=2,
                    hint_cooldown=60.0, lobby_per_address=2, max_rounds=10, max_target=200,
                    max_replay_bytes=1 << 20, waiting_ttl=3600.0)
    srv = ThreadServer(db_url(tmp_path_factory.mktemp("limits")), limits=limits).start()
    yield srv
    srv.stop()


def test_an_address_holds_only_its_share_of_tables(server: ThreadServer) -> None:
    made = [post(server.base, "/api/tables", OTHER, name=f"w{i}", seats=[None, None]) for i in range(2)]
    assert [r.status_code for r in made] == [201, 201]
    refused = post(server.base, "/api/tables", OTHER, name="w3", seats=[None, None])
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_many_tables"
    assert "waiting" in refused.json()["error"]["message"]
    # Another address is not held back by this one.
    assert post(server.base, "/api/tables", "127.0.0.3", name="x", seats=[None, None]).status_code == 201
    # Leaving one waiting table (it closes) gives its place back.
    first = made[0].json()
    assert post(server.base, f"/api/tables/{first['table_id']}/leave", OTHER, token=first["token"]).status_code == 200
    assert post(server.base, "/api/tables", OTHER, name="w4", seats=[None, None]).status_code == 201


def test_an_address_holds_only_its_share_of_playing_tables(server: ThreadServer) -> None:
    address = "127.0.0.4"
    for _ in range(2):
        assert post(server.base, "/api/tables", address, name="p", seats=[None, {"bot": "easy"}]).status_code == 201
    refused = post(server.base, "/api/tables", address, seats=[{"bot": "easy"}, {"bot": "easy"}])
    assert refused.status_code == 429 and "in play" in refused.json()["error"]["message"]


def test_a_match_too_long_is_refused_at_creation(server: ThreadServer) -> None:
    for body in ({"options": {"rounds": 11}}, {"target": 201}, {"options": {"match_end": "target", "target": 5000}}):
        r = post(server.base, "/api/tables", "127.0.0.5", seats=[{"bot": "easy"}] * 2, **body)
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_ruleset", body
    assert post(server.base, "/api/tables", "127.0.0.5", seats=[{"bot": "easy"}] * 2,
                options={"rounds": 10}).status_code == 201


def test_the_lobby_lists_a_few_tables_per_address(server: ThreadServer) -> None:
    flooder, quiet = "127.0.0.6", "127.0.0.7"
    ids = []
    for i in range(2):
        ids.append(post(server.base, "/api/tables", flooder, name=f"f{i}", seats=[None, None]).json()["table_id"])
    ours = post(server.base, "/api/tables", quiet, name="q", seats=[None, None]).json()["table_id"]
    listed = [t["id"] for t in httpx.get(server.base + "/api/tables").json()["tables"]]
    assert ours in listed and all(i in listed for i in ids)
    per_owner: dict[str, int] = {}
    book = server.lobby.book
    for table_id in listed:
        owner = book.owner(table_id)
        per_owner[owner] = per_owner.get(owner, 0) + 1
    assert per_owner and max(n for owner, n in per_owner.items() if owner is not None) <= 2


def test_connections_per_seat_and_per_address_are_capped(server: ThreadServer) -> None:
    made = create(server.base, name="Eleni", seats=[None, None])
    url = f"{server.ws_base}/ws/tables/{made['table_id']}?token={made['token']}"
    held = [Player(server.ws_base, made["table_id"], made["token"]) for _ in range(2)]
    with connect(url, open_timeout=10) as third:
        message = third.recv(timeout=10)
        assert '"too_many_connections"' in message and "seat" in message
        with pytest.raises(ConnectionClosed) as closed:
            third.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4029
    held.pop().close()
    book = server.lobby.book
    wait_for(lambda: book.seat_sockets.get((made["table_id"], 0), 0) == 1)
    held.append(Player(server.ws_base, made["table_id"], made["token"]))  # the place came back
    # Spectators count toward the address's cap (6): two seat connections and four watchers, then no
    # more; the handshake itself is refused, so a reconnect storm costs the server little.
    watchers = [Player(server.ws_base, made["table_id"]) for _ in range(4)]
    with pytest.raises(InvalidStatus) as refused:
        connect(f"{server.ws_base}/ws/tables/{made['table_id']}", open_timeout=10)
    assert refused.value.response.status_code == 403
    for p in held + watchers:
        p.close()
    wait_for(lambda: book.sockets.get("127.0.0.1", 0) == 0)


def test_an_address_opens_only_so_many_connections_a_second(tmp_path_factory: pytest.TempPathFactory) -> None:
    srv = ThreadServer(db_url(tmp_path_factory.mktemp("opens")), limits=Limits(ws_opens_per_second=0.01),
                       workers=0).start()
    try:
        made = create(srv.base, name="Eleni", seats=[None, None])
        url = f"{srv.ws_base}/ws/tables/{made['table_id']}"
        with connect(url, open_timeout=10) as ws:  # the burst: four times the rate, at least one
            assert '"sync"' in ws.recv(timeout=10)
        with pytest.raises(InvalidStatus) as refused:
            connect(url, open_timeout=10)
        assert refused.value.response.status_code == 403
        # Another address has its own allowance.
        with connect(url, open_timeout=10, source_address=(OTHER, 0)) as ws:
            assert '"sync"' in ws.recv(timeout=10)
    finally:
        srv.stop()


def test_a_seat_gets_one_hint_per_cooldown_over_all_its_connections(server: ThreadServer) -> None:
    made = create(server.base, name="Eleni", seats=[None, {"bot": "easy"}], options={"rounds": 1})
    a = Player(server.ws_base, made["table_id"], made["token"])
    a.wait_view(lambda v: v["turn"] == v["seat"])
    a.send(type="hint", ref=1)
    hint = a.until(lambda m: m.get("ref") == 1)
    assert hint["type"] == "hint" and hint["card"] in a.view["legal_moves"]  # type: ignore[index]
    b = Player(server.ws_base, made["table_id"], made["token"])
    for p in (a, b):
        p.send(type="hint", ref=2)
        refused = p.until(lambda m: m.get("ref") == 2)
        assert refused["type"] == "error" and refused["code"] == "hint_cooldown"
    a.close()
    b.close()


def test_a_replay_is_built_once_then_served_from_the_cache(server: ThreadServer) -> None:
    made = create(server.base, seats=[{"bot": "easy"}, {"bot": "easy"}], options={"rounds": 1})
    table_id = made["table_id"]
    wait_for(lambda: httpx.get(f"{server.base}/api/tables/{table_id}").json()["status"] == "finished", 30)
    replays = server.app.state.ctx.replays
    before = replays.built
    first = httpx.get(f"{server.base}/api/matches/{table_id}/replay", timeout=30)
    second = httpx.get(f"{server.base}/api/matches/{table_id}/replay", timeout=30)
    assert first.status_code == 200 and first.json()["id"] == table_id and len(first.json()["steps"]) > 10
    assert second.content == first.content and replays.built == before + 1


def test_a_replay_over_the_size_cap_is_refused(tmp_path_factory: pytest.TempPathFactory) -> None:
    srv = ThreadServer(db_url(tmp_path_factory.mktemp("replaycap")), limits=Limits(max_replay_bytes=1000),
                       workers=0).start()
    try:
        made = create(srv.base, seats=[{"bot": "easy"}, {"bot": "easy"}], options={"rounds": 1})
        table_id = made["table_id"]
        wait_for(lambda: httpx.get(f"{srv.base}/api/tables/{table_id}").json()["status"] == "finished", 30)
        r = httpx.get(f"{srv.base}/api/matches/{table_id}/replay", timeout=30)
        assert r.status_code == 413 and r.json()["error"]["code"] == "too_large" and "record" in r.text
        assert httpx.get(f"{srv.base}/api/matches/{table_id}/record", timeout=30).status_code == 200
    finally:
        srv.stop()


def test_a_waiting_table_expires(tmp_path_factory: pytest.TempPathFactory) -> None:
    srv = ThreadServer(db_url(tmp_path_factory.mktemp("ttl")), limits=Limits(waiting_ttl=0.3), workers=0).start()
    try:
        made = create(srv.base, name="Eleni", seats=[None, None])
        table_id = made["table_id"]
        wait_for(lambda: httpx.get(f"{srv.base}/api/tables/{table_id}").json()["status"] == "closed")
        assert table_id not in [t["id"] for t in httpx.get(srv.base + "/api/tables").json()["tables"]]
        joined = httpx.post(f"{srv.base}/api/tables/{table_id}/join", json={"name": "Nikos"})
        assert joined.status_code == 409 and joined.json()["error"]["code"] == "not_waiting"
    finally:
        srv.stop()


def test_xeri_serve_closes_half_sent_requests(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The real command: a request that never finishes is closed after --request-timeout."""
    db = db_url(tmp_path_factory.mktemp("slowloris"))
    port = free_port()
    with subprocess_server(db, port, extra=["--request-timeout", "0.5", "--workers", "0"]):
        conns = [socket.create_connection(("127.0.0.1", port)) for _ in range(20)]
        try:
            for c in conns:
                c.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                c.settimeout(10)
            started = time.monotonic()
            assert all(c.recv(100) == b"" for c in conns)
            assert time.monotonic() - started < 5
        finally:
            for c in conns:
                c.close()
        assert httpx.get(f"http://127.0.0.1:{port}/api/health").json() == {"ok": True}
