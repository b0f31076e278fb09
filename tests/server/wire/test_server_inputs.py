"""Bad input gets a clear 4xx (or a socket error message) and changes nothing; a read-only database gets 503.

The shapes of issue 11 §7: an integer of thousands of digits, JSON nested
100,000 deep, a lone surrogate, NUL in a path or query, a read-only
database; then hypothesis over those shapes, over HTTP and the socket.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from support.server import Player, ThreadServer, create, db_url

HUGE = "9" * 5000
DEEP = "[" * 100_000 + "]" * 100_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    srv = ThreadServer(db_url(tmp_path_factory.mktemp("inputs"))).start()
    yield srv
    srv.stop()


def _state(srv: ThreadServer) -> Any:
    """What a bad request must not change: every table's public description, and the finished matches."""
    tables = httpx.get(f"{srv.base}/api/tables?status=all").json()["tables"]
    return sorted(json.dumps(t, sort_keys=True) for t in tables), httpx.get(f"{srv.base}/api/matches").json()


def _post(srv: ThreadServer, path: str, raw: str | bytes) -> httpx.Response:
    return httpx.post(srv.base + path, content=raw, headers={"Content-Type": "application/json"}, timeout=30)


def _refused(r: httpx.Response, *codes: str) -> dict[str, Any]:
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:300])
    error = r.json()["error"]
    assert error["message"] and (not codes or error["code"] in codes), error
    return error  # type: ignore[no-any-return]


@pytest.mark.parametrize("raw", [
    '{"players": ' + HUGE + '}',
    '{"name": "Ann", "seat": -' + HUGE + '}',
    '{"turn_timer": 1e999}',
    '{"turn_timer": NaN}',
    DEEP,
    '{"options": ' + "[" * 5000 + "]" * 5000 + '}',
    '{"name": "Ann", "title": "\\ud800"}',
    '{"name": "Ann", "title": "a\\u0000b"}',
    b'{"name": "\xff\xfe"}',
], ids=["huge-int", "huge-negative-seat", "infinity", "nan", "deep-100000", "deep-5000", "lone-surrogate", "nul",
        "not-utf8"])
def test_a_bad_create_body_is_a_400_and_changes_nothing(server: ThreadServer, raw: str | bytes) -> None:
    before = _state(server)
    _refused(_post(server, "/api/tables", raw), "bad_json", "bad_request")
    assert _state(server) == before


def test_bad_bodies_elsewhere_are_400s(server: ThreadServer) -> None:
    made = create(server.base, name="Ann", players=2)
    tid = made["table_id"]
    before = _state(server)
    for path in (f"/api/tables/{tid}/join", f"/api/tables/{tid}/leave", "/api/verify"):
        for raw in ('{"seat": ' + HUGE + ', "name": "B"}', DEEP, '{"name": "\\udfff"}', '{"seed": ' + "1" * 45 + "}"):
            _refused(_post(server, path, raw))
    # A long but allowed integer seed: a clear verdict, not a crash.
    r = httpx.post(f"{server.base}/api/verify", json={"seed": 10**39, "dealer": 0, "salt": "s", "commitment": "c"})
    assert r.status_code == 200 and r.json()["ok"] is False
    assert _state(server) == before


@pytest.mark.parametrize("path", [
    "/api/tables/%00", "/api/tables/a%00b/join", "/api/matches?player=%00", "/api/players/%00/stats",
    "/api/matches/%00/record", "/api/matches/%00/replay", "/api/tables?status=%00", "/api/tables/%ED%A0%80",
])
def test_nul_in_a_path_or_query_is_refused(server: ThreadServer, path: str) -> None:
    r = httpx.request("POST" if path.endswith("/join") else "GET", server.base + path, json={"name": "A"})
    _refused(r)


def test_the_socket_answers_bad_frames_with_errors_and_stays_open(server: ThreadServer) -> None:
    made = create(server.base, name="Ann", players=2)
    p = Player(server.ws_base, made["table_id"], made["token"])
    for raw, code in [("[" * 2000 + "]" * 2000, "bad_json"),
                      ('{"type": "ping", "ref": ' + HUGE[:4000] + "}", "bad_json"),
                      ('{"type": "move", "card": "\\ud800", "version": 0}', "bad_request"),
                      ('{"type": "move", "card": "TD", "version": 1e999}', "bad_json"),
                      ("[" * 60_000, "too_large")]:
        p.send_raw(raw)
        assert p.error()["code"] == code
    p.send(type="ping", ref="alive")
    assert p.until(lambda m: m["type"] == "pong")["ref"] == "alive"
    p.close()
    with connect(f"{server.ws_base}/ws/tables/%00", open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10))["code"] == "no_such_table"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4004
    # 100,000 deep is over the frame limit: the socket closes with code 1009 and a reason.
    with connect(f"{server.ws_base}/ws/tables/{made['table_id']}", open_timeout=10, max_size=None) as ws:
        ws.recv(timeout=10)  # the sync
        ws.send(DEEP)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009 and closed.value.rcvd.reason


# --- hypothesis over those shapes -----------------------------------------------------

scalars = (st.none() | st.booleans() | st.integers(-(10**50), 10**50) | st.text(max_size=6)
           | st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from(["\ud800", "\x00", "a\udfffb"]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.sampled_from(["name", "seat", "title", "players", "ruleset", "options",
                                                         "seats", "token", "record", "seed"]), inner, max_size=3),
                      max_leaves=8)


def _dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=True).encode()


bodies = st.one_of(
    values.map(_dumps),
    st.integers(1, 3000).map(lambda n: ("[" * n + "]" * n).encode()),
    st.integers(40, 6000).map(lambda n: b'{"players": ' + b"7" * n + b"}"),
    st.sampled_from([b'{"title": "\\ud800"}', b'{"name": "x\\u0000"}', b"1e999", b"-Infinity", b"\xff", b"{"]),
)
paths = st.sampled_from(["/api/tables", "/api/tables/{tid}/join", "/api/tables/{tid}/leave", "/api/verify",
                         "/api/tables/%00/join", "/api/tables/{tid}%00/leave"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=paths, body=bodies)
def test_any_body_to_any_write_route_is_answered_without_a_500(server: ThreadServer, path: str, body: bytes) -> None:
    tid = getattr(server, "_fuzz_table", None)
    if tid is None:
        tid = server._fuzz_table = create(server.base, players=2)["table_id"]  # type: ignore[attr-defined]
    r = _post(server, path.format(tid=tid), body)
    assert r.status_code < 500, r.text[:300]
    assert r.headers["content-type"].startswith("application/json")
    if r.status_code >= 400:
        assert r.json()["error"]["code"]


def test_a_read_only_database_gets_503_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    srv = ThreadServer(db_url(tmp_path)).start()
    made = create(srv.base, name="Ann", players=2)
    srv.stop()
    srv = ThreadServer(f"sqlite:///file:{path}?mode=ro&uri=true").start()
    try:
        r = httpx.post(f"{srv.base}/api/tables", json={"name": "Bob", "players": 2})
        assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable"
        assert "readonly" in r.json()["error"]["message"]
        r = httpx.post(f"{srv.base}/api/tables/{made['table_id']}/join", json={"name": "Bob"})
        assert r.status_code == 503 and "nothing changed" in r.json()["error"]["message"]
        info = httpx.get(f"{srv.base}/api/tables/{made['table_id']}").json()
        assert info["status"] == "waiting" and info["free_seats"] == [1]
    finally:
        srv.stop()
