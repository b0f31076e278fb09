"""Accounts in a cluster (docs/accounts.md): the sessions live in the database every process shares, a seat bound
to an account is so at every process (a replica checks a token's account too), and the sign-in counts are one
count in Redis. PostgreSQL and Redis come from scripts/test.sh."""

from __future__ import annotations

import asyncio
import json
import secrets

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from support.cluster import REDIS_URL, Cluster, lease_owner, node_id, poll
from support.server import AccountClient, Player, play_to_the_end, reviewed
from xeri.server.limits.caps import LimitExceeded, Limits
from xeri.server.limits.sign_in import AccountLimits

PASSWORD = "a good long password"


def test_two_processes_share_sessions_and_seat_bindings(database: str) -> None:
    assert REDIS_URL
    cluster = Cluster(database, REDIS_URL, n=2)
    a, b = cluster.nodes
    try:
        ada = AccountClient(a.base)
        ada.sign_up("Ada", PASSWORD)
        # The cookie made by one process signs in at the other: the session is a row of the shared database.
        at_b = httpx.Client(base_url=b.base, cookies={"xeri_session": ada.cookie or ""})
        assert at_b.get("/api/account").json()["name"] == "Ada"
        made = ada.post("/api/tables", {"name": "Ada", "seats": [None, None]}).json()
        tid, token = made["table_id"], made["token"]
        # Bob, signed in at the other process, joins: the owner (a) binds the seat to him.
        bob = AccountClient(b.base)
        bob.sign_up("Bob", PASSWORD)
        joined = bob.post(f"/api/tables/{tid}/join", {"name": "typed"}).json()
        assert joined["seat"] == 1 and joined["table"]["seats"][1]["name"] == "Bob"
        bob_at_a = AccountClient(a.base)
        bob_at_a.http.cookies.set("xeri_session", bob.cookie or "")
        assert [(t["table_id"], t["seat"]) for t in bob_at_a.get("/api/account/tables").json()["tables"]] == [(tid, 1)]
        # At the process that does not own the table, Ada's token with Bob's session is refused...
        with connect(f"{b.ws}/ws/tables/{tid}?token={token}",
                     additional_headers={"Cookie": f"xeri_session={bob.cookie}"}) as ws:
            assert json.loads(ws.recv(timeout=10))["code"] == "bad_token"
            with pytest.raises(ConnectionClosed):
                ws.recv(timeout=10)
        # ... and her own session there opens her seat without the token (another device).
        there = Player(b.ws, tid, cookie=ada.cookie, query="account=1")
        assert there.sync["seat"] == 0
        there.close()
        # Signing out at one process ends the session at both.
        assert at_b.post("/api/account/signout", headers={"x-csrf-token": ada.csrf or ""}).status_code == 200
        assert ada.get("/api/account").json()["signed_in"] is False
    finally:
        cluster.stop()


def test_a_claim_and_a_leave_by_the_session_at_a_process_not_owning_the_table(database: str) -> None:
    """A guest's table in play, owned by a, claimed at b: b asks the owner, which binds the seat; then the session
    gives the seat up at b (no token), again through the owner."""
    assert REDIS_URL
    cluster = Cluster(database, REDIS_URL, n=2)
    a, b = cluster.nodes
    try:
        guest = httpx.post(f"{a.base}/api/tables", json={"name": "Ann", "seats": [None, {"bot": "easy"}]}).json()
        tid, token = guest["table_id"], guest["token"]
        ann = AccountClient(b.base)
        ann.sign_up("Ann", PASSWORD)
        assert lease_owner(database, tid) == node_id(a)  # b does not own it: it forwards
        r = ann.post("/api/account/claim", {"seats": [{"table_id": tid, "token": token}]})
        assert r.status_code == 200 and r.json()["claimed"] == [{"table_id": tid, "seat": 0, "status": "playing"}]
        assert lease_owner(database, tid) == node_id(a)
        # The owner holds the binding: at a, the bare token is refused now, and Ann's session opens the seat.
        with connect(f"{a.ws}/ws/tables/{tid}?token={token}") as ws:
            assert json.loads(ws.recv(timeout=10))["code"] == "bad_token"
        there = Player(a.ws, tid, cookie=ann.cookie, query="account=1")
        assert there.sync["seat"] == 0
        there.close()
        bob = AccountClient(b.base)
        bob.sign_up("Bob", PASSWORD)
        assert bob.post("/api/account/leave", {"table_id": tid}).status_code == 403
        assert lease_owner(database, tid) == node_id(a)  # the sockets at a kept it there
        r = ann.post("/api/account/leave", {"table_id": tid})
        assert r.status_code == 200 and r.json()["table"]["seats"][0]["bot"] is not None, r.text
        assert ann.get("/api/account/tables").json()["tables"] == []
        gone = Player(a.ws, tid, cookie=ann.cookie, query="account=1")
        assert gone.sync["seat"] is None  # a seat given up opens to nobody: a spectator's view
        gone.close()
    finally:
        cluster.stop()


