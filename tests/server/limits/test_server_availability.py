"""One client cannot starve the others (issue 42): password hashes in a bounded pool, the offline pack's downloads
hashed once, streamed, capped per address and dropped when stalled, and the connection rate behind HAProxy counted
per player. docs/security.md's "Red team, turn 4" rows name these tests.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.server import AccountClient, ThreadServer, db_url, free_port, subprocess_server
from xeri.offline import pack
from xeri.server import create_app
from xeri.server.accounts.passwords import Passwords
from xeri.server.config import ServerConfig, Storage
from xeri.server.http import offline_pack as offline

ROOT = Path(__file__).resolve().parents[3]
PASSWORD = "a good long password"
WASM = "pyodide/pyodide.asm.wasm"


# --- password hashing (finding 4) ----------------------------------------------------------------


class HeldPasswords(Passwords):
    """Cheap argon2id whose checks wait at a gate while ``hold`` is set: the pool stays full as long as a test
    wants."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_kib=64, lanes=1, workers=1, queue=0)
        self.hold = threading.Event()
        self.entered = threading.Event()
        self.gate = threading.Event()

    def _verify(self, stored: str | None, password: str) -> bool:
        if self.hold.is_set():
            self.entered.set()
            self.gate.wait(10)
        return super()._verify(stored, password)


def test_a_full_password_pool_answers_429_with_retry_after_and_changes_nothing(tmp_path: Path) -> None:
    passwords = HeldPasswords()
    srv = ThreadServer(db_url(tmp_path), passwords=passwords).start()
    try:
        AccountClient(srv.base).sign_up("Ada")
        passwords.hold.set()
        first = AccountClient(srv.base)
        answers: list[httpx.Response] = []
        waiting = threading.Thread(target=lambda: answers.append(
            first.post("/api/account/signin", {"name": "Ada", "password": PASSWORD})))
        waiting.start()
        assert passwords.entered.wait(10), "the first sign-in never reached its hash"
        # The one thread is busy and the queue holds none: the next sign-in and sign-up are refused at once.
        other = AccountClient(srv.base)
        for path, body in (("/api/account/signin", {"name": "Ada", "password": PASSWORD}),
                           ("/api/account/signup", {"name": "Grace", "password": PASSWORD})):
            r = other.post(path, body)
            assert r.status_code == 429, r.text
            assert r.headers["retry-after"] == "1"
            assert r.json()["error"]["code"] == "rate_limited" and "passwords" in r.json()["error"]["message"]
            assert "set-cookie" not in r.headers and other.cookie is None
        passwords.hold.clear()
        passwords.gate.set()
        waiting.join(10)
        assert answers and answers[0].status_code == 200
        # Nothing changed: Grace has no account, and a refusal cost Ada's name no attempt.
        assert other.post("/api/account/signin", {"name": "Grace", "password": PASSWORD}).status_code == 401
        other.sign_in("Ada")
        assert passwords.in_flight == 0
    finally:
        passwords.gate.set()
        srv.stop()


def test_password_hashes_run_on_at_most_half_the_cores() -> None:
    # libargon2 runs a hash's lanes in threads the pool's thread starts: they inherit its cores.
    passwords = Passwords(time_cost=1, memory_kib=64, lanes=1)
    held = passwords._pool.submit(os.sched_getaffinity, 0).result()
    assert len(held) <= max(1, len(os.sched_getaffinity(0)) // 2) and held <= os.sched_getaffinity(0)
    assert os.sched_getaffinity(0) == os.sched_getaffinity(0) | held  # the tables' threads keep every core


# --- the offline pack (finding 5) ---------------------------------------------------------------


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A stand-in for npm's pyodide folder: its five files, the wasm 1 MiB of seeded bytes."""
    out = tmp_path / "pyodide"
    out.mkdir()
    for name in pack.PYODIDE_FILES:
        (out / name).write_bytes(b"x" * 100)
    (out / "pyodide.asm.wasm").write_bytes(random.Random(42).randbytes(1 << 20))
    (out / "package.json").write_text(json.dumps({"version": pack.PYODIDE_VERSION}))
    return out


def scope(path: str, address: str = "203.0.113.7", gzip: bool = False) -> dict[str, Any]:
    headers = [(b"host", b"127.0.0.1")] + ([(b"accept-encoding", b"gzip")] if gzip else [])
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
            "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "", "headers": headers,
            "client": (address, 40000), "server": ("127.0.0.1", 8000)}


