"""Load benchmark of ``xeri serve``: N concurrent tables, each played by two bot clients over WebSocket.

It starts ``xeri serve`` as a separate process on a free loopback port (SQLite
in a temporary folder), creates N two-player tables, connects two clients per
table, and lets every client play a random legal card as soon as it is its
turn (after an optional think time). A move's latency is the time from sending
it to receiving the ``update`` that carries it. Prints moves/s and the
p50/p90/p99/max latency as JSON.

    python benchmarks/load_server.py --tables 200 --seconds 30 [--think 0.0]

With ``--processes 1,2,3 --pg URL --redis URL`` it measures a cluster
(docs/scaling.md) instead: for each count, a fresh PostgreSQL database, that
many ``xeri serve`` processes on it and Redis, and HAProxy in front with
deploy/haproxy.cfg (unused server slots point at a closed port, so HAProxy
marks them down); tables are created and played through HAProxy, so they
spread over the processes. Each result carries its ratio to one process
(``--tables 200,500`` measures each size in turn), the load average, and the
processor time each part took per move in the measured window (the servers,
PostgreSQL's backends, Redis, HAProxy and these clients): what a bigger
machine needs per move, whatever else the machine was doing. Every result is
written, with the run's record (``benchmarks/run_meta.py``: command, commit, date, load, seed), to
``benchmarks/results/load_server[_cluster][.TAG].json`` (``--tag issue25.main``), or to ``--json PATH``.

The clients run in this process, on the same machine as the server; a client
whose connection closes reconnects as the browser does (and a close in the
measured window counts as an error). Each is a real WebSocket client (through
HAProxy in a cluster) that parses every message it gets (msgspec, into the
fields it plays by) and times a move from just before sending it to the
receipt of the message that carries it. ``--client picows`` (the default) is
a WebSocket client in Cython; ``--client websockets`` the pure-Python asyncio
one, at about twice its processor time per move. Neither offers
permessage-deflate: a browser does, but ``xeri serve`` declines it, so the
frames are the same.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import msgspec

#: Every table here comes from one address and runs 99 rounds: lift the per-address caps (docs/security.md).
LIFTED = ["--waiting-per-address", "100000", "--playing-per-address", "100000", "--ws-per-address", "100000",
          "--ws-per-seat", "1000", "--max-rounds", "99", "--ws-opens", "100000", "--connection-rate", "100000"]
RESULTS = Path(__file__).resolve().parent / "results"


def run_meta(seed: int | None) -> dict[str, Any]:
    """The run's record (benchmarks/run_meta.py), loaded by path so this module also imports from a test."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import run_meta as meta

    return meta.run_meta(seed)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.moves = 0
        #: errors (and closed connections) in the measured window, and before it (connecting, warming up)
        self.errors: dict[str, int] = {}
        self.warmup_errors: dict[str, int] = {}
        self.recording = False

    def error(self, code: str) -> None:
        counts = self.errors if self.recording else self.warmup_errors
        counts[code] = counts.get(code, 0) + 1


class View(msgspec.Struct):
    """What a client reads of its seat's VIEW to choose a move (the rest of the message is parsed and skipped)."""

    seat: int | None = None
    turn: int | None = None
    match_over: bool = False
    legal_moves: list[str] = []


class Event(msgspec.Struct):
    """An event of an update, as far as a client needs it: whether a round was scored."""

    kind: str = ""


class TableInfo(msgspec.Struct):
    """The TABLE object, as far as a client needs it: whether the next round still waits for a summary."""

    pause: dict[str, Any] | None = None


class Message(msgspec.Struct):
    """A server message, as far as a playing client needs it (docs/protocol.md)."""

    type: str
    version: int | None = None
    view: View | None = None
    code: str | None = None
    events: list[Event] = []
    table: TableInfo | None = None


DECODE = msgspec.json.Decoder(Message).decode
ENCODE = msgspec.json.Encoder().encode
#: what the page sends once its player has closed a round's summary (the next round waits for it)
READY = ENCODE({"type": "ready"})


def seat_url(ws_base: str, table_id: str, token: str) -> str:
    """A seat's socket as the page opens it: with ``summary=1`` (the page shows each round's summary, and the
    owner's next round waits for its "ready")."""
    return f"{ws_base}/ws/tables/{table_id}?token={token}&summary=1"


