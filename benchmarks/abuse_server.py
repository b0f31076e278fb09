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

Beside the victim, a bystander asks ``GET /api/tables`` four times a second, each on
a new connection, and counts its answers (``bystander``: none should fail).

It prints the victim's p50/p99 per scenario as a table and writes them as JSON, with the run's record
(``benchmarks/run_meta.py``: command, commit, date, load, seed), to
``benchmarks/results/abuse_server.TAG.json`` (``--tag``, default ``default_server``; name a run with
``--server-arg`` or another checkout for what it measures) or to ``--json PATH``.
Bounded: ``--seconds`` measured per scenario (after
``--warmup``), loopback only.

    python benchmarks/abuse_server.py            # benchmarks/results/abuse_server.default_server.json

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
             "pack_download", "proxy_flood")
ROOT = Path(__file__).resolve().parents[1]
PYODIDE = Path(os.environ.get("XERI_TEST_PYODIDE") or ROOT / ".cache" / "pyodide-314.0.8" / "node_modules" / "pyodide")
#: the running server's process id (its RSS goes in the results)
SERVER_PID: list[int] = []
#: the scenarios that need the finished 4-player, 30-round match
BIG_MATCH = ("sync", "finished_get", "ws_churn")
VICTIM_ADDRESS = "127.0.0.1"
THINK = 0.06


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
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise SystemExit(f"the server did not start: {' '.join(cmd)}")
            time.sleep(0.05)  # polling a starting process, not synchronisation of our own code
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextlib.contextmanager
def balancer(node: str) -> Iterator[str]:
    """HAProxy with deploy/haproxy.cfg in front of ``node`` (its three servers all that one process)."""
    port = free_port()
    env = {**os.environ, "XERI_LISTEN": f"127.0.0.1:{port}",
           **{f"XERI_NODE_{i}": node.removeprefix("http://") for i in (1, 2, 3)}}
    proc = subprocess.Popen([shutil.which("haproxy") or "/usr/sbin/haproxy", "-f", str(ROOT / "deploy" / "haproxy.cfg"),
                             "-db"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise SystemExit("haproxy did not start")
            time.sleep(0.05)  # polling a starting process
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=30)


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
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout=0.5)
                except TimeoutError:
                    continue
                now = time.perf_counter()
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


async def abuser(base: str, name: str, match_id: str | None, duration: float) -> dict[str, int]:
    """Run one abuse for ``duration`` seconds; its counts."""
    stop = asyncio.Event()
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
    elif name == "pack_download":
        task = asyncio.create_task(abuse_pack(base, stop, abuse))
    elif name == "proxy_flood":
        task = asyncio.create_task(abuse_proxy(base, stop, abuse))
    else:
        task = asyncio.create_task(abuse_master(base, stop, abuse))
    await asyncio.sleep(duration)  # the abuse lasts this long
    stop.set()
    await asyncio.wait([task], timeout=30)
    task.cancel()
    return abuse.counts


def abuser_process(base: str, name: str, match_id: str | None, duration: float, out: Any) -> None:
    """The abuser in its own process, so its own CPU does not slow the victim's client."""
    out.put(_run(abuser(base, name, match_id, duration)))


async def scenario(base: str, name: str, match_id: str | None, seconds: float, warmup: float,
                   seed: int) -> dict[str, Any]:
    stop = asyncio.Event()
    victim = Victim(base, seed)
    tasks = [asyncio.create_task(victim.run(stop))]
    process = None
    counts: Any = multiprocessing.get_context("spawn").Queue()
    if name != "none":
        process = multiprocessing.get_context("spawn").Process(
            target=abuser_process, args=(base, name, match_id, warmup + seconds + 1, counts))
        process.start()
    await asyncio.sleep(warmup)  # the measured window starts after the warm-up
    victim.recording = True
    started = time.perf_counter()
    probing = asyncio.create_task(bystander(base, started + seconds))
    await asyncio.sleep(seconds)
    victim.recording = False
    asked = await probing
    elapsed = time.perf_counter() - started
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
    rss = rss_mib(SERVER_PID[0]) if SERVER_PID else None
    return {"server_rss_mib": rss, "scenario": name, "seconds": round(elapsed, 1), "replies": len(lat),
            "p50_ms": quantile(lat, 0.50), "p99_ms": quantile(lat, 0.99), "max_ms": quantile(lat, 1.0),
            "victim_tables": victim.tables, "victim_moves": victim.moves, "victim_errors": victim.errors,
            "bystander": asked, "abuse": abused, "failures": failures}


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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenarios", default=",".join(SCENARIOS), help=f"comma-separated: {', '.join(SCENARIOS)}")
    ap.add_argument("--seconds", type=float, default=15.0, help="measured seconds per scenario")
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--server-arg", action="append", default=[], help="an extra option for every xeri serve")
    ap.add_argument("--json", help="write the results here (default: benchmarks/results/abuse_server.TAG.json)")
    ap.add_argument("--tag", default="default_server", help="what this run measures, in the default file name")
    args = ap.parse_args()
    names = [s.strip() for s in args.scenarios.split(",") if s.strip()]
    unknown = sorted(set(names) - set(SCENARIOS))
    if unknown or not 1 <= args.seconds <= 300:
        ap.error(f"unknown scenario(s) {unknown}" if unknown else "--seconds must be 1..300")
    import xeri

    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        seed_db = os.path.join(tmp, "seed.sqlite3")
        long_id = big_id = None
        if "replay" in names or set(names) & set(BIG_MATCH):
            raise_cap = ["--max-rounds", "99"] if "--max-rounds" in serve_options() else []
            with server(seed_db, raise_cap) as base:
                if "replay" in names:
                    long_id = _run(build_long_match(base))
                if set(names) & set(BIG_MATCH):
                    big_id = _run(build_long_match(base, rounds=30))
        for i, name in enumerate(names):
            db = os.path.join(tmp, f"{name}.sqlite3")
            if os.path.exists(seed_db):
                shutil.copy(seed_db, db)
            match_id = long_id if name == "replay" else big_id
            extra = [*args.server_arg, *(["--playing-per-address", "2"] if name == "rematch" else []),
                     *(["--offline-pack", str(PYODIDE)] if name == "pack_download" else []),
                     *(["--trusted-proxy", "127.0.0.1"] if name == "proxy_flood" else [])]
            with server(db, extra) as base, (balancer(base) if name == "proxy_flood"
                                             else contextlib.nullcontext(base)) as front:
                out = _run(scenario(front, name, match_id, args.seconds, args.warmup, args.seed + i))
            results.append(out)
            print(json.dumps(out), file=sys.stderr, flush=True)
    print(f"{'scenario':<12} {'replies':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}  bystander; abuse")
    for r in results:
        print(f"{r['scenario']:<12} {r['replies']:>7} {r['p50_ms']!s:>8} {r['p99_ms']!s:>8} {r['max_ms']!s:>8}  "
              f"{json.dumps(r['bystander'])}; {json.dumps(r['abuse'])}")
    meta = {**run_meta(args.seed), "xeri": os.path.dirname(xeri.__file__), "cpus": os.cpu_count(),
            "python": sys.version.split()[0],
            "load_average": os.getloadavg(), "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "server_args": args.server_arg, "seconds": args.seconds, "warmup": args.warmup}
    path = args.json or str(Path(__file__).resolve().parent / "results" / f"abuse_server.{args.tag}.json")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        json.dump({"meta": meta, "results": results}, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
