"""One WebSocket client at a table: reading its messages, rate-limiting them, and sending it its seat's messages."""

from __future__ import annotations

import asyncio
import collections
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

import msgspec
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import metrics
from ..broker.envelope import Envelope, to_json
from ..broker.pubsub import channel
from ..limits.bucket import BURST, RATE, TokenBucket
from ..limits.caps import LimitExceeded
from ..lobby.lobby import Lobby
from ..table.commands import Origin
from ..table.handle import TableHandle
from ..table.seats import may_use
from ..wire import messages
from ..wire.protocol import ClientMessage, Hint, Ping, RefusedFrame, Sync, read_frame
from ..wire.refusals import ProtocolError, private_match

MAX_MESSAGE = 4096
FLOOD = 200
QUEUE = 1000
#: the close code of a connection over its address's or its seat's cap
CLOSE_TOO_MANY = 4029
#: seconds before a spectator's connection is sent again the same sync it was just sent: a repeat request
#: meanwhile gets a short ``sync_unchanged`` error instead, so a spectators' sync flood costs one full sync a
#: second per connection. A seat always gets its sync: its own recovery (after ``stale``, or a move not stored)
#: asks for one, and a seat holds only a few connections.
SYNC_REPEAT = 1.0
#: frames read (and held, in order) while a hint is waited for, to see the client leave: beyond these, none is read
BACKLOG = 32

T = TypeVar("T")


class Gone(Exception):
    """The client left while its connection waited for a job: the job was dropped (issue 42, finding 12)."""


def error(code: str, message: str, ref: str | int | None = None, *, version: int | None = None,
          retry: bool | None = None) -> bytes:
    """The protocol's error message (server.wire.messages.ErrorMessage): nothing changed."""
    return to_json(messages.ErrorMessage(code=code, message=message, ref=ref,
                                  version=msgspec.UNSET if version is None else version,
                                  retry=msgspec.UNSET if retry is None else retry))


def refusal(exc: ProtocolError, ref: str | int | None = None) -> bytes:
    """A refusal's error message, with what it says besides (the table's version, whether to retry)."""
    return error(exc.code, exc.message, ref, version=exc.extra.get("version"), retry=exc.extra.get("retry"))


