"""``GET /healthz`` and ``GET /readyz``: what a load balancer's health checks ask.

``/healthz`` says the process answers (liveness: restart it if not).
``/readyz`` says it can serve a player now (readiness: send it traffic): the
database answers, and in a cluster the Redis relay is subscribed and the
lease loop reached the database at its last tick. Neither is rate-limited,
and neither says more than a yes or no with a reason.
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..store import StoreError

#: seconds a readiness probe waits for the database
PROBE_TIMEOUT = 2.0


async def healthz(_request: Request) -> Response:
    return JSONResponse({"ok": True})


async def readyz(request: Request) -> Response:
    lobby = request.app.state.lobby
    store = request.app.state.store
    #: this process's node in a cluster (server.cluster), or None when it serves alone
    cluster = request.app.state.cluster
    try:
        await asyncio.wait_for(store.ping(), PROBE_TIMEOUT)
    except (StoreError, TimeoutError):
        return JSONResponse({"ok": False, "reason": "the database does not answer"}, status_code=503)
    if cluster is not None:
        if not cluster.broker.up:
            return JSONResponse({"ok": False, "reason": "the Redis relay is down"}, status_code=503)
        if not cluster.healthy:
            return JSONResponse({"ok": False, "reason": "the table leases cannot be renewed"}, status_code=503)
    if cluster is None:
        return JSONResponse({"ok": True, "node": None})
    # In a cluster also how many tables this process owns and how many it handed over and took (server.cluster).
    return JSONResponse({"ok": True, "node": cluster.node, "tables": len(lobby.tables),
                         "handed_out": cluster.handed_out, "handed_in": cluster.handed_in})
