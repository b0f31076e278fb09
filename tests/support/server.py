"""Shared helpers of the server tests: a real uvicorn server on a free loopback port, and WebSocket players.

(No tests here; the other test_server*.py modules import it.)
"""

from __future__ import annotations

import json
import logging
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

from support import logs as server_logs
from xeri.server import create_app
from xeri.server.accounts.passwords import Passwords
from xeri.server.config import Bots, Rates, ServerConfig, Storage
from xeri.server.limits.caps import Limits
from xeri.server.rated.policy import RATED_TARGETS, LeaderboardRules
from xeri.server.socket.ws_protocol import QuietWebSocketProtocol

READY_TIMEOUT = 20.0
#: The per-address caps lifted, as the message rates are, for tests about other things
#: (tests/server/limits/test_server_limits.py checks the caps themselves).
LIFTED = Limits(waiting_per_address=10_000, playing_per_address=10_000, ws_per_address=10_000, ws_per_seat=1000,
                ws_opens_per_second=10_000, hint_cooldown=0.0, lobby_per_address=10_000, max_rounds=99,
                max_target=10_000)

#: argon2id at its least work: the accounts' tests hash many passwords (test_server_accounts checks the real ones)
CHEAP_PASSWORDS = Passwords(time_cost=1, memory_kib=64, lanes=1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_ready(base: str, alive: Callable[[], bool]) -> None:
    """Poll the health endpoint until it answers (the server is up) or the deadline passes."""
    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline:
        if not alive():
            raise RuntimeError("the server stopped while starting")
        try:
            if httpx.get(f"{base}/api/health", timeout=1.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        threading.Event().wait(0.02)  # poll interval between readiness probes
    raise RuntimeError("the server did not become ready")


class ThreadServer:
    """uvicorn running ``create_app`` in a background thread.

    The keywords are the ``ServerConfig`` settings the tests change; the caps are lifted and the passwords cheap
    unless a test sets its own.
    """

    def __init__(self, db: str, bot_delay: float = 0.0, rate: float = 1000.0, http_rate: float = 1000.0, *,
                 redis: str | None = None, limits: Limits = LIFTED, passwords: Passwords = CHEAP_PASSWORDS,
                 workers: int | None = None, bot_queue: int | None = None, admin_every: float = 2.0,
                 offline_pack: str | Path | None = None, leaderboard: LeaderboardRules | None = None,
                 rated_targets: tuple[int, ...] | None = RATED_TARGETS) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.config = ServerConfig(
            storage=Storage(db=db, redis=redis),
            rates=Rates(message_rate=rate, message_burst=2 * rate, http_rate=http_rate, http_burst=2 * http_rate),
            bots=Bots(delay=bot_delay, hint_level="medium", workers=workers, queue=bot_queue),
            limits=limits, passwords=passwords, admin_every=admin_every,
            offline_pack=str(offline_pack) if offline_pack is not None else None,
            leaderboard=leaderboard or LeaderboardRules(), rated_targets=rated_targets)
        self.app = create_app(self.config)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                ws_max_size=1 << 16, lifespan="on", ws=QuietWebSocketProtocol)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> ThreadServer:
        self.thread.start()
        wait_ready(self.base, self.thread.is_alive)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)

    @property
    def lobby(self) -> Any:
        return self.app.state.lobby


