"""The pairing routes on a real server (server.pairing.routes, docs/protocol.md "Play online"): two seekers get one
table and each its own seat; cancels, refusals, and a seeker that stops asking is not seated."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.server import AccountClient, Player, ThreadServer, db_url


class Clock:
    """The service's clock, moved by the test (no sleeps)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    srv = ThreadServer(db_url(tmp_path)).start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def clock(server: ThreadServer) -> Clock:
    c = Clock()
    server.app.state.pairing.clock = c
    return c


def seek(server: ThreadServer, status: int = 201, **body: Any) -> dict[str, Any]:
    r = httpx.post(f"{server.base}/api/pairing", json=body, timeout=10)
    assert r.status_code == status, r.text
    return r.json()  # type: ignore[no-any-return]


def state(server: ThreadServer, seek_id: str) -> httpx.Response:
    return httpx.get(f"{server.base}/api/pairing/{seek_id}", timeout=10)


def test_two_seekers_share_one_table_each_with_their_own_seat(server: ThreadServer, clock: Clock) -> None:
    before = httpx.get(f"{server.base}/api/tables?status=all").json()["tables"]
    ada = seek(server, format="xeri-2", name="Ada", key="ada-browser")
    assert ada["status"] == "waiting" and ada["players"] == 1 and ada["typical_wait"] is None
    assert "token" not in {k for k, v in ada.items() if v is not None}
    clock.now += 3
    bo = seek(server, format="xeri-2", name="Bo", key="bo-browser")
    carl = seek(server, format="xeri-2", name="Carl", key="carl-browser")
    assert bo["status"] == "paired" and carl["status"] == "waiting"
    a = state(server, ada["seek_id"]).json()
    assert a["status"] == "paired" and a["table_id"] == bo["table_id"]
    assert {a["seat"], bo["seat"]} == {0, 1} and a["token"] != bo["token"]
    assert state(server, carl["seek_id"]).json()["typical_wait"] == 1.5  # the median of 3 s and 0 s
    tables = httpx.get(f"{server.base}/api/tables?status=all").json()["tables"]
    made = [t for t in tables if t not in before]
    assert len(made) == 1 and made[0]["status"] == "playing" and made[0]["title"] == "Xeri online"
    assert [s["human"] for s in made[0]["seats"]] == [True, True]
    assert sorted(s["name"] for s in made[0]["seats"]) == ["Ada", "Bo"]
    for got in (a, bo):  # each token opens its own seat
        p = Player(server.ws_base, got["table_id"], got["token"])
        try:
            assert p.sync["seat"] == got["seat"]
        finally:
            p.close()


def test_cancel_and_a_second_seek_of_one_browser(server: ThreadServer, clock: Clock) -> None:
    first = seek(server, format="pisti-2", key="one-browser")
    second = seek(server, format="pisti-4", key="one-browser")  # replaces the first
    assert state(server, first["seek_id"]).status_code == 404
    assert second["players"] == 1
    r = httpx.delete(f"{server.base}/api/pairing/{second['seek_id']}", timeout=10)
    assert r.json() == {"cancelled": True}
    assert httpx.delete(f"{server.base}/api/pairing/{second['seek_id']}", timeout=10).json() == {"cancelled": False}
    assert state(server, second["seek_id"]).json()["error"]["code"] == "no_such_seek"
    seek(server, format="pisti-2", key="other-browser")
    assert seek(server, format="pisti-2", key="third-browser")["status"] == "paired"


def test_a_seeker_that_stops_asking_is_not_seated(server: ThreadServer, clock: Clock) -> None:
    gone = seek(server, format="xeri-4", key="gone-browser")
    clock.now += 16
    here = [seek(server, format="xeri-4", key=f"browser-{i}") for i in range(3)]
    assert all(s["status"] == "waiting" and s["players"] <= 3 for s in here)
    assert state(server, gone["seek_id"]).status_code == 404


def test_four_seekers_make_one_table_of_four(server: ThreadServer, clock: Clock) -> None:
    got = [seek(server, format="pisti-4", key=f"browser-{i}") for i in range(4)]
    seated = [state(server, g["seek_id"]).json() for g in got]
    assert len({s["table_id"] for s in seated}) == 1 and sorted(s["seat"] for s in seated) == [0, 1, 2, 3]


