"""A deadline on reading each HTTP request, so a slow or half-sent request cannot hold a connection.

uvicorn closes a keep-alive connection that stays idle after a response, but
it waits for ever on a request whose headers (or body) never finish arriving,
and any byte received cancels its keep-alive timer: a "slowloris" client can
open connections until the server runs out of file descriptors. This protocol
gives every request ``request_timeout`` seconds, from the connection (or the
previous response) until the whole request is in; then the connection closes.
A WebSocket, once upgraded, is no longer an HTTP request and has no deadline.

It also limits how many connections one client address may open a second. One
over that is not served: its request (read under the same deadline) is answered
429 with ``Retry-After``, in the protocol's JSON error, and the connection closes.
A connection from a ``--trusted-proxy`` is a balancer's, shared by every player
behind it (HAProxy opens one per request): it is never refused as a whole, and
each of its requests is counted instead, against the address its
X-Forwarded-For names, ten requests for one connection (issue 42: one client
behind HAProxy cut everyone off).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import h11
from uvicorn._types import ASGIReceiveCallable, ASGISendCallable, Scope
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..limits.bucket import ADDRESSES, TokenBucket, take

#: seconds to receive a whole request, headers and body
REQUEST_TIMEOUT = 10.0
#: seconds an idle keep-alive connection stays open after a response
KEEP_ALIVE = 5.0
#: what a refused connection's client is told to wait, in seconds
RETRY_AFTER = 1
#: through a trusted proxy, the requests counted as one connection: a browser's keep-alive connection carries a
#: page's some 60 files, behind the balancer each request is a connection of its own
REQUESTS_PER_CONNECTION = 10
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
_REFUSAL = json.dumps({"error": {"code": "rate_limited", "retry_after": RETRY_AFTER, "message":
                                 "too many new connections from this address: slow down"}}).encode()
#: the answer to a refused WebSocket handshake, written as is (the handshake never reaches the app)
_REFUSAL_RAW = (b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nretry-after: "
                + str(RETRY_AFTER).encode() + b"\r\ncontent-length: " + str(len(_REFUSAL)).encode()
                + b"\r\nconnection: close\r\n\r\n" + _REFUSAL)


async def too_many(scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
    """The 429 of a request over its address's connection rate; the connection closes after it."""
    await send({"type": "http.response.start", "status": 429, "headers": [
        (b"content-type", b"application/json"), (b"retry-after", str(RETRY_AFTER).encode()),
        (b"content-length", str(len(_REFUSAL)).encode()), (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": _REFUSAL, "more_body": False})


def forwarded_for(scope: Mapping[str, Any], trusted: Sequence[Network]) -> str | None:
    """The client a trusted proxy's X-Forwarded-For names: the last hop that is not itself a trusted proxy (as
    uvicorn's ProxyHeadersMiddleware, which the app's edges use, reads it), or None without the header."""
    hops: list[str] = [hop.strip() for key, value in scope["headers"] if key == b"x-forwarded-for"
            for hop in value.decode("latin-1").split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _within(hop, trusted):
            return hop
    return hops[0] if hops else None


def _within(host: str, networks: Sequence[Network]) -> bool:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(address in network for network in networks)


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline on receiving each request."""

    request_timeout: float = REQUEST_TIMEOUT
    #: connections one client address may open a second (bursts of four times that); None: no limit
    connections_per_second: float | None = None
    #: per client address, its bucket of connections (one dict per server: see ``timed_protocol``)
    buckets: ClassVar[dict[str, TokenBucket]] = {}
    #: the balancers (``--trusted-proxy``) whose connections are counted per request, by X-Forwarded-For
    trusted: ClassVar[tuple[Network, ...]] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._refused = False

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
        host = self.client[0] if self.client else "-"
        if self.connections_per_second is not None:
            if _within(host, self.trusted):
                self.app = self._counted  # a balancer's: each request counts for the player it forwards
            elif not self._take(host):
                self._refused = True  # over its address's rate: its request is answered 429, then it closes
                self.app = too_many
        self._arm()

    def _take(self, host: str, scale: float = 1.0) -> bool:
        rate = (self.connections_per_second or 0.0) * scale
        return take(self.buckets, host, rate, max(4 * rate, 1.0), ADDRESSES)

    async def _counted(self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
        """A request through a trusted proxy, counted against the client it names (or the proxy, naming none)."""
        host = forwarded_for(scope, self.trusted) or (self.client[0] if self.client else "-")
        if not self._take(host, REQUESTS_PER_CONNECTION):
            await too_many(scope, receive, send)
            return
        await self.config.loaded_app(scope, receive, send)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state is not h11.IDLE and self.conn.their_state is not h11.SEND_BODY:
            self._disarm()  # the request is in (or the connection is ending): the app has it now

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._disarm()
        if self._refused:
            self.transport.write(_REFUSAL_RAW)
            self.transport.close()
            return
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state in (h11.IDLE, h11.SEND_BODY):
            self._arm()  # the next request on this connection gets its own deadline


def timed_protocol(request_timeout: float, connections_per_second: float | None = None,
                   trusted_proxies: Sequence[str] = ()) -> type[TimedH11Protocol]:
    """The protocol class (uvicorn's ``http=`` setting): ``request_timeout`` seconds per request, and
    ``connections_per_second`` new connections a second from one address (requests, through ``trusted_proxies``:
    addresses or networks)."""
    if not 0 < request_timeout <= 3600:
        raise ValueError("the request timeout must be in (0, 3600] seconds")
    if connections_per_second is not None and not 0 < connections_per_second <= 100_000:
        raise ValueError("the connections a second must be in (0, 100000]")
    trusted = tuple(ipaddress.ip_network(proxy, strict=False) for proxy in trusted_proxies)
    return type("TimedH11Protocol", (TimedH11Protocol,), {
        "request_timeout": request_timeout, "connections_per_second": connections_per_second, "buckets": {},
        "trusted": trusted})
