"""Several ``xeri serve`` processes on one PostgreSQL and one Redis (scripts/test.sh starts both): a fresh
database per test, the processes, HAProxy in front of them, WebSocket clients, and a poll that waits for a state."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from support import logs as server_logs
from support.server import free_port
from xeri.server.store import Store

PG_URL = os.environ.get("XERI_TEST_PG_URL")
REDIS_URL = os.environ.get("XERI_TEST_REDIS_URL")
ROOT = Path(__file__).resolve().parents[2]
HAPROXY_CFG = ROOT / "deploy" / "haproxy.cfg"
LEASE = 1.5


def poll(what: str, check: Callable[[], Any], timeout: float = 20.0, every: float = 0.05) -> Any:
    """Wait for ``check()`` to return something true, or fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            out = check()
            if out:
                return out
        except (httpx.TransportError, OSError):
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        threading.Event().wait(every)  # poll interval


@contextlib.contextmanager
def fresh_database(prefix: str) -> Iterator[str]:
    """A fresh PostgreSQL database on the test server, dropped afterwards: a cluster that starts empty."""
    assert PG_URL and REDIS_URL, "scripts/test.sh should have started PostgreSQL and Redis"
    import asyncpg

    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    admin = PG_URL.replace("postgresql://", "postgres://", 1)

    async def run(sql: str) -> None:
        conn = await asyncpg.connect(admin)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(run(f'CREATE DATABASE "{name}"'))
    try:
        yield PG_URL.rsplit("/", 1)[0] + "/" + name
    finally:
        try:
            asyncio.run(run(f'DROP DATABASE "{name}" WITH (FORCE)'))
        except Exception:  # an old PostgreSQL without FORCE: the throwaway cluster goes at the end anyway
            pass


@pytest.fixture
def database() -> Iterator[str]:
    """Each test's cluster starts empty."""
    with fresh_database("xeri_cluster") as url:
        yield url


