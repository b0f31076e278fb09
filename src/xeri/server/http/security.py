"""The server's edges: response headers, allowed Host names and WebSocket origins, trusted proxies, tokens kept
out of logs.

``secure(app, ...)`` sets them on an app (``create_app`` calls it with the
defaults; ``xeri serve`` with its ``--allow-host``, ``--allow-origin`` and ``--trusted-proxy``).
docs/security.md lists each promise and the test that keeps it.
"""

from __future__ import annotations

import ipaddress
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote_plus

from starlette.applications import Starlette
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

#: The page's Content-Security-Policy: its own scripts only, no framing, connections to its own origin.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
]
#: the body of a 500: the protocol's error shape, and no detail of the bug
INTERNAL = b'{"error": {"code": "internal", "message": "the server hit an internal error: it is logged"}}'
log = logging.getLogger("xeri.server")
#: the loggers whose lines could carry a request's address (and so a WebSocket's ``?token=``)
LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "xeri.server")
#: a ``key=value`` pair of a query (or of a message); the key is percent-decoded before it is compared
_PAIR = re.compile(r"([^=&?\s\"'#;]+)=([^&\s\"'#]*)")


#: the names a loopback server answers to by default (a DNS-rebinding page sends its own name as Host)
LOOPBACK_HOSTS = ("localhost", "*.localhost", "127.0.0.1", "::1")
#: the HTTP status of a refused Host: 421 Misdirected Request (a WebSocket's handshake gets 403)
BAD_HOST_STATUS = 421


@dataclass
class Security:
    """An app's edge settings (``app.state.security``)."""

    #: Host names the server answers to ("*": any; "*.example.org": its subdomains); others get 421
    allow_hosts: tuple[str, ...] = LOOPBACK_HOSTS
    #: whether any IP address is a good Host too (bound beyond loopback: no rebinding page can send one)
    any_ip_host: bool = False
    #: origins a browser's WebSocket may come from, besides the server's own ("*": any)
    allow_origins: tuple[str, ...] = ()
    #: proxy addresses (or networks) whose X-Forwarded-For names the client; none by default
    trusted_proxies: tuple[str, ...] = ()
    _proxy: Any = field(default=None, repr=False)


def secure(app: Starlette, *, allow_origins: Sequence[str] = (), trusted_proxies: Sequence[str] = (),
           allow_hosts: Sequence[str] = LOOPBACK_HOSTS, any_ip_host: bool = False) -> Starlette:
    """Set ``app``'s edges; the middleware is added once, the settings may be changed again before it starts."""
    first = getattr(app.state, "security", None) is None
    app.state.security = Security(tuple(h.lower().rstrip(".") for h in allow_hosts), any_ip_host,
                                  tuple(o.rstrip("/") for o in allow_origins), tuple(trusted_proxies))
    if first:
        app.add_middleware(Edges)
    hide_tokens_in_logs()
    return app


class Edges:
    """Pure ASGI middleware: the client address from trusted proxies only, and the security headers."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        settings: Security = scope["app"].state.security
        if not host_allowed(settings, scope):
            await _refuse_host(scope, send)
            return
        inner = self.app
        if settings.trusted_proxies:
            if settings._proxy is None:
                settings._proxy = ProxyHeadersMiddleware(self.app,  # type: ignore[arg-type]
                                                         trusted_hosts=list(settings.trusted_proxies))
            inner = settings._proxy
        if scope["type"] != "http":
            await inner(scope, receive, send)
            return

        started = False

        async def with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                names = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []), *((k, v) for k, v in HEADERS if k not in names)]
            await send(message)

        try:
            await inner(scope, receive, with_headers)
        except Exception:
            # A bug's 500 goes out here, not from Starlette's outer error middleware, so that it too carries
            # the headers above, is in the protocol's error shape, and keeps the connection alive.
            if started:
                raise
            log.exception("internal error answering %s %s", scope.get("method", ""), scope.get("path", ""))
            await with_headers({"type": "http.response.start", "status": 500,
                                "headers": [(b"content-type", b"application/json"),
                                            (b"content-length", str(len(INTERNAL)).encode())]})
            await send({"type": "http.response.body", "body": INTERNAL})


def _host_name(header: str) -> str:
    """The name of a Host header, without its port: ``[::1]:80`` -> ``::1``, ``Example.org.:80`` -> ``example.org``."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:header.find("]")] if "]" in header else header
    if header.count(":") == 1:
        header = header.partition(":")[0]
    return header.rstrip(".")


def host_allowed(settings: Security, scope: Scope) -> bool:
    """Whether the request's Host is one the server answers to (no Host: not a browser, so no rebinding)."""
    raw = next((v for k, v in scope.get("headers", ()) if k == b"host"), None)
    if raw is None:
        return True
    name = _host_name(raw.decode("latin-1"))
    for allowed in settings.allow_hosts:
        if allowed == "*" or name == allowed or (allowed.startswith("*.") and name.endswith(allowed[1:])):
            return True
    if settings.any_ip_host:
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return False
        return True
    return False


