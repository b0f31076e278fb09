"""Several ``xeri serve`` processes on one PostgreSQL and one Redis (server.cluster, docs/scaling.md).

Real services: scripts/test.sh starts PostgreSQL and Redis (and sets
XERI_REQUIRE_SERVICES, so a missing one fails these tests); each test makes a
fresh database, starts real ``xeri serve`` processes on it with a short
lease, and, where the test is about routing, HAProxy with deploy/haproxy.cfg.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.cluster import (
    LEASE,
    PG_URL,
    REDIS_URL,
    Client,
    Cluster,
    Node,
    lease_owner,
    node_id,
    play_turn,
    played,
    poll,
)
from support.ground_truth import check_messages, ground_truth
from support.server import free_port
from xeri.server.store import MoveRow, SeatRow, StaleMove, Store, TableRow

pytestmark = pytest.mark.skipif(
    not (PG_URL and REDIS_URL) and not os.environ.get("XERI_REQUIRE_SERVICES"),
    reason="needs XERI_TEST_PG_URL and XERI_TEST_REDIS_URL (scripts/test.sh starts both)",
)


def check_record(base: str, table_id: str, clients: list[Client], tmp_path: Path) -> dict[str, Any]:
    """The finished record: its moves are the ones every client was told of, and ``xeri verify`` passes."""
    text = poll("the record", lambda: (r := httpx.get(f"{base}/api/matches/{table_id}/record", timeout=5))
                .status_code == 200 and r.text)
    record = json.loads(text)
    moves = [code for rnd in record["rounds"] for code in rnd["moves"]]
    for client in clients:
        for version, card in played(client.messages).items():
            assert moves[version - 1] == card, "a client was told of a move the record does not have"
    path = tmp_path / f"{table_id}.json"
    path.write_text(text)
    done = subprocess.run([sys.executable, "-m", "xeri", "verify", str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return record  # type: ignore[no-any-return]


# --- the single-writer guarantee ----------------------------------------------------


def test_leases_and_move_keys_let_one_writer_win(database: str) -> None:
    async def scenario() -> None:
        a, b = Store(database), Store(database)
        await a.open()
        await b.open()
        try:
            tid = uuid.uuid4().hex[:12]
            # Two processes race for a new table's lease: exactly one wins, again and again.
            wins = await asyncio.gather(a.take_lease(tid, "A", 0.6), b.take_lease(tid, "B", 0.6))
            assert sorted(wins) == [False, True]
            owner, other = ("A", b) if wins[0] else ("B", a)
            assert await other.take_lease(tid, "X", 0.6) is False
            assert await a.lease_owner(tid) == owner
            # Once it expires, another takes it, and the old owner's renewal no longer covers it.
            await poll_async(lambda: other.lease_owner(tid), want=None)
            assert await other.take_lease(tid, "X", 5.0) is True
            assert tid not in await a.renew_leases(owner, 5.0)
            # Two stores apply move 0 of the same table at once: the primary key lets exactly one through.
            row = TableRow(id=tid, status="playing", ruleset="{}", takeover_level="easy", match_seed="1",
                           salt_key="00", created_at=time.time())
            await a.create_table(row, [SeatRow(tid, 0, True), SeatRow(tid, 1, True)])
            for idx in range(20):
                moves = [MoveRow(tid, idx, 0, card, None, time.time()) for card in ("TD", "2C")]
                out = await asyncio.gather(a.add_move(moves[0]), b.add_move(moves[1]), return_exceptions=True)
                assert sum(r is None for r in out) == 1 and sum(isinstance(r, StaleMove) for r in out) == 1, out
            stored = await a.load_table(tid)
            assert stored is not None and [m.idx for m in stored.moves] == list(range(20))
        finally:
            await a.close()
            await b.close()

    asyncio.run(scenario())


async def poll_async(read: Callable[[], Any], want: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while await read() != want:
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)  # poll interval


# --- one match across three processes ---------------------------------------------------


def test_a_match_across_three_processes_and_no_process_without_redis(database: str, tmp_path: Path) -> None:
    assert REDIS_URL
    cluster = Cluster(database, REDIS_URL, balancer=True)
    a, b, c = cluster.nodes
    try:
        # Through the balancer every process answers, each as itself.
        seen = {httpx.get(f"{cluster.base}/readyz").json()["node"] for _ in range(6)}
        assert len(seen) == 3
        assert all(httpx.get(f"{n.base}/healthz").json() == {"ok": True} for n in cluster.nodes)
        made = httpx.post(f"{a.base}/api/tables", json={"name": "ann", "options": {"rounds": 1}}).json()
        tid = made["table_id"]
        # The lobby comes from the database: every process lists the new table.
        for node in cluster.nodes:
            listed = httpx.get(f"{node.base}/api/tables").json()["tables"]
            assert [t["id"] for t in listed] == [tid]
        joined = httpx.post(f"{b.base}/api/tables/{tid}/join", json={"name": "bob"}).json()
        assert joined["seat"] == 1 and joined["table"]["status"] == "playing"
        ann = Client([a.ws], tid, made["token"])
        bob = Client([b.ws], tid, joined["token"])
        spectator = Client([c.ws], tid)
        players = {0: ann, 1: bob}
        pick = iter(range(10**6))
        hinted = False
        while not (ann.view and ann.view["match_over"]):
            turn = ann.view["turn"] if ann.view else 0
            mover = players[turn]
            mover.until_version(ann.version)
            if turn == 1 and not hinted:
                # A hint asked on a replica is the owner's, forwarded with its reason's code.
                hinted = True
                bob.send(type="hint", ref="h")
                hint = bob.recv(30)
                while hint is not None and hint["type"] != "hint":
                    assert hint["type"] != "error", hint
                    hint = bob.recv(30)
                assert hint is not None and hint["card"] in bob.view["legal_moves"] and hint["code"], hint
            play_turn(mover, lambda legal: legal[next(pick) % len(legal)])
            for client in (ann, bob, spectator):
                client.until_version(mover.version)
        assert hinted
        final = ann.version
        for client in (ann, bob, spectator):
            client.until_version(final)
            versions = [m["version"] for m in client.messages if m["type"] == "update"]
            assert versions == list(range(1, final + 1)), "an update was lost or doubled"
            assert client.reconnects == 0
        record = check_record(a.base, tid, [ann, bob, spectator], tmp_path)
        truth = ground_truth(record)
        for seat, client in ((0, ann), (1, bob), (None, spectator)):
            assert check_messages(seat, client.messages, truth) > 0
        for client in (ann, bob, spectator):
            client.close()
        stats = httpx.get(f"{c.base}/api/players/bob/stats").json()
        assert stats["games"] == 1
        # A process without Redis beside the cluster refuses to start, in one line.
        done = subprocess.run([sys.executable, "-m", "xeri", "serve", "--port", str(free_port()), "--db", database],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "--redis" in lines[0] and "cluster" in lines[0], done.stderr
    finally:
        cluster.stop()


# --- failover ------------------------------------------------------------------------


def test_kill_9_of_the_owner_mid_round(database: str, tmp_path: Path) -> None:
    """Several tables at different stages; their owner dies; each finishes on another process, verified."""
    assert REDIS_URL
    cluster = Cluster(database, REDIS_URL, balancer=True, bot_delay=0.05)
    a = cluster.nodes[0]
    try:
        tables = []
        for i in range(4):
            made = httpx.post(f"{a.base}/api/tables", json={"name": f"p{i}", "options": {"rounds": 1},
                                                             "seats": [None, {"bot": "easy"}]}).json()
            # Connected to the owner itself (else the table would be handed over to where the balancer sends its
            # player); after the kill the player reconnects through HAProxy.
            tables.append((made["table_id"], Client([a.ws, cluster.ws], made["table_id"], made["token"])))
        bot_table = httpx.post(f"{a.base}/api/tables", json={"options": {"rounds": 2},
                                                             "seats": [{"bot": "easy"}, {"bot": "easy"}]}).json()
        counter = iter(range(10**6))

        def pick(legal: list[str]) -> str:
            return legal[next(counter) % len(legal)]

        # Each table a different number of moves in (the bots answer each move).
        for i, (_tid, client) in enumerate(tables):
            for _ in range(2 + 3 * i):
                play_turn(client, pick)
        assert {lease_owner(database, tid) for tid, _client in tables} == {node_id(a)}
        at_kill = {tid: client.version for tid, client in tables}
        killed = time.monotonic()
        a.kill9()
        firsts = []
        for tid, client in tables:
            accepted = play_turn(client, pick, timeout=40)
            assert accepted is not None and client.version > at_kill[tid]
            firsts.append(accepted)
        failover = min(firsts) - killed
        print(f"failover: kill -9 -> first accepted move {failover:.2f} s (lease {LEASE} s)")
        assert failover < 10
        for _tid, client in tables:
            while play_turn(client, pick, timeout=40) is not None:
                pass
        survivor = cluster.nodes[1].base
        for tid, client in tables:
            record = check_record(survivor, tid, [client], tmp_path)
            moves = sum(len(r["moves"]) for r in record["rounds"])
            client.until_version(moves)
            assert client.view is not None and client.view["seat"] == 0, "the seat changed hands"
            ups = [m["version"] for m in client.messages if m["type"] == "update"]
            assert len(ups) == len(set(ups)), "a move was announced twice"
            client.close()
        check_record(survivor, bot_table["table_id"], [], tmp_path)
    finally:
        cluster.stop()


# --- handing a table over to where its connections are ------------------------------------


def test_a_table_is_handed_over_to_the_process_holding_its_connections(database: str, tmp_path: Path) -> None:
    """Connections split over processes: no handover. All on one other process: it gets the table, once per hold,
    with no error and no lost or doubled move for anyone; a bot's table takes its bot along."""
    assert REDIS_URL
    cluster = Cluster(database, REDIS_URL, bot_delay=0.05)
    a, b, c = cluster.nodes
    ids = {n.port: node_id(n) for n in cluster.nodes}
    hold = 2 * LEASE  # server.cluster.HANDOVER_HOLD_LEASES leases
    try:
        made = httpx.post(f"{a.base}/api/tables", json={"name": "ann", "options": {"rounds": 2}}).json()
        tid = made["table_id"]
        joined = httpx.post(f"{c.base}/api/tables/{tid}/join", json={"name": "bob"}).json()
        tokens = {0: made["token"], 1: joined["token"]}
        # Ann's connection, the table's only one, is on b: b gets the table.
        players = {0: Client([b.ws], tid, tokens[0])}
        poll("the table to reach b", lambda: lease_owner(database, tid) == ids[b.port])
        arrived = time.monotonic()
        players[1] = Client([c.ws], tid, tokens[1])
        spectators: list[Client] = []
        counter = iter(range(10**6))

        def step() -> None:
            everyone = [*players.values(), *spectators]
            mover = players[players[0].view["turn"]] if players[0].view else players[0]
            mover.until_version(max(x.version for x in everyone))
            play_turn(mover, lambda legal: legal[next(counter) % len(legal)])
            for client in everyone:
                client.until_version(mover.version)

        def reconnect(seat: int, node: Node) -> None:
            players[seat].close()
            players[seat] = Client([node.ws], tid, tokens[seat])

        # Ann on a, bob on c, none on b (as round robin may leave them): split, so b keeps the table.
        reconnect(0, a)
        for _ in range(6):
            step()
        assert lease_owner(database, tid) == ids[b.port]
        # Ann to c: every connection is there now, and c gets the table while the game goes on, but not before
        # the hold since its arrival at b is over (connections that move about cannot bounce it).
        # A few moves, then wait: a match played out within the hold would end before any handover.
        reconnect(0, c)
        for _ in range(4):
            step()
        poll("the table to reach c", lambda: lease_owner(database, tid) == ids[c.port])
        assert time.monotonic() - arrived > hold - 0.5, "handed over again within the hold"
        # A spectator on b: c has connections of its own, so the table stays.
        spectators.append(Client([b.ws], tid))
        for _ in range(4):
            step()
        assert lease_owner(database, tid) == ids[c.port]
        ann, bob, spectator = players[0], players[1], spectators[0]
        while not (ann.view and ann.view["match_over"]):
            step()
        final = ann.version
        everyone = [ann, bob, spectator]
        record = check_record(c.base, tid, everyone, tmp_path)
        truth = ground_truth(record)
        for seat, client in ((0, ann), (1, bob), (None, spectator)):
            client.until_version(final)
            errs = [(i, m) for i, m in enumerate(client.messages) if m["type"] == "error"]
            assert not errs, (seat, errs, [(m["type"], m.get("version")) for m in client.messages[:errs[0][0] + 3]])
            versions = [m["version"] for m in client.messages if m["type"] == "update"]
            assert versions == sorted(set(versions)), "an update was doubled or went backwards"
            assert client.reconnects == 0
            assert client.view is not None and client.view["seat"] == seat, "the seat changed hands"
            assert check_messages(seat, client.messages, truth) > 0
        # A player against a bot, created on a, played from b: the table and its bot go to b.
        solo = httpx.post(f"{a.base}/api/tables", json={"name": "cy", "options": {"rounds": 1},
                                                        "seats": [None, {"bot": "easy"}]}).json()
        cy = Client([b.ws], solo["table_id"], solo["token"])
        poll("the bot's table to reach b", lambda: lease_owner(database, solo["table_id"]) == ids[b.port])
        while play_turn(cy, lambda legal: legal[0]) is not None:  # the bot answers each move from b
            pass
        check_record(b.base, solo["table_id"], [cy], tmp_path)
        assert not [m for m in cy.messages if m["type"] == "error"]
        for client in (*everyone, cy):
            client.close()
    finally:
        cluster.stop()


