"""Accounts that cannot be locked out, guessed or impersonated (issue 42, findings 6 to 8): the device cookie that
keeps the owner's browser out of the per-name sign-in limit, the sign-in limits on the password checks of a session
(a new password, deletion), and names compared by their Unicode TR39 skeleton before and after case folding.
docs/security.md's "Red team, turn 4" names each test here.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from limits.storage import storage_from_string

from support.server import LIFTED, AccountClient, ThreadServer, db_url
from xeri.server.accounts import names as account_names
from xeri.server.http.security import secure
from xeri.server.limits.caps import LimitExceeded
from xeri.server.limits.sign_in import AccountLimits

PASSWORD = "a good long password"
WRONG = "not the password at all"
#: three tries per name (or per known browser), ten per address, in ten minutes
TIGHT = replace(LIFTED, signins_per_name=3, signins_per_address=10, signups_per_address=100)


@pytest.fixture
def tight(tmp_path: Path) -> Iterator[ThreadServer]:
    srv = ThreadServer(db_url(tmp_path), limits=TIGHT)
    secure(srv.app, trusted_proxies=["127.0.0.1"])  # so each test address (X-Forwarded-For) is its own
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def at(server: ThreadServer, address: str) -> AccountClient:
    return AccountClient(server.base, **{"x-forwarded-for": address})


def sign_in(client: AccountClient, password: str = PASSWORD, name: str = "Ada") -> httpx.Response:
    return client.post("/api/account/signin", {"name": name, "password": password})


# --- 6: nobody locks the owner out ------------------------------------------------------------------


def test_guesses_from_many_addresses_do_not_lock_out_the_owner_s_known_browser(tight: ThreadServer) -> None:
    owner = at(tight, "198.51.100.1")
    owner.sign_up("Ada")
    cookie = next(c for c in owner.http.cookies.jar if c.name == "xeri_device")
    assert cookie.path == "/api/account" and cookie.has_nonstandard_attr("HttpOnly")
    assert owner.post("/api/account/signout").status_code == 200
    # The attacker spends the name's three tries, and more, from twelve addresses.
    answers = [sign_in(at(tight, f"203.0.113.{i}"), WRONG).status_code for i in range(12)]
    assert answers == [401] * 3 + [429] * 9
    # An unknown browser is still limited per name, with the right password too, and so is a forged device cookie.
    r = sign_in(at(tight, "192.0.2.1"))
    assert r.status_code == 429 and "this name" in r.text
    forged = at(tight, "192.0.2.2")
    forged.http.cookies.set("xeri_device", "made-up.0123456789abcdef0123456789abcdef", path="/api/account")
    assert sign_in(forged).status_code == 429
    # Another account's device cookie proves nothing for Ada.
    other = at(tight, "192.0.2.3")
    other.sign_up("Bob")
    assert sign_in(other).status_code == 429
    # The owner's browser signs in, from a new address too.
    owner.http.headers["x-forwarded-for"] = "198.51.100.77"
    assert sign_in(owner).status_code == 200


def test_a_known_browser_has_its_own_limit_and_the_address_limit_still_holds(tight: ThreadServer) -> None:
    owner = at(tight, "198.51.100.1")
    owner.sign_up("Ada")
    # Three wrong passwords from the known browser: then it is refused, as an unknown one is.
    assert [sign_in(owner, WRONG).status_code for _ in range(4)] == [401, 401, 401, 429]
    assert "this browser" in sign_in(owner).text
    # The per-address limit counts every try from an address, the known browser's among them.
    other = at(tight, "198.51.100.9")
    other.sign_up("Bob")
    statuses = [sign_in(other, WRONG, "Bob" if i < 2 else f"Nobody{i}").status_code for i in range(10)]
    assert statuses == [401] * 10
    r = sign_in(other, PASSWORD, "Bob")
    assert r.status_code == 429 and "this address" in r.text


def test_the_device_limit_holds_on_the_cluster_s_shared_counts() -> None:
    """Two processes on one shared storage (the cluster's Redis, here the limits library's memory storage): the
    attacker spends the name on one, the owner's device passes on the other, an unknown device does not."""

    async def run() -> None:
        shared = storage_from_string("async+memory://")
        one, two = AccountLimits(TIGHT, shared), AccountLimits(TIGHT, shared)
        for _ in range(3):
            await one.signin(f"203.0.113.{_}", "ada")
        with pytest.raises(LimitExceeded, match="this name"):
            await two.signin("203.0.113.50", "ada")
        await two.signin("198.51.100.1", "ada", device="owner-device")
        for _ in range(2):
            await one.signin("198.51.100.1", "ada", device="owner-device")
        with pytest.raises(LimitExceeded, match="this browser"):
            await two.signin("198.51.100.1", "ada", device="owner-device")

    asyncio.run(run())


# --- 7: a session does not guess its own password -----------------------------------------------------