class Seat:
    """One player, whatever carries its messages: it reads each message, times its moves, picks its cards.

    A move's latency runs from just before it is sent to the receipt of the ``sync`` or ``update`` that
    carries it; while it waits for that (or thinks), it does not move again.
    """

    def __init__(self, rng: random.Random, stats: Stats, think: float) -> None:
        self.rng, self.stats, self.think = rng, stats, think
        self.pending: tuple[int, float] | None = None
        self.thinking = False
        #: a round was scored: the page's "ready" is due (sent at once, as by a player who closes it quickly)
        self.ready_due = False
        #: a move was refused because the next round waits for another player's "ready": none until a TABLE
        #: without a pause (or an update) says it goes on
        self.held = False
        #: the last sync or update's version and view (to move once the pause is over)
        self.last: tuple[int, View | None] = (-1, None)

    def receive(self, raw: bytes | memoryview) -> tuple[float, int, str] | None:
        """Take one message; when it is this seat's turn, return (think seconds, version, card) to play."""
        msg = DECODE(raw)
        if msg.type == "error":
            if msg.code == "round_pause":  # the page's player sees the others still reading: it waits, no error
                self.held = True
            else:
                self.stats.error(msg.code or "?")
            self.pending = None
            return None
        if msg.type == "table":
            if not self.held or msg.table is None or msg.table.pause is not None:
                return None
            self.held = False  # every player closed the summary: play goes on
            version, view = self.last
        elif msg.type not in ("sync", "update") or msg.version is None:
            return None
        else:
            version, view = msg.version, msg.view
            self.last = (version, view)
            self.held = False
            if any(e.kind == "round_scored" for e in msg.events) and not (view and view.match_over):
                self.ready_due = True
            if self.pending is not None and version >= self.pending[0]:
                if self.stats.recording:
                    self.stats.latencies.append(time.perf_counter() - self.pending[1])
                    self.stats.moves += 1
                self.pending = None
        if (self.held or view is None or view.match_over or view.turn != view.seat or self.pending is not None
                or self.thinking):
            return None
        delay = self.rng.uniform(0.5 * self.think, 1.5 * self.think) if self.think else 0.0
        return delay, version, self.rng.choice(view.legal_moves)

    def move(self, version: int, card: str) -> bytes:
        """The move message to send now (the latency clock starts here)."""
        self.thinking = False
        self.pending = (version + 1, time.perf_counter())
        return ENCODE({"type": "move", "card": card, "version": version})

    def closed(self) -> float:
        """The connection closed (or did not open): count it, forget the move in flight, and return the
        browser's reconnect pause."""
        self.stats.error("closed")
        self.pending, self.thinking, self.held, self.ready_due = None, False, False, False
        return self.rng.uniform(0.2, 0.5)


async def websockets_client(url: str, seat: Seat) -> None:
    """Play a seat with the ``websockets`` asyncio client until cancelled; reconnect after a close.

    It offers no permessage-deflate (``xeri serve`` declines it anyway, so a browser's offer changes nothing
    on the wire) and reads raw bytes (msgspec checks the UTF-8 as it parses).
    """
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidHandshake

    while True:
        try:
            async with connect(url, max_size=None, ping_interval=None, open_timeout=30, compression=None,
                               proxy=None) as ws:
                while True:
                    turn = seat.receive(await ws.recv(decode=False))
                    if seat.ready_due:
                        seat.ready_due = False
                        await ws.send(READY, text=True)
                    if turn is not None:
                        delay, version, card = turn
                        if delay:
                            seat.thinking = True
                            await asyncio.sleep(delay)
                        await ws.send(seat.move(version, card), text=True)
        except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError):
            await asyncio.sleep(seat.closed())  # the browser's reconnect pause


