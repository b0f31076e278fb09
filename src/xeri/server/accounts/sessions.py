"""The session cookie: what it holds, how it is set, and the CSRF check of every POST that carries it.

The cookie holds a random value; the database keeps only its SHA-256 (server.store.accounts), shared by every
process of a cluster. It is ``HttpOnly`` (no script reads it), ``SameSite=Lax`` (no cross-site POST carries it),
``Secure`` when the request came over TLS (directly, or through a trusted proxy's ``X-Forwarded-Proto``), and a new
one is made at every sign-in (no session fixation). A POST that carries it must also send the session's CSRF token
in ``X-CSRF-Token``, or come with the server's own ``Origin``. docs/accounts.md and docs/security.md say more.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass

from starlette.requests import HTTPConnection
from starlette.responses import Response

from ..store import AccountRow, SessionRow, Store
from ..wire.refusals import ProtocolError

COOKIE = "xeri_session"
#: a session lasts this long since it was last seen (seconds): 30 days
LIFETIME = 30 * 86400.0
#: how often a session's last-seen time is written (seconds): not at every request
TOUCH_EVERY = 300.0
CSRF_HEADER = "x-csrf-token"


@dataclass(frozen=True)
class Current:
    """The signed-in account of a request, and its session."""

    session: SessionRow
    account: AccountRow


def session_id(value: str) -> str:
    """What the database keeps of a cookie's value."""
    return hashlib.sha256(value.encode()).hexdigest()


def new_session(account_id: str, now: float | None = None) -> tuple[str, SessionRow]:
    """A cookie value and the session row that stands for it."""
    now = time.time() if now is None else now
    value = secrets.token_urlsafe(32)
    return value, SessionRow(id=session_id(value), account_id=account_id, csrf=secrets.token_urlsafe(24),
                             created_at=now, seen_at=now, expires_at=now + LIFETIME)


def over_tls(conn: HTTPConnection) -> bool:
    """Whether the request came over TLS (a trusted proxy's X-Forwarded-Proto sets the scheme: server.http.security)."""
    return conn.url.scheme in ("https", "wss")


def set_cookie(response: Response, conn: HTTPConnection, value: str) -> None:
    response.set_cookie(COOKIE, value, max_age=int(LIFETIME), path="/", httponly=True, samesite="lax",
                        secure=over_tls(conn))


def clear_cookie(response: Response, conn: HTTPConnection) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=over_tls(conn))


def cookie_value(conn: HTTPConnection) -> str | None:
    value = conn.cookies.get(COOKIE)
    return value if value and len(value) <= 100 else None


async def current(conn: HTTPConnection, store: Store) -> Current | None:
    """The request's signed-in account, or None (no cookie, or an unknown, expired or deleted session)."""
    cached = conn.scope.get("xeri.session", False)
    if cached is not False:
        return cached  # type: ignore[no-any-return]
    found: Current | None = None
    value = cookie_value(conn)
    if value is not None:
        now = time.time()
        row = await store.session(session_id(value), now)
        if row is not None:
            found = Current(*row)
            if now - found.session.seen_at > TOUCH_EVERY:
                await store.touch_session(found.session.id, now, now + LIFETIME)
    conn.scope["xeri.session"] = found
    return found


def forget(conn: HTTPConnection) -> None:
    """Forget the request's cached session (it was just ended or replaced)."""
    conn.scope.pop("xeri.session", None)


def same_origin(conn: HTTPConnection, allowed: tuple[str, ...] = ()) -> bool | None:
    """Whether the request's Origin is the server's own (or allowed); None when it sends none."""
    origin = conn.headers.get("origin")
    if origin is None:
        return None
    origin = origin.rstrip("/").lower()
    if origin in {o.lower() for o in allowed}:
        return True
    host = conn.headers.get("host", "").lower()
    return bool(host) and origin == f"{conn.url.scheme}://{host}"


async def check_csrf(conn: HTTPConnection, store: Store, allowed: tuple[str, ...] = ()) -> None:
    """Refuse (403 ``csrf``) a POST that carries a live session's cookie, unless it sends the session's token or
    its Origin is the server's own. A cross-site Origin is refused even with a token; a cookie that signs nobody in
    (expired, ended) makes the request a guest's, as if it had none."""
    if cookie_value(conn) is None:
        return
    origin = same_origin(conn, allowed)
    if origin is False:
        raise ProtocolError("csrf", "this request came from another site: it is refused")
    sent = conn.headers.get(CSRF_HEADER)
    if origin and sent is None:
        return
    found = await current(conn, store)
    if found is None:
        return
    if sent is not None:
        if secrets.compare_digest(sent.encode(), found.session.csrf.encode()):
            return
        raise ProtocolError("csrf", "the X-CSRF-Token header is not this session's: reload the page")
    raise ProtocolError("csrf", "a request with the session cookie must send X-CSRF-Token or Origin")
