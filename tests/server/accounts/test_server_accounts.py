"""Accounts (server.accounts.service, docs/accounts.md): sign up, in and out, the cookie, names, passwords, rates, CSRF,
seats bound to an account, claims, deletion. Each security promise of docs/security.md's accounts section names
its test here.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from support.server import (
    CHEAP_PASSWORDS,
    LIFTED,
    AccountClient,
    ThreadServer,
    create,
    db_url,
    play_to_the_end,
    reviewed,
)
from xeri.cli import main
from xeri.server.accounts import names as account_names
from xeri.server.accounts.passwords import Passwords
from xeri.server.http.security import secure
from xeri.server.wire.refusals import ProtocolError

PASSWORD = "a good long password"
ONE_ROUND = {"options": {"rounds": 1}, "seats": [None, {"bot": "easy"}]}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    srv = ThreadServer(db_url(tmp_path)).start()
    try:
        yield srv
    finally:
        srv.stop()


def signed_up(server: ThreadServer, name: str = "Ada", **headers: str) -> AccountClient:
    client = AccountClient(server.base, **headers)
    client.sign_up(name, PASSWORD)
    return client


def set_cookie_of(r: httpx.Response) -> str:
    return r.headers["set-cookie"]


# --- names --------------------------------------------------------------------------


@pytest.mark.parametrize("one, other", [
    ("Ada", "ADA"), ("Ada", "ada"), ("Ada", "\uff21\uff44\uff41"),  # fullwidth: NFKC
    ("Ada", "\u0391da"), ("Ada", "\u0410da"),  # a Greek, a Cyrillic capital A
    ("Ada Lovelace", "Ada   Lovelace"), ("Fiona", "\ufb01ona"),  # the "fi" ligature
])
def test_two_names_that_read_the_same_have_one_key(one: str, other: str) -> None:
    assert account_names.key(one) == account_names.key(other)


def test_different_names_have_different_keys() -> None:
    assert len({account_names.key(n) for n in ("Ada", "Adam", "Ayşe", "Ελένη", "Eda")}) == 5


@pytest.mark.parametrize("name, says", [
    ("\u0391da", "one script"), ("Ad\u0430", "one script"),  # Latin mixed with Greek, with Cyrillic
    ("A", "2 to 24"), ("A" * 25, "2 to 24"), ("Ada\u200d", "invisible"), ("Ada\x07", "control"),
    ("Ada\u202e", "invisible"), ("<b>Ada</b>", "letters, digits"), ("1234", "needs a letter"),
    ("deleted player x", "deleted"), (7, "string"),
])
def test_a_bad_name_is_refused_with_its_reason(name: Any, says: str) -> None:
    with pytest.raises(ProtocolError) as err:
        account_names.check(name)
    assert err.value.code == "bad_name" and says in err.value.message


def test_names_in_one_script_of_their_own_are_good() -> None:
    assert [account_names.check(n) for n in ("Ελένη", "Ayşe Öz", "Дмитрий", "o'Brien-2")] == [
        "Ελένη", "Ayşe Öz", "Дмитрий", "o'Brien-2"]


def test_names_are_unique_after_nfkc_casefold_and_confusables(server: ThreadServer) -> None:
    signed_up(server, "Ada")
    for other in ("ADA", "\uff21\uff44\uff41", " ada "):
        r = AccountClient(server.base).post("/api/account/signup", {"name": other, "password": PASSWORD})
        assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken", other
    # With a Greek capital alpha the name mixes scripts: refused before it is even compared.
    r = AccountClient(server.base).post("/api/account/signup", {"name": "\u0391da", "password": PASSWORD})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_name"
    assert AccountClient(server.base).post("/api/account/signin", {"name": "\u0391da", "password": PASSWORD}
                                           ).status_code == 200  # the same key: Ada's own account


# --- passwords --------------------------------------------------------------------------


def test_passwords_are_argon2id_at_rfc_9106_parameters() -> None:
    stored = Passwords().hasher.hash("a good long password")
    assert stored.startswith("$argon2id$v=19$m=65536,t=3,p=4$")


@pytest.mark.parametrize("password, says", [
    ("short", "10 to 256"), ("x" * 257, "10 to 256"), ("aaaaaaaaaaaa", "repetitive"), ("Ada Lovelace", "not the name"),
])
def test_a_weak_password_is_refused(password: str, says: str, server: ThreadServer) -> None:
    r = AccountClient(server.base).post("/api/account/signup", {"name": "Ada Lovelace", "password": password})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_password" and says in r.json()["error"]["message"]
    AccountClient(server.base).sign_up("Ada Lovelace", PASSWORD)  # nothing was made: the name is still free


def test_errors_do_not_reveal_which_names_exist(server: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    signed_up(server, "Ada")
    passwords = server.app.state.accounts.passwords
    checked: list[str] = []
    real = passwords.hasher

    class Counted:
        def verify(self, stored: str, password: str) -> bool:
            checked.append(stored)
            return real.verify(stored, password)

    monkeypatch.setattr(passwords, "hasher", Counted())
    wrong = AccountClient(server.base).post("/api/account/signin", {"name": "Ada", "password": "not the password"})
    unknown = AccountClient(server.base).post("/api/account/signin", {"name": "Nobody", "password": "not the password"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() and "set-cookie" not in wrong.headers and "set-cookie" not in unknown.headers
    # The unknown name cost an argon2 verification too: against the dummy hash, of the same parameters.
    dummy = server.app.state.accounts.passwords.dummy
    assert len(checked) == 2 and checked[1] == dummy and checked[0] != dummy
    assert checked[0].split("$")[:4] == dummy.split("$")[:4]


def test_timing_compare_is_constant_time_and_hashes_a_dummy_for_an_unknown_name() -> None:
    import asyncio

    passwords = CHEAP_PASSWORDS
    stored = passwords.hasher.hash(PASSWORD)
    assert asyncio.run(passwords.verify(stored, PASSWORD)) is True
    assert asyncio.run(passwords.verify(stored, PASSWORD + "x")) is False
    # No account: the dummy hash is verified (the same work), and no password ever passes, not even the dummy's.
    assert asyncio.run(passwords.verify(None, PASSWORD)) is False


# --- the session cookie -------------------------------------------------------------------


def test_sign_up_signs_in_with_an_httponly_lax_cookie(server: ThreadServer) -> None:
    client = AccountClient(server.base)
    r = client.post("/api/account/signup", {"name": "Ada", "password": PASSWORD})
    assert r.status_code == 201 and r.json()["signed_in"] and r.json()["name"] == "Ada" and r.json()["csrf"]
    cookie = set_cookie_of(r).lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie
    assert "secure" not in cookie  # plain HTTP: a Secure cookie would never come back
    assert r.headers["cache-control"] == "no-store"
    me = client.get("/api/account").json()
    assert me == {"signed_in": True, "name": "Ada", "csrf": r.json()["csrf"], "hidden": False}
    assert AccountClient(server.base).get("/api/account").json() == {"signed_in": False, "name": None,
                                                                     "csrf": None, "hidden": False}


def test_the_cookie_is_secure_behind_a_tls_proxy(tmp_path: Path) -> None:
    srv = ThreadServer(db_url(tmp_path))
    secure(srv.app, trusted_proxies=["127.0.0.1"])  # as HAProxy in deploy/ is trusted
    srv.start()
    try:
        r = AccountClient(srv.base, **{"x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.9"}).post(
            "/api/account/signup", {"name": "Ada", "password": PASSWORD})
        assert r.status_code == 201 and "secure" in set_cookie_of(r).lower()
        # An untrusted client's X-Forwarded-Proto changes nothing (the proxy is not in front of it).
        (tmp_path / "b").mkdir()
        untrusted = ThreadServer(db_url(tmp_path / "b"))
        # as `xeri serve` runs uvicorn: X-Forwarded-* only from --trusted-proxy
        untrusted.server = uvicorn.Server(uvicorn.Config(untrusted.app, host="127.0.0.1", port=untrusted.port,
                                                         log_level="warning", lifespan="on", proxy_headers=False))
        untrusted.thread = threading.Thread(target=untrusted.server.run, daemon=True)
        untrusted.start()
        try:
            r = AccountClient(untrusted.base, **{"x-forwarded-proto": "https"}).post(
                "/api/account/signup", {"name": "Ada", "password": PASSWORD})
            assert r.status_code == 201 and "secure" not in set_cookie_of(r).lower()
        finally:
            untrusted.stop()
    finally:
        srv.stop()


def test_session_fixation_the_session_id_changes_at_sign_in(server: ThreadServer) -> None:
    client = signed_up(server, "Ada")
    before = client.cookie
    client.sign_in("Ada", PASSWORD)
    after = client.cookie
    assert before and after and before != after
    # The session this browser had before is gone: its cookie signs nobody in.
    planted = httpx.get(f"{server.base}/api/account", cookies={"xeri_session": before}).json()
    assert planted["signed_in"] is False
    assert client.get("/api/account").json()["signed_in"] is True
    # A cookie value the server never made opens nothing either (and is replaced at sign-in).
    planted = {"xeri_session": "chosen-by-an-attacker"}
    assert httpx.get(f"{server.base}/api/account", cookies=planted).json()["signed_in"] is False
    r = httpx.post(f"{server.base}/api/account/signin", json={"name": "Ada", "password": PASSWORD}, cookies=planted,
                   headers={"origin": server.base})
    assert r.status_code == 200 and "chosen-by-an-attacker" not in set_cookie_of(r)


def test_sign_out_ends_the_session(server: ThreadServer) -> None:
    client = signed_up(server, "Ada")
    old = client.cookie
    r = client.post("/api/account/signout")
    assert r.status_code == 200 and r.json()["signed_in"] is False and "max-age=0" in set_cookie_of(r).lower()
    assert httpx.get(f"{server.base}/api/account", cookies={"xeri_session": old or ""}).json()["signed_in"] is False


def test_change_password_ends_the_other_sessions(server: ThreadServer) -> None:
    here = signed_up(server, "Ada")
    there = AccountClient(server.base)
    there.sign_in("Ada", PASSWORD)
    r = here.post("/api/account/password", {"password": "not the password", "new_password": "another good one"})
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_credentials"
    r = here.post("/api/account/password", {"password": PASSWORD, "new_password": "another good one"})
    assert r.status_code == 200 and r.json()["signed_in"]
    assert here.get("/api/account").json()["signed_in"] is True
    assert there.get("/api/account").json()["signed_in"] is False
    assert AccountClient(server.base).post("/api/account/signin", {"name": "Ada", "password": PASSWORD}
                                           ).status_code == 401
    AccountClient(server.base).sign_in("Ada", "another good one")


def test_account_routes_need_a_session(server: ThreadServer) -> None:
    guest = AccountClient(server.base)
    for path, body in (("/api/account/password", {"password": PASSWORD, "new_password": "x" * 12}),
                       ("/api/account/delete", {"password": PASSWORD}), ("/api/account/settings", {"hidden": True}),
                       ("/api/account/claim", {"seats": []}), ("/api/account/leave", {"table_id": "x"})):
        r = guest.post(path, body)
        assert r.status_code == 401 and r.json()["error"]["code"] == "not_signed_in", path
    for path in ("/api/account/tables", "/api/account/matches"):
        assert guest.get(path).status_code == 401


# --- rate limits ---------------------------------------------------------------------------


def test_sign_in_and_sign_up_are_rate_limited_per_address_and_per_name(tmp_path: Path) -> None:
    from dataclasses import replace

    limits = replace(LIFTED, signins_per_name=3, signins_per_address=5, signups_per_address=2)
    srv = ThreadServer(db_url(tmp_path), limits=limits)
    secure(srv.app, trusted_proxies=["127.0.0.1"])  # so each test address is its own
    srv.start()

    def at(address: str) -> AccountClient:
        return AccountClient(srv.base, **{"x-forwarded-for": address})

    try:
        at("198.51.100.1").sign_up("Ada")
        # Per name: three tries for "Ada", from three addresses; the fourth is refused, from a fourth address,
        # even with the right password, and "ADA" is the same name.
        for i in range(3):
            assert at(f"203.0.113.{i}").post("/api/account/signin", {"name": "Ada", "password": "wrong one!!"}
                                             ).status_code == 401
        r = at("203.0.113.9").post("/api/account/signin", {"name": "ADA", "password": PASSWORD})
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited" and "this name" in r.text
        # A name with no account is counted the same way (the refusal tells nothing of which names exist).
        for i in range(3):
            assert at(f"203.0.113.{i}").post("/api/account/signin", {"name": "Nobody", "password": "wrong one!!"}
                                             ).status_code == 401
        assert at("203.0.113.9").post("/api/account/signin", {"name": "Nobody", "password": "x"}).status_code == 429
        # Per address: five tries, whatever the names.
        one = at("192.0.2.7")
        for i in range(5):
            assert one.post("/api/account/signin", {"name": f"name{i}", "password": "x"}).status_code == 401
        r = one.post("/api/account/signin", {"name": "other", "password": "x"})
        assert r.status_code == 429 and "this address" in r.text
        # Sign-ups per address: the first was from .1; two more from .50, then no more.
        at("198.51.100.50").sign_up("Bob")
        at("198.51.100.50").sign_up("Cleo")
        r = at("198.51.100.50").post("/api/account/signup", {"name": "Dan", "password": PASSWORD})
        assert r.status_code == 429 and "new accounts" in r.text
        assert at("198.51.100.51").post("/api/account/signin", {"name": "Dan", "password": PASSWORD}
                                        ).status_code == 401  # refused: nothing made
    finally:
        srv.stop()


def test_xeri_serve_takes_the_sign_in_limits(tmp_path: Path) -> None:
    """--signin-limit, --signin-name-limit and --signup-limit, in the limits library's notation; a bad one is one
    line and exit 2, before the database is made."""
    import subprocess
    import sys

    from support.server import free_port, subprocess_server

    for flag, value, says in (("--signin-limit", "lots", "not a rate"), ("--signup-limit", "0/minute", "at least 1"),
                              ("--signin-name-limit", "5/fortnight", "not a rate"), ("--signin-limit", "", "rate")):
        db = tmp_path / f"bad{free_port()}.sqlite3"
        out = subprocess.run([sys.executable, "-m", "xeri", "serve", "--port", str(free_port()), "--db", str(db),
                              flag, value], capture_output=True, text=True, timeout=60)
        lines = out.stderr.strip().splitlines()
        assert out.returncode == 2 and len(lines) == 1 and flag in lines[0] and says in lines[0], out.stderr
        assert "Traceback" not in out.stderr and not db.exists()
    extra = ["--signin-limit", "3/minute", "--signin-name-limit", "2 per 10 minutes", "--signup-limit", "1/hour"]
    with subprocess_server(str(tmp_path / "ok.sqlite3"), extra=extra) as (base, _proc):
        AccountClient(base).sign_up("Ada", PASSWORD)
        r = AccountClient(base).post("/api/account/signup", {"name": "Bob", "password": PASSWORD})
        assert r.status_code == 429 and "new accounts" in r.text and "60 minutes" in r.text
        # Per name: two tries for Ada, then none (the right password too) for 10 minutes.
        for _ in range(2):
            assert AccountClient(base).post("/api/account/signin", {"name": "Ada", "password": "not it at all"}
                                            ).status_code == 401
        r = AccountClient(base).post("/api/account/signin", {"name": "Ada", "password": PASSWORD})
        assert r.status_code == 429 and "this name" in r.text and "10 minutes" in r.text
        # Per address: the third try from this address was that one; a fourth, for another name, is refused too.
        r = AccountClient(base).post("/api/account/signin", {"name": "Cleo", "password": PASSWORD})
        assert r.status_code == 429 and "this address" in r.text and "60 seconds" in r.text


# --- CSRF ------------------------------------------------------------------------------------


def test_csrf_a_post_with_the_cookie_needs_its_token_or_the_origin(server: ThreadServer) -> None:
    client = signed_up(server, "Ada")
    token = client.csrf
    assert token
    plain = httpx.Client(base_url=server.base, cookies={"xeri_session": client.cookie or ""})
    for path, body in (("/api/tables", ONE_ROUND), ("/api/account/settings", {"hidden": True}),
                       ("/api/account/signout", {})):
        r = plain.post(path, json=body)
        assert r.status_code == 403 and r.json()["error"]["code"] == "csrf", path
        r = plain.post(path, json=body, headers={"x-csrf-token": "not-the-token"})
        assert r.status_code == 403 and r.json()["error"]["code"] == "csrf", path
        # Another site's page is refused even if it got hold of the token.
        r = plain.post(path, json=body, headers={"x-csrf-token": token, "origin": "https://evil.example"})
        assert r.status_code == 403 and r.json()["error"]["code"] == "csrf", path
    assert client.get("/api/account").json()["hidden"] is False  # nothing changed
    assert client.get("/api/account").json()["signed_in"] is True
    # The page itself: its Origin, or the token.
    origin = server.base
    assert plain.post("/api/tables", json=ONE_ROUND, headers={"origin": origin}).status_code == 201
    assert plain.post("/api/tables", json=ONE_ROUND, headers={"x-csrf-token": token}).status_code == 201
    # Signing in from another site's page is refused too (login CSRF), with no cookie at all.
    r = httpx.post(f"{server.base}/api/account/signin", json={"name": "Ada", "password": PASSWORD},
                   headers={"origin": "https://evil.example"})
    assert r.status_code == 403 and "set-cookie" not in r.headers
    # A guest's POST (no cookie) is as before.
    assert httpx.post(f"{server.base}/api/tables", json=ONE_ROUND).status_code == 201


# --- seats bound to an account ----------------------------------------------------------------


def test_a_seat_taken_signed_in_is_the_account_s_under_its_name(server: ThreadServer) -> None:
    ada = signed_up(server, "Ada")
    made = ada.post("/api/tables", {**ONE_ROUND, "name": "typed anything"}).json()
    assert made["table"]["seats"][0]["name"] == "Ada" and made["token"]
    waiting = create(server.base, seats=[None, None])
    joined = ada.post(f"/api/tables/{waiting['table_id']}/join", {"name": "Mallory"}).json()
    assert joined["table"]["seats"][0]["name"] == "Ada"
    tables = ada.get("/api/account/tables").json()["tables"]
    assert {(t["table_id"], t["seat"]) for t in tables} == {(made["table_id"], 0), (waiting["table_id"], 0)}


def test_a_signed_in_player_s_token_cannot_be_used_from_another_account(server: ThreadServer) -> None:
    ada = signed_up(server, "Ada")
    bob = signed_up(server, "Bob")
    made = ada.post("/api/tables", {**ONE_ROUND, "name": "Ada", "private": True}).json()
    tid, token = made["table_id"], made["token"]
    # Bob's session with Ada's token: refused; and so is the token with no session at all.
    for cookie in (bob.cookie, None):
        headers = {"Cookie": f"xeri_session={cookie}"} if cookie else None
        with connect(f"{server.ws_base}/ws/tables/{tid}?token={token}", additional_headers=headers) as ws:
            assert json.loads(ws.recv(timeout=10))["code"] == "bad_token"
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4003
    r = bob.post(f"/api/tables/{tid}/leave", {"token": token})
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token"
    r = httpx.post(f"{server.base}/api/tables/{tid}/leave", json={"token": token})
    assert r.status_code == 403
    # Ada's own session with the token plays, and on another device her session alone opens her seat.
    here = ada.player(server.ws_base, tid, token=token)
    assert here.sync["seat"] == 0
    elsewhere = AccountClient(server.base)
    elsewhere.sign_in("Ada", PASSWORD)
    there = elsewhere.player(server.ws_base, tid, account=True)
    assert there.sync["seat"] == 0
    here.close()
    there.close()
    # The finished private match: her session opens it, Bob's does not, nor the bare token.
    play_out(server, ada, tid, token)
    assert ada.get(f"/api/matches/{tid}/record").status_code == 200
    assert bob.get(f"/api/matches/{tid}/record", **{"x-seat-token": token}).status_code == 403
    assert httpx.get(f"{server.base}/api/matches/{tid}/record", params={"token": token}).status_code == 403
    assert elsewhere.get(f"/api/tables/{tid}").status_code == 200


def play_out(server: ThreadServer, client: AccountClient, table_id: str, token: str | None) -> None:
    player = client.player(server.ws_base, table_id, token=token, account=token is None)
    play_to_the_end(player, player.sync["seat"])
    player.close()
    from support.cluster import poll

    poll("the match stored as finished",
         lambda: httpx.get(f"{server.base}/api/tables/{table_id}", cookies=client.http.cookies).json()["status"]
         == "finished")


def test_history_and_stats_follow_the_account_not_the_typed_name(server: ThreadServer) -> None:
    ada = signed_up(server, "Ada")
    made = ada.post("/api/tables", {**ONE_ROUND, "name": "Ada"}).json()
    play_out(server, ada, made["table_id"], made["token"])
    # A guest typing "Ada" plays too: it counts for the guests' "Ada", never for the account.
    guest = create(server.base, name="Ada", **ONE_ROUND)
    play_out(server, AccountClient(server.base), guest["table_id"], guest["token"])
    other = AccountClient(server.base)
    other.sign_in("ada", PASSWORD)  # another device
    mine = other.get("/api/account/matches").json()["matches"]
    assert [m["id"] for m in mine] == [made["table_id"]]
    profile = httpx.get(f"{server.base}/api/profiles/ADA").json()
    assert profile["name"] == "Ada" and profile["stats"]["games"] == 1
    assert [(m["seat"], m["match"]["id"]) for m in profile["matches"]] == [(0, made["table_id"])]
    assert httpx.get(f"{server.base}/api/players/Ada/stats").json()["games"] == 1  # the guest's match alone
    assert httpx.get(f"{server.base}/api/profiles/Nobody").status_code == 404


# --- claims ---------------------------------------------------------------------------------------


def test_a_guest_s_matches_are_claimed_only_with_their_tokens(server: ThreadServer) -> None:
    first = create(server.base, name="Ann", **ONE_ROUND)
    play_out(server, AccountClient(server.base), first["table_id"], first["token"])
    second = create(server.base, name="Ann", seats=[None, None])
    someone_else = create(server.base, name="Eve", **ONE_ROUND)
    ann = signed_up(server, "Ann")
    r = ann.post("/api/account/claim", {"seats": [
        {"table_id": first["table_id"], "token": first["token"]},
        {"table_id": second["table_id"], "token": second["token"]},
        {"table_id": someone_else["table_id"], "token": "guessed-wrong"},
        {"table_id": "nosuchtable", "token": first["token"]},
    ]})
    assert r.status_code == 200, r.text
    # The finished match, and the table still waiting: each proven by its token, nothing else.
    assert sorted((c["table_id"], c["seat"], c["status"]) for c in r.json()["claimed"]) == sorted([
        (first["table_id"], 0, "finished"), (second["table_id"], 0, "waiting")])
    assert [m["id"] for m in ann.get("/api/account/matches").json()["matches"]] == [first["table_id"]]
    # Claimed once: a second account with the same tokens gets nothing.
    bob = signed_up(server, "Bob")
    assert bob.post("/api/account/claim", {"seats": [{"table_id": t["table_id"], "token": t["token"]}
                                                     for t in (first, second)]}).json()["claimed"] == []
    assert httpx.get(f"{server.base}/api/profiles/Ann").json()["stats"]["games"] == 1


def test_a_guest_s_table_in_play_is_claimed_and_follows_the_account(server: ThreadServer) -> None:
    """Issue 29: a guest's table in progress in this browser, claimed at sign-up, is bound to the account like a
    seat taken signed in: listed among its tables, opened by its session on another device, its token the
    account's session's only."""
    playing = create(server.base, name="Ann", seats=[None, {"bot": "easy"}])
    tid, token = playing["table_id"], playing["token"]
    guest_hand = AccountClient(server.base).player(server.ws_base, tid, token=token)
    assert guest_hand.sync["seat"] == 0
    guest_hand.close()
    ann = signed_up(server, "Ann")
    r = ann.post("/api/account/claim", {"seats": [{"table_id": tid, "token": token}]})
    assert r.status_code == 200 and r.json()["claimed"] == [{"table_id": tid, "seat": 0, "status": "playing"}]
    assert ann.get("/api/account/tables").json()["tables"] == [{"table_id": tid, "seat": 0, "status": "playing"}]
    # This browser keeps playing with its token (and its session) ...
    here = ann.player(server.ws_base, tid, token=token)
    assert here.sync["seat"] == 0 and here.view is not None
    here.close()
    # ... another device signed in as Ann opens the seat with no token at all ...
    elsewhere = AccountClient(server.base)
    elsewhere.sign_in("Ann", PASSWORD)
    there = elsewhere.player(server.ws_base, tid, account=True)
    assert there.sync["seat"] == 0 and there.view is not None
    there.close()
    # ... and the token alone, without Ann's session, opens nothing any more; nor does Bob's session with it.
    bob = signed_up(server, "Bob")
    for cookie in (None, bob.cookie):
        headers = {"Cookie": f"xeri_session={cookie}"} if cookie else None
        with connect(f"{server.ws_base}/ws/tables/{tid}?token={token}", additional_headers=headers) as ws:
            assert json.loads(ws.recv(timeout=10))["code"] == "bad_token"
    assert bob.post("/api/account/claim", {"seats": [{"table_id": tid, "token": token}]}).json()["claimed"] == []
    assert bob.get("/api/account/tables").json()["tables"] == []
    # Played out, the match is Ann's: in her history and her totals.
    play_out(server, ann, tid, token)
    assert [m["id"] for m in elsewhere.get("/api/account/matches").json()["matches"]] == [tid]
    assert httpx.get(f"{server.base}/api/profiles/Ann").json()["stats"]["games"] == 1


def test_an_account_leaves_its_seat_from_another_device_without_a_token(server: ThreadServer) -> None:
    """POST /api/account/leave: the session alone gives up the account's own seat (no token is ever handed
    out); another account's session, a guest, or a request without the CSRF token change nothing."""
    ada = signed_up(server, "Ada")
    playing = ada.post("/api/tables", {"name": "Ada", "seats": [None, {"bot": "easy"}]}).json()
    waiting = ada.post("/api/tables", {"name": "Ada", "seats": [None, None]}).json()
    elsewhere = AccountClient(server.base)
    elsewhere.sign_in("Ada", PASSWORD)
    bob = signed_up(server, "Bob")
    for table in (playing, waiting):
        tid = table["table_id"]
        r = bob.post("/api/account/leave", {"table_id": tid})
        assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token", r.text
        r = httpx.post(f"{server.base}/api/account/leave", json={"table_id": tid})
        assert r.status_code == 401 and r.json()["error"]["code"] == "not_signed_in"
        r = httpx.post(f"{server.base}/api/account/leave", json={"table_id": tid},
                       cookies={"xeri_session": elsewhere.cookie or ""})
        assert r.status_code == 403 and r.json()["error"]["code"] == "csrf"
    assert len(ada.get("/api/account/tables").json()["tables"]) == 2  # nothing changed
    assert elsewhere.post("/api/account/leave", {"table_id": "nosuchtable"}).status_code == 404
    assert elsewhere.post("/api/account/leave", {"table_id": 7}).status_code == 400
    # A table in play: a bot takes the seat, which no longer opens to the account (nor is it listed).
    there = elsewhere.player(server.ws_base, playing["table_id"], account=True)
    assert there.sync["seat"] == 0
    r = elsewhere.post("/api/account/leave", {"table_id": playing["table_id"]})
    assert r.status_code == 200 and r.json()["ok"] and r.json()["table"]["seats"][0]["bot"] is not None
    there.close()
    again = elsewhere.player(server.ws_base, playing["table_id"], account=True)
    assert again.sync["seat"] is None and again.view is not None and not again.view.get("hand")  # a spectator
    again.close()
    with connect(f"{server.ws_base}/ws/tables/{playing['table_id']}?token={playing['token']}",
                 additional_headers={"Cookie": f"xeri_session={ada.cookie}"}) as ws:
        assert json.loads(ws.recv(timeout=10))["code"] == "bad_token"  # the first device's token is spent too
    assert elsewhere.post("/api/account/leave", {"table_id": playing["table_id"]}).status_code == 403
    # A table still waiting: the seat is freed (the table closes: nobody is left at it).
    r = elsewhere.post("/api/account/leave", {"table_id": waiting["table_id"]})
    assert r.status_code == 200 and r.json()["table"]["status"] == "closed"
    assert ada.get("/api/account/tables").json()["tables"] == []


