"""The server's edges: response headers, allowed WebSocket origins, trusted proxies, tokens kept out of logs.

``secure(app, ...)`` sets them on an app (``create_app`` calls it with the
defaults; ``xeri serve`` with its ``--allow-origin`` and ``--trusted-proxy``).
docs/security.md lists each promise and the test that keeps it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

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
#: the loggers whose lines could carry a request's address (and so a WebSocket's ``?token=``)
LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "xeri.server")
_TOKEN = re.compile(r"(token=)[^&\s\"'#]+", re.IGNORECASE)


@dataclass
class Security:
    """An app's edge settings (``app.state.security``)."""

    #: origins a browser's WebSocket may come from, besides the server's own ("*": any)
    allow_origins: tuple[str, ...] = ()
    #: proxy addresses (or networks) whose X-Forwarded-For names the client; none by default
    trusted_proxies: tuple[str, ...] = ()
    _proxy: Any = field(default=None, repr=False)


def secure(app: Starlette, *, allow_origins: Sequence[str] = (), trusted_proxies: Sequence[str] = ()) -> Starlette:
    """Set ``app``'s edges; the middleware is added once, the settings may be changed again before it starts."""
    first = getattr(app.state, "security", None) is None
    app.state.security = Security(tuple(o.rstrip("/") for o in allow_origins), tuple(trusted_proxies))
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
        inner = self.app
        if settings.trusted_proxies:
            if settings._proxy is None:
                settings._proxy = ProxyHeadersMiddleware(self.app,  # type: ignore[arg-type]
                                                         trusted_hosts=list(settings.trusted_proxies))
            inner = settings._proxy
        if scope["type"] != "http":
            await inner(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []), *((k, v) for k, v in HEADERS if k not in names)]
            await send(message)

        await inner(scope, receive, with_headers)


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
    """Replaces any ``token=...`` in a log line with ``token=<hidden>``: a seat token never reaches a log."""

    def filter(self, record: logging.LogRecord) -> bool:
        # The arguments are redacted one by one: formatters such as uvicorn's access log unpack them.
        if isinstance(record.msg, str):
            record.msg = _hidden(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_hidden(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _hidden(v) if isinstance(v, str) else v for k, v in record.args.items()}
        return True


def _hidden(text: str) -> str:
    return _TOKEN.sub(r"\1<hidden>", text) if "token=" in text.lower() else text


def hide_tokens_in_logs() -> None:
    """Put the token filter on the server's and uvicorn's loggers (once)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, TokenFilter) for f in logger.filters):
            logger.addFilter(TokenFilter())
