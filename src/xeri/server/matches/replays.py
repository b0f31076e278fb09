"""Replays of finished matches, built off the event loop, kept in a small cache and capped in size.

Building a long match's replay takes the better part of a second of Python
(every step carries the whole table): it runs in the worker pool and comes
back as the finished JSON bytes. A finished match never changes, so its
replay is cached (least recently used first out, ``max_bytes`` in all), and
two requests for the same match wait on one build.

A long match's replay is megabytes of JSON: compressing it per request (the
app's gzip middleware, on the event loop) stalled every table for a tenth of a
second each time. So the app's cache holds it gzipped, compressed once in the
pool, and sends those bytes as they are (``Content-Encoding: gzip``).
"""

from __future__ import annotations

import asyncio
import gzip
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection

import msgspec

from .summaries import replay_steps


class ReplayTooLarge(Exception):
    """The match's replay is over the size the server serves."""


def build_replay(record_text: str, match_id: str) -> bytes:
    """The pool's job: a finished record's replay as compact JSON bytes."""
    out = msgspec.structs.replace(replay_steps(json.loads(record_text)), id=match_id)
    return msgspec.json.encode(out)


def too_large(size: int, max_replay: int) -> ReplayTooLarge:
    return ReplayTooLarge(f"this match's replay is {size >> 20} MiB, over the {max_replay >> 20} MiB served: "
                          "download its record instead")


def build_replay_gzip(record_text: str, match_id: str, max_replay: int) -> bytes:
    """The pool's job: the replay gzipped (``ReplayTooLarge`` if its JSON is over ``max_replay`` bytes)."""
    data = build_replay(record_text, match_id)
    if len(data) > max_replay:
        raise too_large(len(data), max_replay)
    return gzip.compress(data, compresslevel=6, mtime=0)


class ReplayCache:
    """Built replays by match id; ``run(fn, *args)`` runs a build (the worker pool's ``run``).

    ``gzipped``: the replays are built and kept gzip-compressed (``build_replay_gzip``).
    """

    def __init__(self, run: Callable[..., Awaitable[bytes]], *, max_bytes: int = 64 << 20,
                 max_replay: int = 8 << 20, gzipped: bool = False) -> None:
        self.run = run
        self.gzipped = gzipped
        self.max_bytes = max_bytes
        self.max_replay = max_replay
        self.size = 0
        self.built = 0
        self._cache: OrderedDict[str, bytes] = OrderedDict()
        self._building: dict[str, asyncio.Future[bytes]] = {}
        self._too_large: dict[str, str] = {}  # a match too long to replay stays so: never rebuilt
        self._stale: set[str] = set()  # builds under way from a record whose names have changed since

    async def get(self, match_id: str, record_text: Callable[[], Awaitable[str]]) -> bytes:
        """The replay of ``match_id``, built from ``record_text()`` unless cached or being built."""
        if match_id in self._too_large:
            raise ReplayTooLarge(self._too_large[match_id])
        cached = self._cache.get(match_id)
        if cached is not None:
            self._cache.move_to_end(match_id)
            return cached
        pending = self._building.get(match_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._building[match_id] = future
        try:
            text = await record_text()
            if self.gzipped:
                data = await self.run(build_replay_gzip, text, match_id, self.max_replay)
            else:
                data = await self.run(build_replay, text, match_id)
            self.built += 1
            if not self.gzipped and len(data) > self.max_replay:
                raise too_large(len(data), self.max_replay)
            if match_id in self._stale:
                self._stale.discard(match_id)  # built from the old names: served to those who asked, not kept
            else:
                self._keep(match_id, data)
            future.set_result(data)
            return data
        except asyncio.CancelledError:
            future.cancel()
            raise
        except Exception as exc:
            if isinstance(exc, ReplayTooLarge):
                self._too_large[match_id] = str(exc)
            future.set_exception(exc)
            future.exception()  # retrieved: a failure with no other waiter is not reported twice
            raise
        finally:
            self._building.pop(match_id, None)

    def forget(self, match_ids: Collection[str]) -> None:
        """Drop these matches' replays (their names changed: an account deleted); a build under way is not kept."""
        for match_id in match_ids:
            dropped = self._cache.pop(match_id, None)
            if dropped is not None:
                self.size -= len(dropped)
            if match_id in self._building:
                self._stale.add(match_id)

    def forget_all(self) -> None:
        """Drop every replay, and keep none being built (a deletion's word may have been lost)."""
        self.forget([*self._cache, *self._building])

    def _keep(self, match_id: str, data: bytes) -> None:
        if len(data) > self.max_bytes:
            return
        self._cache[match_id] = data
        self.size += len(data)
        while self.size > self.max_bytes:
            _, dropped = self._cache.popitem(last=False)
            self.size -= len(dropped)
