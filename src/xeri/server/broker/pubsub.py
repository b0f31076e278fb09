"""Pub/sub between the table that applies a change and the connections that show it.

Each seat of a table has its own channel, carrying only messages built for
that seat, so a broker never holds another seat's cards. What travels is an
``Envelope`` (server.broker.envelope): the client's text and whether it is a sync,
an update or a plain message. ``Broker`` is the seam for several server
processes: the in-process default delivers to callbacks in this process; the
Redis broker also relays between processes (docs/scaling.md).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import defaultdict
from collections.abc import Callable
from typing import Any, Protocol

from .envelope import Envelope, EnvelopeError, Frame
from .resp import RespConnection, pack

Callback = Callable[[Envelope], None]
log = logging.getLogger("xeri.server")

#: seconds a ``send`` waits for Redis to take it
SEND_TIMEOUT = 10.0
#: envelopes waiting for the relay writer at most (Redis away for long: the oldest are dropped, replicas resync)
RELAY_QUEUE = 100_000


def channel(table_id: str, seat: int | None) -> str:
    """The pub/sub channel of one seat's messages (``spectator`` for seat None)."""
    return f"xeri:{table_id}:{'spectator' if seat is None else seat}"


class Broker(Protocol):
    """Channel-based publish/subscribe of envelopes."""

    async def publish(self, channel: str, envelope: Envelope) -> None: ...

    def interested(self, channel: str) -> bool:
        """False only if nobody anywhere listens (lets a table skip building a message)."""
        ...

    def subscribe(self, channel: str, callback: Callback) -> None: ...

    def unsubscribe(self, channel: str, callback: Callback) -> None: ...

    async def start(self) -> None: ...

    async def close(self) -> None: ...


class LocalSubscribers:
    """This process's callbacks per channel: what every broker delivers to."""

    def __init__(self) -> None:
        self._subs: defaultdict[str, list[Callback]] = defaultdict(list)

    def subscribe(self, channel: str, callback: Callback) -> None:
        self._subs[channel].append(callback)

    def unsubscribe(self, channel: str, callback: Callback) -> None:
        subs = self._subs.get(channel)
        if subs and callback in subs:
            subs.remove(callback)
            if not subs:
                del self._subs[channel]

    def _deliver(self, channel: str, envelope: Envelope) -> None:
        for callback in list(self._subs.get(channel, ())):
            callback(envelope)


class InProcessBroker(LocalSubscribers):
    """Delivers each envelope synchronously to this process's subscribers, in publish order."""

    async def publish(self, channel: str, envelope: Envelope) -> None:
        self._deliver(channel, envelope)

    async def start(self) -> None:
        pass

    def interested(self, channel: str) -> bool:
        return bool(self._subs.get(channel))

    async def close(self) -> None:
        self._subs.clear()


