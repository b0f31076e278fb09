"""Where a table is: what the lobby asks for a table it does not hold, for its list, and for a new table's id.

The lobby holds this process's tables (``TableHost``); its ``Locator`` knows
where the rest are. A process alone holds every table it serves
(``LocalLocator``: it loads them from the database). In a cluster the locator
is this process's node (server.cluster.node): it adopts orphaned tables, and
hands back a ``RemoteTable`` for one another process owns. The lobby asks the
same questions either way, and imports neither.
"""

from __future__ import annotations

from typing import Protocol

from ..limits.caps import Connections, Limits
from ..store import Store
from ..table import Table
from ..table.handle import TableHandle
from ..wire import messages


class TableHost(Protocol):
    """What a locator may ask of the lobby that holds this process's tables."""

    #: the unfinished tables this process holds (and owns, in a cluster), by id
    tables: dict[str, Table]
    limits: Limits
    #: where connections are counted (a cluster counts them in Redis, server.limits.caps)
    connections: Connections

    async def load_owned(self, table_id: str) -> Table | None:
        """Load an unfinished table this process now owns, and let its bots and timers go on."""

    async def load(self, table_id: str) -> Table | None:
        """Load a table from the database (a finished one is read-only, so any process may)."""

    def listed_here(self, statuses: tuple[str, ...]) -> list[messages.Table]:
        """The public tables this process holds in ``statuses``, as the lobby lists them."""


class Locator(Protocol):
    """Where the tables this process does not hold are, and what the lobby lists."""

    async def start(self, host: TableHost) -> None:
        """Load (or adopt) the tables this process serves from now on."""

    async def stop(self) -> None: ...

    async def claim(self, table_id: str) -> None:
        """Reserve a new table's id before its row is written (so nobody else can take it first)."""

    async def open(self, table_id: str) -> TableHandle | None:
        """A table the host does not hold, or None if there is no such table."""

    async def listed(self, statuses: tuple[str, ...], limit: int = 200) -> list[messages.Table]:
        """The lobby's list of public tables in ``statuses``, newest first."""


class LocalLocator:
    """One process alone: every unfinished table is held here, and the rest are loaded from the database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.host: TableHost | None = None

    def _host(self) -> TableHost:
        if self.host is None:
            raise RuntimeError("the locator is not started")
        return self.host

    async def start(self, host: TableHost) -> None:
        self.host = host
        for table_id in await self.store.unfinished_ids():
            await host.load_owned(table_id)

    async def stop(self) -> None:
        """Nothing to give up: the tables stay this process's until it stops."""

    async def claim(self, table_id: str) -> None:
        """Nothing to reserve: a new id is random, and nobody else serves this database."""

    async def open(self, table_id: str) -> TableHandle | None:
        return await self._host().load(table_id)

    async def listed(self, statuses: tuple[str, ...], limit: int = 200) -> list[messages.Table]:
        return self._host().listed_here(statuses)[:limit]
