"""The bot pool, the replay cache and the request deadline: off the event loop, bounded, capped."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from support.cluster import poll
from support.server import Player, ThreadServer, create, db_url
from xeri.bots import make_bot
from xeri.match import Match
from xeri.rules import find_ruleset
from xeri.server.http.timeouts import timed_protocol
from xeri.server.matches.replays import ReplayCache, ReplayTooLarge
from xeri.server.table import autoplay
from xeri.server.workers import BotBudget, PoolBusy, Workers, capped_spec, choose_card, is_inline


def _pid() -> int:
    return os.getpid()


def _wait(event: Any) -> str:
    assert event.wait(30), "the test never released the job"
    return "done"


def test_the_budget_caps_every_search_bot_whatever_its_spec_asks() -> None:
    budget = BotBudget(seconds=0.3, iterations=800)
    assert "seconds=0.3" in capped_spec("pimc:iterations=100000,seconds=30", budget)
    assert "iterations=800" in capped_spec("pimc:iterations=100000,seconds=30", budget)
    assert "seconds=0.3" in capped_spec("ismcts:iterations=200", budget)  # no seconds asked: one is set
    assert "seconds=0.1" in capped_spec("pimc:seconds=0.1", budget)  # a smaller budget stays
    assert "seconds=0.3" in capped_spec("master", budget)  # a level resolves to its spec first
    make_bot(capped_spec("master", budget))  # and the capped spec is still a valid bot
    # The strong level's factory takes ``**params``: its 3-player master is capped too (it ran uncapped).
    assert capped_spec("strong", budget) == "learned:seconds=0.3"
    make_bot(capped_spec("strong", budget))
    assert capped_spec("expert", budget) == "expert"
    assert is_inline("hard") and is_inline("random") and not is_inline("master")
    with pytest.raises(ValueError):
        BotBudget(seconds=0)


def test_a_pool_job_runs_in_another_process_and_is_a_pure_function_of_its_inputs() -> None:
    match = Match(find_ruleset("classic"), seed=5)
    seat = match.turn
    assert seat is not None
    view, history = match.view(seat), match.round.log_for(seat)
    spec = "pimc:iterations=60"

    async def run() -> tuple[int, Any]:
        workers = Workers(workers=1, queue=1)
        try:
            await workers.warm()
            pid = await workers.run(_pid)
            card = await workers.choose(spec, 1234, view, history)
            return pid, card
        finally:
            workers.close()

    pid, card = asyncio.run(run())
    assert pid != os.getpid()
    assert card == choose_card(capped_spec(spec, BotBudget()), 1234, view, history)
    assert card in view.legal_moves


def test_jobs_wait_their_turn_and_a_full_queue_refuses_at_once() -> None:
    match = Match(find_ruleset("classic"), seed=6)
    seat = match.turn
    assert seat is not None
    view, history = match.view(seat), match.round.log_for(seat)
    release = threading.Event()

    async def until(condition: Any) -> None:
        deadline = time.monotonic() + 10
        while not condition():
            assert time.monotonic() < deadline, "the condition did not hold in time"
            await asyncio.sleep(0)  # let the other tasks run, then look again

    async def run() -> None:
        workers = Workers(workers=0, queue=1)  # one worker (a thread), one job may wait
        try:
            held = workers.submit(_wait, release)
            with pytest.raises(PoolBusy):
                workers.submit(_pid)  # no worker is free, and submit does not wait
            queued = asyncio.ensure_future(workers.run(_pid))
            await until(lambda: workers.waiting == 1)
            with pytest.raises(PoolBusy):
                await workers.run(_pid)  # the queue is full: refused at once
            with pytest.raises(PoolBusy):
                await workers.choose("master", 1, view, history)
            card = await workers.choose_or_fallback("master", 1, view, history)
            assert card == choose_card("expert", 1, view, history)  # played by the fallback, at once
            assert await workers.choose("hard", 1, view, history) in view.legal_moves  # inline: no worker needed
            assert workers.refused == 4
            release.set()
            assert await held == "done"
            assert await queued == os.getpid()  # the waiting job ran once the worker came free
            assert workers.in_flight == 0 and workers.waiting == 0
        finally:
            release.set()
            workers.close()

    asyncio.run(run())


def test_a_job_cancelled_while_waiting_gives_its_turn_away() -> None:
    release = threading.Event()

    async def run() -> None:
        workers = Workers(workers=0, queue=2)
        try:
            held = workers.submit(_wait, release)
            first = asyncio.ensure_future(workers.run(_pid))
            second = asyncio.ensure_future(workers.run(_pid))
            deadline = time.monotonic() + 10
            while workers.waiting < 2:
                assert time.monotonic() < deadline
                await asyncio.sleep(0)  # let the two jobs take their places
            first.cancel()
            release.set()
            assert await held == "done"
            assert await second == os.getpid()
            assert first.cancelled() and workers.in_flight == 0
        finally:
            release.set()
            workers.close()

    asyncio.run(run())


def test_replays_are_built_once_cached_and_capped() -> None:
    builds: list[str] = []
    gate: asyncio.Event
    building: asyncio.Event

    async def run_job(fn: Any, text: str, match_id: str) -> bytes:
        builds.append(match_id)
        building.set()
        await gate.wait()
        return text.encode()

    async def run() -> None:
        nonlocal gate, building
        gate, building = asyncio.Event(), asyncio.Event()
        cache = ReplayCache(run_job, max_bytes=10, max_replay=6)

        async def text(value: str) -> str:
            return value

        first = asyncio.ensure_future(cache.get("a", lambda: text("aaaa")))
        second = asyncio.ensure_future(cache.get("a", lambda: text("aaaa")))
        await asyncio.wait_for(building.wait(), 10)  # the first is building; the second started beside it
        gate.set()
        assert await asyncio.gather(first, second) == [b"aaaa", b"aaaa"]
        assert builds == ["a"]  # two requests, one build
        assert await cache.get("a", lambda: text("zzzz")) == b"aaaa" and builds == ["a"]  # then cached
        with pytest.raises(ReplayTooLarge):
            await cache.get("big", lambda: text("bbbbbbbbb"))
        with pytest.raises(ReplayTooLarge):
            await cache.get("big", lambda: text("bbbbbbbbb"))
        assert builds == ["a", "big"]  # a replay too large is not built again
        await cache.get("c", lambda: text("cccc"))
        await cache.get("d", lambda: text("dddd"))
        assert cache.size <= 10 and "a" not in cache._cache  # the least recently used went first

    asyncio.run(run())


# --- the request deadline -------------------------------------------------------------


async def _ok_app(scope: Any, receive: Any, send: Any) -> None:
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            else:
                await send({"type": "lifespan.shutdown.complete"})
                return
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


@contextlib.contextmanager
def _uvicorn(protocol: Any) -> Iterator[int]:
    """uvicorn with ``protocol`` on a free loopback port, in a thread; yields the port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(_ok_app, host="127.0.0.1", port=port, http=protocol, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.01)  # polling another thread's start-up
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(20)