async def _refuse_host(scope: Scope, send: Send) -> None:
    """421 with the protocol's error (HTTP), or a refused handshake (403) for a WebSocket."""
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 4421, "reason": "bad host"})
        return
    body = (b'{"error": {"code": "bad_host", "message": "this server does not answer to that Host name '
            b'(see xeri serve --allow-host)"}}')
    await send({"type": "http.response.start", "status": BAD_HOST_STATUS,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *HEADERS]})
    await send({"type": "http.response.body", "body": body})


def origin_allowed(ws: WebSocket) -> bool:
    """Whether a WebSocket's ``Origin`` is the server's own or an allowed one (no Origin: not a browser)."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    origin = origin.rstrip("/").lower()
    settings: Security | None = getattr(ws.app.state, "security", None)
    allowed = settings.allow_origins if settings else ()
    if "*" in allowed or origin in {o.lower() for o in allowed}:
        return True
    host = ws.headers.get("host", "").lower()
    scheme = "https" if ws.url.scheme in ("wss", "https") else "http"
    return bool(host) and origin == f"{scheme}://{host}"


class TokenFilter(logging.Filter):
    """Hides every secret in a log line: a seat token, a session cookie, a CSRF token, an ``Authorization``.

    - ``key=value`` pairs whose key holds ``token`` (compared once percent-decoded, as the server reads a query:
      ``?tok%65n=...`` is a token too), or is the session cookie's or ``csrf``: ``token=<hidden>``;
    - header lines (uvicorn's WebSocket handshake at ``--log-level debug``): ``cookie: <hidden>``, and the same
      for ``set-cookie``, ``authorization``, ``proxy-authorization`` and the token headers;
    - JSON pairs whose key holds ``token``, or is ``csrf`` or ``password``: ``"token":"<hidden>"``;
    - a WebSocket frame's text cut short for the log (``'{"type":"rematch"...bJn2vvWqu5C"}'``), which can hold
      part of a token with its key cut away: the frame's kind and size only.

    A record's message is formatted before it is redacted (a header's name and value come as two arguments), except
    uvicorn's access lines, whose formatter unpacks the arguments: those are redacted one by one.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == "uvicorn.access" or not record.args:
            if isinstance(record.msg, str):
                record.msg = _hidden(record.msg)
            if isinstance(record.args, tuple):
                record.args = tuple(_hidden(a) if isinstance(a, str) else a for a in record.args)
            elif isinstance(record.args, dict):
                record.args = {k: _hidden(v) if isinstance(v, str) else v for k, v in record.args.items()}
            return True
        try:
            message = record.getMessage()
        except Exception:  # arguments that do not fit the message: each one shown, redacted
            message = f"{record.msg} {record.args!r}"
        record.msg, record.args = _hidden(message), None
        return True


#: the headers whose values are secrets
SECRET_HEADERS = ("cookie", "set-cookie", "authorization", "proxy-authorization", "x-csrf-token", "x-seat-token")
#: a header line as a debug log writes it (``< cookie: xeri_session=...``), its value to the end of the line
_HEADER = re.compile(r"\b(" + "|".join(re.escape(h) for h in SECRET_HEADERS) + r")(\s*:\s*)[^\r\n]+", re.IGNORECASE)
#: a JSON string pair whose key names a secret
_JSON_PAIR = re.compile(r'("(?:[^"\\]*token[^"\\]*|csrf|password)"\s*:\s*)"(?:[^"\\]|\\.)*("|$)', re.IGNORECASE)
#: a WebSocket frame's text cut short by websockets' debug line (``> TEXT '...' [96 bytes]``)
_CUT_FRAME = re.compile(r"\b(TEXT|BINARY|CONT) (['\"]).*?\.\.\..*\2( \[\d+ bytes?\])")
#: the keys of ``key=value`` pairs that are secrets besides those holding ``token``
_SECRET_KEYS = ("xeri_session", "csrf", "password")


def _hidden(text: str) -> str:
    if "=" in text:
        text = _PAIR.sub(_hide_pair, text)
    if ":" in text:
        text = _HEADER.sub(r"\1\2<hidden>", text)
        text = _JSON_PAIR.sub(r'\1"<hidden>"', text)
    if "..." in text:
        text = _CUT_FRAME.sub(r"\1 <not shown>\3", text)
    return text


def _hide_pair(pair: re.Match[str]) -> str:
    key = unquote_plus(pair[1]).lower()
    return f"{pair[1]}=<hidden>" if "token" in key or key in _SECRET_KEYS else pair[0]


def hide_tokens_in_logs() -> None:
    """Put the token filter on the server's and uvicorn's loggers (once)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, TokenFilter) for f in logger.filters):
            logger.addFilter(TokenFilter())
