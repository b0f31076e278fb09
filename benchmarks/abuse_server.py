"""Abuse benchmark of ``xeri serve``: how fast a victim table's bot answers while one client misbehaves.

Each scenario starts a fresh ``xeri serve`` (a subprocess on a free loopback
port, ``--bot-delay 0``, SQLite in a temporary folder) and runs one victim
table: a person's seat, played by a WebSocket client from 127.0.0.1 that moves
a random legal card ~60 ms after its turn comes (under the per-connection
message limit), against a ``hard`` bot. The victim's *bot-reply latency* is the
time from receiving the update that carries our move to receiving the update
that carries the bot's answer. Beside it, an abuser from other loopback
addresses (127.0.0.2, 127.0.0.3, ...), in a process of its own, runs one of:

- ``none``: nothing (the baseline);
- ``replay``: two clients looping ``GET /api/matches/ID/replay`` on a finished
  99-round 4-player match (built once, before the scenarios, by a server started
  with ``--max-rounds 99`` where that option exists, then copied into the
  scenario's database: a record stored before any cap applies);
- ``hint``: two dozen sockets on one seat token, each asking ``hint`` in a loop
  (reconnecting when refused or closed);
- ``master``: a dozen tables of four ``master`` bots (created in a loop when
  refused, at most one attempt a second);
- ``sync``: 64 spectator sockets on a finished 4-player, 30-round match (the
  "big match", built like the long one) each sending ``{"type":"sync"}`` 20
  times a second (issue 26.1);
- ``finished_get``: ``GET /api/tables/BIG`` and ``/fairness`` of the big match,
  32 requests a second in all (issue 26.2);
- ``ws_churn``: WebSocket open/close on the big match, as fast as the
  per-address open rate lets (issue 26.2);
- ``rematch``: a person's 1-round table played out as fast as allowed, then four
  sockets of its seat sending ``rematch`` at once, again and again; it counts
  the rematch tables each race made (issue 26.3).
- ``signin_flood``: 16 clients signing in with made-up names and passwords, each
  attempt from the next of 50 addresses (under every per-address limit): one
  argon2id hash each (issue 42.4);
- ``pack_download``: four clients downloading the offline pack's
  ``pyodide.asm.wasm`` uncompressed, again and again, and 24 sockets from one
  address that ask for it and never read (reconnecting when closed); the server
  serves ``--offline-pack $XERI_TEST_PYODIDE`` (or the project's .cache) and the
  result records its RSS at the end (issue 42.5);
- ``proxy_flood``: the server behind deploy/haproxy.cfg (``--trusted-proxy
  127.0.0.1``), the victim too, and one client at 150 requests a second through
  the balancer; the victim's failed table creations or socket opens are its
  ``victim_errors`` (issue 42.3).
- ``signup_flood``: 32 clients signing up new names, each attempt from an address
  of its own (a botnet: no per-address limit applies), one argon2id hash each
  (issue 42.4);
- ``password_flood``: 64 accounts signed up first (before the victim starts), then
  32 clients each changing the password of two of them in turn, the current one
  right: two argon2id hashes a change, under the per-name count (issue 42.4).

Beside the victim, a bystander asks ``GET /api/tables`` four times a second, each on
a new connection, and counts its answers (``bystander``; ``bystander_failed``: every
answer but a 2xx, and every dropped request: none should fail).

``--processes 1,3`` runs the scenarios on one process (SQLite, as above) and then on
three: ``xeri serve`` x 3 on a fresh PostgreSQL database (a copy of the seeded one)
and Redis, behind deploy/haproxy.cfg with ``--trusted-proxy 127.0.0.1``, every
client (the victim and the bystander too) through the balancer. PostgreSQL and
Redis are ``--pg``/``--redis`` (default ``$XERI_TEST_PG_URL``/``$XERI_TEST_REDIS_URL``)
or, when neither is given, throwaway ones this script starts and removes
(benchmarks/services.py). ``--scenarios issue42`` is issue 42's set: none, the
sign-in, password-change and sign-up floods, the proxy flood, the pack downloads
and the hint flood.

It prints the availability table (per process count and scenario: the victim's p50/p99, the
bystander's failed requests, the victim's own failed requests, the load average at the window's end,
the servers' CPU-seconds in the window) and writes the results as JSON, with the run's record
(``benchmarks/run_meta.py``: command, commit, date, load, seed), to
``benchmarks/results/abuse_server.TAG.json`` (``--tag``, default ``default_server``; name a run with
``--server-arg`` or another checkout for what it measures) or to ``--json PATH``, and the table as
markdown beside it (``.md``). Bounded: ``--seconds`` measured per scenario (after
``--warmup``), loopback only.

    python benchmarks/abuse_server.py            # benchmarks/results/abuse_server.default_server.json

Issue 42's availability table, on one process and on three (about 7 minutes on a quiet
2-core machine)::

    python benchmarks/abuse_server.py --scenarios issue42 --processes 1,3 --tag issue42_table

Measure another checkout (e.g. today's main, before a change) the same way::

    rm -rf /tmp/xeri-baseline && mkdir /tmp/xeri-baseline
    git archive HEAD | tar -x -C /tmp/xeri-baseline
    PYTHONPATH=/tmp/xeri-baseline/src python benchmarks/abuse_server.py --json /tmp/before.json

``--server-arg=--ws-per-seat=100`` (repeatable) passes options to every server,
e.g. to measure with the caps lifted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

SCENARIOS = ("none", "replay", "hint", "master", "sync", "finished_get", "ws_churn", "rematch", "signin_flood",
             "pack_download", "proxy_flood", "signup_flood", "password_flood")
#: issue 42's availability table: alone, then beside each abuse the issue names (findings 3, 4, 5 and 12)
ISSUE42 = ("none", "signin_flood", "password_flood", "signup_flood", "proxy_flood", "pack_download", "hint")
ROOT = Path(__file__).resolve().parents[1]
PYODIDE = Path(os.environ.get("XERI_TEST_PYODIDE") or ROOT / ".cache" / "pyodide-314.0.8" / "node_modules" / "pyodide")
#: the running server's process id (its RSS goes in the results)
SERVER_PID: list[int] = []
#: the scenarios that need the finished 4-player, 30-round match
BIG_MATCH = ("sync", "finished_get", "ws_churn")
VICTIM_ADDRESS = "127.0.0.1"
THINK = 0.06
#: seconds without a message, while the victim awaits one, that count as a stall
STALL = 5.0


def run_meta(seed: int | None) -> dict[str, Any]:
    """The run's record (benchmarks/run_meta.py), loaded by path so this module also imports from a test."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import run_meta as meta

    return meta.run_meta(seed)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def abuser_address(i: int) -> str:
    return f"127.0.0.{2 + i % 200}"


