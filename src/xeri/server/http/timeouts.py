"""A deadline on reading each HTTP request, so a slow or half-sent request cannot hold a connection.

uvicorn closes a keep-alive connection that stays idle after a response, but
it waits for ever on a request whose headers (or body) never finish arriving,
and any byte received cancels its keep-alive timer: a "slowloris" client can
open connections until the server runs out of file descriptors. This protocol
gives every request ``request_timeout`` seconds, from the connection (or the
previous response) until the whole request is in; then the connection closes.
A WebSocket, once upgraded, is no longer an HTTP request and has no deadline.

It also limits how many connections one client address may open a second: one
over that is closed as it is accepted, before a byte of it is read, so a flood
of reconnections costs the server next to nothing.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..limits.bucket import ADDRESSES, TokenBucket, take

#: seconds to receive a whole request, headers and body
REQUEST_TIMEOUT = 10.0
#: seconds an idle keep-alive connection stays open after a response
KEEP_ALIVE = 5.0


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline on receiving each request."""

    request_timeout: float = REQUEST_TIMEOUT
    #: connections one client address may open a second (bursts of four times that); None: no limit
    connections_per_second: float | None = None
    #: per client address, its bucket of connections (one dict per server: see ``timed_protocol``)
    buckets: ClassVar[dict[str, TokenBucket]] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_timeout, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if not self._admitted():
            transport.close()  # over its address's rate: closed before a byte is read
            return
        self._arm()

    def _admitted(self) -> bool:
        rate = self.connections_per_second
        if rate is None:
            return True
        host = self.client[0] if self.client else "-"
        return take(self.buckets, host, rate, max(4 * rate, 1.0), ADDRESSES)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state is not h11.IDLE and self.conn.their_state is not h11.SEND_BODY:
            self._disarm()  # the request is in (or the connection is ending): the app has it now

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._disarm()
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state in (h11.IDLE, h11.SEND_BODY):
            self._arm()  # the next request on this connection gets its own deadline


def timed_protocol(request_timeout: float, connections_per_second: float | None = None) -> type[TimedH11Protocol]:
    """The protocol class (uvicorn's ``http=`` setting): ``request_timeout`` seconds per request, and
    ``connections_per_second`` new connections a second from one address."""
    if not 0 < request_timeout <= 3600:
        raise ValueError("the request timeout must be in (0, 3600] seconds")
    if connections_per_second is not None and not 0 < connections_per_second <= 100_000:
        raise ValueError("the connections a second must be in (0, 100000]")
    return type("TimedH11Protocol", (TimedH11Protocol,), {
        "request_timeout": request_timeout, "connections_per_second": connections_per_second, "buckets": {}})