# --- deletion ---------------------------------------------------------------------------------------


def test_a_deleted_name_leaves_every_cache_and_the_record_still_verifies(
        server: ThreadServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 42, findings 10 and 11: after the deletion, /api/tables/ID, the replay (gzip and identity) and the
    review no longer show the name (each was built and kept before it); the record downloaded then passes
    ``xeri verify`` (scheme v3), saying the name is withheld, and a changed seat name still fails."""
    server.app.state.ctx.reviews.iterations = 10  # a quick review: the names are what this test reads
    ada = signed_up(server, "Adalinde")
    made = ada.post("/api/tables", {**ONE_ROUND, "name": "Adalinde"}).json()
    tid = made["table_id"]
    at_table = ada.player(server.ws_base, tid, token=made["token"])
    seen_at_table = at_table.sync["fairness"]["match_commitment"]
    at_table.close()
    play_out(server, ada, tid, made["token"])
    url = f"{server.base}/api/matches/{tid}"

    def shown() -> dict[str, str]:
        return {"table": httpx.get(f"{server.base}/api/tables/{tid}").text,
                "replay gzip": httpx.get(f"{url}/replay", headers={"Accept-Encoding": "gzip"}).text,
                "replay identity": httpx.get(f"{url}/replay", headers={"Accept-Encoding": "identity"}).text,
                "review": reviewed(url)}

    assert all("Adalinde" in text for text in shown().values())  # each built and kept
    assert ada.post("/api/account/delete", {"password": PASSWORD}).status_code == 200
    assert {where for where, text in shown().items() if "Adalinde" in text} == set()
    record = httpx.get(f"{url}/record").json()
    assert "Adalinde" not in json.dumps(record) and record["fairness"]["scheme"] == "xeri-v3"
    file = tmp_path / "record.json"
    file.write_text(json.dumps(record), encoding="utf-8")
    assert main(["verify", str(file), "--commitment", seen_at_table]) == 0
    out = capsys.readouterr().out
    assert "seat 0: name withheld" in out and "verified:" in out, out
    record["seats"][1]["name"] = "Mallory"  # the other seat's name is still bound
    file.write_text(json.dumps(record), encoding="utf-8")
    assert main(["verify", str(file), "--commitment", seen_at_table]) == 1
    assert capsys.readouterr().out.rstrip().endswith("NOT verified")


def test_deleting_an_account_keeps_its_matches_under_an_anonymous_name(server: ThreadServer) -> None:
    ada = signed_up(server, "Ada")
    made = ada.post("/api/tables", {**ONE_ROUND, "name": "Ada"}).json()
    open_table = ada.post("/api/tables", {"seats": [None, None], "name": "Ada"}).json()
    r = ada.post("/api/account/delete", {"password": PASSWORD})
    assert r.status_code == 409 and r.json()["error"]["code"] == "tables_open"  # two open tables
    assert ada.post(f"/api/tables/{open_table['table_id']}/leave", {"token": open_table["token"]}).status_code == 200
    play_out(server, ada, made["table_id"], made["token"])
    assert ada.post("/api/account/delete", {"password": "not the password"}).status_code == 401
    old_cookie = ada.cookie
    r = ada.post("/api/account/delete", {"password": PASSWORD})
    assert r.status_code == 200 and r.json()["signed_in"] is False
    assert httpx.get(f"{server.base}/api/account", cookies={"xeri_session": old_cookie or ""}).json()[
        "signed_in"] is False
    record = httpx.get(f"{server.base}/api/matches/{made['table_id']}/record").json()
    names = [s["name"] for s in record["seats"]]
    assert names[0].startswith("deleted player ") and "Ada" not in json.dumps(record)
    listed = httpx.get(f"{server.base}/api/matches").json()["matches"]
    assert all("Ada" not in m["names"] and "Ada" not in m["winners"] for m in listed)
    assert httpx.get(f"{server.base}/api/profiles/Ada").status_code == 404
    assert AccountClient(server.base).post("/api/account/signin", {"name": "Ada", "password": PASSWORD}
                                           ).status_code == 401
    AccountClient(server.base).sign_up("Ada")  # the name is free again