def http_client(base: str, address: str) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=base, timeout=60, transport=transport)


def _wait_ready(proc: subprocess.Popen[bytes], url: str, seconds: float, failure: str) -> None:
    """Poll a starting server until ``url`` answers 200; exit with ``failure`` if it dies or takes too long."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline or proc.poll() is not None:
            raise SystemExit(failure)
        time.sleep(0.05)  # polling a starting process, not synchronisation of our own code


@contextlib.contextmanager
def server(db: str, extra: list[str]) -> Iterator[str]:
    """A started ``xeri serve`` on ``db``; yields its base URL."""
    port = free_port()
    cmd = [sys.executable, "-m", "xeri", "serve", "--host", "127.0.0.1", "--port", str(port), "--db", db,
           "--bot-delay", "0", "--log-level", "error", *extra]
    proc = subprocess.Popen(cmd)
    SERVER_PID[:] = [proc.pid]
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(proc, f"{base}/api/health", 60, f"the server did not start: {' '.join(cmd)}")
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextlib.contextmanager
def balancer(nodes: list[str]) -> Iterator[str]:
    """HAProxy with deploy/haproxy.cfg in front of ``nodes`` (one node: its three slots all that one process)."""
    port = free_port()
    slots = [nodes[i % len(nodes)] for i in range(3)]
    env = {**os.environ, "XERI_LISTEN": f"127.0.0.1:{port}",
           **{f"XERI_NODE_{i + 1}": node.removeprefix("http://") for i, node in enumerate(slots)}}
    proc = subprocess.Popen([shutil.which("haproxy") or "/usr/sbin/haproxy", "-f", str(ROOT / "deploy" / "haproxy.cfg"),
                             "-db"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        seen: set[str] = set()
        while len(seen) < len(nodes):  # every process in rotation (its node id in /readyz), not just the first
            try:
                r = httpx.get(f"{base}/readyz", timeout=5)
                if r.status_code == 200:
                    seen.add(str(r.json().get("node", len(seen))) if len(nodes) > 1 else "one")
            except (httpx.TransportError, ValueError):
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise SystemExit("haproxy did not start, or did not see every process ready")
            time.sleep(0.05)  # polling a starting process
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def database(pg: str, name: str, template: str | None = None, drop: bool = False) -> str:
    """Make (or with ``drop``, drop) the database ``name`` on the PostgreSQL server ``pg``, a copy of ``template``
    when named (CREATE DATABASE ... TEMPLATE: the seeded matches without replaying them); its URL."""
    import asyncpg

    async def run() -> None:
        conn = await asyncpg.connect(pg.replace("postgresql://", "postgres://", 1))
        try:
            if drop:
                await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            else:
                await conn.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
        finally:
            await conn.close()

    asyncio.run(run())
    return pg.rsplit("/", 1)[0] + "/" + name


@contextlib.contextmanager
def cluster(pg: str, redis: str, name: str, template: str | None, extra: list[str], n: int = 3) -> Iterator[str]:
    """``n`` ``xeri serve`` processes on a fresh PostgreSQL database (a copy of ``template``) and ``redis``, behind
    deploy/haproxy.cfg (``--trusted-proxy 127.0.0.1``: each client counts by its own address); yields the balancer's
    base URL. Every client of the scenario, the victim too, goes through the balancer."""
    db = database(pg, name, template)
    ports = [free_port() for _ in range(n)]
    procs = [subprocess.Popen([sys.executable, "-m", "xeri", "serve", "--host", "127.0.0.1", "--port", str(port),
                               "--db", db, "--redis", redis, "--bot-delay", "0", "--log-level", "error",
                               "--trusted-proxy", "127.0.0.1", *extra]) for port in ports]
    SERVER_PID[:] = [p.pid for p in procs]
    try:
        for port, proc in zip(ports, procs, strict=True):
            # 120 s: three processes importing at once on a busy machine
            _wait_ready(proc, f"http://127.0.0.1:{port}/readyz", 120,
                        f"a cluster process did not get ready (port {port})")
        with balancer([f"http://127.0.0.1:{port}" for port in ports]) as base:
            yield base
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        database(pg, name, drop=True)


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def process_tree(pids: list[int]) -> list[int]:
    """``pids`` and their descendants (the servers' worker pools)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                parents[int(entry)] = int(_stat(int(entry))[1])
    tree, grew = set(pids), True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= more
        grew = bool(more)
    return sorted(tree)


def cpu_s(pids: list[int]) -> float:
    """User + system seconds the processes have spent."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = _stat(pid)
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def rss_mib(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


def serve_options() -> str:
    return subprocess.run([sys.executable, "-m", "xeri", "serve", "--help"], capture_output=True, text=True,
                          check=True).stdout


async def build_long_match(base: str, rounds: int = 99) -> str:
    """A finished ``rounds``-round match of four easy bots; returns its id."""
    async with http_client(base, VICTIM_ADDRESS) as http:
        made = await http.post("/api/tables", json={"options": {"players": 4, "rounds": rounds},
                                                    "seats": [{"bot": "easy"}] * 4})
        made.raise_for_status()
        table_id = str(made.json()["table_id"])
        deadline = time.monotonic() + 600
        while (await http.get(f"/api/tables/{table_id}")).json()["status"] != "finished":
            if time.monotonic() > deadline:
                raise SystemExit(f"the {rounds}-round match did not finish in 10 minutes")
            await asyncio.sleep(0.5)  # polling the server's progress
        return table_id


class Victim:
    """One human seat against a hard bot; collects bot-reply latencies while ``recording``."""

    def __init__(self, base: str, seed: int) -> None:
        self.base = base
        self.rng = random.Random(seed)
        self.latencies: list[float] = []
        self.recording = False
        self.errors: dict[str, int] = {}
        self.tables = 0
        self.moves = 0

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                async with http_client(self.base, VICTIM_ADDRESS) as http:
                    r = await http.post("/api/tables", json={
                        "name": "victim", "seats": [None, {"bot": "hard"}], "options": {"rounds": 20},
                        "takeover_after": None})
                if r.status_code >= 300:
                    await self.fail(f"http_{r.status_code}")
                    continue
                made = r.json()
                self.tables += 1
                url = f"{self.base.replace('http://', 'ws://')}/ws/tables/{made['table_id']}?token={made['token']}"
                await self.play(url, stop)
            except (httpx.HTTPError, OSError, WebSocketException) as exc:
                # A bystander's request that failed (dropped, reset, 502): what issue 42.3 counts.
                await self.fail(type(exc).__name__)

    async def fail(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1
        await asyncio.sleep(0.05)  # a failed victim tries again at most 20 times a second

    async def play(self, url: str, stop: asyncio.Event) -> None:
        async with connect(url, max_size=None, ping_interval=None, local_addr=(VICTIM_ADDRESS, 0)) as ws:
            waiting_since: float | None = None  # our move is stored and it is the bot's turn
            waiting_since_version = -1
            sent_at_version: int | None = None
            heard = time.perf_counter()
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout=0.5)
                except TimeoutError:
                    if (sent_at_version is not None or waiting_since is not None) and \
                            time.perf_counter() - heard > STALL:
                        # Nothing for STALL seconds while a move is owed to us: a lost update (or a starved
                        # machine). Counted as the victim's error, then recovered as the page does, with a sync.
                        await self.fail("stalled")
                        heard, sent_at_version, waiting_since = time.perf_counter(), None, None
                        await ws.send('{"type":"sync"}')
                    continue
                now = heard = time.perf_counter()
                msg = json.loads(text)
                if msg["type"] == "error":
                    self.errors[msg["code"]] = self.errors.get(msg["code"], 0) + 1
                    sent_at_version = None
                    continue
                if msg["type"] not in ("sync", "update"):
                    continue
                version, view = msg["version"], msg["view"]
                if view is None:
                    continue
                if waiting_since is not None and version > waiting_since_version:
                    if self.recording:
                        self.latencies.append(now - waiting_since)
                    waiting_since = None
                if view["match_over"]:
                    return
                if sent_at_version is not None and version > sent_at_version:
                    sent_at_version = None
                    if view["turn"] != view["seat"]:
                        waiting_since, waiting_since_version = now, version
                if view["turn"] == view["seat"] and sent_at_version is None:
                    await asyncio.sleep(THINK * self.rng.uniform(0.8, 1.2))  # a quick player's think time
                    sent_at_version = version
                    self.moves += 1
                    await ws.send(json.dumps({"type": "move", "card": self.rng.choice(view["legal_moves"]),
                                              "version": version}))


class Abuse:
    """The abuser's counters: requests answered, refused (4xx / close), failed."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1


async def abuse_replay(base: str, match_id: str, stop: asyncio.Event, abuse: Abuse, clients: int = 2) -> None:
    async def loop(i: int) -> None:
        async with http_client(base, abuser_address(i)) as http:
            while not stop.is_set():
                try:
                    r = await http.get(f"/api/matches/{match_id}/replay")
                    abuse.count(f"http_{r.status_code}")
                    if r.status_code == 429:
                        await asyncio.sleep(0.05)  # the abuser backs off as little as it must
                except httpx.HTTPError:
                    abuse.count("failed")

    await asyncio.gather(*(loop(i) for i in range(clients)))


async def abuse_hint(base: str, stop: asyncio.Event, abuse: Abuse, sockets: int = 24) -> None:
    address = abuser_address(0)
    async with http_client(base, address) as http:
        made = (await http.post("/api/tables", json={
            "name": "hinter", "seats": [None, {"bot": "hard"}], "options": {"rounds": 20},
            "takeover_after": None})).json()
    url = f"{base.replace('http://', 'ws://')}/ws/tables/{made['table_id']}?token={made['token']}"

    async def loop() -> None:
        while not stop.is_set():
            try:
                async with connect(url, max_size=None, ping_interval=None, local_addr=(address, 0)) as ws:
                    abuse.count("connected")
                    while not stop.is_set():
                        await ws.send(json.dumps({"type": "hint"}))
                        while True:
                            msg = json.loads(await ws.recv())
                            if msg["type"] in ("hint", "error"):
                                break
                        abuse.count(msg["type"] if msg["type"] == "hint" else f"error_{msg['code']}")
                        if msg["type"] == "error":
                            await asyncio.sleep(0.06)  # stay under the message rate, or the socket is closed
            except (WebSocketException, OSError):
                abuse.count("closed")
                await asyncio.sleep(0.1)  # then reconnect

    await asyncio.gather(*(loop() for _ in range(sockets)))


async def abuse_master(base: str, stop: asyncio.Event, abuse: Abuse, tables: int = 12) -> None:
    async with http_client(base, abuser_address(0)) as http:
        made = 0
        while not stop.is_set() and made < tables:
            r = await http.post("/api/tables", json={"options": {"players": 4, "rounds": 20},
                                                     "seats": [{"bot": "master"}] * 4})
            abuse.count(f"create_{r.status_code}")
            if r.status_code == 201:
                made += 1
            else:
                await asyncio.sleep(1.0)  # refused: try again later
        await stop.wait()


def ws_url(base: str, table_id: str, token: str | None = None) -> str:
    return f"{base.replace('http://', 'ws://')}/ws/tables/{table_id}" + (f"?token={token}" if token else "")


async def abuse_sync(base: str, match_id: str, stop: asyncio.Event, abuse: Abuse, sockets: int = 64,
                     rate: float = 20.0) -> None:
    address = abuser_address(0)

    async def loop(i: int) -> None:
        await asyncio.sleep(i * 0.03)  # the opens spread over two seconds, under the per-address open rate
        while not stop.is_set():
            try:
                async with connect(ws_url(base, match_id), max_size=None, ping_interval=None,
                                   local_addr=(address, 0)) as ws:
                    abuse.count("connected")

                    async def read() -> None:
                        async for text in ws:  # not parsed: 64 sockets' 38 KB syncs would busy the abuser
                            abuse.count("error" if '"error"' in str(text)[:16] else "reply")

                    reader = asyncio.create_task(read())
                    next_at = time.monotonic()
                    while not stop.is_set() and not reader.done():
                        await ws.send('{"type":"sync"}')
                        next_at += 1 / rate
                        await asyncio.sleep(max(0.0, next_at - time.monotonic()))  # the abuser's own pace
                    reader.cancel()
            except (WebSocketException, OSError):
                abuse.count("closed")
                await asyncio.sleep(0.2)  # then reconnect

    await asyncio.gather(*(loop(i) for i in range(sockets)))


async def abuse_finished_get(base: str, match_id: str, stop: asyncio.Event, abuse: Abuse,
                             rate: float = 32.0) -> None:
    async with http_client(base, abuser_address(0)) as http:
        paths = [f"/api/tables/{match_id}", f"/api/tables/{match_id}/fairness"]
        next_at = time.monotonic()
        i = 0
        while not stop.is_set():
            try:
                r = await http.get(paths[i % 2])
                abuse.count(f"http_{r.status_code}")
            except httpx.HTTPError:
                abuse.count("failed")
            i += 1
            next_at += 1 / rate
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))  # the abuser's own pace


