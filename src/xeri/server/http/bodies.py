"""A request's JSON body, read within its bounds (the routes' and the account routes' one reader)."""

from __future__ import annotations

from typing import Any

from starlette.requests import ClientDisconnect, Request

from ..wire.inputs import parse_json
from ..wire.refusals import ProtocolError

MAX_BODY = 256 * 1024


async def read_body(request: Request) -> Any:
    """The JSON body, read no further than MAX_BODY bytes.

    It must be sent as ``application/json``: a cross-site form (``text/plain``) cannot create a table or join one,
    since a browser sends that content type cross-site only after a CORS preflight, which this server never grants.
    """
    kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if kind != "application/json":
        raise ProtocolError("unsupported_media_type", "send the body as JSON, with Content-Type: application/json")
    too_large = ProtocolError("too_large", f"request bodies are limited to {MAX_BODY} bytes")
    declared = request.headers.get("content-length", "0")
    if not declared.isdigit() or int(declared) > MAX_BODY:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise too_large
            chunks.append(chunk)
    except ClientDisconnect:
        # The client went away before its body was whole (or sent a broken chunked body): nothing to do,
        # and nothing to log; the answer goes nowhere.
        raise ProtocolError("bad_request", "the request body did not arrive whole") from None
    raw = b"".join(chunks)
    if not raw.strip():
        return {}
    return parse_json(raw)