# --- Redis and PostgreSQL going away -------------------------------------------------------


def start_redis(port: int, folder: Path) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(folder)], stdout=subprocess.DEVNULL)
    import redis

    poll("redis", lambda: redis.Redis(port=port, socket_connect_timeout=1).ping())
    return proc


def test_redis_restart_mid_game(database: str, tmp_path: Path) -> None:
    port = free_port()
    redis_proc = start_redis(port, tmp_path)
    url = f"redis://127.0.0.1:{port}/0"
    cluster = None
    try:
        cluster = Cluster(database, url, n=2)
        a, b = cluster.nodes
        made = httpx.post(f"{a.base}/api/tables", json={"name": "ann", "options": {"rounds": 1}}).json()
        tid = made["table_id"]
        joined = httpx.post(f"{b.base}/api/tables/{tid}/join", json={"name": "bob"}).json()
        ann, bob = Client([a.ws], tid, made["token"]), Client([b.ws], tid, joined["token"])
        players = {0: ann, 1: bob}
        counter = iter(range(10**6))

        def pick(legal: list[str]) -> str:
            return legal[next(counter) % len(legal)]

        def step() -> None:
            mover = players[ann.view["turn"]] if ann.view else ann
            mover.until_version(max(ann.version, bob.version))
            play_turn(mover, pick, timeout=40)
            for client in (ann, bob):
                client.until_version(mover.version, timeout=40)

        for _ in range(8):
            step()
        seen = len(bob.messages)
        redis_proc.terminate()
        redis_proc.wait(timeout=10)
        redis_proc = start_redis(port, tmp_path)
        # Bob's process is fed from Redis: once its subscription is back, bob gets a fresh sync.
        deadline = time.monotonic() + 30
        while not any(m["type"] == "sync" for m in bob.messages[seen:]):
            assert time.monotonic() < deadline, "bob never resynced"
            bob.recv(max(deadline - time.monotonic(), 0.01))
        while not (ann.view and ann.view["match_over"]):
            step()
        final = ann.version
        bob.until_version(final)
        check_record(a.base, tid, [ann, bob], tmp_path)
        ann.close()
        bob.close()
    finally:
        if cluster is not None:
            cluster.stop()
        redis_proc.terminate()
        redis_proc.wait(timeout=10)