@pytest.fixture(scope="module")
def timed_server() -> Iterator[int]:
    with _uvicorn(timed_protocol(0.5)) as port:
        yield port


def test_an_address_over_its_connection_rate_is_answered_429_and_closed() -> None:
    with _uvicorn(timed_protocol(5.0, connections_per_second=0.01)) as port:
        first = _closed_after(port, b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")[1]
        assert first.startswith(b"HTTP/1.1 200")  # the burst: one connection
        took, second = _closed_after(port, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert second.startswith(b"HTTP/1.1 429") and took < 3  # answered at once, then closed
        assert b"retry-after: 1" in second and b'"code": "rate_limited"' in second
        took, shake = _closed_after(port, b"GET /ws/tables/x HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                                    b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                                    b"Sec-WebSocket-Version: 13\r\n\r\n")
        assert shake.startswith(b"HTTP/1.1 429") and took < 3  # a WebSocket's handshake too
        with socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.2", 0)) as other:
            other.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            other.settimeout(10)
            assert other.recv(100).startswith(b"HTTP/1.1 200")  # another address has its own allowance


def test_through_a_trusted_proxy_each_request_counts_for_the_address_it_forwards() -> None:
    # Issue 42: every player behind HAProxy came from its address, so one client's burst cut off the others.
    def through_proxy(port: int, client: str) -> bytes:
        return _closed_after(port, f"GET / HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: {client}\r\n"
                                   "Connection: close\r\n\r\n".encode())[1]

    with _uvicorn(timed_protocol(5.0, connections_per_second=0.01, trusted_proxies=["127.0.0.1"])) as port:
        assert through_proxy(port, "203.0.113.1").startswith(b"HTTP/1.1 200")
        assert through_proxy(port, "203.0.113.1").startswith(b"HTTP/1.1 429")  # this player's share is spent
        for player in ("203.0.113.2", "203.0.113.3", "198.51.100.9, 203.0.113.4"):
            assert through_proxy(port, player).startswith(b"HTTP/1.1 200"), player  # the others' is not


def _closed_after(port: int, payload: bytes) -> tuple[float, bytes]:
    """Send ``payload`` and read until the server closes: (seconds it took, what came back)."""
    with socket.create_connection(("127.0.0.1", port)) as c:
        c.sendall(payload)
        c.settimeout(10)  # far above the server's 0.5 s: the assertion below is the real check
        started = time.monotonic()
        data = b""
        try:
            while chunk := c.recv(4096):
                data += chunk
        except ConnectionResetError:
            pass  # closed with unread bytes: a reset is a close too
        return time.monotonic() - started, data


@pytest.mark.parametrize("payload", [
    b"",  # connected, said nothing
    b"GET / HTTP/1.1\r\nHost: x\r\n",  # headers never finished
    b"GET / HTTP/1.1\r\nHost: x\r\n\r\nGET / HT",  # a second request left half-sent
])
def test_a_half_sent_request_is_closed_within_the_deadline(timed_server: int, payload: bytes) -> None:
    took, data = _closed_after(timed_server, payload)
    assert took < 3, f"the connection stayed open {took:.1f} s"
    assert data.count(b"200 OK") == payload.count(b"\r\n\r\n")


def test_many_slow_connections_are_all_closed(timed_server: int) -> None:
    conns = [socket.create_connection(("127.0.0.1", timed_server)) for _ in range(50)]
    try:
        for c in conns:
            c.sendall(b"GET / HTTP/1.1\r\nX-a: ")
            c.settimeout(10)
        started = time.monotonic()
        assert all(c.recv(10) == b"" for c in conns)
        assert time.monotonic() - started < 5
    finally:
        for c in conns:
            c.close()
    assert _closed_after(timed_server, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")[1].startswith(b"HTTP/1.1 200")


def test_the_workers_end_with_the_server_even_when_it_is_killed() -> None:
    code = (
        "import asyncio\n"
        "from xeri.server.workers import Workers\n"
        "async def main():\n"
        "    workers = Workers(workers=2)\n"
        "    await workers.warm()\n"
        "    print(*workers._pool._processes, flush=True)\n"
        "    await asyncio.Event().wait()\n"
        "asyncio.run(main())\n"
    )
    server = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        pids = [int(p) for p in server.stdout.readline().split()]
        assert len(pids) == 2
    finally:
        server.kill()  # as kill -9 would: no shutdown runs
        server.wait()

    def alive(pid: int) -> bool:
        try:
            with open(f"/proc/{pid}/stat") as f:
                return f.read().split()[2] != "Z"
        except FileNotFoundError:
            return False

    deadline = time.monotonic() + 20
    while any(alive(p) for p in pids):
        assert time.monotonic() < deadline, "a worker outlived its server"
        time.sleep(0.05)  # poll interval


def test_a_table_is_told_once_while_the_master_warms_up_and_once_when_it_is_itself() -> None:
    """``Autoplay`` names ``master_warming`` the first time a master played by the counting rules, and
    ``master_ready`` the first time after that it played with its rollouts; nothing for other bots."""
    from xeri.server.table.autoplay import Autoplay

    def told(statuses: list[str | None]) -> list[str]:
        auto = Autoplay()
        return [n for n in (auto.strength_notice(status) for status in statuses) if n is not None]

    assert told([None, "warming", "warming", "full", "warming", "full"]) == ["master_warming", "master_ready"]
    assert told(["strong-warming", "warming", "strong-full", "full"]) == [  # each level is told of apart
        "strong_warming", "master_warming", "strong_ready", "master_ready"]
    assert told(["strong-full", "warming", "strong-full"]) == ["master_warming"]
    assert told(["full", "full", None]) == []  # a master that was itself from the start
    assert told(["without"] * 3) == []


def test_the_pool_reports_how_a_master_played() -> None:
    from xeri.server.workers import choose_card_noted

    m = Match(find_ruleset("classic"), seed=2)
    seat = m.turn
    assert seat is not None
    card, status = choose_card_noted("master", 1, m.view(seat), m.round.log_for(seat))
    assert card in m.legal_moves and status == "full"
    assert choose_card_noted("expert", 1, m.view(seat), m.round.log_for(seat))[1] is None


# --- issue 42, finding 12: a departed socket's hint is dropped, and a stop logs no traceback -------------------


@contextlib.contextmanager
def _hints_held(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[ThreadServer, Any, Any]]:
    """A server whose one worker (a thread) is held by a hint until the test releases it: every later hint waits in
    the queue. Yields the server, the table made (a person against the computer) and the release."""
    release = threading.Event()

    def held_hint(view: Any, history: Any, level: Any) -> Any:
        assert release.wait(30), "the test never released the hint"
        return view.legal_moves[0]

    monkeypatch.setattr(autoplay, "hint_card", held_hint)
    srv = ThreadServer(db_url(tmp_path), workers=0, bot_queue=64)
    srv.server.config.timeout_graceful_shutdown = 2  # as `xeri serve` (3 s): then uvicorn cancels what is left
    srv.start()
    try:
        made = create(srv.base, name="Ada", seats=[None, {"bot": "easy"}])
        yield srv, made, release
    finally:
        release.set()
        srv.stop()


def _hint_from(srv: ThreadServer, made: dict[str, Any]) -> Player:
    p = Player(srv.ws_base, made["table_id"], made["token"])
    p.wait_view(lambda v: v["turn"] == p.sync["seat"])
    p.send(type="hint")
    return p


def test_a_socket_that_left_drops_its_queued_hint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 42, finding 12: a socket whose client has left kept its hint queued for a worker; now it is dropped."""
    with _hints_held(tmp_path, monkeypatch) as (srv, made, release):
        workers = srv.app.state.ctx.workers
        holder = _hint_from(srv, made)
        poll("the one worker held", lambda: workers.in_flight == 1)
        gone = [_hint_from(srv, made) for _ in range(3)]
        poll("three hints queued", lambda: workers.waiting == 3)
        for p in gone:
            p.close()
        poll("the departed sockets' hints dropped", lambda: workers.waiting == 0)
        release.set()
        assert holder.until(lambda m: m["type"] == "hint")["card"]  # the socket still there gets its hint
        holder.close()


def test_a_graceful_stop_with_hints_queued_logs_no_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 42, finding 12: a graceful stop after a hint flood logged a CancelledError traceback per socket still
    waiting for its hint. Now each socket sees the server close it, drops its hint, and ends quietly: every server
    log is checked for tracebacks (tests/conftest.py's ``no_tracebacks``), which fails this test on the old code."""
    with _hints_held(tmp_path, monkeypatch) as (srv, made, release):
        workers = srv.app.state.ctx.workers
        players = [_hint_from(srv, made)]
        poll("the one worker held", lambda: workers.in_flight == 1)
        players += [_hint_from(srv, made) for _ in range(4)]
        poll("four hints queued", lambda: workers.waiting == 4)
        srv.server.should_exit = True
        poll("every socket's task ended", lambda: not srv.server.server_state.tasks, timeout=30)
        assert workers.waiting == 0
        release.set()  # the held hint ends, and the pool closes with the app
        srv.thread.join(timeout=15)
        for p in players:
            p.ws.close()
