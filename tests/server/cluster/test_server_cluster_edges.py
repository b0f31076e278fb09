"""The cluster as the page and a player behind the balancer meet it (issue 25): the seat socket's ``summary=1`` on a
process that does not own the table, client addresses through HAProxy, and HAProxy's page when no process is ready.

Real services, as in test_server_cluster.py (the fixtures and helpers of tests/support/cluster.py).
"""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from support.cluster import (
    REDIS_URL,
    Client,
    Cluster,
    Node,
    lease_owner,
    node_id,
    poll,
)

pytestmark = pytest.mark.skipif(not REDIS_URL, reason="needs XERI_TEST_REDIS_URL (scripts/test.sh starts it)")


def no_tracebacks(cluster: Cluster) -> None:
    for node in cluster.nodes:
        log = Path(node.log.name).read_text(errors="replace")
        assert "Traceback" not in log, log[-4000:]


def test_a_summary_socket_on_a_process_that_does_not_own_the_table(database: str) -> None:
    """The page's seat socket (``?token=…&summary=1``) on a replica: it syncs, every reconnection gives its counts
    back, and the owner's next round waits for that seat's summary until its "ready" comes through the replica."""
    assert REDIS_URL
    cluster = Cluster(database, REDIS_URL, n=2)
    a, b = cluster.nodes
    try:
        made = httpx.post(f"{a.base}/api/tables", json={"name": "ann", "options": {"rounds": 2}}).json()
        tid = made["table_id"]
        joined = httpx.post(f"{a.base}/api/tables/{tid}/join", json={"name": "bob"}).json()
        # On the owner, without summary: only ann holds the round up. (Its connection keeps the table there.)
        bob = Client([a.ws], tid, joined["token"])
        # More connections, one after another, than one seat may hold at once: none leaks a count.
        for _ in range(7):
            again = Client([b.ws], tid, made["token"], summary=True)
            assert again.view is not None and again.view["seat"] == 0 and again.reconnects == 0
            again.close()
        ann = Client([b.ws], tid, made["token"], summary=True)  # on the replica
        assert lease_owner(database, tid) == node_id(a), "the table moved: the test would not use a replica"
        players = {0: ann, 1: bob}
        pause = None
        for _ in range(200):
            assert ann.view is not None
            mover = players[ann.view["turn"]]
            mover.until_version(ann.version)
            before = mover.version
            mover.send(type="move", card=mover.view["legal_moves"][0], version=before)
            mover.until_version(before + 1)
            ann.until_version(before + 1)
            pause = httpx.get(f"{a.base}/api/tables/{tid}").json()["pause"]
            if pause is not None:
                break
        assert pause is not None and pause["waiting"] == [0], pause
        assert lease_owner(database, tid) == node_id(a)
        ann.send(type="ready")
        poll("the owner to take the replica's ready", lambda: httpx.get(f"{a.base}/api/tables/{tid}").json()
             ["pause"] is None, timeout=10)
        ann.close()
        bob.close()
        no_tracebacks(cluster)
    finally:
        cluster.stop()


def from_address(address: str, port: int) -> socket.socket:
    """A TCP connection to the balancer from another loopback address: another player's machine."""
    return socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(address, 0))


def test_two_players_behind_the_balancer_are_counted_apart(database: str) -> None:
    """HAProxy forwards the client's address and the processes trust it (--trusted-proxy): with one connection
    allowed per address, two players each hold one; a second from the same player is refused. With every process
    gone, HAProxy answers with the project's own short page."""
    assert REDIS_URL
    cluster = Cluster(database, REDIS_URL, balancer=True,
                      extra=("--trusted-proxy", "127.0.0.1", "--ws-per-address", "1"))
    try:
        tid = httpx.post(f"{cluster.base}/api/tables", json={"name": "ann"}).json()["table_id"]
        url = f"{cluster.ws}/ws/tables/{tid}"
        first = connect(url, sock=from_address("127.0.0.2", cluster.port), open_timeout=5).__enter__()
        second = connect(url, sock=from_address("127.0.0.3", cluster.port), open_timeout=5).__enter__()
        for ws in (first, second):
            assert '"sync"' in str(ws.recv(timeout=5))
        # The same player's second: refused, at the handshake (403) or, counted across the cluster, right after it.
        try:
            with connect(url, sock=from_address("127.0.0.2", cluster.port), open_timeout=5) as third:
                refused = json.loads(third.recv(timeout=5))
            assert refused["type"] == "error" and refused["code"] == "too_many_connections", refused
        except InvalidStatus as exc:
            assert exc.response.status_code == 403
        first.close()
        second.close()
        no_tracebacks(cluster)
        for node in cluster.nodes:
            node.stop()

        def unavailable_page() -> str | None:
            r = httpx.get(f"{cluster.base}/", timeout=5)
            return r.text if r.status_code == 503 and "back in a moment" in r.text else None

        page = poll("HAProxy's own page", unavailable_page, timeout=30)
        assert "<html" in page and "No server is available" not in page
    finally:
        cluster.stop()


