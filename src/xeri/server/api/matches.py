"""Finished matches: the list, a record, a replay and a seat's review (docs/protocol.md).

A private match opens only to one of its seats (server.api.access ``open_match``), checked before any cache is read.
"""

from __future__ import annotations

import asyncio
import gzip
import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ...errors import XeriError
from ..context import ctx
from ..matches.replays import ReplayTooLarge
from ..matches.reviews import ReviewBusy, ReviewFailed
from ..matches.summaries import summary
from ..wire import inputs, messages
from ..wire.refusals import ProtocolError
from ..workers import PoolBusy
from .access import open_match
from .guard import answer, limit

#: the bound of ``?seat=`` (a review then names the match's own seats)
MAX_SEAT = 99


async def matches(request: Request) -> Response:
    player = request.query_params.get("player") or None
    rows = await ctx(request).store.finished_matches(player, limit(request))
    return answer(messages.MatchList, {"matches": [summary(r) for r in rows]})


async def _finished_text(request: Request) -> str:
    table_id = request.path_params["table_id"]
    found = await ctx(request).store.record_text(table_id) if inputs.is_table_id(table_id) else None
    if found is None:
        raise ProtocolError("no_such_match", "there is no such match")
    status, text = found
    if status != "finished" or text is None:
        raise ProtocolError("not_finished", "the match is not finished: its record keeps hidden cards until then")
    return text


async def finished_record(request: Request) -> dict[str, Any]:
    return json.loads(await _finished_text(request))  # type: ignore[no-any-return]


async def record(request: Request) -> Response:
    await open_match(request)
    data = await finished_record(request)
    name = f"xeri-{request.path_params['table_id']}.json"
    return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="{name}"'})


async def replay(request: Request) -> Response:
    """Built in the worker pool, not on the event loop, and cached: a finished match never changes.

    Kept gzipped (server.matches.replays) and sent so; a client that does not take gzip gets it unzipped in a thread.
    """
    await open_match(request)
    replays = ctx(request).replays
    try:
        data = await replays.get(request.path_params["table_id"], lambda: _finished_text(request))
    except PoolBusy:
        raise ProtocolError("busy", "the server is busy: try the replay again in a moment") from None
    except ReplayTooLarge as exc:
        raise ProtocolError("too_large", str(exc)) from None
    if not replays.gzipped:
        return Response(data, media_type="application/json")
    if "gzip" in request.headers.get("accept-encoding", "").lower():
        return Response(data, media_type="application/json",
                        headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
    return Response(await asyncio.to_thread(gzip.decompress, data), media_type="application/json")


async def review(request: Request) -> Response:
    """One seat's review of a finished match (xeri.review): 200 with it once built, 202 with the progress before.

    The first request starts the build off the event loop; the browser polls until it is done. Cached.
    """
    seat = inputs.query_int(request.query_params, "seat", 0, 0, MAX_SEAT, what="a seat number")
    await open_match(request)

    async def text() -> str:
        return json.dumps(await finished_record(request))

    try:
        out = await ctx(request).reviews.request(request.path_params["table_id"][:32], seat, text)
    except XeriError as exc:
        raise ProtocolError("bad_request", str(exc)) from None
    except (ReviewBusy, ReviewFailed) as exc:
        raise ProtocolError("unavailable", str(exc)) from None
    return answer(messages.ReviewProgress, out, status_code=200 if out["state"] == "done" else 202)