def test_sign_in_counts_are_one_count_across_processes_in_redis() -> None:
    assert REDIS_URL
    from limits.storage import storage_from_string

    prefix = f"xeri-test-{secrets.token_hex(4)}"
    limits = Limits(signins_per_name=3)

    async def run() -> list[bool]:
        storages = [storage_from_string(f"async+{REDIS_URL}", implementation="redispy", key_prefix=prefix)
                    for _ in range(2)]
        processes = [AccountLimits(limits, s) for s in storages]
        out = []
        for i in range(4):  # alternating between the two "processes", from four addresses
            try:
                await processes[i % 2].signin(f"203.0.113.{i}", "ada")
                out.append(True)
            except LimitExceeded:
                out.append(False)
        return out

    assert asyncio.run(run()) == [True, True, True, False]

    async def owner() -> list[bool]:
        """The name spent above: the owner's known browser (its device cookie's id) still passes, on either process,
        with its own count of three across both (issue 42)."""
        storages = [storage_from_string(f"async+{REDIS_URL}", implementation="redispy", key_prefix=prefix)
                    for _ in range(2)]
        processes = [AccountLimits(limits, s) for s in storages]
        out = []
        for i in range(4):
            try:
                await processes[i % 2].signin("198.51.100.1", "ada", device="owner-device")
                out.append(True)
            except LimitExceeded:
                out.append(False)
        return out

    assert asyncio.run(owner()) == [True, True, True, False]


def test_a_name_deleted_at_one_process_leaves_every_cache_of_the_others(database: str) -> None:
    """Issue 42, finding 11, across processes: a caches a finished table of Adalinde's, its replay (gzip and
    identity) and its review; the account is deleted through b. b's ``Forget`` on the control channel makes a drop
    them all, so a shows the name nowhere (before, only the deleting process dropped its copies)."""
    assert REDIS_URL
    cluster = Cluster(database, REDIS_URL, n=2)
    a, b = cluster.nodes
    try:
        ada = AccountClient(a.base)
        ada.sign_up("Adalinde", PASSWORD)
        made = ada.post("/api/tables", {"options": {"rounds": 1}, "seats": [None, {"bot": "easy"}],
                                        "name": "Adalinde"}).json()
        tid = made["table_id"]
        player = ada.player(a.ws, tid, token=made["token"])
        play_to_the_end(player, player.sync["seat"])
        player.close()
        poll("the match stored as finished",
             lambda: httpx.get(f"{a.base}/api/tables/{tid}").json()["status"] == "finished")
        url = f"{a.base}/api/matches/{tid}"

        def shown() -> dict[str, str]:
            return {"table": httpx.get(f"{a.base}/api/tables/{tid}").text,
                    "replay gzip": httpx.get(f"{url}/replay", headers={"Accept-Encoding": "gzip"}).text,
                    "replay identity": httpx.get(f"{url}/replay", headers={"Accept-Encoding": "identity"}).text,
                    "review": reviewed(url)}

        assert all("Adalinde" in text for text in shown().values())  # each built and kept at a
        at_b = AccountClient(b.base)
        at_b.sign_in("Adalinde", PASSWORD)
        assert at_b.post("/api/account/delete", {"password": PASSWORD}).status_code == 200
        poll("a to drop every copy that shows the deleted name",
             lambda: not {where for where, text in shown().items() if "Adalinde" in text}, timeout=60)
        assert "Adalinde" not in httpx.get(f"{b.base}/api/tables/{tid}").text
    finally:
        cluster.stop()