async def abuse_ws_churn(base: str, match_id: str, stop: asyncio.Event, abuse: Abuse, clients: int = 4) -> None:
    async def loop(i: int) -> None:
        address = abuser_address(i)
        while not stop.is_set():
            try:
                async with connect(ws_url(base, match_id), max_size=None, ping_interval=None,
                                   local_addr=(address, 0)) as ws:
                    json.loads(await ws.recv())  # its sync
                    abuse.count("opened")
            except (WebSocketException, OSError):
                abuse.count("refused")
                await asyncio.sleep(0.05)  # refused by the open rate: the abuser backs off as little as it must

    await asyncio.gather(*(loop(i) for i in range(clients)))


async def abuse_rematch(base: str, stop: asyncio.Event, abuse: Abuse, sockets: int = 4) -> None:
    address = abuser_address(0)
    rng = random.Random(7)
    async with http_client(base, address) as http:
        made = (await http.post("/api/tables", json={
            "name": "racer", "seats": [None, {"bot": "easy"}], "options": {"rounds": 1},
            "takeover_after": None})).json()
    table_id, token = made["table_id"], made["token"]
    while not stop.is_set():
        conns = [await connect(ws_url(base, table_id, token), max_size=None, ping_interval=None,
                               local_addr=(address, 0)) for _ in range(sockets)]
        try:
            player = conns[0]
            # Play the match out, as fast as the message rate allows.
            while not stop.is_set():
                msg = json.loads(await player.recv())
                view = msg.get("view") if msg["type"] in ("sync", "update") else None
                if view is None:
                    continue
                if view["match_over"]:
                    break
                if view["turn"] == view["seat"]:
                    await asyncio.sleep(0.06)  # under the per-connection message rate
                    await player.send(json.dumps({"type": "move", "card": rng.choice(view["legal_moves"]),
                                                  "version": msg["version"]}))
            if stop.is_set():
                break
            await asyncio.gather(*(ws.send('{"type":"rematch"}') for ws in conns))
            for ws in conns:
                await ws.send('{"type":"ping"}')
            new: dict[str, str] = {}
            for ws in conns:
                while True:
                    msg = json.loads(await ws.recv())
                    if msg["type"] == "rematch" and msg.get("token"):
                        new[msg["table_id"]] = msg["token"]
                    elif msg["type"] == "error":
                        abuse.count(f"error_{msg['code']}")
                    elif msg["type"] == "pong":
                        break
            # Late rematch messages (a table made after another socket's pong) are read off the player's socket.
            with contextlib.suppress(TimeoutError):
                while True:
                    msg = json.loads(await asyncio.wait_for(player.recv(), timeout=0.3))
                    if msg["type"] == "rematch" and msg.get("token"):
                        new[msg["table_id"]] = msg["token"]
            abuse.count("races")
            abuse.count(f"race_made_{len(new)}")
            if not new:
                break
            table_id, token = next(iter(new.items()))
        except (WebSocketException, OSError):
            abuse.count("closed")
        finally:
            for ws in conns:
                await ws.close()
    async with http_client(base, address) as http:
        live = (await http.get("/api/tables", params={"status": "all"})).json()["tables"]
        abuse.counts["tables_listed_at_end"] = len(live)


