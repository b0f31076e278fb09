"""A lean Redis connection for the relay's hot path: commands written as RESP, replies parsed by hiredis.

Every forwarded move and every relayed update is one Redis message. redis-py's asyncio pipeline and
pub/sub reader cost some 45 and 30 µs of processor per message (a lock, a timeout and an async
generator step each); here a batch of commands is one socket write, and a pub/sub message reaches its
callback straight from the transport's data callback, with no task switch: some 3 and 6 µs (measured
on one of this machine's cores with 1 kB messages). It does only what ``pubsub.RedisBroker`` needs:
batches of commands whose replies come back in order, and pub/sub pushes. redis-py still reads the URL.
"""

from __future__ import annotations

import asyncio
import ssl
from collections import deque
from collections.abc import Callable
from typing import Any

import hiredis

#: seconds to connect (and authenticate) before giving up
CONNECT_TIMEOUT = 2.0

Push = Callable[[Any], None]


def pack(*args: str | bytes) -> bytes:
    """One command in RESP, the Redis wire format."""
    parts = [b"*%d\r\n" % len(args)]
    for arg in args:
        data = arg.encode() if isinstance(arg, str) else arg
        parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(parts)


class RespConnection(asyncio.Protocol):
    """One connection to Redis. ``call`` writes commands and resolves to their replies, in order; a reply that
    answers no call (a pub/sub message or subscription confirmation) goes to ``on_push``."""

    def __init__(self, on_push: Push | None = None) -> None:
        self._parser = hiredis.Reader()
        #: per call in flight: how many replies it waits for, those come so far, and its future
        self._calls: deque[tuple[int, list[Any], asyncio.Future[list[Any]]]] = deque()
        self._on_push = on_push
        self._transport: asyncio.Transport | None = None
        #: resolved when the connection is gone
        self.lost: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    @classmethod
    async def open(cls, url: str, on_push: Push | None = None, timeout: float = CONNECT_TIMEOUT) -> RespConnection:
        """Connect to the Redis of ``url`` (redis://, rediss://, unix://), authenticate and select its database."""
        from redis.connection import SSLConnection, parse_url

        options = parse_url(url)  # type: ignore[no-untyped-call]  # redis-py leaves it unannotated
        loop = asyncio.get_running_loop()
        conn = cls(on_push)
        if "path" in options:
            connecting = loop.create_unix_connection(lambda: conn, options["path"])
        else:
            secure = ssl.create_default_context() if options.get("connection_class") is SSLConnection else None
            connecting = loop.create_connection(lambda: conn, options.get("host", "localhost"),
                                                options.get("port", 6379), ssl=secure)
        await asyncio.wait_for(connecting, timeout)
        hello = []
        if options.get("password"):
            hello.append(pack("AUTH", *[x for x in (options.get("username"), options["password"]) if x]))
        if options.get("db"):
            hello.append(pack("SELECT", str(options["db"])))
        if hello:
            try:
                replies = await asyncio.wait_for(conn.call(b"".join(hello), len(hello)), timeout)
            except BaseException:
                conn.close()
                raise
            refused = [r for r in replies if isinstance(r, hiredis.ReplyError)]
            if refused:
                conn.close()
                raise ConnectionError(f"redis refused the connection: {refused[0]}")
        return conn

    @property
    def closed(self) -> bool:
        return self._transport is None or self._transport.is_closing()

    def write(self, data: bytes) -> None:
        """Send commands whose replies go to ``on_push`` (SUBSCRIBE, UNSUBSCRIBE)."""
        if self._transport is None or self._transport.is_closing():
            raise ConnectionError("the redis connection is closed")
        self._transport.write(data)

    def call(self, data: bytes, replies: int) -> asyncio.Future[list[Any]]:
        """Send ``data`` (``replies`` commands) in one write; the future is their replies (an error reply is a
        ``hiredis.ReplyError`` in the list), or a ``ConnectionError`` if the connection goes first."""
        future: asyncio.Future[list[Any]] = asyncio.get_running_loop().create_future()
        self.write(data)
        self._calls.append((replies, [], future))
        return future

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()

    # --- asyncio.Protocol -------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport  # type: ignore[assignment]  # uvloop's transports are not asyncio's classes

    def data_received(self, data: bytes) -> None:
        parser = self._parser
        parser.feed(data)
        while True:
            try:
                reply = parser.gets()
            except hiredis.ProtocolError:
                self.close()  # not Redis speaking: connection_lost fails what waits
                return
            if reply is False:
                return
            if self._calls:
                wanted, got, future = self._calls[0]
                got.append(reply)
                if len(got) == wanted:
                    self._calls.popleft()
                    if not future.done():
                        future.set_result(got)
            elif self._on_push is not None:
                self._on_push(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self._transport = None
        while self._calls:
            _, _, future = self._calls.popleft()
            if not future.done():
                future.set_exception(ConnectionError(f"the redis connection was lost: {exc or 'closed'}"))
        if not self.lost.done():
            self.lost.set_result(None)