@pytest.mark.parametrize("route, body", [
    ("/api/account/password", {"password": WRONG, "new_password": "the thief's own password"}),
    ("/api/account/delete", {"password": WRONG}),
])
def test_a_stolen_session_cannot_guess_the_password(tight: ThreadServer, route: str, body: dict[str, str]) -> None:
    owner = at(tight, "198.51.100.1")
    owner.sign_up("Ada")
    # The thief has the session cookie (not the device cookie) and the CSRF token.
    thief = at(tight, "203.0.113.1")
    thief.http.cookies.set("xeri_session", owner.cookie or "")
    thief.csrf = owner.csrf
    assert [thief.post(route, body).status_code for _ in range(3)] == [401] * 3
    right = {**body, "password": PASSWORD}
    r = thief.post(route, right)
    assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
    # Nothing changed: the account is there, with its password.
    assert thief.get("/api/account").json()["signed_in"] is True
    # The owner's own browser (its device cookie) still proves the password and changes it.
    r = owner.post("/api/account/password", {"password": PASSWORD, "new_password": "a brand new password"})
    assert r.status_code == 200
    assert sign_in(owner, "a brand new password").status_code == 200


# --- 8: look-alike names ---------------------------------------------------------------------------------

#: ten kinds of look-alikes: I/l, 0/O, rn/m, vv/w, cl/d, 1/l, Cyrillic/Latin, Greek/Latin capitals, I/l in capitals,
#: Greek/Latin in a mixed-case word
LOOK_ALIKES = [
    ("Bill", "BiIl"), ("Otto", "0tto"), ("Amie", "Arnie"), ("Wendy", "VVendy"), ("Adam", "Aclam"),
    ("Nell", "Ne1l"), ("Mapa", "\u041c\u0430\u0440\u0430"), ("ANNA", "\u0391\u039d\u039d\u0391"),
    ("ALI", "AlI"), ("Tom", "\u03a4\u039f\u039c"),
]


@pytest.mark.parametrize("one, other", LOOK_ALIKES)
def test_look_alike_names_share_a_key(one: str, other: str) -> None:
    """The stored key (folded first) or the look key (the skeleton before folding) agree."""
    assert account_names.key(one) == account_names.key(other) or account_names.look_alike(other, [one]) == one


def test_distinct_names_keep_distinct_keys() -> None:
    names = ("Ann", "Anna", "Ελένη", "Ελένης", "Γιώργος", "Γιώργης", "Ada", "Eda", "Adam", "Ayşe", "Nikos", "Niko")
    assert len({account_names.key(n) for n in names}) == len(names)
    assert len({account_names.look_key(n) for n in names}) == len(names)
    assert account_names.key("BIG") == account_names.key("big")  # case still does not make a new name
    assert account_names.key("ΟΔΥΣΣΈΑΣ") == account_names.key("Οδυσσέας")


def test_a_look_alike_of_a_taken_name_is_refused_as_taken(tight: ThreadServer) -> None:
    for one, other in LOOK_ALIKES:
        AccountClient(tight.base).sign_up(one)
        r = AccountClient(tight.base).post("/api/account/signup", {"name": other, "password": PASSWORD})
        assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken", (one, other)
        assert "reads the same" in r.json()["error"]["message"]
    for name in ("Ann", "Ελένη", "Γιώργος", "Nikos"):
        client = AccountClient(tight.base)
        client.sign_up(name)
        client.close()
    AccountClient(tight.base).sign_up("Annie")  # "Ann" is taken, "Annie" is its own name


def test_the_look_key_is_a_unique_column_so_no_two_processes_store_look_alikes(tight: ThreadServer,
                                                                               tmp_path: Path) -> None:
    """Sign-up read every live account's name to find a look-alike: O(accounts), and two processes could each find
    the name free. The look key is a unique column now: the database refuses a second account with it, whichever
    process writes it, and a deleted account gives its look key up."""
    AccountClient(tight.base).sign_up("Bill")
    with sqlite3.connect(tmp_path / "server.sqlite3") as db:
        assert db.execute("SELECT look_key FROM xeri_accounts WHERE name = 'Bill'").fetchall() == [
            (account_names.look_key("Bill"),)]
        with pytest.raises(sqlite3.IntegrityError, match="look_key"):  # another process's look-alike, stored
            db.execute("INSERT INTO xeri_accounts (id, name, name_key, created_at, deleted, hidden, look_key) "
                       "VALUES ('other', 'BiIl', 'a name key of its own', 0, 0, 0, ?)",  # the look key alone
                       (account_names.look_key("BiIl"),))
    otto = AccountClient(tight.base)
    otto.sign_up("Otto")
    assert otto.post("/api/account/delete", {"password": PASSWORD}).status_code == 200
    AccountClient(tight.base).sign_up("0tto")  # the deleted account's look key is free again


def test_an_account_stored_under_the_old_key_signs_in_and_keeps_its_look_alikes_out(tight: ThreadServer,
                                                                                    tmp_path: Path) -> None:
    """An account made before the skeleton keys (its name_key the old casefold-first one) is found by its name, on
    sign-in and on its profile, and a look-alike of it is refused as any other."""
    AccountClient(tight.base).sign_up("Bill")
    with sqlite3.connect(tmp_path / "server.sqlite3") as db:
        db.execute("UPDATE xeri_accounts SET name_key = ? WHERE name = 'Bill'", (account_names.legacy_key("Bill"),))
    assert account_names.legacy_key("Bill") != account_names.key("Bill")
    assert sign_in(AccountClient(tight.base), name="BILL").status_code == 200
    assert AccountClient(tight.base).get("/api/profiles/bill").json()["name"] == "Bill"
    for other in ("bill", "BiIl", "Bi1l"):
        r = AccountClient(tight.base).post("/api/account/signup", {"name": other, "password": PASSWORD})
        assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken", other