async def abuse_signin(base: str, stop: asyncio.Event, abuse: Abuse, clients: int = 16, addresses: int = 50) -> None:
    rng = random.Random(42)
    turn = iter(range(1 << 30))
    https = [http_client(base, abuser_address(i)) for i in range(addresses)]  # 30 attempts each per 10 minutes

    async def loop() -> None:
        while not stop.is_set():
            http = https[next(turn) % len(https)]
            name = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(10))
            try:
                r = await http.post("/api/account/signin", json={"name": name, "password": f"pw-{rng.random()}"})
                abuse.count(f"http_{r.status_code}")
                if r.status_code == 429:
                    await asyncio.sleep(0.05)
            except httpx.HTTPError:
                abuse.count("failed")

    try:
        await asyncio.gather(*(loop() for _ in range(clients)))
    finally:
        for http in https:
            await http.aclose()


def spread_address(i: int) -> str:
    """The ``i``-th of some 12 million loopback addresses outside 127.0.0.x (where the victim and the other abusers
    are): a botnet's addresses, each used once, so that no per-address limit ever applies."""
    return f"127.{1 + (i // 62500) % 250}.{(i // 250) % 250}.{1 + i % 250}"


def _letters(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(n))


async def abuse_signup(base: str, stop: asyncio.Event, abuse: Abuse, clients: int = 32) -> None:
    """Sign-ups with new names and strong passwords, each from an address of its own (the per-address sign-up
    limit never applies): one argon2id hash each, answered 201 or, with the hash pool full, 429."""
    rng = random.Random(43)
    turn = iter(range(1 << 30))

    async def loop() -> None:
        while not stop.is_set():
            i = next(turn)
            try:
                async with http_client(base, spread_address(i)) as http:  # a fresh client: no cookie carried
                    r = await http.post("/api/account/signup", json={
                        "name": "Su" + _letters(rng, 12), "password": f"pw-{rng.random()}-{i}"})
                abuse.count(f"http_{r.status_code}")
                if r.status_code == 429:
                    await asyncio.sleep(0.05)  # the abuser backs off as little as it must
            except httpx.HTTPError:
                abuse.count("failed")

    await asyncio.gather(*(loop() for _ in range(clients)))