def test_the_connection_caps_hold_across_the_processes(database: str) -> None:
    """One address may hold two connections: one on each of two processes, and a third on the third process is
    refused (each process counted only its own, so a cluster of three let six through); one closing frees a place."""
    assert REDIS_URL
    cluster = Cluster(database, REDIS_URL, n=3, extra=("--ws-per-address", "2"))
    try:
        a, b, c = cluster.nodes
        tid = httpx.post(f"{a.base}/api/tables", json={"name": "ann"}).json()["table_id"]
        held = [Client([node.ws], tid) for node in (a, b)]
        with connect(f"{c.ws}/ws/tables/{tid}", open_timeout=5) as ws:
            refused = json.loads(ws.recv(timeout=5))
        assert refused["type"] == "error" and refused["code"] == "too_many_connections", refused
        held.pop().close()

        def third() -> bool:
            with connect(f"{c.ws}/ws/tables/{tid}", open_timeout=5) as ws:
                return bool(json.loads(ws.recv(timeout=5))["type"] == "sync")

        poll("a place freed by a closed connection", third, timeout=10)
        held[0].close()
        no_tracebacks(cluster)
    finally:
        cluster.stop()


def test_handovers_and_adoptions_are_logged_at_info_with_the_table_id(database: str) -> None:
    """``--log-level info`` shows where each table went and why (only /readyz counted them before)."""
    assert REDIS_URL
    cluster = Cluster(database, REDIS_URL, n=2, extra=("--log-level", "info"))
    a, b = cluster.nodes
    try:
        tid = httpx.post(f"{a.base}/api/tables", json={"name": "ann", "seats": [None, {"bot": "easy"}]}).json()
        client = Client([b.ws, a.ws], tid["table_id"], tid["token"], summary=True)  # all its connections on b
        table_id = tid["table_id"]
        poll("the handover to b", lambda: lease_owner(database, table_id) == node_id(b), timeout=20)

        def logged(node: Node, text: str) -> bool:
            return text in Path(node.log.name).read_text(errors="replace")

        poll("a's log of the handover", lambda: logged(a, f"handed table {table_id} over to {node_id(b)}"))
        poll("b's log of the arrival", lambda: logged(b, f"table {table_id} handed over to this process"))
        b.kill9()
        poll("the adoption by a", lambda: lease_owner(database, table_id) == node_id(a), timeout=20)
        poll("a's log of the adoption", lambda: logged(a, f"adopted table {table_id}"))
        deadline = time.monotonic() + 20
        while client.reconnects == 0:  # b is gone: after what it had received, the client reconnects, to a
            assert time.monotonic() < deadline, "the client never reconnected"
            client.recv(10)
        assert client.view is not None and client.view["seat"] == 0
        client.close()
        no_tracebacks(cluster)
    finally:
        cluster.stop()


def test_the_table_caps_hold_across_the_processes(database: str) -> None:
    """One address may have two tables waiting: one made on each of two processes, and a third on either is refused
    (each process counted only the tables made on it, so two let four through); one closing frees a place."""
    assert REDIS_URL
    cluster = Cluster(database, REDIS_URL, n=2, extra=("--waiting-per-address", "2"))
    try:
        a, b = cluster.nodes
        made = [httpx.post(f"{node.base}/api/tables", json={"name": "ann"}) for node in (a, b)]
        assert [r.status_code for r in made] == [201, 201], [r.text for r in made]
        for node in (a, b):
            refused = httpx.post(f"{node.base}/api/tables", json={"name": "ann"})
            assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_many_tables", refused.text
        first = made[0].json()
        left = httpx.post(f"{a.base}/api/tables/{first['table_id']}/leave", json={"token": first["token"]})
        assert left.status_code == 200 and left.json()["table"]["status"] == "closed", left.text
        assert httpx.post(f"{b.base}/api/tables", json={"name": "ann"}).status_code == 201
        no_tracebacks(cluster)
    finally:
        cluster.stop()


def test_the_request_rate_holds_across_the_processes(database: str) -> None:
    """``--http-rate 2`` lets an address make 8 requests in 4 s: twelve at once, six on each of two processes, meet
    refusals (each process alone would have answered its six)."""
    assert REDIS_URL
    cluster = Cluster(database, REDIS_URL, n=2, extra=("--http-rate", "2"))
    try:
        a, b = cluster.nodes
        codes = [httpx.get(f"{node.base}/api/levels").status_code for node in (a, b) * 6]
        assert codes.count(429) >= 3 and codes.count(200) <= 9, codes
        no_tracebacks(cluster)
    finally:
        cluster.stop()


def test_a_seat_s_hint_cooldown_counts_in_redis_for_every_process() -> None:
    """Two processes' caps (two ``SharedCaps``, two Redis connections): a hint counted by one holds the seat's
    cooldown for the other; another seat is not held up."""
    import asyncio
    import uuid

    from xeri.server.limits.caps import LimitExceeded, Limits
    from xeri.server.limits.shared import SharedCaps

    assert REDIS_URL
    url = REDIS_URL

    async def statuses(ids: list[str]) -> dict[str, str]:
        return {}

    async def scenario() -> tuple[bool, str, bool]:
        scope = uuid.uuid4().hex
        one, two = (SharedCaps(url, Limits(hint_cooldown=60.0), statuses, 50.0, 200.0, database=scope)
                    for _ in range(2))
        try:
            counted = await one.take_hint("t1", 0)
            try:
                await two.take_hint("t1", 0)
                refusal = ""
            except LimitExceeded as exc:
                refusal = exc.code
            other = await two.take_hint("t1", 1)
            return counted, refusal, other
        finally:
            await one.close()
            await two.close()

    assert asyncio.run(scenario()) == (True, "hint_cooldown", True)
