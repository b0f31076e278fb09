"""A table another process owns, as this process's routes and connections use it: ``RemoteTable`` and ``Replica``.

A replica connection subscribes to the seat's channel on the Redis relay (the
same per-seat texts the owner's own connections get, so nothing another seat
may not see ever reaches it) and forwards what the client asks to the owner.
What forwards is a ``Forwarder`` (the cluster's node, server.cluster.node):
this module knows nothing of leases or of the lobby.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from ..broker.envelope import Envelope
from ..broker.pubsub import channel
from ..table.commands import Command, Origin, Outcome
from ..table.seats import hash_token
from ..wire import messages
from ..wire.refusals import ProtocolError
from .rpc import Answer, AnyCall, AttachCall, Described, DetachCall, Forward

log = logging.getLogger("xeri.server")

T = TypeVar("T")


@dataclass(eq=False)
class Replica:
    """One connection on a non-owner: its texts come from Redis; before its first sync they wait."""

    table_id: str
    seat: int | None
    deliver: Callable[[Envelope], None]
    buffered: list[Envelope] | None = field(default_factory=list)
    #: closes the connection with a retryable error (the client reconnects): for when it cannot be resynced
    close: Callable[[], None] | None = None
    #: the connection shows each round's summary (``?summary=1``): the owner's next round waits for it
    summary: bool = False

    def attach_call(self) -> AttachCall:
        """What the owner needs to count this connection."""
        return AttachCall(seat=self.seat, summary=self.summary)

    def detach_call(self) -> DetachCall:
        return DetachCall(seat=self.seat, summary=self.summary)

    @property
    def channel(self) -> str:
        return channel(self.table_id, self.seat)

    def receive(self, envelope: Envelope) -> None:
        if self.buffered is not None:
            self.buffered.append(envelope)
        else:
            self.deliver(envelope)

    def synced(self, sync: Envelope) -> None:
        """Hand over the sync, then what came meanwhile (the connection drops updates the sync includes)."""
        waiting, self.buffered = self.buffered or [], None
        self.deliver(sync)
        for envelope in waiting:
            self.deliver(envelope)


class Forwarder(Protocol):
    """What a remote table asks of this process's part in the cluster."""

    async def call(self, table_id: str, call: AnyCall, into: type[T]) -> T:
        """``call`` served by the table's owner, its result as ``into``."""

    async def attach_replica(self, replica: Replica) -> None: ...

    async def detach_replica(self, replica: Replica) -> None: ...


class RemoteTable:
    """A table owned by another process, as this process's routes and connections use it (a ``TableHandle``).

    Each asks the owner (``Forwarder.call``); a connection is a ``Replica``, counted at the owner, its summary too.
    """

    def __init__(self, forwarder: Forwarder, table_id: str, described: Described) -> None:
        self.forwarder = forwarder
        self.id = table_id
        self.clients = 0
        self.owned = False
        #: this handle's connection, once it attached (one RemoteTable per connection: ``Lobby.get`` makes it)
        self._replica: Replica | None = None
        self._refresh(described)

    def _refresh(self, described: Described) -> None:
        self._info = described.info
        self.status: str = self._info.status
        self.version: int = self._info.version
        self._hashes: list[str | None] = described.hashes
        self._accounts: list[str | None] = described.accounts
        self._fairness = described.fairness

    def info(self) -> messages.Table:
        return self._info

    def fairness_report(self) -> messages.Fairness:
        return self._fairness

    def seat_for_token(self, token: str) -> int | None:
        digest = hash_token(token)
        for seat, stored in enumerate(self._hashes):
            if stored is not None and secrets.compare_digest(stored, digest):
                return seat
        return None

    def seat_account(self, seat: int) -> str | None:
        return self._accounts[seat] if 0 <= seat < len(self._accounts) else None

    def seat_of_account(self, account: str) -> int | None:
        # A seat given up has no token hash any more: it no longer opens to its account (as at the owner).
        return next((s for s, held in enumerate(self._accounts) if held == account and s < len(self._hashes)
                     and self._hashes[s] is not None), None)

    async def handle(self, command: Command, origin: Origin) -> Outcome:
        """Any command, forwarded as it is to the owner, whose ``Table.handle`` serves it; a join, a leave or a claim
        brings the table's seats back with it."""
        answer = await self.forwarder.call(self.id, Forward(command=command, origin=origin), Answer)
        if answer.described is not None:
            self._refresh(answer.described)
        return answer.outcome()

    async def attach(self, seat: int | None, ch: str, deliver: Callable[[Envelope], None],
                     close: Callable[[], None] | None = None, summary: bool = False) -> None:
        """Become a replica connection; if the owner cannot be reached now, the connection is closed with a
        retryable error (the client reconnects) rather than left without its sync."""
        self._replica = Replica(self.id, seat, deliver, close=close, summary=summary)
        try:
            await self.forwarder.attach_replica(self._replica)
        except ProtocolError as exc:
            self._replica = None
            log.warning("a connection of table %s could not attach: %s", self.id, exc.message)
            if close is not None:
                close()  # says "unavailable ... reconnecting" and closes (Client.left for a table not owned here)
            return
        except BaseException:
            self._replica = None  # attach_replica counted nothing that stays: detach has nothing to give back
            raise
        self.clients += 1

    async def detach(self, seat: int | None, ch: str, deliver: Callable[[Envelope], None],
                     close: Callable[[], None] | None = None, summary: bool = False) -> None:
        if self._replica is not None:
            self.clients -= 1
            await self.forwarder.detach_replica(self._replica)
            self._replica = None