async def abuse_password(base: str, stop: asyncio.Event, abuse: Abuse, prepared: asyncio.Event,
                         clients: int = 32, accounts_each: int = 2) -> None:
    """Signed-in sessions changing their password, the current one right, again and again (two argon2id hashes
    each: the check and the new hash). First (before the victim starts) ``clients * accounts_each`` accounts sign up,
    each from its own address; then each of ``clients`` loops over its accounts in turn, so the per-name count (10
    in 10 minutes) lasts the run."""
    rng = random.Random(44)
    gate = asyncio.Semaphore(4)  # sign-ups a few at a time: the hash pool's queue holds 16

    async def sign_up(i: int) -> tuple[httpx.AsyncClient, str, list[str]]:
        http = http_client(base, spread_address(100_000 + i))
        passwords = [f"pw-{rng.random()}-a", f"pw-{rng.random()}-b"]
        for _ in range(200):
            async with gate:
                r = await http.post("/api/account/signup", json={"name": "Pw" + _letters(rng, 12),
                                                                 "password": passwords[0]})
            if r.status_code == 201:
                return http, str(r.json()["csrf"]), passwords
            if r.status_code not in (409, 429):
                raise SystemExit(f"the password flood's sign-up was refused: {r.status_code} {r.text}")
            await asyncio.sleep(0.2)  # the hash pool is full (or the name was taken): try again
        raise SystemExit("the password flood's accounts could not sign up")

    sessions = await asyncio.gather(*(sign_up(i) for i in range(clients * accounts_each)))
    abuse.counts["accounts"] = len(sessions)
    prepared.set()

    async def loop(mine: list[tuple[httpx.AsyncClient, str, list[str]]]) -> None:
        changes = [0] * len(mine)
        k = 0
        while not stop.is_set():
            j = k % len(mine)
            k += 1
            http, csrf, passwords = mine[j]
            old, new = passwords[changes[j] % 2], passwords[(changes[j] + 1) % 2]
            try:
                r = await http.post("/api/account/password", json={"password": old, "new_password": new},
                                    headers={"X-CSRF-Token": csrf})
                abuse.count(f"http_{r.status_code}")
                if r.status_code == 200:
                    changes[j] += 1
                elif r.status_code == 429:
                    await asyncio.sleep(0.05)
            except httpx.HTTPError:
                abuse.count("failed")

    try:
        await asyncio.gather(*(loop(sessions[c::clients]) for c in range(clients)))
    finally:
        for http, _csrf, _passwords in sessions:
            await http.aclose()