@contextmanager
def subprocess_server(db: str, port: int | None = None, bot_delay: float = 0.0,
                      extra: list[str] | None = None) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``xeri serve`` as a real process (for the restart test)."""
    port = port or free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    # Its stderr goes to a file (a pipe nobody reads would stall it), checked for tracebacks once it stops.
    log = tempfile.NamedTemporaryFile(prefix="xeri-serve-", suffix=".log")
    proc = subprocess.Popen([sys.executable, "-m", "xeri", "serve", "--port", str(port), "--db", db,
                             "--bot-delay", str(bot_delay), "--log-level", "error",
                             "--rate", "1000", *(extra or [])], env=env,
                            stdout=subprocess.DEVNULL, stderr=log)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, lambda: proc.poll() is None)
        yield base, proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=15)
        server_logs.check_file(log.name, f"xeri serve on port {port}")
        log.close()


class Player:
    """A WebSocket client at a table; keeps every message it received."""

    def __init__(self, ws_base: str, table_id: str, token: str | None = None, cookie: str | None = None,
                 query: str = "") -> None:
        query = query or (f"token={token}" if token else "")
        url = f"{ws_base}/ws/tables/{table_id}" + (f"?{query}" if query else "")
        headers = {"Cookie": f"xeri_session={cookie}"} if cookie else None
        # No keepalive pings: a test's client lives only for its test, and on a loaded machine a late pong would
        # log a traceback that the log check then reports against whatever test runs next.
        self.ws: ClientConnection = connect(url, max_size=None, open_timeout=10, ping_interval=None,
                                            additional_headers=headers).__enter__()
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] = {}
        self.version = -1
        self.view: dict[str, Any] | None = None
        self.sync = self.until(lambda m: m["type"] == "sync")

    def send(self, **message: Any) -> None:
        self.ws.send(json.dumps(message))

    def send_raw(self, data: str | bytes) -> None:
        self.ws.send(data)

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        msg = json.loads(self.ws.recv(timeout=timeout))
        self.messages.append(msg)
        if msg["type"] in ("sync", "update"):
            self.version = msg["version"]
            self.view = msg["view"]
        return msg

    def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching message")
            msg = self.recv(left)
            if pred(msg):
                return msg

    def wait_view(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> dict[str, Any]:
        """The current view once ``pred`` holds for it (checking the one held first)."""
        if self.view is None or not pred(self.view):
            self.until(lambda m: m["type"] in ("sync", "update") and m["view"] is not None and pred(m["view"]),
                       timeout)
        assert self.view is not None
        return self.view

    def at_version(self, version: int, timeout: float = 10.0) -> None:
        if self.version < version:
            self.until(lambda m: m["type"] in ("sync", "update") and m["version"] >= version, timeout)

    def error(self, timeout: float = 10.0) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == "error", timeout)

    def close(self) -> None:
        self.ws.close()


def create(base: str, **body: Any) -> dict[str, Any]:
    r = httpx.post(f"{base}/api/tables", json=body, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def join(base: str, table_id: str, name: str, seat: int | None = None) -> dict[str, Any]:
    r = httpx.post(f"{base}/api/tables/{table_id}/join", json={"name": name, "seat": seat}, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def db_url(tmp: Path) -> str:
    return f"sqlite:///{tmp / 'server.sqlite3'}"


@contextmanager
def logging_server(db: str, handler: logging.Handler) -> Iterator[ThreadServer]:
    """A server at uvicorn's info level (each request line and each WebSocket's address, query string included),
    its uvicorn and xeri.server records sent to ``handler`` (a caplog's) while it runs."""
    srv = ThreadServer(db)
    srv.server = uvicorn.Server(uvicorn.Config(srv.app, host="127.0.0.1", port=srv.port, log_level="info",
                                               lifespan="on"))
    srv.thread = threading.Thread(target=srv.server.run, daemon=True)
    loggers = [logging.getLogger(n) for n in ("uvicorn", "uvicorn.error", "uvicorn.access", "xeri.server")]
    srv.start()
    for lg in loggers:
        lg.addHandler(handler)
    try:
        yield srv
    finally:
        srv.stop()
        for lg in loggers:
            lg.removeHandler(handler)


class AccountClient:
    """An HTTP client that keeps a session cookie, as a browser does, and sends its CSRF token with each POST."""

    def __init__(self, base: str, **headers: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=10, headers=headers)
        self.csrf: str | None = None

    def post(self, path: str, body: Any = None, **headers: str) -> httpx.Response:
        sent = {"x-csrf-token": self.csrf, **headers} if self.csrf else headers
        r = self.http.post(path, json=body if body is not None else {}, headers=sent)
        if path.startswith("/api/account/") and r.status_code < 300 and "signed_in" in r.json():
            self.csrf = r.json().get("csrf")
        return r

    def get(self, path: str, **headers: str) -> httpx.Response:
        return self.http.get(path, headers=headers)

    def sign_up(self, name: str, password: str = "a good long password") -> dict[str, Any]:
        r = self.post("/api/account/signup", {"name": name, "password": password})
        assert r.status_code == 201, r.text
        return r.json()  # type: ignore[no-any-return]

    def sign_in(self, name: str, password: str = "a good long password") -> dict[str, Any]:
        r = self.post("/api/account/signin", {"name": name, "password": password})
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    @property
    def cookie(self) -> str | None:
        return self.http.cookies.get("xeri_session")

    def player(self, ws_base: str, table_id: str, token: str | None = None, account: bool = False) -> Player:
        """A WebSocket at the table with this client's cookie (``account``: the account's seat, without a token)."""
        query = "&".join(q for q in (f"token={token}" if token else "", "account=1" if account else "") if q)
        return Player(ws_base, table_id, cookie=self.cookie, query=query)

    def close(self) -> None:
        self.http.close()


def play_to_the_end(player: Player, seat: int, others: dict[int, Player] | None = None, limit: int = 400) -> None:
    """Play ``seat`` (and the ``others``' seats) until the match is over: always the first legal card."""
    seats = {seat: player, **(others or {})}
    for _ in range(limit):
        view = player.view
        assert view is not None
        if view["match_over"]:
            return
        mover = seats.get(view["turn"])
        if mover is None:  # the bot's turn: wait for its move
            player.at_version(player.version + 1, timeout=20)
            continue
        mover.at_version(player.version, timeout=20)
        assert mover.view is not None
        mover.send(type="move", card=mover.view["legal_moves"][0], version=mover.version)
        player.at_version(mover.version + 1, timeout=20)
    raise AssertionError("the match did not end")


def play_out(players: list[Player], rng: random.Random, max_moves: int = 2000) -> None:
    """Play random legal moves with whichever client holds the seat to move, until the match is over."""
    by_seat = {p.sync["seat"]: p for p in players if p.sync["seat"] is not None}
    watcher = players[0]
    for _ in range(max_moves):
        view = watcher.view
        assert view is not None
        if view["match_over"]:
            return
        turn = view["turn"]
        if turn in by_seat:
            p = by_seat[turn]
            p.at_version(watcher.version)
            assert p.view is not None
            version = p.version
            p.send(type="move", card=rng.choice(p.view["legal_moves"]), version=version)
            watcher.at_version(version + 1)
        else:
            watcher.recv()
    raise AssertionError("the match did not end")


def reviewed(url: str, timeout: float = 90.0) -> str:
    """The seat-0 review of the finished match at ``url`` (``/api/matches/ID``), polled until built (as the browser
    polls)."""
    deadline = time.monotonic() + timeout
    while True:
        r = httpx.get(f"{url}/review?seat=0", timeout=10)
        assert r.status_code in (200, 202), r.text
        if r.status_code == 200:
            return r.text
        assert time.monotonic() < deadline, "the review did not finish"
        threading.Event().wait(0.1)  # the browser's poll interval