class Client:
    """A connection for ``seat`` (None: a spectator). Its outgoing messages (JSON bytes, server.broker.envelope) go
    through a bounded queue, and become a frame's text only as they are sent.

    ``summary``: the client shows each round's summary (``?summary=1``), and the next round waits for its "ready".
    """

    def __init__(self, ws: WebSocket, table: TableHandle, seat: int | None, rate: float = RATE,
                 burst: float = BURST, summary: bool = False) -> None:
        self.ws = ws
        self.table = table
        self.seat = seat
        self.summary = summary and seat is not None
        self.out: asyncio.Queue[bytes | None] = asyncio.Queue(QUEUE)
        self.bucket = TokenBucket(rate, burst)
        self.rejected = 0
        self.synced = -1
        self.close_code = 4009  # a client too slow to read its messages
        self.channel = channel(table.id, seat)
        #: the body of the last sync queued, until it is sent
        self._queued_sync: bytes | None = None
        #: the last sync delivered, and when: sent again once SYNC_REPEAT has passed
        self._last_sync: tuple[bytes, float] | None = None
        #: the client's address, which a rematch table counts against (server.limits.caps)
        self.address: str | None = None
        #: frames read while a job was waited for (``unless_gone``), served next, in order; and the read under way
        self.backlog: collections.deque[Mapping[str, Any]] = collections.deque()
        self._receiving: asyncio.Future[Any] | None = None

    def deliver(self, envelope: Envelope) -> None:
        """Queue an envelope's body (server.broker.envelope), dropping updates not newer than what the client has.

        A sync still waiting in the queue answers a request for the same sync too: a client that asks faster
        than it reads gets no second copy (the table serves one envelope while it does not change).
        """
        if envelope.kind == "sync" and envelope.version is not None:
            if envelope.body is self._queued_sync:
                return
            self._queued_sync = envelope.body
            self._last_sync = (envelope.body, time.monotonic())
            self.synced = envelope.version
        elif envelope.kind == "update":
            if envelope.version is None or envelope.version <= self.synced:
                return
            self.synced = envelope.version
        self.send(envelope.body)

    def send(self, body: bytes) -> None:
        try:
            self.out.put_nowait(body)
        except asyncio.QueueFull:
            # A client this far behind resynchronises on reconnection: drop it.
            self._drain()
            self.out.put_nowait(None)

    def _drain(self) -> None:
        while not self.out.empty():
            self.out.get_nowait()
        self._queued_sync = None

    async def _sender(self) -> None:
        while True:
            body = await self.out.get()
            if body is self._queued_sync:
                self._queued_sync = None
            if body is None:
                await self.ws.close(code=self.close_code)
                return
            # ASGI takes a text frame as a str: the body's one decode, here at the edge (uvicorn writes its UTF-8)
            await self.ws.send_text(body.decode())

    async def run(self) -> None:
        table = self.table
        sender = asyncio.create_task(self._sender())
        # A send to a client that went away fails; that is how it ends, not an error to report.
        sender.add_done_callback(lambda t: t.cancelled() or t.exception())
        try:
            # Inside the try: whatever attach counted, detach gives back, even if attach failed half way.
            await table.attach(self.seat, self.channel, self.deliver, self.left, self.summary)
            while not sender.done():
                message = await self._next()
                if message["type"] == "websocket.disconnect":
                    break
                try:
                    reply = await self.handle(message)
                except Gone:
                    break  # the client left while its hint waited: the hint was dropped
                if reply is not None:
                    self.deliver(reply)
                if self.rejected >= FLOOD:
                    self.send(error("flood", f"{FLOOD} rejected messages in a row: closing"))
                    self.close_code = 4008
                    self.deliver_close()
                    break
        except WebSocketDisconnect:
            pass
        finally:
            if self._receiving is not None:
                self._receiving.cancel()
            await table.detach(self.seat, self.channel, self.deliver, self.left, self.summary)
            if self.rejected >= FLOOD and not sender.done():
                try:
                    await asyncio.wait_for(sender, timeout=5)
                except (TimeoutError, RuntimeError, WebSocketDisconnect):
                    pass
            sender.cancel()

    async def _next(self) -> Mapping[str, Any]:
        """The client's next frame: one read while a job was waited for first, else the read under way or a new one."""
        if self.backlog:
            return self.backlog.popleft()
        receiving, self._receiving = self._receiving, None
        return await (receiving if receiving is not None else self.ws.receive())

    async def unless_gone(self, job: Awaitable[T]) -> T:
        """``job``'s result, unless the client leaves first: then the job is dropped (cancelled) and ``Gone`` raised.

        A job that waits long (a hint queued behind busy workers) would otherwise keep waiting, and hold its place
        in the queue, for a client that has left; a graceful stop would cancel it with a traceback (issue 42,
        finding 12). Frames that come meanwhile wait their turn, in order (at most ``BACKLOG``, then none is read).
        Only a job that changes nothing may be dropped so."""
        task = asyncio.ensure_future(job)
        try:
            while not task.done():
                receiving = self._receiving
                if receiving is None:
                    if len(self.backlog) >= BACKLOG:
                        await asyncio.wait({task})
                        break
                    receiving = asyncio.ensure_future(self.ws.receive())
                    self._receiving = receiving
                both: set[asyncio.Future[Any]] = {task, receiving}
                await asyncio.wait(both, return_when=asyncio.FIRST_COMPLETED)
                if receiving.done():
                    self._receiving = None
                    message = receiving.result() if receiving.exception() is None else {"type": "websocket.disconnect"}
                    self.backlog.append(message)
                    if message["type"] == "websocket.disconnect":
                        raise Gone
        finally:
            if not task.done():
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        return task.result()

    def left(self) -> None:
        """The seat's player left the table: say so and close (code 4001).

        Or the table moved to another process (server.cluster): say so and close (1012), and the client reconnects.
        """
        if not self.table.owned:
            self.send(error("unavailable", "this table is changing servers: reconnecting; try again then", retry=True))
            self.close_code = 1012
            self.deliver_close()
            return
        self.send(error("left", "you left this table; this connection no longer holds a seat"))
        self.close_code = 4001
        self.deliver_close()

    def deliver_close(self) -> None:
        try:
            self.out.put_nowait(None)
        except asyncio.QueueFull:
            self._drain()
            self.out.put_nowait(None)

    async def handle(self, message: Mapping[str, Any]) -> Envelope | None:
        """Answer one incoming frame (enveloped): None when the table's own broadcast is the answer."""
        if not self.bucket.take():
            self.rejected += 1
            return Envelope.plain(error("rate_limited", f"slow down: at most {self.bucket.rate:g} messages a second"))
        text = message.get("text")
        if text is None:
            self.rejected += 1
            return Envelope.plain(error("bad_message", "send JSON text frames, not binary ones"))
        if frame_size(text) > MAX_MESSAGE:
            self.rejected += 1
            return Envelope.plain(error("too_large", f"messages are limited to {MAX_MESSAGE} bytes"))
        ref = None
        try:
            command = read_frame(text)
            ref = command.ref
            reply = await self._dispatch(command)
        except ProtocolError as exc:
            if isinstance(exc, RefusedFrame):
                ref = exc.ref
            # A retryable refusal is the server's own trouble (a database or owner away), not the client's
            # fault: it does not count towards the flood close. The rate limit still bounds the retries.
            if not exc.extra.get("retry"):
                self.rejected += 1
            metrics.refused(exc.code, "socket")
            return Envelope.plain(refusal(exc, ref))
        self.rejected = 0
        return reply

    async def _dispatch(self, command: ClientMessage) -> Envelope | None:
        """Serve one decoded message: the table handles it (server.table.commands), wherever it is owned; a ping
        is this connection's own. None when the table's own broadcast is the answer."""
        if isinstance(command, Ping):
            return Envelope.message(messages.PongMessage(ref=command.ref))
        done = self.table.handle(command, Origin(seat=self.seat, address=self.address))
        # A hint changes nothing, and may wait long for a worker: it is dropped if the client leaves meanwhile.
        reply = (await (self.unless_gone(done) if isinstance(command, Hint) else done)).reply
        last = self._last_sync
        if (isinstance(command, Sync) and reply is not None and self.seat is None and last is not None
                and reply.body == last[0] and time.monotonic() - last[1] < SYNC_REPEAT):
            # The very sync this connection was just sent: say so in a few bytes, not tens of kilobytes.
            raise ProtocolError("sync_unchanged", f"nothing changed since the sync you were sent (version "
                                f"{reply.version}): ask again in a second", version=reply.version)
        return reply


