"""The one interface of a table, as the routes and the sockets use it: held here, or owned by another process.

A ``Table`` (server.table.service) is the authority over a match this process owns; a
``RemoteTable`` (server.cluster.remote) forwards to the process that owns it. Both are
a ``TableHandle``, and mypy checks it: a path that only the cluster takes
cannot reach an attribute that only the local table has. Every action on a
table is one ``Command`` (server.table.commands) given to ``handle``: the local
table serves it, the remote one forwards it as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..broker.envelope import Envelope
from ..wire import messages
from .commands import Command, Origin, Outcome


class TableHandle(Protocol):
    """What a route or a connection may ask of a table, wherever it is owned."""

    @property
    def id(self) -> str: ...

    @property
    def status(self) -> str: ...

    @property
    def version(self) -> int: ...

    @property
    def clients(self) -> int:
        """This process's connections to the table (a finished table nobody watches is forgotten)."""

    @property
    def owned(self) -> bool:
        """Whether this process applies the table's changes itself."""

    def info(self) -> messages.Table:
        """The protocol's TABLE object."""

    def fairness_report(self) -> messages.Fairness: ...

    def seat_for_token(self, token: str) -> int | None: ...

    def seat_account(self, seat: int) -> str | None:
        """The account holding ``seat`` (server.accounts.service), None for a guest's, a bot's or a free seat."""

    def seat_of_account(self, account: str) -> int | None:
        """The seat ``account`` plays here (bound to it, not given up), which its session opens without a token."""

    async def handle(self, command: Command, origin: Origin) -> Outcome:
        """Serve one table action from ``origin`` (a move, a sync, a join...); its refusal is a ``ProtocolError``."""

    async def attach(self, seat: int | None, ch: str, deliver: Callable[[Envelope], None],
                     close: Callable[[], None] | None = None, summary: bool = False) -> None:
        """Count a connection and hand it its sync. ``summary``: it shows each round's summary, and the next
        round waits for its ``ready``. Every count taken is given back by ``detach``, even if this raised."""

    async def detach(self, seat: int | None, ch: str, deliver: Callable[[Envelope], None],
                     close: Callable[[], None] | None = None, summary: bool = False) -> None: ...