def test_rated_needs_an_account_and_a_ratable_format(server: ThreadServer, clock: Clock) -> None:
    refused = seek(server, 401, format="xeri-2", rated=True)
    assert refused["error"]["code"] == "rated_needs_account" and "sign in" in refused["error"]["message"]
    ada, bo = AccountClient(server.base), AccountClient(server.base)
    ada.sign_up("Ada")
    bo.sign_up("Bo")
    r = ada.post("/api/pairing", {"format": "pisti-2", "rated": True})
    assert (r.status_code, r.json()["error"]["code"]) == (400, "not_ratable")
    a = ada.post("/api/pairing", {"format": "xeri-2", "rated": True, "name": "ignored"}).json()
    b = bo.post("/api/pairing", {"format": "xeri-2", "rated": True}).json()
    assert b.get("status") == "paired", b
    table = httpx.get(f"{server.base}/api/tables/{b['table_id']}", timeout=10).json()
    assert table["rated"] == "classic-2p" and sorted(s["name"] for s in table["seats"]) == ["Ada", "Bo"]
    assert (table["ruleset"]["match_end"], table["ruleset"]["target"]) == ("target", 51)  # a standard end (issue 41)
    assert ada.get(f"/api/pairing/{a['seek_id']}").json()["table_id"] == b["table_id"]


def test_a_guest_cannot_accept_a_rated_open_challenge(server: ThreadServer, clock: Clock) -> None:
    """Guests play casual (issue 41): a guest's Accept on a rated challenge (a rated seek in its pool) is a 401 that
    says to sign in, and changes nothing: the challenge still waits, listed, and a casual seek is not paired with it."""
    cy = AccountClient(server.base)
    cy.sign_up("Cy")
    mine = cy.post("/api/pairing", {"format": "xeri-2", "rated": True}).json()
    before = httpx.get(f"{server.base}/api/pairing", timeout=10).json()
    refused = seek(server, 401, format="xeri-2", rated=True, name="Guest Bo", key="bo-browser")
    assert refused["error"]["code"] == "rated_needs_account"
    assert "sign in" in refused["error"]["message"] and "guest plays casual" in refused["error"]["message"]
    assert httpx.get(f"{server.base}/api/pairing", timeout=10).json() == before
    assert cy.get(f"/api/pairing/{mine['seek_id']}").json()["status"] == "waiting"
    casual = seek(server, format="xeri-2", name="Guest Bo", key="bo-browser")  # its own pool: it waits
    assert casual["status"] == "waiting"
    assert cy.get(f"/api/pairing/{mine['seek_id']}").json()["status"] == "waiting"


BAD_BODIES: list[tuple[Any, str]] = [
    ([], "bad_request"), ({}, "bad_format"), ({"format": "chess"}, "bad_format"), ({"format": 2}, "bad_format"),
    ({"format": "xeri-2", "rated": "yes"}, "bad_request"), ({"format": "xeri-2", "name": ""}, "bad_name"),
    ({"format": "xeri-2", "key": "short"}, "bad_request"), ({"format": "xeri-2", "extra": 1}, "bad_request"),
]


def test_bad_bodies_are_refused_and_change_nothing(server: ThreadServer) -> None:
    for body, code in BAD_BODIES:  # one server for all (a server's stop takes seconds)
        r = httpx.post(f"{server.base}/api/pairing", json=body, timeout=10)
        assert (r.status_code, r.json()["error"]["code"]) == (400, code), (body, r.text)
        assert isinstance(r.json()["error"]["message"], str)
    assert len(server.app.state.pairing.pools) == 0


def test_the_pools_say_how_many_wait_in_each(server: ThreadServer, clock: Clock) -> None:
    """GET /api/pairing (issue 41's lively lobby): every pool, casual and rated, and how many wait in it now."""
    def waiting() -> dict[tuple[str, bool], int]:
        r = httpx.get(f"{server.base}/api/pairing", timeout=10)
        assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
        return {(p["format"], p["rated"]): p["waiting"] for p in r.json()["pools"]}

    assert set(waiting().values()) == {0} and len(waiting()) == 8
    seek(server, format="xeri-4", name="Ada", key="ada-browser")
    seek(server, format="xeri-4", name="Bo", key="bo-browser")
    ada = seek(server, format="pisti-2", name="Ada", key="ada-browser")  # one pool a browser: this replaces
    counts = waiting()
    assert counts[("xeri-4", False)] == 1 and counts[("pisti-2", False)] == 1 and sum(counts.values()) == 2
    httpx.delete(f"{server.base}/api/pairing/{ada['seek_id']}", timeout=10)
    assert waiting()[("pisti-2", False)] == 0


