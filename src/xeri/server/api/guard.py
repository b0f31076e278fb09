"""The guard of every API route: the rate limit per client address, text the database can hold, the CSRF check of
a POST, and each refusal as its 4xx (or 503) JSON error."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response

from .. import metrics
from ..accounts import sessions
from ..context import client, ctx
from ..limits.bucket import take
from ..store import StoreError, StoreUnavailable
from ..table import unavailable
from ..wire import inputs, messages
from ..wire.refusals import ProtocolError

STATUS = {"no_such_table": 404, "no_such_match": 404, "no_such_player": 404, "bad_token": 403,
          "table_full": 409, "seat_taken": 409, "not_waiting": 409, "not_finished": 409, "too_large": 413,
          "rate_limited": 429,
          "unsupported_media_type": 415, "unavailable": 503, "too_many_tables": 429, "too_many_connections": 429,
          "hint_cooldown": 429, "busy": 503, "private_match": 403, "game_over": 409,
          "bad_credentials": 401, "not_signed_in": 401, "csrf": 403, "name_taken": 409, "tables_open": 409,
          "rated_needs_account": 401, "no_such_format": 404, "no_such_seek": 404}

Handler = Callable[[Request], Awaitable[Response]]


def answer(model: type[messages.Model], data: Any, status_code: int = 200) -> Response:
    """An answer checked against its model (server.wire.messages), as the page's declarations describe it."""
    return Response(messages.answer(model, data), status_code=status_code, media_type="application/json")


def error(exc: ProtocolError) -> JSONResponse:
    metrics.refused(exc.code, "http")
    wait = exc.extra.get("retry_after")
    return JSONResponse({"error": {"code": exc.code, "message": exc.message, **exc.extra}},
                        status_code=STATUS.get(exc.code, 400),
                        headers={"Retry-After": str(wait)} if isinstance(wait, int) else None)


def limit(request: Request, default: int = 50) -> int:
    """``?limit=``: digits only; beyond 1..500 it is brought into that range."""
    return inputs.query_int(request.query_params, "limit", default, 1, 500, clamp=True)


async def allowed(request: HTTPConnection) -> bool:
    """Take one request from the client address's bucket: across the cluster when one runs (server.limits.shared)."""
    c = ctx(request)
    host = client(request)
    if c.caps is not None:
        shared = await c.caps.allow_request(host)
        if shared is not None:
            return shared
    return take(c.buckets, host, c.http_rate, c.http_burst)


def check_address(request: Request) -> None:
    """Path and query text the database can hold (no NUL, no lone surrogate), before any handler reads it."""
    for key, value in (*request.path_params.items(), *request.query_params.multi_items()):
        if isinstance(value, str):
            inputs.check_text(value, f"the address's {key!r}")


def api(handler: Handler) -> Handler:
    """An API route: rate-limited per client address; a refusal becomes its 4xx (or 503) JSON error."""

    @functools.wraps(handler)
    async def wrapped(request: Request) -> Response:
        try:
            if not await allowed(request):
                raise ProtocolError("rate_limited", f"slow down: at most {ctx(request).http_rate:g} requests a second")
            check_address(request)
            if request.method == "POST":  # a POST made with the session cookie proves it came from this page
                await sessions.check_csrf(request, ctx(request).store, request.app.state.security.allow_origins)
            return await handler(request)
        except ProtocolError as exc:
            return error(exc)
        except StoreError as exc:
            if request.method in ("GET", "HEAD"):  # a read: nothing was to be stored
                detail = str(exc) if isinstance(exc, StoreUnavailable) else "the database refused it"
                return error(ProtocolError("unavailable", f"the request could not be answered ({detail}); "
                                           "try again", retry=True))
            return error(unavailable(exc, "the request"))

    return wrapped