class Node:
    """One ``xeri serve`` process of the cluster."""

    def __init__(self, db: str, redis: str | None, lease: float = LEASE, bot_delay: float = 0.0,
                 extra: tuple[str, ...] = (), metrics: bool = False) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        #: with ``metrics``, the port of its Prometheus metrics (``--metrics-port``)
        self.metrics = free_port() if metrics else None
        args = [sys.executable, "-m", "xeri", "serve", "--port", str(self.port), "--db", db, "--lease", str(lease),
                "--bot-delay", str(bot_delay), "--workers", "0", "--ws-opens", "1000", "--rate", "1000",
                "--http-rate", "1000",
                "--log-level", "error", *(("--metrics-port", str(self.metrics)) if self.metrics else ()), *extra]
        if redis:
            args += ["--redis", redis]
        # The log goes to a file: a pipe nobody reads would fill and stall the server.
        self.log = tempfile.NamedTemporaryFile(prefix="xeri-node-", suffix=".log")
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=self.log)

    def ready(self) -> Node:
        poll("the server to be ready", lambda: self.alive() and httpx.get(f"{self.base}/readyz", timeout=2)
             .status_code == 200, timeout=90)  # three processes importing at once on a busy machine
        return self

    def alive(self) -> bool:
        if self.proc.poll() is not None:
            raise AssertionError(f"the server exited: {self.output()}")
        return True

    def output(self) -> str:
        return Path(self.log.name).read_text(errors="replace")[-4000:]

    def kill9(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        if self.log.closed:  # stopped before (a test that stops its nodes, then its cluster)
            return
        if os.environ.get("XERI_TEST_NODE_LOGS"):
            print(f"--- node {self.port}:\n{self.output()}")
        server_logs.check_file(self.log.name, f"cluster node on port {self.port}")
        self.log.close()


class Cluster:
    """``n`` processes and, with ``balancer``, HAProxy in front of them with deploy/haproxy.cfg (or ``config``, its
    environment completed by ``env``; ``https``: the balancer's base is https://, with ``XERI_LISTEN_TLS`` in
    ``env``)."""

    def __init__(self, db: str, redis: str, n: int = 3, balancer: bool = False, config: Path = HAPROXY_CFG,
                 env: dict[str, str] | None = None, https: bool = False, **options: Any) -> None:
        self.nodes = [Node(db, redis, **options) for _ in range(n)]
        self.haproxy: subprocess.Popen[bytes] | None = None
        try:
            for node in self.nodes:
                node.ready()
            if balancer:
                self.port = free_port()
                haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
                nodes = {f"XERI_NODE_{i + 1}": f"127.0.0.1:{n.port}" for i, n in enumerate(self.nodes)}
                full = {**os.environ, "XERI_LISTEN": f"127.0.0.1:{self.port}", **nodes, **(env or {})}
                self.haproxy = subprocess.Popen([haproxy, "-f", str(config), "-db"], env=full,
                                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                if https:
                    self.port = int(full["XERI_LISTEN_TLS"].rsplit(":", 1)[1])
                scheme = "https" if https else "http"
                self.base = f"{scheme}://127.0.0.1:{self.port}"
                self.ws = f"{'wss' if https else 'ws'}://127.0.0.1:{self.port}"
                poll("haproxy", lambda: httpx.get(f"{self.base}/readyz", timeout=2, verify=False).status_code == 200)
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        if self.haproxy is not None:
            self.haproxy.terminate()
            self.haproxy.wait(timeout=10)
        for node in self.nodes:
            node.stop()


class Client:
    """A player (or spectator) that reconnects as the browser does, keeping every message it got."""

    def __init__(self, ws_bases: list[str], table_id: str, token: str | None = None, summary: bool = False) -> None:
        self.bases = ws_bases
        # summary=1 as the page sends it: this client shows each round's summary, and the next round waits for it
        self.path = f"/ws/tables/{table_id}" + (f"?token={token}" if token else "") + ("&summary=1" if summary else "")
        self.messages: list[dict[str, Any]] = []
        self.version = -1
        self.view: dict[str, Any] | None = None
        self.reconnects = 0
        self.ws: Any = None
        self._connect(deadline=time.monotonic() + 20)

    def _connect(self, deadline: float) -> None:
        attempt = 0
        while True:
            base = self.bases[attempt % len(self.bases)]
            attempt += 1
            try:
                self.ws = connect(base + self.path, max_size=None, open_timeout=5, ping_interval=None).__enter__()
                first = self._recv(5)
                if first["type"] == "sync":
                    return
                self.ws.close()
            except (OSError, ConnectionClosed, TimeoutError):
                pass
            if time.monotonic() > deadline:
                raise AssertionError("could not reconnect")
            threading.Event().wait(0.1)  # the browser's reconnect pause, shortened

    def _recv(self, timeout: float) -> dict[str, Any]:
        msg = json.loads(self.ws.recv(timeout=timeout))
        self.messages.append(msg)
        if msg["type"] in ("sync", "update"):
            assert msg["version"] >= self.version or msg["type"] == "sync", "an update went backwards"
            self.version, self.view = msg["version"], msg["view"]
        return msg

    def recv(self, timeout: float = 10.0) -> dict[str, Any] | None:
        """The next message; None after a reconnection (its sync is in ``messages``)."""
        try:
            return self._recv(timeout)
        except ConnectionClosed:
            self.reconnects += 1
            self._connect(time.monotonic() + 30)
            return None

    def send(self, **message: Any) -> None:
        try:
            self.ws.send(json.dumps(message))
        except ConnectionClosed:
            pass  # the next recv reconnects

    def until_version(self, version: int, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while self.version < version:
            if time.monotonic() > deadline:
                raise AssertionError(f"never reached version {version} (at {self.version})")
            self.recv(max(deadline - time.monotonic(), 0.01))

    def close(self) -> None:
        self.ws.close()


def wait_for_news(client: Client, seconds: float) -> None:
    """Take the next message if one comes within ``seconds``."""
    try:
        client.recv(seconds)
    except TimeoutError:
        pass


def play_turn(client: Client, rng_pick: Callable[[list[str]], str], timeout: float = 30.0) -> float | None:
    """Play one card when it is this seat's turn; retry after a retryable refusal; returns when it was accepted."""
    deadline = time.monotonic() + timeout
    while True:
        if time.monotonic() > deadline:
            raise AssertionError("the move was never accepted")
        view = client.view
        if view is None or view["match_over"]:
            return None
        if view["turn"] != view["seat"]:
            client.recv(max(deadline - time.monotonic(), 0.01))
            continue
        before = client.version
        client.send(type="move", card=rng_pick(view["legal_moves"]), version=before)
        while client.version == before:
            msg = client.recv(max(deadline - time.monotonic(), 0.01))
            if msg is None:
                break  # reconnected: look again
            if msg["type"] == "error":
                assert msg["code"] in ("unavailable", "stale", "not_your_turn"), msg
                if msg["code"] == "unavailable":
                    assert "try again" in msg["message"], msg
                    wait_for_news(client, 0.1)  # as a polite client does before trying again
                break
        if client.version > before:
            return time.monotonic()


def played(messages: list[dict[str, Any]]) -> dict[int, str]:
    """version -> the card played by the move that made it, from the updates a client got."""
    out = {}
    for m in messages:
        if m["type"] == "update":
            cards = [e["card"] for e in m["events"] if e.get("kind") == "played"]
            assert len(cards) == 1, m
            out[m["version"]] = cards[0]
    return out


def lease_owner(database: str, table_id: str) -> str | None:
    """The process holding the table's live lease, read from the database (``Store.lease_owner``)."""
    async def read() -> str | None:
        store = Store(database)
        await store.open()
        try:
            return await store.lease_owner(table_id)
        finally:
            await store.close()

    return asyncio.run(read())


def node_id(node: Node) -> str:
    return str(httpx.get(f"{node.base}/readyz", timeout=5).json()["node"])