class Gate:
    """A TCP proxy to PostgreSQL that can refuse every connection for a while (the database 'down')."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self.open = True
        self._conns: list[socket.socket] = []
        self._server = socket.create_server(("127.0.0.1", self.port))
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._server.accept()
            except OSError:
                return
            if not self.open:
                conn.close()
                continue
            try:
                upstream = socket.create_connection(self.target)
            except OSError:
                conn.close()
                continue
            with self._lock:
                self._conns += [conn, upstream]
            for src, dst in ((conn, upstream), (upstream, conn)):
                threading.Thread(target=self._pipe, args=(src, dst), daemon=True).start()

    @staticmethod
    def _pipe(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def refuse(self) -> None:
        self.open = False
        with self._lock:
            for s in self._conns:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            self._conns.clear()

    def close(self) -> None:
        self._server.close()
        self.refuse()


def test_postgresql_refusing_connections_for_a_few_seconds(database: str, tmp_path: Path) -> None:
    assert REDIS_URL
    from sqlalchemy.engine import make_url

    parsed = make_url(database)
    gate = Gate((parsed.host or "127.0.0.1", parsed.port or 5432))
    gated = parsed.set(host="127.0.0.1", port=gate.port).render_as_string(hide_password=False)
    cluster = Cluster(gated, REDIS_URL, n=2)
    try:
        a, b = cluster.nodes
        made = httpx.post(f"{a.base}/api/tables", json={"name": "ann", "options": {"rounds": 1},
                                                         "seats": [None, {"bot": "easy"}]}).json()
        tid = made["table_id"]
        ann = Client([a.ws, b.ws], tid, made["token"])
        counter = iter(range(10**6))

        def pick(legal: list[str]) -> str:
            return legal[next(counter) % len(legal)]

        for _ in range(3):
            play_turn(ann, pick)
        ann.until_version(ann.version)
        view = poll("ann's turn", lambda: ann.view if ann.view["turn"] == 0 else ann.recv(0.5) and None)
        gate.refuse()
        ann.send(type="move", card=view["legal_moves"][0], version=ann.version)
        refusal = None
        while refusal is None:
            msg = ann.recv(15)
            if msg is not None and msg["type"] == "error":
                refusal = msg
        assert refusal["code"] == "unavailable" and "try again" in refusal["message"], refusal
        assert poll("readiness to drop", lambda: httpx.get(f"{a.base}/readyz", timeout=5).status_code == 503)
        gate.open = True
        accepted = play_turn(ann, pick, timeout=40)
        assert accepted is not None
        while play_turn(ann, pick, timeout=40) is not None:
            pass
        check_record(a.base, tid, [ann], tmp_path)
        ann.close()
    finally:
        cluster.stop()
        gate.close()


def test_a_takeback_is_kept_when_the_owner_dies(database: str, tmp_path: Path) -> None:
    """A takeback stored on one process is the game the next owner loads (after a kill -9): the card is back in the
    hand there, the player can take back again, and the record verifies with both."""
    assert REDIS_URL
    cluster = Cluster(database, REDIS_URL, n=2, bot_delay=0.05)
    a, b = cluster.nodes
    try:
        made = httpx.post(f"{a.base}/api/tables", json={"name": "ann", "options": {"rounds": 1},
                                                         "seats": [None, {"bot": "easy"}]}).json()
        tid = made["table_id"]
        ann = Client([a.ws, b.ws], tid, made["token"])

        def take_back_a_card() -> str:
            while ann.view is None or ann.view["turn"] != 0:
                ann.recv()
            card, before = ann.view["hand"][0], ann.version
            assert play_turn(ann, lambda legal: card) is not None
            ann.until_version(before + 2)  # the bot's answer
            ann.send(type="takeback", version=ann.version)
            ann.until_version(before + 3)
            assert ann.view is not None and card in ann.view["hand"]
            return card

        first = take_back_a_card()
        assert lease_owner(database, tid) == node_id(a)
        held = ann.view
        a.kill9()
        while ann.reconnects == 0:
            ann.recv()
        assert ann.messages[-1]["type"] == "sync" and ann.messages[-1]["view"] == held
        poll("b to own the table", lambda: lease_owner(database, tid) == node_id(b))
        second = take_back_a_card()
        while play_turn(ann, lambda legal: legal[0]) is not None:
            pass
        record = check_record(b.base, tid, [ann], tmp_path)
        taken = [e for r in record["rounds"] for e in r["moves"] if isinstance(e, dict)]
        assert [e["takeback"][0] for e in taken] == [first, second]
        ann.close()
    finally:
        cluster.stop()