def frame_size(text: str) -> int:
    """The bytes of a frame's text, as it came (UTF-8), counted without encoding it again where it is all ASCII.

    A frame longer in characters than the limit is over it in bytes too: its length alone refuses it."""
    if text.isascii() or len(text) > MAX_MESSAGE:
        return len(text)
    return len(text.encode())


async def refuse(ws: WebSocket, body: bytes, code: int) -> None:
    """Say why, and close; a client that has gone meanwhile (it gave up waiting) needs neither."""
    try:
        await ws.send_text(body.decode())
        await ws.close(code=code)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass


async def serve_socket(ws: WebSocket, lobby: Lobby, rate: float = RATE, burst: float = BURST,
                       account: str | None = None) -> None:
    """The WebSocket endpoint: find the table, check the token, then run the client.

    ``account`` is the signed-in account of the request: a seat bound to an account answers to its session only,
    and that session opens the account's seat at the table without a token (the tables follow it to any device).
    """
    await ws.accept()
    table_id = ws.path_params["table_id"]
    try:
        table = await lobby.get(table_id)
    except ProtocolError as exc:  # the table is changing servers (server.cluster): the client retries
        await refuse(ws, refusal(exc), 1013)
        return
    if table is None:
        await refuse(ws, error("no_such_table", f"there is no table {table_id[:40]!r}"), 4004)
        return
    token = ws.query_params.get("token")
    seat = None
    if token:
        seat = table.seat_for_token(token)
        if seat is not None and not may_use(table.seat_account(seat), account):
            seat = None  # another account's seat: its token alone is not enough
        if seat is None:
            await refuse(ws, error("bad_token", "that token holds no seat at this table"), 4003)
            return
    elif account is not None and ws.query_params.get("account") == "1":
        seat = table.seat_of_account(account)  # a seat it gave up no longer opens to it
    if seat is None and table.status == "finished" and table.info().private:
        refused = private_match()  # a finished private match: its seats only, never a spectator
        await refuse(ws, error(refused.code, refused.message), 4403)
        return
    address = ws.client.host if ws.client else "-"
    # Every count a connection holds (its address's and seat's here, its own and its summary's at the table,
    # wherever the table is owned) is taken and given back inside this one try, so no error can leak one.
    give_back: Callable[[], Awaitable[None]] | None = None
    try:
        # One address, and one seat, may hold only so many connections (server.limits.caps; across a cluster in Redis).
        give_back = await lobby.connections.connect(address, table.id, seat)
        # ?summary=1: this client shows a summary after each round, and the next round waits for its "ready".
        client = Client(ws, table, seat, rate, burst, summary=ws.query_params.get("summary") == "1")
        client.address = address
        await client.run()
    except LimitExceeded as exc:
        if give_back is not None:
            raise
        await refuse(ws, error(exc.code, exc.message), CLOSE_TOO_MANY)
    finally:
        if give_back is not None:
            await give_back()
        lobby.release(table)
