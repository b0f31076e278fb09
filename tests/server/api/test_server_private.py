"""A finished private match stays private (issue 26): shown only to its seats, by their tokens, on every route
that reads matches, and its players' results count in no public list."""

from __future__ import annotations

import json
import os
import random
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from support.server import Player, ThreadServer, create, db_url, play_out

#: every route that reads a match or its table, by table id
READS = ["/api/matches/{id}/record", "/api/matches/{id}/replay", "/api/matches/{id}/review?seat=0",
         "/api/tables/{id}", "/api/tables/{id}/fairness"]


PG_URL = os.environ.get("XERI_TEST_PG_URL")
#: names of this run only: a PostgreSQL database is shared between runs
HIDDEN, SHOWN = f"Kryfi{uuid.uuid4().hex[:6]}", f"Fanera{uuid.uuid4().hex[:6]}"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    if request.param == "postgresql" and not PG_URL:
        if os.environ.get("XERI_REQUIRE_SERVICES"):
            raise AssertionError("XERI_TEST_PG_URL is not set, and XERI_REQUIRE_SERVICES asks for PostgreSQL")
        pytest.skip("needs XERI_TEST_PG_URL (scripts/test.sh starts PostgreSQL)")
    db = PG_URL if request.param == "postgresql" else db_url(tmp_path_factory.mktemp("private"))
    srv = ThreadServer(db).start()
    srv.app.state.ctx.reviews.iterations = 2  # a review builds in moments
    yield srv
    srv.stop()


def _finished(server: ThreadServer, name: str, private: bool) -> tuple[str, str]:
    made = create(server.base, name=name, seats=[None, {"bot": "easy"}], options={"rounds": 1}, private=private,
                  takeover_after=None)
    p = Player(server.ws_base, made["table_id"], made["token"])
    play_out([p], random.Random(5))
    p.close()
    return made["table_id"], made["token"]


@pytest.fixture(scope="module")
def matches(server: ThreadServer) -> dict[str, tuple[str, str]]:
    return {"private": _finished(server, HIDDEN, True), "public": _finished(server, SHOWN, False)}


def _status(server: ThreadServer, path: str, **kwargs: Any) -> int:
    r = httpx.get(server.base + path, timeout=120, **kwargs)  # a review weighs every move: slow while numba compiles
    if r.status_code >= 400:
        assert r.json()["error"]["code"] in ("private_match", "no_such_match"), r.text
    return r.status_code


def test_a_finished_private_match_is_listed_nowhere(server: ThreadServer, matches: dict[str, Any]) -> None:
    secret, public = matches["private"][0], matches["public"][0]
    for query in ("", f"?player={HIDDEN}", "?limit=500"):
        listed = [m["id"] for m in httpx.get(f"{server.base}/api/matches{query}").json()["matches"]]
        assert secret not in listed, query
    assert public in [m["id"] for m in httpx.get(f"{server.base}/api/matches").json()["matches"]]
    names = [p["name"] for p in httpx.get(f"{server.base}/api/players?limit=500").json()["players"]]
    assert HIDDEN not in names  # (SHOWN may rank past 500 on a shared database: its stats show it below)
    assert httpx.get(f"{server.base}/api/players/{HIDDEN}/stats").json()["games"] == 0
    assert httpx.get(f"{server.base}/api/players/{SHOWN}/stats").json()["games"] == 1
    assert secret not in json.dumps(httpx.get(f"{server.base}/api/tables?status=all").json())


@pytest.mark.parametrize("path", READS)
def test_a_finished_private_match_opens_only_to_its_seats(server: ThreadServer, matches: dict[str, Any],
                                                          path: str) -> None:
    (secret, token), (public, _) = matches["private"], matches["public"]
    url = path.format(id=secret)
    sep = "&" if "?" in url else "?"
    assert _status(server, url) == 403
    assert _status(server, f"{url}{sep}token=not-a-seat-token") == 403
    assert _status(server, url, headers={"X-Seat-Token": "not-a-seat-token"}) == 403
    assert _status(server, f"{url}{sep}token={token}") in (200, 202)
    assert _status(server, url, headers={"X-Seat-Token": token}) in (200, 202)
    assert _status(server, url) == 403  # built and cached for its seat, still not for anyone else
    assert _status(server, path.format(id=public)) in (200, 202)  # a public match is open to all


def test_a_spectator_cannot_open_a_finished_private_table(server: ThreadServer, matches: dict[str, Any]) -> None:
    (secret, token), (public, _) = matches["private"], matches["public"]
    with connect(f"{server.ws_base}/ws/tables/{secret}", open_timeout=10) as ws:
        first = json.loads(ws.recv(timeout=10))
        assert first["type"] == "error" and first["code"] == "private_match", first
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
    seat = Player(server.ws_base, secret, token)  # its seat still sees it
    assert seat.sync["seat"] == 0 and seat.sync["view"]["match_over"]
    seat.close()
    watcher = Player(server.ws_base, public)
    assert watcher.sync["seat"] is None
    watcher.close()


def test_a_private_table_in_play_is_still_open_by_its_invite_link(server: ThreadServer) -> None:
    made = create(server.base, name="Ann", players=2, private=True)
    assert httpx.get(f"{server.base}/api/tables/{made['table_id']}").status_code == 200
    watcher = Player(server.ws_base, made["table_id"])
    assert watcher.sync["seat"] is None
    watcher.close()