class RedisBroker(LocalSubscribers):
    """Redis pub/sub between server processes (``xeri serve --redis URL``).

    A published envelope reaches this process's own subscribers at once (not
    through Redis, so a Redis outage does not stop them), and is relayed to
    Redis by one writer task, in publish order, many per round trip (a
    pipeline). ``relay``, when set (server.cluster), says which channels another
    process follows: the others are not sent to Redis at all.

    A process receives from Redis only the channels it ``follow``s (each
    subscribed while this process has a subscriber on it, and the subscription
    confirmed before ``follow`` returns, so nothing published afterwards slips
    past) and the ones it ``listen``s to (its request inbox), so its share of
    the relay grows with what its own connections watch, not with every table.
    Each frame carries its process's ``node`` id; a process skips its own.

    Redis may go away: a relay fails quietly (the database has the move
    already), the reader reconnects with a growing pause, and once it is
    subscribed again every ``on_resubscribed`` callback runs, so the
    connections fed from Redis can be resynchronised (what they missed is lost
    from pub/sub, never from the database).
    """

    def __init__(self, url: str, node: str | None = None) -> None:
        super().__init__()
        self.url = url
        self.node = node or secrets.token_hex(8)
        #: whether the subscription is up now (readiness)
        self.up = False
        #: which channels to relay to Redis (None: all of them)
        self.relay: Callable[[str], bool] | None = None
        self._channels: set[str] = {self._own_channel}
        #: the channels followed on Redis, with how many local subscribers follow each
        self._followed: dict[str, int] = {}
        self._confirming: dict[str, list[asyncio.Future[None]]] = {}
        self._resubscribed: list[Callable[[], None]] = []
        self._subscriptions = 0
        #: the connection that publishes (the relay writer's) and the one subscribed (server.broker.resp)
        self._out: RespConnection | None = None
        self._sub: RespConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._writer: asyncio.Task[None] | None = None
        #: (channel, encoded frame, the future of a ``send`` or None for a relay), in order
        self._outbox: asyncio.Queue[tuple[str, bytes, asyncio.Future[int] | None]] = asyncio.Queue(RELAY_QUEUE)

    @property
    def _own_channel(self) -> str:
        """A channel only this process subscribes to: the subscription is never empty (and confirms it is up)."""
        return f"xeri-node:{self.node}"

    def listen(self, channel: str, callback: Callback) -> None:
        """Receive an exact channel for as long as this broker runs (call before ``start``)."""
        self._channels.add(channel)
        self.subscribe(channel, callback)

    def on_resubscribed(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` each time the subscription comes back after Redis went away."""
        self._resubscribed.append(callback)

    async def start(self) -> None:
        await self._subscribe()
        self._reader = asyncio.create_task(self._read())
        self._writer = asyncio.create_task(self._write())

    async def _subscribe(self) -> None:
        sub = await RespConnection.open(self.url, on_push=self._on_push)
        sub.write(pack("SUBSCRIBE", *sorted(self._channels | set(self._followed))))
        self._sub = sub

    # --- following channels ---------------------------------------------------------

    async def follow(self, channel: str, callback: Callback) -> None:
        """Subscribe ``callback`` to ``channel`` here and on Redis; returns once Redis confirmed it."""
        self.subscribe(channel, callback)
        count = self._followed.get(channel, 0)
        self._followed[channel] = count + 1
        if count:
            waiting = self._confirming.get(channel)
            if waiting:  # another follower's subscription is on its way: wait for the same confirmation
                try:
                    await asyncio.wait_for(asyncio.shield(waiting[0]), timeout=5)
                except BaseException:
                    self.unfollow(channel, callback)
                    raise
            return
        confirmed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._confirming.setdefault(channel, []).append(confirmed)
        try:
            if self._sub is None:
                raise ConnectionError("not subscribed to redis")
            self._sub.write(pack("SUBSCRIBE", channel))
            await asyncio.wait_for(asyncio.shield(confirmed), timeout=5)
        except BaseException:
            self._confirming.pop(channel, None)
            self.unfollow(channel, callback)
            raise

    def unfollow(self, channel: str, callback: Callback) -> None:
        """Stop ``callback`` following ``channel``; the last one here unsubscribes on Redis (twice is once)."""
        if callback not in self._subs.get(channel, ()):
            return
        self.unsubscribe(channel, callback)
        count = self._followed.get(channel, 0) - 1
        if count > 0:
            self._followed[channel] = count
            return
        self._followed.pop(channel, None)
        if count == 0 and self._sub is not None and not self._sub.closed:
            # Redis takes (un)subscriptions in order: following it again later subscribes it again.
            self._sub.write(pack("UNSUBSCRIBE", channel))

    def following(self, channel: str) -> bool:
        return channel in self._followed

    # --- reading --------------------------------------------------------------------

    def _on_push(self, reply: Any) -> None:
        """A reply on the subscribed connection (straight from its transport): a message or a confirmation."""
        if not isinstance(reply, list) or len(reply) != 3:
            return
        kind, name, data = reply
        if kind == b"message":
            try:
                frame = Frame.decode(data)
            except EnvelopeError as exc:
                log.warning("dropped a message on %s: %s", name.decode(errors="replace"), exc)
                return
            if frame.node != self.node:
                try:
                    self._deliver(name.decode(), frame.envelope)
                except Exception:  # one subscriber's failure must not cost the others their messages
                    log.exception("delivering a relayed message failed")
        elif kind == b"subscribe":
            channel = name.decode()
            if channel == self._own_channel:
                self._subscriptions += 1
                self.up = True
                if self._subscriptions > 1:  # Redis came back: whatever was published meanwhile is lost
                    for callback in list(self._resubscribed):
                        callback()
            for confirmed in self._confirming.pop(channel, ()):
                if not confirmed.done():
                    confirmed.set_result(None)

    async def _read(self) -> None:
        """Wait for the subscribed connection to go, then subscribe again (with a growing pause)."""
        while True:
            assert self._sub is not None
            await asyncio.shield(self._sub.lost)
            log.warning("redis pub/sub lost; reconnecting")
            self.up = False
            pause = 0.05
            while True:
                await asyncio.sleep(pause)  # a pause between reconnection attempts, not synchronisation
                pause = min(pause * 2, 1.0)
                try:
                    await self._subscribe()
                    break
                except (OSError, TimeoutError):
                    continue

    # --- writing --------------------------------------------------------------------

    async def publish(self, channel: str, envelope: Envelope) -> None:
        """Deliver here at once, and queue the relay to other processes (in order, batched)."""
        self._deliver(channel, envelope)
        if self.relay is not None and not self.relay(channel):
            return
        self.post(channel, envelope)

    def post(self, channel: str, envelope: Envelope) -> None:
        """Queue an envelope for other processes only, and do not wait for it (a reply to a request: if Redis
        loses it, the requester's timeout answers)."""
        try:
            self._outbox.put_nowait((channel, Frame(self.node, envelope).encode_bytes(), None))
        except asyncio.QueueFull:
            log.warning("the redis relay is %d messages behind: dropping one", RELAY_QUEUE)

    async def _write(self) -> None:
        """Send queued frames to Redis, all that are waiting in one pipeline (one round trip, in order)."""
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < 1000:
                batch.append(self._outbox.get_nowait())
            data = b"".join(pack("PUBLISH", channel, text) for channel, text, _ in batch)
            for attempt in (1, 2):
                try:
                    if self._out is None or self._out.closed:
                        self._out = await RespConnection.open(self.url)
                    received = await asyncio.wait_for(self._out.call(data, len(batch)), SEND_TIMEOUT)
                    for (_, _, future), count in zip(batch, received, strict=True):
                        if future is not None and not future.done():
                            if isinstance(count, int):
                                future.set_result(count)
                            else:
                                future.set_exception(ConnectionError(f"redis refused the publish: {count}"))
                    break
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    # A connection from before a Redis restart fails once: try a fresh one. Redis still away:
                    # the remote readers resync when it is back (a repeated update is dropped by version).
                    if self._out is not None:
                        self._out.close()
                        self._out = None
                    if attempt == 2:
                        log.warning("cannot publish to redis: %s", exc)
                        for _, _, future in batch:
                            if future is not None and not future.done():
                                future.set_exception(exc)

    async def send(self, channel: str, envelope: Envelope) -> int:
        """Publish to other processes only (after what is queued); returns how many received it (raises if
        Redis is away)."""
        sent: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        try:
            self._outbox.put_nowait((channel, Frame(self.node, envelope).encode_bytes(), sent))
        except asyncio.QueueFull:
            raise ConnectionError("the redis relay is too far behind") from None
        return await asyncio.wait_for(sent, SEND_TIMEOUT)

    def interested(self, channel: str) -> bool:
        if channel in self._subs:
            return True
        return self.relay is None or self.relay(channel)

    async def close(self) -> None:
        for task in (self._reader, self._writer):
            if task is not None:
                task.cancel()
                try:
                    await task
                except (asyncio.CancelledError, Exception):
                    pass
        for conn in (self._sub, self._out):
            if conn is not None:
                conn.close()
        self._subs.clear()