async def picows_client(url: str, seat: Seat) -> None:
    """Play a seat with picows (a WebSocket client in Cython: the frames are parsed and masked in C, and each
    message reaches ``Seat`` from the transport's callback, with no task switch) until cancelled; reconnect
    after a close."""
    from picows import WSError, WSFrame, WSListener, WSMsgType, WSTransport, ws_connect

    loop = asyncio.get_running_loop()

    class Listener(WSListener):
        def __init__(self) -> None:
            self.parts: list[bytes] = []

        def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
            kind = frame.msg_type
            if kind == WSMsgType.CLOSE:
                transport.send_close(frame.get_close_code())
                transport.disconnect()
                return
            if kind not in (WSMsgType.TEXT, WSMsgType.CONTINUATION):
                return
            if not frame.fin or self.parts:  # a fragmented message: whole before it is read
                self.parts.append(frame.get_payload_as_bytes())
                if not frame.fin:
                    return
                raw: bytes | memoryview = b"".join(self.parts)
                self.parts = []
            else:
                raw = frame.get_payload_as_memoryview()
            turn = seat.receive(raw)
            if seat.ready_due:
                seat.ready_due = False
                transport.send(WSMsgType.TEXT, READY)
            if turn is None:
                return
            delay, version, card = turn
            if delay:
                seat.thinking = True
                loop.call_later(delay, self.play, transport, version, card)
            else:
                self.play(transport, version, card)

        def play(self, transport: WSTransport, version: int, card: str) -> None:
            if not transport.is_disconnected:
                transport.send(WSMsgType.TEXT, seat.move(version, card))

    while True:
        try:
            transport, _ = await ws_connect(Listener, url, websocket_handshake_timeout=30, max_redirects=0)
        except (WSError, OSError, TimeoutError):
            await asyncio.sleep(seat.closed())  # the browser's reconnect pause
            continue
        try:
            await transport.wait_disconnected()
        except asyncio.CancelledError:
            transport.disconnect()
            raise
        except (WSError, OSError):
            pass  # the connection broke: a close like any other (what a Seat raised goes on up)
        await asyncio.sleep(seat.closed())


#: the WebSocket client implementations ``--client`` chooses from
CLIENTS = {"picows": picows_client, "websockets": websockets_client}


async def run(base: str, tables: int, seconds: float, warmup: float, think: float, seed: int,
              meter: Meter | None = None, client: str = "picows", metrics: str | None = None) -> dict[str, Any]:
    ws_base = base.replace("http://", "ws://")
    rng = random.Random(seed)
    urls: list[str] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for i in range(tables):
            made = (await http.post("/api/tables", json={"name": f"a{i}", "options": {"rounds": 99},
                                                         "takeover_after": None})).json()
            joined = (await http.post(f"/api/tables/{made['table_id']}/join", json={"name": f"b{i}"})).json()
            urls += [seat_url(ws_base, made["table_id"], made["token"]),
                     seat_url(ws_base, made["table_id"], joined["token"])]
    stats = Stats()
    play = CLIENTS[client]
    tasks = [asyncio.create_task(play(u, Seat(random.Random(rng.random()), stats, think))) for u in urls]
    await asyncio.sleep(warmup)
    stats.recording = True
    started, load = time.perf_counter(), os.getloadavg()
    before = await asyncio.to_thread(meter.read) if meter is not None else {}
    scrapes: list[str] = []
    if metrics is None:
        await asyncio.sleep(seconds)
    else:  # the server's /metrics at the window's start, in its middle and at its end (xeri serve --metrics-port)
        scrapes.append(await asyncio.to_thread(scrape, metrics))
        await asyncio.sleep(seconds / 2)
        scrapes.append(await asyncio.to_thread(scrape, metrics))
        await asyncio.sleep(max(started + seconds - time.perf_counter() - 0.05, 0.0))
    if metrics is not None:
        scrapes.append(await asyncio.to_thread(scrape, metrics))
    stats.recording = False
    elapsed, load_end = time.perf_counter() - started, os.getloadavg()
    after = await asyncio.to_thread(meter.read) if meter is not None else {}
    for task in tasks:
        task.cancel()
    failed = [r for r in await asyncio.gather(*tasks, return_exceptions=True)
              if not isinstance(r, asyncio.CancelledError)]
    if failed:  # a client died of something other than a closed connection: the protocol, or this script
        raise SystemExit(f"{len(failed)} client(s) failed, the first with {type(failed[0]).__name__}: {failed[0]}")
    lat = sorted(stats.latencies)

    def q(p: float) -> float:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 2) if lat else float("nan")

    return {
        "tables": tables, "connections": len(urls), "seconds": round(elapsed, 1), "think_s": think,
        "moves": stats.moves, "moves_per_s": round(stats.moves / elapsed, 1),
        "latency_ms": {"p50": q(0.50), "p90": q(0.90), "p99": q(0.99), "max": q(1.0),
                       "mean": round(1000 * statistics.fmean(lat), 2) if lat else None},
        "errors": stats.errors, "warmup_errors": stats.warmup_errors,
        "load_average": [round(x, 2) for x in load], "load_average_end": [round(x, 2) for x in load_end],
        "nice": os.nice(0),
        **cpu_per_move(before, after, stats.moves),
        "cpus": os.cpu_count(), "python": sys.version.split()[0], "client": client,
        **({"metrics": metrics_window(scrapes, stats.moves), "metrics_scrape_mid": scrapes[1]} if scrapes else {}),
    }


