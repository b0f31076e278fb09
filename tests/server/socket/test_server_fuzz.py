"""Fuzzing the WebSocket protocol with hypothesis: any frame gets a well-formed answer and changes nothing
unless it was a legal move, and the connection stays open."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support.server import Player, ThreadServer, create, db_url
from xeri.cards import DECK

REPLY_TYPES = {"error", "pong", "hint", "sync", "update", "table"}
CODES = [c.code for c in DECK]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
messages = st.one_of(
    st.text(max_size=200),
    json_values.map(json.dumps),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["move", "hint", "sync", "ping", "MOVE", "", "leave"])},
        optional={"card": st.sampled_from(CODES) | st.text(max_size=6) | st.integers(),
                  "version": st.integers(-2, 300) | st.text(max_size=3) | st.none(),
                  "ref": st.integers() | st.text(max_size=80) | st.booleans()},
    ).map(json.dumps),
    # issue 11 §7's shapes: deep nesting, integers past the digit limit, lone surrogates, NUL, non-finite numbers
    st.integers(1, 2000).map(lambda n: "[" * n + "]" * n),
    st.integers(30, 4000).map(lambda n: '{"type": "move", "card": "TD", "version": ' + "9" * n + "}"),
    st.sampled_from(["\ud800", "x\udfffy", "\u0000", "a\x00b"]).map(
        lambda t: json.dumps({"type": "move", "card": t, "version": 0, "ref": t})),
    st.sampled_from(['{"type": "ping", "ref": 1e999}', '{"type": "ping", "ref": NaN}', "-Infinity"]),
)


@pytest.fixture(scope="module")
def seat() -> Iterator[tuple[ThreadServer, Player]]:
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        srv = ThreadServer(db_url(Path(tmp))).start()
        made = create(srv.base, name="Fuzz", seats=[None, {"bot": "easy"}], options={"rounds": 30})
        p = Player(srv.ws_base, made["table_id"], made["token"])
        yield srv, p
        p.close()
        srv.stop()


_refs = itertools.count()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=messages)
def test_any_frame_gets_an_answer_and_changes_nothing_else(seat: tuple[ThreadServer, Player], raw: str) -> None:
    _srv, p = seat
    p.wait_view(lambda v: v["turn"] == 0 or v["match_over"])
    before_version, before_hand = p.version, list((p.view or {}).get("hand", []))
    data: Any = None
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        pass
    legal = (isinstance(data, dict) and data.get("type") == "move" and data.get("card") in before_hand
             and data.get("version") == before_version and type(data.get("version")) is int)
    p.send_raw(raw)
    ref = f"probe-{next(_refs)}"
    p.send(type="ping", ref=ref)
    replies = []
    while True:
        msg = p.recv()
        if msg["type"] == "pong" and msg.get("ref") == ref:
            break
        replies.append(msg)
    assert all(m["type"] in REPLY_TYPES for m in replies)
    own = [m for m in replies if m["type"] in ("error", "pong", "hint", "sync")]
    assert len(own) <= 1, own
    if legal:
        p.at_version(before_version + 1)
        assert not any(m["type"] == "error" for m in replies)
    else:
        assert p.version == before_version and (p.view or {}).get("hand") == before_hand
        if own and own[0]["type"] == "error":
            assert isinstance(own[0]["code"], str) and isinstance(own[0]["message"], str)


create_bodies = st.one_of(
    json_values,
    st.fixed_dictionaries({}, optional={
        "ruleset": st.sampled_from(["classic", "pisti", "berman", "nope"]) | st.integers(),
        "players": st.integers(0, 6) | st.text(max_size=2),
        "target": st.integers(-5, 20000) | st.none() | st.text(max_size=3),
        "options": st.dictionaries(st.sampled_from(["hand_size", "pile_size", "rounds", "x"]),
                                   st.integers(-2, 20) | st.booleans(), max_size=3),
        "seats": st.lists(st.none() | st.fixed_dictionaries({"bot": st.sampled_from(["easy", "medium", "zz"])}),
                          max_size=5),
        "turn_timer": st.none() | st.floats(allow_nan=False, allow_infinity=False) | st.integers(),
        "takeover_after": st.none() | st.integers(-1, 5000),
        "name": st.text(max_size=40),
        "seat": st.integers(-1, 5),
        "private": st.booleans() | st.integers(),
    }),
)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=create_bodies)
def test_any_create_request_is_answered_with_a_table_or_a_clear_error(
        seat: tuple[ThreadServer, Player], body: Any) -> None:
    import httpx

    srv, _p = seat
    before = len(srv.lobby.tables)
    r = httpx.post(f"{srv.base}/api/tables", content=json.dumps(body), timeout=10,
                   headers={"Content-Type": "application/json"})
    assert r.status_code in (201, 400), r.text
    if r.status_code == 400:
        err = r.json()["error"]
        assert isinstance(err["code"], str) and err["message"]
        assert len(srv.lobby.tables) == before
    else:
        assert r.json()["table"]["players"] in (2, 3, 4)


# --- the account bodies (docs/accounts.md) ----------------------------------------------------------

odd_text = st.text(max_size=40) | st.sampled_from(["\u0391da", "Ada\u200d", "\ud800", "a\x00b", "Ada", "ADA",
                                                  "\uff21\uff44\uff41", "x" * 300, ""])
account_bodies = st.one_of(
    json_values,
    st.fixed_dictionaries({}, optional={
        "name": odd_text | st.integers() | st.none(),
        "password": odd_text | st.integers() | st.booleans(),
        "new_password": odd_text | st.none(),
        "hidden": st.booleans() | st.integers() | st.text(max_size=3),
        "seats": st.lists(st.fixed_dictionaries({}, optional={"table_id": odd_text | st.integers(),
                                                             "token": odd_text}) | json_values, max_size=4),
        "table_id": odd_text | st.integers() | st.none(),
        "extra": json_values,
    }),
)
ACCOUNT_ROUTES = ["/api/account/signup", "/api/account/signin", "/api/account/password", "/api/account/delete",
                  "/api/account/settings", "/api/account/claim", "/api/account/leave"]


@pytest.fixture(scope="module")
def account() -> Iterator[tuple[ThreadServer, Any, Any]]:
    import sqlite3
    import tempfile
    from dataclasses import replace
    from pathlib import Path

    from support.server import LIFTED, AccountClient

    with tempfile.TemporaryDirectory() as tmp:
        limits = replace(LIFTED, signins_per_address=10**6, signins_per_name=10**6, signups_per_address=10**6)
        srv = ThreadServer(db_url(Path(tmp)), limits=limits).start()
        client = AccountClient(srv.base)
        client.sign_up("Fuzzer", "a good long password")

        def count() -> int:
            with sqlite3.connect(Path(tmp) / "server.sqlite3") as conn:
                return int(conn.execute("SELECT count(*) FROM xeri_accounts").fetchone()[0])

        yield srv, client, count
        srv.stop()


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(route=st.sampled_from(ACCOUNT_ROUTES), body=account_bodies)
def test_any_account_body_is_answered_or_refused_clearly_and_a_refusal_changes_nothing(
        account: tuple[ThreadServer, Any, Any], route: str, body: Any) -> None:
    _srv, client, count = account
    before, me = count(), client.get("/api/account").json()
    r = client.http.post(route, content=json.dumps(body), headers={"Content-Type": "application/json",
                                                                   "x-csrf-token": client.csrf})
    assert r.status_code in (200, 201, 400, 401, 403, 404, 409), r.text
    if r.status_code >= 400:
        err = r.json()["error"]
        assert isinstance(err["code"], str) and err["message"] and "Traceback" not in r.text
        assert count() == before and client.get("/api/account").json() == me
    elif route in ("/api/account/signup", "/api/account/signin"):
        client.csrf = r.json()["csrf"]  # a new session: the client follows it, as the page does