def test_open_challenges_show_no_secret_and_the_lobby_counts_who_is_here(server: ThreadServer, clock: Clock) -> None:
    """GET /api/pairing lists the waiting seeks for anyone to accept (issue 41's lobby, as lichess lists seeks):
    the pool, the name, a rated seek's rating and the wait, oldest first; never a seek id, a browser key, a token or
    an account. The players online are the seated players with their table open and the seekers; and tables in
    play."""
    def lobby() -> dict[str, Any]:
        r = httpx.get(f"{server.base}/api/pairing", timeout=10)
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    empty = lobby()
    assert (empty["challenges"], empty["online"], empty["playing"]) == ([], 0, 0)
    ada = seek(server, format="pisti-4", name="Ada", key="ada-secret-browser-key")
    clock.now += 2
    cy = AccountClient(server.base)
    account = cy.sign_up("Cy")
    mine = cy.post("/api/pairing", {"format": "xeri-2", "rated": True}).json()
    clock.now += 3
    got = lobby()
    assert got["challenges"] == [
        {"format": "pisti-4", "rated": False, "name": "Ada", "rating": None, "waited": 5.0},
        {"format": "xeri-2", "rated": True, "name": "Cy", "rating": 1500, "waited": 3.0},
    ]
    assert (got["online"], got["playing"]) == (2, 0)
    text = httpx.get(f"{server.base}/api/pairing", timeout=10).text
    for secret in (ada["seek_id"], mine["seek_id"], "ada-secret-browser-key", cy.cookie, account["csrf"]):
        assert secret and secret not in text, secret
    for word in ("token", "key", "seek_id", "account", "guest:", "penalty"):  # nor the seeker's "who"
        assert word not in text, word
    # Two more make a casual table: it is in play, and its two players are online while their sockets are open.
    bo = seek(server, format="xeri-2", name="Bo", key="bo-browser")
    dee = seek(server, format="xeri-2", name="Dee", key="dee-browser")
    assert dee["status"] == "paired"
    bo = state(server, bo["seek_id"]).json()
    players = [Player(server.ws_base, p["table_id"], p["token"]) for p in (bo, dee)]
    try:
        got = lobby()
        assert (got["online"], got["playing"]) == (4, 1)
        assert [c["name"] for c in got["challenges"]] == ["Ada", "Cy"]  # the paired are no challenge
    finally:
        for p in players:
            p.close()


def test_online_goes_down_when_a_seat_s_socket_closes(server: ThreadServer, clock: Clock) -> None:
    """The players online (issue 41) are people with their table open: a seat whose socket closes is no longer
    counted, one whose socket opens again is. The other seat hears of the going (its seat is not ``connected``) only
    after the count went down, so the test waits on that message, not on time."""
    def online() -> int:
        r = httpx.get(f"{server.base}/api/pairing", timeout=10)
        assert r.status_code == 200, r.text
        return r.json()["online"]  # type: ignore[no-any-return]

    bo = seek(server, format="xeri-2", name="Bo", key="bo-browser")
    dee = seek(server, format="xeri-2", name="Dee", key="dee-browser")
    bo = state(server, bo["seek_id"]).json()
    assert online() == 0  # paired, no socket open yet: no longer seeking, not yet at the table
    dee_socket = Player(server.ws_base, dee["table_id"], dee["token"])
    try:
        assert online() == 1
        bo_socket = Player(server.ws_base, bo["table_id"], bo["token"])
        dee_socket.until(lambda m: m["type"] == "table" and m["table"]["seats"][bo["seat"]]["connected"])
        assert online() == 2
        bo_socket.close()
        dee_socket.until(lambda m: m["type"] == "table" and not m["table"]["seats"][bo["seat"]]["connected"])
        assert online() == 1
        back = Player(server.ws_base, bo["table_id"], bo["token"])  # a reload: counted again, once
        try:
            assert online() == 2
        finally:
            back.close()
    finally:
        dee_socket.close()


def test_the_invite_s_qr_code_draws_only_this_server_s_links(server: ThreadServer) -> None:
    """GET /api/qr.svg (issue 41): a friends' table's link as a QR code; another site's link, a link that is not
    http(s), or one over 300 characters is a 400 that draws nothing."""
    host = server.base.split("://", 1)[1]
    link = f"{server.base}/#/t/abcdef"
    r = httpx.get(f"{server.base}/api/qr.svg", params={"url": link}, timeout=10)
    assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
    assert r.text.startswith("<svg") and 'class="segno"' in r.text
    other = httpx.get(f"{server.base}/api/qr.svg", params={"url": f"{server.base}/#/t/abcdeg"}, timeout=10)
    assert other.text != r.text  # each link draws its own
    for bad in ("https://evil.example/#/t/abcdef", f"javascript://{host}/%0aalert(1)", f"{link}{'x' * 300}", "",
                f"http://{host}.evil.example/"):
        refused = httpx.get(f"{server.base}/api/qr.svg", params={"url": bad}, timeout=10)
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_request", bad