def scrape(url: str) -> str:
    return httpx.get(url, timeout=10).text


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    from prometheus_client.parser import text_string_to_metric_families

    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def metrics_window(scrapes: list[str], client_moves: int) -> dict[str, Any]:
    """What the server's own metrics say of the measured window: counters' changes from its start to its end
    (beside what the clients counted), the move latency's quantiles from the histogram's buckets, and the gauges
    in its middle."""
    first, mid, last = (_samples(t) for t in scrapes)

    def delta(name: str, **labels: str) -> float:
        key = (name, tuple(sorted(labels.items())))
        return last.get(key, 0.0) - first.get(key, 0.0)

    def total(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str) -> float:
        return sum(v for (n, _labels), v in samples.items() if n == name)

    moves = total(last, "xeri_moves_total") - total(first, "xeri_moves_total")
    buckets = sorted((float(dict(labels)["le"]), last[(n, labels)] - first.get((n, labels), 0.0))
                      for (n, labels) in last if n == "xeri_move_seconds_bucket")
    count = delta("xeri_move_seconds_count")

    def quantile(q: float) -> float | None:
        for upper, seen in buckets:
            if count and seen >= q * count:
                return upper * 1000
        return None

    refusals = {dict(labels)["code"]: last[(n, labels)] - first.get((n, labels), 0.0)
                for (n, labels) in last if n == "xeri_refusals_total"}
    writes = delta("xeri_store_seconds_count", op="write")
    cpu = delta("process_cpu_seconds_total")
    return {
        "moves": int(moves), "moves_counted_by_clients": client_moves,
        "move_ms": {"mean": round(1000 * delta("xeri_move_seconds_sum") / count, 3) if count else None,
                    "p50_bucket_le": quantile(0.5), "p99_bucket_le": quantile(0.99)},
        "store_write_ms_mean": (round(1000 * delta("xeri_store_seconds_sum", op="write") / writes, 3)
                                if writes else None),
        "store_writes": int(writes),
        "refusals": {k: int(v) for k, v in refusals.items() if v},
        "server_cpu_ms_per_move": round(1000 * cpu / moves, 3) if moves else None,
        "mid": {"tables_playing": mid.get(("xeri_tables", (("status", "playing"),))),
                "connections": mid.get(("xeri_connections", ())),
                "connected_addresses": mid.get(("xeri_connected_addresses", ())),
                "worker_queue": mid.get(("xeri_worker_queue", ())),
                "store_queue": mid.get(("xeri_store_queue", ()))},
    }


class Meter:
    """Processor seconds used so far by each part of the system under test (Linux /proc, Redis INFO)."""

    def __init__(self, servers: list[int], haproxy: int | None = None, pg: str | None = None,
                 redis_url: str | None = None) -> None:
        self.servers, self.haproxy, self.pg, self.redis_url = servers, haproxy, pg, redis_url

    def read(self) -> dict[str, float | dict[int, float]]:
        """Seconds so far per part; PostgreSQL's per backend, since backends come and go (``cpu_per_move``)."""
        out: dict[str, float | dict[int, float]] = {"servers": sum(_cpu(pid) for pid in self.servers),
                                                    "clients": time.process_time()}
        if self.haproxy is not None:
            out["haproxy"] = _cpu(self.haproxy)
        if self.pg is not None:
            out["postgres"] = {pid: _cpu(pid) for pid in _pg_backends(self.pg)}
        if self.redis_url is not None:
            import redis

            info = redis.Redis.from_url(self.redis_url).info("cpu")
            out["redis"] = float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
        return out


