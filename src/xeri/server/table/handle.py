"""The one interface of a table, as the routes and the sockets use it: held here, or owned by another process.

A ``Table`` (server.table.service) is the authority over a match this process owns; a
``RemoteTable`` (server.cluster.remote) forwards to the process that owns it. Both are
a ``TableHandle``, and mypy checks it: a path that only the cluster takes
cannot reach an attribute that only the local table has.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..broker.envelope import Envelope
from ..wire import messages


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

    async def join(self, name: str, seat: int | None, account: str | None = None) -> tuple[int, str]: ...

    async def leave(self, token: str) -> int: ...

    async def leave_account(self, account: str) -> int:
        """Give up the seat ``account`` plays here (its signed-in session, on a device without the token)."""

    async def bind_account(self, token: str, account: str) -> int | None:
        """Bind the guest seat ``token`` holds, at a table still in play, to ``account`` (a claim); the seat, or
        None if nothing was bound."""

    async def move(self, seat: int | None, card_text: str, version: int) -> None: ...

    async def hint(self, seat: int | None) -> tuple[str, str]: ...

    async def take_back(self, seat: int | None, version: int) -> None:
        """``seat`` takes back its last card and the computer's after it (docs/play.md#takebacks)."""

    async def sync_envelope(self, seat: int | None) -> Envelope: ...

    async def ready(self, seat: int | None) -> None:
        """``seat`` closed the round summary."""

    async def ask_rematch(self, seat: int | None, address: str | None = None) -> None:
        """``seat`` (at ``address``) offers or accepts a rematch; the owner makes the new table once every player
        has, counted against ``address``."""

    async def attach(self, seat: int | None, ch: str, deliver: Callable[[Envelope], None],
                     close: Callable[[], None] | None = None, summary: bool = False) -> None:
        """Count a connection and hand it its sync. ``summary``: it shows each round's summary, and the next
        round waits for its ``ready``. Every count taken is given back by ``detach``, even if this raised."""

    async def detach(self, seat: int | None, ch: str, deliver: Callable[[Envelope], None],
                     close: Callable[[], None] | None = None, summary: bool = False) -> None: ...
