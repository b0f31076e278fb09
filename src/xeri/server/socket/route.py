"""The WebSocket route ``/ws/tables/<table>``: the origin and the per-address caps are checked before the
handshake, then the connection is served (server.socket.connection)."""

from __future__ import annotations

from starlette.websockets import WebSocket

from .. import metrics
from ..accounts import sessions
from ..context import client, ctx
from ..http.security import origin_allowed
from ..limits.bucket import take
from .connection import CLOSE_TOO_MANY, serve_socket

#: the close code of a WebSocket from an origin that is not allowed (sent as HTTP 403 before the handshake)
CLOSE_BAD_ORIGIN = 4403


async def socket(ws: WebSocket) -> None:
    c = ctx(ws)
    if not origin_allowed(ws):
        # A page of another site may not play with its visitor's seat (cross-site WebSocket hijacking).
        metrics.refused("bad_origin", "socket")
        await ws.close(code=CLOSE_BAD_ORIGIN, reason="this origin may not connect (see xeri serve --allow-origin)")
        return
    # An address opens only so many connections a second and holds only so many at once; beyond,
    # the handshake is refused (HTTP 403) before any work, so a reconnect storm stays cheap.
    host, limits = client(ws), c.lobby.limits
    opened = await c.caps.allow_open(host) if c.caps is not None else None  # across the cluster (server.limits.shared)
    if opened is None:
        opened = take(c.ws_opens, host, limits.ws_opens_per_second, max(4 * limits.ws_opens_per_second, 1.0))
    if not opened or c.lobby.book.sockets.get(host, 0) >= limits.ws_per_address:
        metrics.refused("too_many_connections", "socket")
        await ws.close(code=CLOSE_TOO_MANY)
        return
    me = await sessions.current(ws, c.store) if sessions.cookie_value(ws) is not None else None
    await serve_socket(ws, c.lobby, c.rate, c.burst, account=me.account.id if me is not None else None)
