"""The server's edges (docs/security.md): tokens out of logs, WebSocket origins, page headers, JSON-only
writes, X-Forwarded-For from trusted proxies only, and finished tables leaving memory."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from support.server import Player, ThreadServer, create, db_url, free_port, join, logging_server, wait_ready
from xeri.server.http.security import secure


def _until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait for ``condition`` (polled) or fail at the deadline."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the condition did not hold in time")
        threading.Event().wait(0.02)  # poll interval


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    srv = ThreadServer(db_url(tmp_path))
    srv.server.config.proxy_headers = False  # as xeri serve runs it: the app decides about X-Forwarded-For
    srv.start()
    yield srv
    srv.stop()


def test_seat_tokens_never_reach_the_logs(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    # Not the test's own WebSocket client: at DEBUG its reader thread logs the socket closed under it by close()
    # (OSError EBADF, with a traceback), and it is not a server's log.
    caplog.set_level(logging.INFO, logger="websockets.client")
    tokens = []
    with logging_server(db_url(tmp_path), caplog.handler) as srv:
        made = create(srv.base, name="Ann", players=3, seats=[None, None, {"bot": "easy"}], options={"rounds": 1})
        tid = made["table_id"]
        tokens = [made["token"], join(srv.base, tid, "Bob")["token"]]
        players = [Player(srv.ws_base, tid, t) for t in tokens]
        for _ in range(6):
            view = players[0].wait_view(lambda v: v["turn"] in (0, 1))
            p = players[view["turn"]]
            p.at_version(players[0].version)
            assert p.view is not None
            p.send(type="move", card=p.view["legal_moves"][0], version=p.version)
            players[0].at_version(p.version + 1)
        players[0].send(type="hint")
        httpx.get(f"{srv.base}/api/tables/{tid}?token={tokens[0]}")
        with pytest.raises(InvalidStatus):
            connect(f"{srv.ws_base}/ws/tables/{tid}?token={tokens[1]}", origin="http://evil.example",  # type: ignore[arg-type]
                    open_timeout=10)
        for p in players:
            p.close()
        assert httpx.post(f"{srv.base}/api/tables/{tid}/leave", json={"token": tokens[1]}).status_code == 200
        _until(lambda: any("WebSocket" in r.getMessage() for r in caplog.records))
    # The server's records only (the test's own HTTP and WebSocket clients log their URLs too).
    lines = [caplog.handler.format(r) for r in caplog.records if r.name.startswith(("uvicorn", "xeri"))]
    assert any(f"/ws/tables/{tid}" in line for line in lines), "the test must see the socket's log line"
    for token in tokens:
        assert not [line for line in lines if token in line], "a seat token reached the logs"


def test_the_websocket_checks_its_origin(server: ThreadServer) -> None:
    made = create(server.base, name="Ann", players=2)
    url = f"{server.ws_base}/ws/tables/{made['table_id']}?token={made['token']}"
    with pytest.raises(InvalidStatus) as refused:
        connect(url, origin="http://evil.example", open_timeout=10)  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    with connect(url, origin=f"http://127.0.0.1:{server.port}", open_timeout=10) as ws:  # type: ignore[arg-type]
        assert '"sync"' in str(ws.recv(timeout=10))
    with connect(url, open_timeout=10) as ws:  # no Origin: not a browser
        assert '"sync"' in str(ws.recv(timeout=10))
    secure(server.app, allow_origins=["https://friend.example"])
    try:
        with connect(url, origin="https://friend.example", open_timeout=10) as ws:  # type: ignore[arg-type]
            assert '"sync"' in str(ws.recv(timeout=10))
        with pytest.raises(InvalidStatus):
            connect(url, origin="https://friend.example.evil.example", open_timeout=10)  # type: ignore[arg-type]
    finally:
        secure(server.app)


def test_pages_carry_a_csp_nosniff_and_frame_ancestors(server: ThreadServer) -> None:
    for path in ("/", "/static/js/app.js", "/api/meta"):
        r = httpx.get(server.base + path)
        assert r.status_code == 200, path
        assert r.headers["x-content-type-options"] == "nosniff", path
        csp = r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp, path
        assert "unsafe-eval" not in csp and "script-src 'self' 'unsafe-inline'" not in csp
    assert httpx.get(server.base + "/").headers["x-frame-options"] == "DENY"


def test_the_page_works_under_its_own_csp(tmp_path: Path) -> None:
    """Chromium enforcing the policy (no bypass): the lobby and a table (its WebSocket too) load without a
    violation or any other console error."""
    from playwright.sync_api import sync_playwright

    srv = ThreadServer(db_url(tmp_path), bot_delay=0.3).start()
    errors: list[str] = []
    try:
        tid = create(srv.base, seats=[{"bot": "easy"}, {"bot": "easy"}], options={"rounds": 3})["table_id"]
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium",
                                         args=["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"])
            try:
                page = browser.new_page()
                page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                page.on("pageerror", lambda exc: errors.append(str(exc)))
                page.goto(srv.base + "/")
                page.wait_for_selector(".brand")
                page.goto(f"{srv.base}/#/t/{tid}")
                page.wait_for_selector(".pile-area")
                played = srv.lobby.tables[tid].version
                _until(lambda: srv.lobby.tables[tid].version >= played + 2)  # updates arrive over the socket
                page.wait_for_selector(".pile-area")
            finally:
                browser.close()
    finally:
        srv.stop()
    assert errors == [], errors


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                                          None])
def test_a_cross_site_form_post_cannot_create_or_join_a_table(server: ThreadServer, content_type: str | None) -> None:
    made = create(server.base, name="Ann", players=2)
    before = httpx.get(f"{server.base}/api/tables?status=all").json()
    headers = {"Content-Type": content_type} if content_type else {}
    for path in ("/api/tables", f"/api/tables/{made['table_id']}/join"):
        r = httpx.post(server.base + path, content=b'{"name": "Eve"}', headers=headers)
        assert r.status_code == 415 and r.json()["error"]["code"] == "unsupported_media_type", r.text
    assert httpx.get(f"{server.base}/api/tables?status=all").json() == before
    r = httpx.post(f"{server.base}/api/tables", content=b'{"name": "Eve"}',
                   headers={"Content-Type": "application/json; charset=utf-8"})
    assert r.status_code == 201


def _serve(db: str, *extra: str) -> subprocess.Popen[bytes]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "xeri", "serve", "--port", str(port), "--db", db,
                             "--http-rate", "0.25", "--log-level", "error", *extra],
                            env={**os.environ, "PYTHONUNBUFFERED": "1"}, stdout=subprocess.DEVNULL)
    proc.base = f"http://127.0.0.1:{port}"  # type: ignore[attr-defined]
    wait_ready(proc.base, lambda: proc.poll() is None)  # type: ignore[attr-defined]
    return proc


def _spoofed_statuses(base: str) -> list[int]:
    """Ten requests, each claiming another client address in X-Forwarded-For."""
    with httpx.Client(base_url=base, timeout=10) as client:
        return [client.get("/api/levels", headers={"X-Forwarded-For": f"203.0.113.{i}"}).status_code
                for i in range(10)]


def test_x_forwarded_for_is_trusted_only_from_configured_proxies(tmp_path: Path, server: ThreadServer) -> None:
    # xeri serve as it runs: one request every four seconds per client address; were X-Forwarded-For
    # believed, each spoofed address would get its own allowance.
    proc = _serve(str(tmp_path / "a.sqlite3"))
    try:
        assert _spoofed_statuses(proc.base).count(429) >= 8  # type: ignore[attr-defined]
    finally:
        proc.kill()
        proc.wait(timeout=10)
    # From a configured proxy, the forwarded address is the client's.
    ctx = server.app.state.ctx
    ctx.http_rate, ctx.http_burst, ctx.buckets = 0.25, 1.0, {}
    secure(server.app, trusted_proxies=["127.0.0.1"])
    assert _spoofed_statuses(server.base) == [200] * 10
    assert {f"203.0.113.{i}" for i in range(10)} <= set(ctx.buckets)


def test_bad_edge_options_are_one_line_errors(tmp_path: Path) -> None:
    for option in (["--trusted-proxy", "proxy.example"], ["--allow-origin", "evil.example"]):
        out = subprocess.run([sys.executable, "-m", "xeri", "serve", "--port", str(free_port()),
                              "--db", str(tmp_path / "c.sqlite3"), *option], capture_output=True, text=True, timeout=60)
        assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1 and option[0] in out.stderr


def test_a_finished_table_leaves_memory_once_nobody_is_connected(server: ThreadServer) -> None:
    bots = create(server.base, seats=[{"bot": "easy"}, {"bot": "easy"}], options={"rounds": 1})["table_id"]
    _until(lambda: httpx.get(f"{server.base}/api/tables/{bots}").json()["status"] == "finished")
    _until(lambda: bots not in server.lobby.tables)
    assert bots not in server.lobby.tables  # and looking at it did not bring it back for good
    made = create(server.base, name="Ann", seats=[None, {"bot": "easy"}], options={"rounds": 1}, takeover_after=None)
    tid = made["table_id"]
    p = Player(server.ws_base, tid, made["token"])
    while not (view := p.wait_view(lambda v: v["turn"] == 0 or v["match_over"]))["match_over"]:
        p.send(type="move", card=view["legal_moves"][0], version=p.version)
        p.at_version(p.version + 1)
    assert tid in server.lobby.tables  # its player is still connected
    p.close()
    _until(lambda: tid not in server.lobby.tables)


def test_the_database_keeps_no_seat_token(server: ThreadServer, tmp_path: Path) -> None:
    made = create(server.base, name="Ann", players=2)
    token = made["token"]
    token2 = join(server.base, made["table_id"], "Bob")["token"]
    files = [p for p in tmp_path.iterdir() if p.name.startswith("server.sqlite3")]
    assert any(p.stat().st_size for p in files)
    stored = b"".join(p.read_bytes() for p in files)
    assert made["table_id"].encode() in stored  # the table is there, its seats' tokens are not
    assert token.encode() not in stored and token2.encode() not in stored


# --- accounts (docs/accounts.md): what each route lets whom do ---------------------------------

PASSWORD = "a good long password"
#: every account route, with a body that would be good for it
ACCOUNT_POSTS = {
    "/api/account/password": {"password": PASSWORD, "new_password": "another good password"},
    "/api/account/delete": {"password": PASSWORD},
    "/api/account/settings": {"hidden": True},
    "/api/account/claim": {"seats": []},
    "/api/account/leave": {"table_id": "x"},
}
ACCOUNT_GETS = ("/api/account/tables", "/api/account/matches")


def test_account_routes_are_listed_here_every_one() -> None:
    """A new account route must be added to the authz checks below (this fails until it is)."""
    from xeri.server.app import ROUTES

    found = {getattr(r, "path", "") for r in ROUTES if getattr(r, "path", "").startswith(("/api/account",
                                                                                         "/api/profiles"))}
    assert found == {*ACCOUNT_POSTS, *ACCOUNT_GETS, "/api/account", "/api/account/signup", "/api/account/signin",
                     "/api/account/signout", "/api/profiles/{name}"}


def test_authz_of_the_account_routes(server: ThreadServer, tmp_path: Path) -> None:
    from support.server import AccountClient

    ada, eve = AccountClient(server.base), AccountClient(server.base)
    ada.sign_up("Ada", PASSWORD)
    eve.sign_up("Eve", PASSWORD)
    private = ada.post("/api/tables", {"name": "Ada", "private": True, "seats": [None, None]}).json()
    # A guest: every route of an account is 401, and changes nothing.
    guest = httpx.Client(base_url=server.base)
    for path, body in ACCOUNT_POSTS.items():
        r = guest.post(path, json=body)
        assert r.status_code == 401 and r.json()["error"]["code"] == "not_signed_in", path
    for path in ACCOUNT_GETS:
        assert guest.get(path).status_code == 401, path
    # Another account sees its own tables only, and Ada's public profile without her private tables.
    assert eve.get("/api/account/tables").json()["tables"] == []
    assert ada.get("/api/account/tables").json()["tables"][0]["table_id"] == private["table_id"]
    # Eve's password does not delete Ada, nor does Ada's password delete Eve from Eve's session ... each session
    # acts on its own account only.
    assert eve.post("/api/account/delete", {"password": PASSWORD}).status_code == 200
    assert ada.get("/api/account").json()["name"] == "Ada"
    # Ada's seat token, at the table's routes, from a guest: refused.
    r = guest.post(f"/api/tables/{private['table_id']}/leave", json={"token": private["token"]})
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token"
    # Leaving with the session alone leaves the session's own seat: another account's is never touched.
    bob = AccountClient(server.base)
    bob.sign_up("Bob", PASSWORD)
    r = bob.post("/api/account/leave", {"table_id": private["table_id"]})
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token"
    assert ada.get("/api/account/tables").json()["tables"][0]["table_id"] == private["table_id"]
    r = ada.post("/api/account/leave", {"table_id": private["table_id"]})
    assert r.status_code == 200 and r.json()["table"]["status"] == "closed"
    assert ada.get("/api/account/tables").json()["tables"] == []


def test_the_database_keeps_no_password_nor_session_cookie(server: ThreadServer, tmp_path: Path) -> None:
    from support.server import AccountClient

    ada = AccountClient(server.base)
    password = "Ada's very own password 1815"
    ada.sign_up("Ada", password)
    cookie, csrf = ada.cookie, ada.csrf
    assert cookie and csrf
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("server.sqlite3"))
    assert b"$argon2id$" in stored  # the hash is there, not the password, nor the cookie's value
    assert password.encode() not in stored and cookie.encode() not in stored
