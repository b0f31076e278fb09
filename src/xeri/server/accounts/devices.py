"""The device cookie: a browser's proof that it signed in to an account before (issue 42, OWASP's "device cookies").

Anyone may spend an account name's sign-in allowance (server.limits.sign_in): ten wrong passwords from anywhere.
A browser that proves it signed in to that account before is counted by itself instead, so its owner is never
locked out by someone else's guesses, and an unknown browser still is limited per name and per address.

``xeri_device`` holds ``NONCE.MAC``: HMAC-SHA256 of the account's id and the nonce, keyed by the account's password
hash. That key never leaves the server, every process of a cluster reads the same one (the database), and it
changes with the password: a new password retires every device cookie made before it (the browser that changed it
gets a new one). The cookie is set at each sign-in and sign-up, ``HttpOnly`` (no script reads it), ``SameSite=Lax``,
``Secure`` over TLS, sent to the account routes only (``/api/account``), and kept a year. It proves one account;
signing in to another replaces it. docs/accounts.md says the design.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from starlette.requests import HTTPConnection
from starlette.responses import Response

from ..store import AccountRow
from .sessions import over_tls

COOKIE = "xeri_device"
#: how long a browser stays known (seconds): a year
LIFETIME = 365 * 86400
PATH = "/api/account"


def _mac(account: AccountRow, nonce: str) -> str | None:
    if account.deleted or not account.password_hash:
        return None
    return hmac.new(account.password_hash.encode(), f"xeri-device:{account.id}:{nonce}".encode(),
                    hashlib.sha256).hexdigest()[:32]


def issue(account: AccountRow) -> str | None:
    """A new device cookie's value for ``account`` (None for one without a password: deleted)."""
    nonce = secrets.token_urlsafe(16)
    mac = _mac(account, nonce)
    return None if mac is None else f"{nonce}.{mac}"


def proven(conn: HTTPConnection, account: AccountRow | None) -> str | None:
    """The id of the request's device (its nonce) if its cookie proves an earlier sign-in to ``account``; else None
    (no cookie, another account's, a forged one, or one made before the password changed)."""
    value = conn.cookies.get(COOKIE)
    if account is None or not value or len(value) > 100 or "." not in value:
        return None
    nonce, mac = value.split(".", 1)
    expected = _mac(account, nonce)
    return nonce if expected is not None and hmac.compare_digest(mac.encode(), expected.encode()) else None


def set_cookie(response: Response, conn: HTTPConnection, value: str | None) -> None:
    if value is not None:
        response.set_cookie(COOKIE, value, max_age=LIFETIME, path=PATH, httponly=True, samesite="lax",
                            secure=over_tls(conn))