class Reader:
    """An ASGI ``send`` that keeps what it is sent; with ``stall``, it takes the first body chunk and then never
    another (a client that stopped reading)."""

    def __init__(self, stall: bool = False) -> None:
        self.stall = stall
        self.messages: list[dict[str, Any]] = []
        self.started = asyncio.Event()

    async def __call__(self, message: dict[str, Any]) -> None:
        if self.stall and any(m["type"] == "http.response.body" for m in self.messages):
            await asyncio.Event().wait()  # never set: the client reads no more
        self.messages.append(message)
        if message["type"] == "http.response.start":
            self.started.set()

    @property
    def status(self) -> int:
        return int(self.messages[0]["status"])

    @property
    def headers(self) -> dict[str, str]:
        return {k.decode(): v.decode() for k, v in self.messages[0]["headers"]}

    @property
    def body(self) -> bytes:
        return b"".join(m.get("body", b"") for m in self.messages[1:])


def receiver() -> Any:
    """An ASGI ``receive``: the request's empty body, then nothing (the client stays connected)."""
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            await asyncio.Event().wait()  # never set: no disconnect
        sent = True
        return {"type": "http.request", "body": b"", "more_body": False}

    return receive


def test_the_pack_hashes_each_file_once_at_start_up_and_streams_it_in_chunks(
        folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(ServerConfig(storage=Storage(db=db_url(tmp_path)), offline_pack=str(folder)))
    hashed: list[int] = []
    real = offline.hashlib.sha256

    class Counting:
        @staticmethod
        def sha256(data: bytes = b"") -> Any:
            hashed.append(len(data))
            return real(data)

    monkeypatch.setattr(offline, "hashlib", Counting)
    wasm = (folder / "pyodide.asm.wasm").read_bytes()

    async def downloads() -> None:
        for gzip in (False, False, True):
            reader = Reader()
            await asyncio.wait_for(app(scope("/offline/" + WASM, gzip=gzip), receiver(), reader), 10)
            assert reader.status == 200
            bodies = [m["body"] for m in reader.messages[1:]]
            # Streamed: no message holds more than a chunk, so a client that stops reading holds one chunk.
            assert len(bodies) > 2 and max(len(b) for b in bodies) <= offline.CHUNK
            if not gzip:
                assert reader.body == wasm and reader.headers["content-length"] == str(len(wasm))

    asyncio.run(downloads())
    assert hashed == [], "a download hashed the file again"


def test_a_stalled_pack_reader_is_dropped_after_its_deadline(folder: Path, tmp_path: Path) -> None:
    app = create_app(ServerConfig(storage=Storage(db=db_url(tmp_path)), offline_pack=str(folder)))
    found: offline.OfflinePack = app.state.offline_pack
    found.stall_seconds = 0.2

    async def stalled() -> Reader:
        reader = Reader(stall=True)
        # The app returns (uvicorn then closes the connection) long before this test's own deadline.
        await asyncio.wait_for(app(scope("/offline/" + WASM), receiver(), reader), 10)
        return reader

    reader = asyncio.run(stalled())
    assert reader.status == 200 and 0 < len(reader.body) < (folder / "pyodide.asm.wasm").stat().st_size
    assert found.downloads == {}


def test_a_pack_download_stops_reading_when_its_client_has_gone(folder: Path, tmp_path: Path) -> None:
    app = create_app(ServerConfig(storage=Storage(db=db_url(tmp_path)), offline_pack=str(folder)))

    async def gone() -> Reader:
        reader = Reader()
        first_chunk = asyncio.Event()
        real_send = reader.__call__

        async def send(message: dict[str, Any]) -> None:
            await real_send(message)
            if message["type"] == "http.response.body":
                first_chunk.set()
                await asyncio.sleep(0)  # as a socket write yields: the disconnect is seen between chunks

        async def receive() -> dict[str, Any]:
            await first_chunk.wait()
            return {"type": "http.disconnect"}

        await asyncio.wait_for(app(scope("/offline/" + WASM), receive, send), 10)
        return reader

    reader = asyncio.run(gone())
    assert 0 < len(reader.body) < (folder / "pyodide.asm.wasm").stat().st_size
    assert app.state.offline_pack.downloads == {}


def test_an_address_s_open_pack_downloads_are_capped_with_429(folder: Path, tmp_path: Path) -> None:
    app = create_app(ServerConfig(storage=Storage(db=db_url(tmp_path)), offline_pack=str(folder)))
    found: offline.OfflinePack = app.state.offline_pack

    async def flood() -> None:
        readers = [Reader(stall=True) for _ in range(found.per_address)]
        held = [asyncio.create_task(app(scope("/offline/" + WASM), receiver(), r)) for r in readers]
        await asyncio.wait_for(asyncio.gather(*(r.started.wait() for r in readers)), 10)
        one_more = Reader()
        await asyncio.wait_for(app(scope("/offline/" + WASM), receiver(), one_more), 10)
        assert one_more.status == 429 and one_more.headers["retry-after"] == str(offline.RETRY_AFTER)
        assert json.loads(one_more.body)["error"]["code"] == "rate_limited"
        # Another address is not held up by this one.
        bystander = Reader()
        await asyncio.wait_for(app(scope("/offline/" + WASM, address="198.51.100.2"), receiver(), bystander), 10)
        assert bystander.status == 200 and bystander.body == (folder / "pyodide.asm.wasm").read_bytes()
        for task in held:
            task.cancel()
        await asyncio.gather(*held, return_exceptions=True)
        assert found.downloads == {}

    asyncio.run(flood())


# --- the connection rate behind HAProxy (finding 3) --------------------------------------------


def test_behind_haproxy_one_client_over_its_rate_gets_429_and_no_bystander_request_fails(tmp_path: Path) -> None:
    # One process behind deploy/haproxy.cfg as shipped (its three servers are that one process), which opens a
    # backend connection per request: every player's connections come from HAProxy's address.
    # One connection a second: through the balancer, ten requests a second for each player, in bursts of 40.
    rate = ["--trusted-proxy", "127.0.0.1", "--connection-rate", "1"]
    with subprocess_server(db_url(tmp_path), extra=rate) as (node, _proc):
        port = free_port()
        env = {**os.environ, "XERI_LISTEN": f"127.0.0.1:{port}",
               **{f"XERI_NODE_{i}": node.removeprefix("http://") for i in (1, 2, 3)}}
        haproxy = subprocess.Popen([shutil.which("haproxy") or "/usr/sbin/haproxy", "-f",
                                    str(ROOT / "deploy" / "haproxy.cfg"), "-db"], env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        # Two players on two addresses of the loopback network.
        abuser = httpx.Client(base_url=base, timeout=10, transport=httpx.HTTPTransport(local_address="127.0.0.2"))
        bystander = httpx.Client(base_url=base, timeout=10,
                                 transport=httpx.HTTPTransport(local_address="127.0.0.3"))
        try:
            deadline = time.monotonic() + 20
            while True:
                try:
                    if bystander.get("/readyz").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert time.monotonic() < deadline and haproxy.poll() is None, "haproxy did not come up"
                threading.Event().wait(0.05)  # polling haproxy's start-up
            spent: list[int] = []
            for i in range(60):
                spent.append(abuser.get("/api/tables").status_code)
                if i % 5 == 0:
                    r = bystander.get("/api/tables")
                    assert r.status_code == 200, (i, r.status_code, r.text[:200])
            assert set(spent) == {200, 429}, spent  # refused with 429, never dropped (502)
            refused = abuser.get("/api/tables")
            if refused.status_code == 429:
                assert refused.headers["retry-after"] and refused.json()["error"]["code"] == "rate_limited"
            assert bystander.get("/api/tables").status_code == 200
        finally:
            abuser.close()
            bystander.close()
            haproxy.terminate()
            haproxy.wait(10)