async def abuse_pack(base: str, stop: asyncio.Event, abuse: Abuse, downloaders: int = 4, stalled: int = 24) -> None:
    path = "/offline/pyodide/pyodide.asm.wasm"
    host, port = base.removeprefix("http://").rsplit(":", 1)

    async def download(i: int) -> None:
        async with http_client(base, abuser_address(10 + i)) as http:
            while not stop.is_set():
                try:
                    r = await http.get(path, headers={"Accept-Encoding": "identity"})
                    abuse.count(f"http_{r.status_code}")
                    if r.status_code == 429:
                        await asyncio.sleep(0.05)
                except httpx.HTTPError:
                    abuse.count("failed")

    async def stall() -> None:
        while not stop.is_set():
            try:
                _reader, writer = await asyncio.open_connection(host, int(port), local_addr=(abuser_address(0), 0))
            except OSError:
                abuse.count("connect_failed")
                await asyncio.sleep(0.1)
                continue
            writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
            abuse.count("stalled_opened")
            await stop.wait()  # never reads: the server's side of the socket fills
            writer.close()

    await asyncio.gather(*(download(i) for i in range(downloaders)), *(stall() for _ in range(stalled)))


async def abuse_proxy(base: str, stop: asyncio.Event, abuse: Abuse, per_second: float = 150.0) -> None:
    async with http_client(base, abuser_address(0)) as http:
        next_at = time.perf_counter()
        while not stop.is_set():
            try:
                r = await http.get("/api/tables")
                abuse.count(f"http_{r.status_code}")
            except httpx.HTTPError:
                abuse.count("failed")
            next_at += 1 / per_second
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))


def quantile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))], 2)


async def abuser(base: str, name: str, match_id: str | None, duration: float,
                 ready: Any = None) -> dict[str, int]:
    """Run one abuse for ``duration`` seconds after its preparation (the password flood's accounts); its counts.
    ``ready`` (a multiprocessing Event) is set when the preparation is done."""
    stop = asyncio.Event()
    prepared = asyncio.Event()
    abuse = Abuse()
    if name == "replay":
        assert match_id is not None
        task = asyncio.create_task(abuse_replay(base, match_id, stop, abuse))
    elif name == "hint":
        task = asyncio.create_task(abuse_hint(base, stop, abuse))
    elif name in BIG_MATCH:
        assert match_id is not None
        run = {"sync": abuse_sync, "finished_get": abuse_finished_get, "ws_churn": abuse_ws_churn}[name]
        task = asyncio.create_task(run(base, match_id, stop, abuse))
    elif name == "rematch":
        task = asyncio.create_task(abuse_rematch(base, stop, abuse))
    elif name == "signin_flood":
        task = asyncio.create_task(abuse_signin(base, stop, abuse))
    elif name == "signup_flood":
        task = asyncio.create_task(abuse_signup(base, stop, abuse))
    elif name == "password_flood":
        task = asyncio.create_task(abuse_password(base, stop, abuse, prepared))
    elif name == "pack_download":
        task = asyncio.create_task(abuse_pack(base, stop, abuse))
    elif name == "proxy_flood":
        task = asyncio.create_task(abuse_proxy(base, stop, abuse))
    else:
        task = asyncio.create_task(abuse_master(base, stop, abuse))
    if name != "password_flood":
        prepared.set()
    await asyncio.wait([task, asyncio.create_task(prepared.wait())], return_when=asyncio.FIRST_COMPLETED)
    if task.done() and not prepared.is_set():
        task.result()  # the preparation failed: its error
    if ready is not None:
        ready.set()
    await asyncio.sleep(duration)  # the abuse lasts this long
    stop.set()
    await asyncio.wait([task], timeout=30)
    task.cancel()
    return abuse.counts