def _cpu(pid: int) -> float:
    """A process's user + system seconds so far (0 if it is gone or this is not Linux)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def _pg_backends(url: str) -> list[int]:
    """The PostgreSQL backends serving ``url``'s database (the servers' connections)."""
    import asyncpg

    async def pids() -> list[int]:
        conn = await asyncpg.connect(url.replace("postgresql://", "postgres://", 1))
        try:
            rows = await conn.fetch("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                                    "AND pid <> pg_backend_pid()")
            return [int(r["pid"]) for r in rows]
        finally:
            await conn.close()

    return asyncio.run(pids())


def cpu_per_move(before: dict[str, Any], after: dict[str, Any], moves: int) -> dict[str, Any]:
    """Processor seconds each part took in the window, and milliseconds per move.

    A part read per process (PostgreSQL's backends) counts each process that is there at the end: what it
    used since the start, or all it used if it started in the window. (Summing the backends at each end
    instead went negative when one that had worked a while closed in the window.)
    """
    if not before or not moves:
        return {}

    def delta(k: str) -> float:
        if isinstance(after[k], dict):
            return sum(v - before[k].get(pid, 0.0) for pid, v in after[k].items())
        return float(after[k] - before[k])

    used = {k: round(delta(k), 2) for k in before}
    return {"cpu_s": used, "cpu_ms_per_move": {k: round(1000 * v / moves, 3) for k, v in used.items()}
            | {"total": round(1000 * sum(used.values()) / moves, 3)}}


def _run(coro: Any) -> Any:
    """Run the clients on uvloop when it is installed (as the server does): less CPU taken from the server."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


def _wait_ok(url: str, proc: subprocess.Popen[bytes] | None = None, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline or (proc is not None and proc.poll() is not None):
            raise SystemExit(f"{url} did not answer")
        time.sleep(0.1)  # poll interval


def _database(pg: str, name: str) -> str:
    import asyncpg

    async def make() -> None:
        conn = await asyncpg.connect(pg.replace("postgresql://", "postgres://", 1))
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()

    asyncio.run(make())
    return pg.rsplit("/", 1)[0] + "/" + name


def lease_owner(db: str, table_id: str) -> str | None:
    """The process (its node id) holding a table's live lease, read from the database."""
    import asyncpg

    async def read() -> str | None:
        conn = await asyncpg.connect(db.replace("postgresql://", "postgres://", 1))
        try:
            return await conn.fetchval(  # type: ignore[no-any-return]
                "SELECT owner FROM xeri_leases WHERE table_id = $1 AND until >= extract(epoch from clock_timestamp())",
                table_id)
        finally:
            await conn.close()

    return _run(read())


def tables_per_process(db: str) -> list[int]:
    """How many tables each process owns now (live leases), the most first: where the handovers put them."""
    import asyncpg

    async def read() -> list[int]:
        conn = await asyncpg.connect(db.replace("postgresql://", "postgres://", 1))
        try:
            rows = await conn.fetch("SELECT count(*) FROM xeri_leases WHERE until >= extract(epoch from "
                                    "clock_timestamp()) GROUP BY owner ORDER BY 1 DESC")
            return [int(r[0]) for r in rows]
        finally:
            await conn.close()

    return _run(read())


def _kill_owner(db: str, by_node: dict[str, subprocess.Popen[bytes]], procs: list[subprocess.Popen[bytes]],
                out: dict[str, Any], table_id: str) -> None:
    """``kill -9`` the process that owns ``table_id`` now (noting which one in ``out``)."""
    owner = lease_owner(db, table_id)
    out["failover_killed"] = procs.index(by_node[owner]) if owner in by_node else None
    by_node.get(owner or "", procs[0]).kill()


def failover(base: str, creator: str, kill: Callable[[str], None], timeout: float = 60.0) -> float:
    """Seconds from ``kill -9`` of a table's owner to the first move accepted again, played through HAProxy.

    The table (a player against a bot) is created on ``creator``; the player connects through the balancer and
    reconnects as the browser does when its connection drops. ``kill(table_id)`` kills the table's owner at that
    moment: the creator, or the process the table was handed over to (the one the balancer sends its player to).
    """
    from websockets.exceptions import ConnectionClosed, InvalidHandshake
    from websockets.sync.client import connect as sync_connect

    made = httpx.post(f"{creator}/api/tables", json={"name": "f", "options": {"rounds": 9},
                                                   "seats": [None, {"bot": "easy"}]}, timeout=60).json()
    url = seat_url(base.replace("http://", "ws://"), made["table_id"], made["token"])
    state: dict[str, Any] = {"ws": None, "version": -1, "view": None, "seen": []}

    def recv(wait: float) -> dict[str, Any] | None:
        while state["ws"] is None:
            try:
                state["ws"] = sync_connect(url, open_timeout=5, compression=None, proxy=None).__enter__()
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as exc:
                # Refused, or HAProxy's 502/503 while it still counts the dead process in: a browser retries.
                state["seen"].append(f"connect {type(exc).__name__}")
                time.sleep(0.1)  # the browser's reconnect pause, shortened
        try:
            msg: dict[str, Any] = json.loads(state["ws"].recv(timeout=wait))
        except ConnectionClosed:
            state["ws"] = None
            state["seen"].append("closed")
            return None
        except TimeoutError:
            return {"type": "quiet"}
        if msg["type"] in ("sync", "update"):
            state["version"], state["view"] = msg["version"], msg["view"]
            if any(e.get("kind") == "round_scored" for e in msg.get("events", ())):
                state["ws"].send(READY.decode())  # the page's player closed the round's summary
        state["seen"].append(msg["type"] if msg["type"] != "error" else f"error {msg.get('code')}")
        return msg

    def move_accepted(deadline: float) -> float:
        while time.monotonic() < deadline:
            view = state["view"]
            if view is None or view["turn"] != view["seat"]:
                recv(1.0)
                continue
            before = state["version"]
            try:
                state["ws"].send(json.dumps({"type": "move", "card": view["legal_moves"][0], "version": before}))
            except (ConnectionClosed, AttributeError):
                state["ws"] = None
            while state["version"] == before and time.monotonic() < deadline:
                msg = recv(1.0)
                # A closed connection, a refusal, or a reconnection's sync (the move went down with the old
                # connection): look again, and send it again if it is still this seat's turn.
                if msg is None or msg["type"] in ("error", "sync"):
                    if msg is not None and msg["type"] == "error":
                        time.sleep(0.1)  # a retryable refusal: ask again shortly
                    break
            if state["version"] > before:
                return time.monotonic()
        view = state["view"] or {}
        raise SystemExit(f"no move was accepted after the kill (at version {state['version']}, turn "
                         f"{view.get('turn')}, seat {view.get('seat')}, last messages {state['seen'][-3:]})")

    recv(5.0)
    move_accepted(time.monotonic() + timeout)
    killed = time.monotonic()
    kill(made["table_id"])
    return round(move_accepted(killed + timeout) - killed, 2)


def cluster_run(args: argparse.Namespace) -> list[dict[str, Any]]:
    """The same load through HAProxy on 1, 2, 3 ... processes sharing PostgreSQL and Redis."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    results: list[dict[str, Any]] = []
    for tables, n in [(int(t), int(x)) for t in str(args.tables).split(",") for x in args.processes.split(",")]:
        db = _database(args.pg, f"xeri_load_{os.getpid()}_{n}_{int(time.time())}")
        ports = [free_port() for _ in range(n)]
        procs = [subprocess.Popen([sys.executable, "-m", "xeri", "serve", "--port", str(port), "--db", db,
                                   "--redis", args.redis, "--bot-delay", "0", "--rate", "100000",
                                   "--http-rate", "100000", "--log-level", "error", *LIFTED]) for port in ports]
        listen = free_port()
        closed = free_port()  # nothing listens here: HAProxy marks the slot down
        env = {**os.environ, "XERI_LISTEN": f"127.0.0.1:{listen}",
               **{f"XERI_NODE_{i + 1}": f"127.0.0.1:{ports[i] if i < n else closed}" for i in range(3)}}
        haproxy = subprocess.Popen(["haproxy", "-f", args.haproxy_cfg or os.path.join(root, "deploy", "haproxy.cfg"),
                                    "-db"], env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for port, proc in zip(ports, procs, strict=True):
                _wait_ok(f"http://127.0.0.1:{port}/readyz", proc)
            base = f"http://127.0.0.1:{listen}"
            _wait_ok(f"{base}/readyz")
            # Let HAProxy's checks mark the unused slots down before the load starts.
            while len({httpx.get(f"{base}/readyz", timeout=5).json().get("node") for _ in range(3 * n)}) < n:
                time.sleep(0.1)  # poll interval
            meter = Meter([p.pid for p in procs], haproxy.pid, db, args.redis)
            # Each process's node id, asked now (a process that is busy later may answer its readiness slowly).
            by_node = {httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=30).json()["node"]: proc
                       for port, proc in zip(ports, procs, strict=True)}
            out = _run(run(base, tables, args.seconds, args.warmup, args.think, args.seed, meter, args.client))
            out["processes"] = n
            out["tables_per_process"] = tables_per_process(db)
            if n > 1:  # how many tables each process handed over and took (its readiness answer says)
                ready = [httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=30).json() for port in ports]
                out["handovers"] = {"out": [r.get("handed_out") for r in ready],
                                    "in": [r.get("handed_in") for r in ready]}
            if n > 1:
                kill = functools.partial(_kill_owner, db, by_node, procs, out)
                try:
                    out["failover_s"] = failover(base, f"http://127.0.0.1:{ports[0]}", kill)
                except (httpx.HTTPError, SystemExit) as exc:
                    out["failover_error"] = f"{type(exc).__name__}: {exc}"
            results.append(out)
            one = next(r for r in results if r["tables"] == tables)
            out["ratio_to_1"] = {"moves_per_s": round(out["moves_per_s"] / max(one["moves_per_s"], 1e-9), 2),
                                 "p50": round(out["latency_ms"]["p50"] / one["latency_ms"]["p50"], 2),
                                 "p99": round(out["latency_ms"]["p99"] / one["latency_ms"]["p99"], 2)}
            print(json.dumps(out), flush=True)
        finally:
            haproxy.terminate()
            for proc in procs:
                proc.terminate()
            for proc in (haproxy, *procs):
                proc.wait(timeout=30)
    return results


def estimate(results: list[dict[str, Any]], cores: int = 16, infra_cores: int = 3,
             busy: float = 0.6) -> dict[str, Any] | None:
    """What a ``cores``-core machine and a cluster of them would hold, from the processor time per move measured
    here (an estimate, not a measurement; docs/scaling.md explains it).

    One ``xeri serve`` process per core, ``infra_cores`` left for PostgreSQL, Redis and HAProxy, every core
    kept ``busy`` (a short queue, so a short tail). The servers' cost per move is that of the run with the most
    processes at the first table count (forwarding grows with the processes); the players' clients are not on
    the machine. A table at think time t makes about 1/t moves a second. Past one machine, the shared Redis
    (one thread) and PostgreSQL carry every move: whichever saturates first is the bottleneck.
    """
    measured = [r for r in results if r.get("cpu_ms_per_move", {}).get("servers")]
    if not measured:
        return None
    first = [r for r in measured if r["tables"] == measured[0]["tables"]]
    one = next((r for r in first if r.get("processes", 1) == 1), first[0])
    basis = max(first, key=lambda r: int(r.get("processes", 1)))
    ms = basis["cpu_ms_per_move"]
    think = float(basis["think_s"]) or None
    per_process = busy * 1000 / one["cpu_ms_per_move"]["servers"]
    machine = busy * (cores - infra_cores) * 1000 / ms["servers"]
    out: dict[str, Any] = {
        "assumptions": {"cores": cores, "server_processes": cores - infra_cores, "busy": busy,
                        "think_s": basis["think_s"], "servers_ms_per_move_from": {
                            "tables": basis["tables"], "processes": basis.get("processes", 1)}},
        "one_process": {"moves_per_s_saturated": round(1000 / one["cpu_ms_per_move"]["servers"]),
                        "moves_per_s": round(per_process),
                        "tables": round(per_process * think) if think else None},
        "machine": {"moves_per_s": round(machine), "tables": round(machine * think) if think else None,
                    "cores": {k: round(machine * ms[k] / 1000, 2) for k in ("haproxy", "postgres", "redis")
                              if k in ms}},
    }
    if ms.get("redis"):
        redis_limit = busy * 1000 / ms["redis"]
        out["cluster"] = {
            "redis_moves_per_s": round(redis_limit), "machines": round(redis_limit / machine, 1),
            "tables": round(redis_limit * think) if think else None,
            "postgres_rows_per_s": round(redis_limit),
            "postgres_cores": round(redis_limit * ms["postgres"] / 1000, 1) if "postgres" in ms else None,
        }
        # Redis is one thread; PostgreSQL is one primary of the same size (its disk is not measured here).
        pg_cores = out["cluster"]["postgres_cores"]
        out["cluster"]["bottleneck"] = "postgres" if pg_cores is not None and pg_cores > busy * cores else "redis"
    return out


def _out_path(args: argparse.Namespace, stem: str) -> str:
    """``--json``, else the results file named for what was measured (never for the clock)."""
    return args.json or str(RESULTS / f"{stem}{'.' + args.tag if args.tag else ''}.json")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", default="200", help="tables (with --processes, a comma-separated list of sizes)")
    ap.add_argument("--seconds", type=float, default=30.0, help="measured duration")
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--think", type=float, default=0.0, help="mean think time of a client before moving (s)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--url", help="measure a running server instead of starting one")
    ap.add_argument("--db", help="the started server's database (default: SQLite in a temporary folder)")
    ap.add_argument("--processes", help="a cluster: comma-separated process counts, e.g. 1,2,3 (needs --pg, --redis)")
    ap.add_argument("--pg", help="PostgreSQL server URL for --processes (a fresh database is made per count)")
    ap.add_argument("--redis", help="Redis URL for --processes")
    ap.add_argument("--json", help="write every result here (default: results/load_server[_cluster][.TAG].json)")
    ap.add_argument("--tag", default="", help="what this run measures, in the default file name (e.g. issue25.main)")
    ap.add_argument("--haproxy-cfg", help="with --processes: another HAProxy config (default: deploy/haproxy.cfg)")
    ap.add_argument("--metrics", metavar="PATH",
                    help="one process: start it with --metrics-port, write the /metrics scrape taken in the middle of "
                         "the measured window to PATH, and put what the metrics say of the window in the result")
    ap.add_argument("--client", choices=sorted(CLIENTS), default="picows",
                    help="the WebSocket client the simulated players use (default: picows, the cheapest measured)")
    args = ap.parse_args()
    if args.processes:
        if not (args.pg and args.redis):
            raise SystemExit("--processes needs --pg and --redis")
        results = cluster_run(args)  # prints each count's result as it is measured
        with open(_out_path(args, "load_server_cluster"), "w") as f:
            json.dump({**run_meta(args.seed), "machine_cpus": os.cpu_count(),
                       "runs": results, "estimate_16_cores": estimate(results)}, f, indent=1)
            f.write("\n")
        return 0
    args.tables = int(args.tables)
    if args.url:
        print(json.dumps(_run(run(args.url, args.tables, args.seconds, args.warmup, args.think, args.seed,
                                   client=args.client))))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        metrics_port = free_port() if args.metrics else None
        proc = subprocess.Popen([sys.executable, "-m", "xeri", "serve", "--port", str(port), "--db",
                                 args.db or os.path.join(tmp, "load.sqlite3"), "--bot-delay", "0", "--rate", "100000",
                                 "--http-rate", "100000", "--log-level", "error", *LIFTED,
                                 *(["--metrics-port", str(metrics_port)] if metrics_port else [])])
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                        break
                except httpx.TransportError:
                    if time.monotonic() > deadline or proc.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.05)
            metrics = f"http://127.0.0.1:{metrics_port}/metrics" if metrics_port else None
            out = _run(run(base, args.tables, args.seconds, args.warmup, args.think, args.seed, Meter([proc.pid]),
                           args.client, metrics))
            if args.metrics:
                with open(args.metrics, "w") as f:
                    f.write(out.pop("metrics_scrape_mid"))
            print(json.dumps(out))
            with open(_out_path(args, "load_server"), "w") as f:
                json.dump({**run_meta(args.seed), "machine_cpus": os.cpu_count(), "runs": [out]}, f, indent=1)
                f.write("\n")
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
