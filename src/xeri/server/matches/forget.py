"""Finished matches whose stored names changed (an account deleted): every copy built of them is dropped.

A finished match never changes, so each process keeps what it built of one: the table (``/api/tables/{id}``), its
replay (gzipped) and its reviews. Deleting an account rewrites its name in the database, so those copies would
show the old name until a restart. The process that deletes drops its own at once and, in a cluster, tells the
others on the control channel (server.cluster.rpc ``Forget``), which drop theirs. Redis keeps no message for a
process whose subscription was down: when it comes back, that process drops every copy it built (they are built
again on demand), since a ``Forget`` may have been lost meanwhile.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..cluster.node import Cluster

log = logging.getLogger("xeri.server")


class Forgets(Protocol):
    """A cache of finished matches by id."""

    def forget(self, match_ids: Collection[str]) -> None: ...

    def forget_all(self) -> None: ...


class Forgetter:
    """Drops the finished matches' copies in ``caches`` here, and asks ``cluster``'s other processes to."""

    def __init__(self, caches: Sequence[Forgets], cluster: Cluster | None = None) -> None:
        self.caches = list(caches)
        self.cluster = cluster
        if cluster is not None:
            cluster.on_forget.append(self.here)
            cluster.on_forget_all.append(self.all_here)

    def here(self, match_ids: Collection[str]) -> None:
        for cache in self.caches:
            cache.forget(match_ids)

    def all_here(self) -> None:
        """Every copy here: the cluster's word of a deletion may have been lost (Redis was away)."""
        for cache in self.caches:
            cache.forget_all()

    async def everywhere(self, match_ids: Collection[str]) -> None:
        """This process's copies now; the other processes' as soon as Redis carries the word."""
        ids = sorted(set(match_ids))
        if not ids:
            return
        self.here(ids)
        if self.cluster is not None:
            try:
                await self.cluster.forget(ids)
            except (TimeoutError, ConnectionError, OSError) as exc:
                log.warning("could not tell the other processes to drop %d renamed match(es): %s", len(ids), exc)