def abuser_process(base: str, name: str, match_id: str | None, duration: float, out: Any, ready: Any) -> None:
    """The abuser in its own process, so its own CPU does not slow the victim's client."""
    out.put(_run(abuser(base, name, match_id, duration, ready)))


async def scenario(base: str, name: str, match_id: str | None, seconds: float, warmup: float,
                   seed: int) -> dict[str, Any]:
    stop = asyncio.Event()
    victim = Victim(base, seed)
    process = None
    spawn = multiprocessing.get_context("spawn")
    counts: Any = spawn.Queue()
    ready = spawn.Event()
    if name != "none":
        process = spawn.Process(target=abuser_process,
                                args=(base, name, match_id, warmup + seconds + 1, counts, ready))
        process.start()
        if not await asyncio.to_thread(ready.wait, 300):  # its preparation (the password flood's accounts)
            process.terminate()
            raise SystemExit(f"the {name} abuser did not get ready")
    tasks = [asyncio.create_task(victim.run(stop))]
    await asyncio.sleep(warmup)  # the measured window starts after the warm-up
    servers = process_tree(SERVER_PID)
    cpu_before = cpu_s(servers)
    victim.recording = True
    started = time.perf_counter()
    probing = asyncio.create_task(bystander(base, started + seconds))
    await asyncio.sleep(seconds)
    victim.recording = False
    asked = await probing
    elapsed = time.perf_counter() - started
    server_cpu = cpu_s(servers) - cpu_before
    load = [round(x, 2) for x in os.getloadavg()]
    stop.set()
    done, pending = await asyncio.wait(tasks, timeout=30)
    for t in pending:
        t.cancel()
    failures = [repr(t.exception()) for t in done if not t.cancelled() and t.exception() is not None]
    abused: dict[str, int] = {}
    if process is not None:
        abused = await asyncio.to_thread(counts.get, True, 60)
        process.join(30)
    lat = victim.latencies
    rss = [r for r in (rss_mib(pid) for pid in SERVER_PID) if r is not None]
    failed = sum(n for what, n in asked.items() if not what.startswith("http_2"))
    return {"server_rss_mib": round(sum(rss), 1) if rss else None, "scenario": name, "seconds": round(elapsed, 1),
            "replies": len(lat), "p50_ms": quantile(lat, 0.50), "p99_ms": quantile(lat, 0.99),
            "max_ms": quantile(lat, 1.0), "victim_tables": victim.tables, "victim_moves": victim.moves,
            "victim_errors": victim.errors, "bystander": asked, "bystander_failed": failed,
            "load_average": load, "server_cpu_s": round(server_cpu, 2), "abuse": abused, "failures": failures}


async def bystander(base: str, until: float, every: float = 0.25) -> dict[str, int]:
    """Another player beside the victim: ``GET /api/tables`` four times a second, each on a new connection, from
    the victim's address; its answers by status (``failed``: dropped or reset). The goal: no failure."""
    answers: dict[str, int] = {}
    while time.perf_counter() < until:
        try:
            async with http_client(base, VICTIM_ADDRESS) as http:
                what = f"http_{(await http.get('/api/tables')).status_code}"
        except httpx.HTTPError:
            what = "failed"
        answers[what] = answers.get(what, 0) + 1
        await asyncio.sleep(every)
    return answers


def _run(coro: Any) -> Any:
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


