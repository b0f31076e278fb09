"""No secret reaches a log, at any level (issue 42, finding 9): ``xeri serve --log-level debug`` logs each
WebSocket handshake's headers and frames (uvicorn's and websockets' debug lines); the session cookie, an
``Authorization`` header and every seat token must be hidden from them, in text and in JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from support.server import AccountClient, Player, db_url, free_port, play_to_the_end, wait_ready

SECRET_HEADER = "Bearer s3cr3t-operator-credential-0042"


def _fragments(secret: str, size: int = 8) -> set[str]:
    """Every ``size``-character piece of ``secret``: a log holding any of them holds part of it."""
    return {secret[i:i + size] for i in range(len(secret) - size + 1)}


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_a_debug_log_holds_no_cookie_authorization_or_token(log_format: str, tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as err:
        proc = subprocess.Popen([sys.executable, "-m", "xeri", "serve", "--port", str(port), "--db",
                                 db_url(tmp_path), "--bot-delay", "0", "--rate", "1000", "--log-level", "debug",
                                 "--log-format", log_format], env={**os.environ, "PYTHONUNBUFFERED": "1"},
                                stdout=subprocess.DEVNULL, stderr=err)
        try:
            base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
            wait_ready(base, lambda: proc.poll() is None)
            ada = AccountClient(base)
            ada.sign_up("Adalinde")
            cookie = ada.cookie
            assert cookie
            made = ada.post("/api/tables", {"name": "Adalinde", "options": {"rounds": 1},
                                            "seats": [None, {"bot": "easy"}]}).json()
            httpx.get(f"{base}/api/tables/{made['table_id']}", headers={"Authorization": SECRET_HEADER})
            player = Player(ws_base, made["table_id"], made["token"], cookie=cookie)
            play_to_the_end(player, player.sync["seat"])
            player.send(type="rematch")
            offered = player.until(lambda m: m["type"] == "rematch")
            player.close()
            headers = {"Cookie": f"xeri_session={cookie}", "Authorization": SECRET_HEADER}
            with connect(f"{ws_base}/ws/tables/{offered['table_id']}?token={offered['token']}", open_timeout=10,
                         additional_headers=headers) as again:
                assert json.loads(again.recv(timeout=10))["type"] == "sync"
        finally:
            proc.terminate()
            proc.wait(timeout=15)
    text = log.read_text(encoding="utf-8", errors="replace")
    secrets = {"the session cookie": cookie, "the seat token": made["token"], "the rematch token":
               offered["token"], "the Authorization header": SECRET_HEADER.split()[1]}
    leaked = {what: sorted(p for p in _fragments(secret) if p in text) for what, secret in secrets.items()}
    assert not {what: found for what, found in leaked.items() if found}, text[-3000:]
    for seen in ("cookie: <hidden>", "authorization: <hidden>", "rematch", "TEXT <not shown>",
                 f"/ws/tables/{offered['table_id']}?token=<hidden>"):
        assert seen in text.lower() or seen in text, f"the test must see the debug line of {seen}"
