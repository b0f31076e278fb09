"""Pub/sub between the table that applies a change and the connections that show it.

Each seat of a table has its own channel, carrying only messages built for
that seat, so a broker never holds another seat's cards. ``Broker`` is the
seam for several server processes: the in-process default delivers to
callbacks in this process; a Redis broker would carry the same texts between
processes (see docs/scaling.md).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import defaultdict
from collections.abc import Callable
from typing import Any, Protocol

Callback = Callable[[str], None]
log = logging.getLogger("xeri.server")

#: Redis connections one process keeps for publishing and requests (the subscription has its own).
REDIS_CONNECTIONS = 64


class Broker(Protocol):
    """Channel-based publish/subscribe of JSON texts."""

    async def publish(self, channel: str, text: str) -> None: ...

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

    def _deliver(self, channel: str, text: str) -> None:
        for callback in list(self._subs.get(channel, ())):
            callback(text)


class InProcessBroker(LocalSubscribers):
    """Delivers each text synchronously to this process's subscribers, in publish order."""

    async def publish(self, channel: str, text: str) -> None:
        self._deliver(channel, text)

    async def start(self) -> None:
        pass

    def interested(self, channel: str) -> bool:
        return bool(self._subs.get(channel))

    async def close(self) -> None:
        self._subs.clear()


class RedisBroker(LocalSubscribers):
    """Redis pub/sub between server processes (``xeri serve --redis URL``).

    Each process subscribes once, at start, to the pattern ``xeri:*``, so no
    message published after ``start()`` can slip past a subscription being
    set up; callbacks are then called in this process as messages arrive,
    in publish order. A text published here reaches this process's own
    subscribers at once (not through Redis, so a Redis outage does not stop
    them); each text carries its process's ``node`` id, and a process skips its
    own echoes. ``listen()`` adds exact channels (a process's request inbox).

    Redis may go away: a publish then fails quietly (the database has the
    move already), the reader reconnects with a growing pause, and once it is
    subscribed again every ``on_resubscribed`` callback runs, so the
    connections fed from Redis can be resynchronised (what they missed is lost
    from pub/sub, never from the database). (Sharded channels would suit many
    processes better.)
    """

    def __init__(self, url: str, node: str | None = None) -> None:
        super().__init__()
        self.url = url
        self.node = node or secrets.token_hex(8)
        #: whether the subscription is up now (readiness)
        self.up = False
        self._channels: set[str] = set()
        self._resubscribed: list[Callable[[], None]] = []
        self._subscriptions = 0
        self._client: Any = None
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None

    def listen(self, channel: str, callback: Callback) -> None:
        """Receive an exact channel outside ``xeri:*`` too (call before ``start``)."""
        self._channels.add(channel)
        self.subscribe(channel, callback)

    def on_resubscribed(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` each time the subscription comes back after Redis went away."""
        self._resubscribed.append(callback)

    async def start(self) -> None:
        import redis.asyncio as redis

        # A bounded pool that waits for a free connection: hundreds of tables publishing at once must
        # queue for a moment, not fail with "Too many connections".
        pool = redis.BlockingConnectionPool.from_url(self.url, max_connections=REDIS_CONNECTIONS, timeout=5,
                                                     decode_responses=True, socket_connect_timeout=2,
                                                     socket_keepalive=True)
        self._client = redis.Redis(connection_pool=pool)
        await self._subscribe()
        self._reader = asyncio.create_task(self._read())

    async def _subscribe(self) -> None:
        pubsub = self._client.pubsub(ignore_subscribe_messages=False)
        await pubsub.psubscribe("xeri:*")
        if self._channels:
            await pubsub.subscribe(*sorted(self._channels))
        self._pubsub = pubsub

    async def _read(self) -> None:
        pause = 0.05
        while True:
            try:
                async for message in self._pubsub.listen():
                    kind = message.get("type")
                    if kind == "psubscribe":
                        self._subscriptions += 1
                        self.up = True
                        pause = 0.05
                        if self._subscriptions > 1:  # Redis came back: whatever was published meanwhile is lost
                            for callback in list(self._resubscribed):
                                callback()
                        continue
                    if kind not in ("pmessage", "message"):
                        continue
                    node, _, text = message["data"].partition(" ")
                    if node != self.node:
                        self._deliver(message["channel"], text)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis went away: reconnect below
                log.warning("redis pub/sub lost (%s); reconnecting", str(exc).splitlines()[0] if str(exc) else exc)
            self.up = False
            while True:
                await asyncio.sleep(pause)  # a pause between reconnection attempts, not synchronisation
                pause = min(pause * 2, 1.0)
                try:
                    await self._pubsub.aclose()
                except Exception:  # the old connection is broken already
                    pass
                try:
                    await self._subscribe()
                    break
                except Exception:
                    continue

    async def publish(self, channel: str, text: str) -> None:
        self._deliver(channel, text)
        try:
            await self._client.publish(channel, f"{self.node} {text}")
        except Exception as exc:  # Redis is away: the remote readers resync when it is back
            log.warning("cannot publish to redis: %s", exc)

    async def send(self, channel: str, text: str) -> int:
        """Publish to other processes only; returns how many received it (raises if Redis is away)."""
        return int(await self._client.publish(channel, f"{self.node} {text}"))

    def interested(self, channel: str) -> bool:
        return True  # subscribers in other processes cannot be seen from here

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            try:
                await self._reader
            except (asyncio.CancelledError, Exception):
                pass
        if self._pubsub is not None:
            await self._pubsub.aclose()
        if self._client is not None:
            await self._client.aclose()
        self._subs.clear()