def markdown(results: list[dict[str, Any]]) -> str:
    """The availability table (issue 42's "Done means"): per process count and abuse, the victim's p50 and p99,
    the bystander's failed requests, the victim's own failed requests, and the load average at the window's end."""
    lines = ["| processes | abuse | victim p50 ms | victim p99 ms | replies | bystander failed / asked | "
             "victim errors | load 1/5/15 min | servers' CPU-s | goal (p99 < 100 ms, nothing failed) |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in results:
        asked = sum(r["bystander"].values())
        errors = sum(r["victim_errors"].values())
        met = (r["p99_ms"] is not None and r["p99_ms"] < 100 and not r["bystander_failed"] and not errors
               and not r["failures"])
        lines.append(f"| {r.get('processes', 1)} | {r['scenario']} | {r['p50_ms'] or '–'} | {r['p99_ms'] or '–'} | "
                     f"{r['replies']} | "
                     f"{r['bystander_failed']} / {asked} | {errors or 0}"
                     f"{' ' + json.dumps(r['victim_errors']) if errors else ''} | "
                     f"{' / '.join(f'{x:.1f}' for x in r['load_average'])} | {r['server_cpu_s']} | "
                     f"{'yes' if met else '**no**'} |")
    return "\n".join(lines) + "\n"


def run_scenarios(args: argparse.Namespace, names: list[str], processes: int, tmp: str, pg: str | None,
                  redis: str | None) -> list[dict[str, Any]]:
    """Each scenario on a fresh server: one ``xeri serve`` on SQLite, or ``processes`` of them on a fresh PostgreSQL
    database with Redis behind HAProxy."""
    results: list[dict[str, Any]] = []
    tag = f"{os.getpid()}_{processes}"
    seed_db = os.path.join(tmp, f"seed{processes}.sqlite3")
    template: str | None = None
    long_id = big_id = None
    if "replay" in names or set(names) & set(BIG_MATCH):
        raise_cap = ["--max-rounds", "99"] if "--max-rounds" in serve_options() else []
        if processes > 1:
            assert pg is not None
            template = f"xeri_abuse_seed_{tag}"
            seed_db = database(pg, template)
        with server(seed_db, raise_cap) as base:
            if "replay" in names:
                long_id = _run(build_long_match(base))
            if set(names) & set(BIG_MATCH):
                big_id = _run(build_long_match(base, rounds=30))
    try:
        for i, name in enumerate(names):
            match_id = long_id if name == "replay" else big_id
            extra = [*args.server_arg, *(["--playing-per-address", "2"] if name == "rematch" else []),
                     *(["--offline-pack", str(PYODIDE)] if name == "pack_download" else [])]
            if processes > 1:
                assert pg is not None and redis is not None
                front = cluster(pg, redis, f"xeri_abuse_{tag}_{i}", template, extra, processes)
            else:
                db = os.path.join(tmp, f"{name}.sqlite3")
                if os.path.exists(seed_db):
                    shutil.copy(seed_db, db)
                front = one_process(db, extra, behind_proxy=name == "proxy_flood")
            with front as base:
                out = {"processes": processes,
                       **_run(scenario(base, name, match_id, args.seconds, args.warmup, args.seed + i))}
            results.append(out)
            print(json.dumps(out), file=sys.stderr, flush=True)
    finally:
        if template is not None and pg is not None:
            database(pg, template, drop=True)
    return results


@contextlib.contextmanager
def one_process(db: str, extra: list[str], behind_proxy: bool) -> Iterator[str]:
    """One ``xeri serve`` on SQLite; ``behind_proxy`` (the proxy flood): behind deploy/haproxy.cfg, whose three
    slots are all that process, with ``--trusted-proxy 127.0.0.1``."""
    if not behind_proxy:
        with server(db, extra) as base:
            yield base
        return
    with server(db, [*extra, "--trusted-proxy", "127.0.0.1"]) as base, balancer([base]) as front:
        yield front


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenarios", default=",".join(SCENARIOS),
                    help=f"comma-separated: {', '.join(SCENARIOS)}; or issue42: {','.join(ISSUE42)}")
    ap.add_argument("--processes", default="1",
                    help="comma-separated process counts: 1 is one xeri serve on SQLite; N > 1 is N processes on "
                         "PostgreSQL and Redis behind deploy/haproxy.cfg (e.g. 1,3)")
    ap.add_argument("--pg", default=os.environ.get("XERI_TEST_PG_URL"),
                    help="PostgreSQL server URL for N > 1 (default $XERI_TEST_PG_URL; neither: a throwaway one is "
                         "started, benchmarks/services.py)")
    ap.add_argument("--redis", default=os.environ.get("XERI_TEST_REDIS_URL"),
                    help="Redis URL for N > 1 (default $XERI_TEST_REDIS_URL; neither: a throwaway one is started)")
    ap.add_argument("--seconds", type=float, default=15.0, help="measured seconds per scenario")
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--server-arg", action="append", default=[], help="an extra option for every xeri serve")
    ap.add_argument("--json", help="write the results here (default: benchmarks/results/abuse_server.TAG.json); "
                                   "the markdown table goes beside it (.md)")
    ap.add_argument("--tag", default="default_server", help="what this run measures, in the default file name")
    args = ap.parse_args()
    names = [n for s in args.scenarios.split(",") if s.strip()
             for n in (ISSUE42 if s.strip() == "issue42" else (s.strip(),))]
    unknown = sorted(set(names) - set(SCENARIOS))
    try:
        counts = [int(x) for x in args.processes.split(",") if x.strip()]
    except ValueError:
        counts = []
    if unknown or not 1 <= args.seconds <= 300 or not counts or not all(1 <= n <= 3 for n in counts):
        ap.error(f"unknown scenario(s) {unknown}" if unknown else "--seconds must be 1..300" if counts
                 and all(1 <= n <= 3 for n in counts) else "--processes takes counts from 1 to 3, e.g. 1,3")
    import xeri

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import services

    results: list[dict[str, Any]] = []
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        pg, redis = args.pg, args.redis
        if any(n > 1 for n in counts):
            pg = pg or stack.enter_context(services.postgres())
            redis = redis or stack.enter_context(services.redis())
        for n in counts:
            results += run_scenarios(args, names, n, tmp, pg, redis)
    table = markdown(results)
    print(table)
    meta = {**run_meta(args.seed), "xeri": os.path.dirname(xeri.__file__), "cpus": os.cpu_count(),
            "python": sys.version.split()[0], "nice": os.nice(0),
            "load_average": os.getloadavg(), "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "server_args": args.server_arg, "seconds": args.seconds, "warmup": args.warmup,
            "processes": counts, "wall_s": round(time.monotonic() - started, 1)}
    path = args.json or str(Path(__file__).resolve().parent / "results" / f"abuse_server.{args.tag}.json")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        json.dump({"meta": meta, "results": results}, f, indent=1)
        f.write("\n")
    with open(os.path.splitext(path)[0] + ".md", "w") as f:
        f.write(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
