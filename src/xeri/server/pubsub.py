"""Pub/sub between the table that applies a change and the connections that show it.

Each seat of a table has its own channel, carrying only messages built for
that seat, so a broker never holds another seat's cards. ``Broker`` is the
seam for several server processes: the in-process default delivers to
callbacks in this process; a Redis broker would carry the same texts between
processes (see docs/scaling.md).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable
from typing import Any, Protocol

Callback = Callable[[str], None]


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
    in publish order. (Sharded channels would suit many processes better.)
    """

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self._client: Any = None
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        import redis.asyncio as redis

        self._client = redis.from_url(self.url, decode_responses=True)
        self._pubsub = self._client.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.psubscribe("xeri:*")
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self._pubsub.listen():
            if message.get("type") != "pmessage":
                continue
            self._deliver(message["channel"], message["data"])

    async def publish(self, channel: str, text: str) -> None:
        await self._client.publish(channel, text)

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
