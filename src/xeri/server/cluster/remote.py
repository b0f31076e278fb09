"""A table another process owns, as this process's routes and connections use it: ``RemoteTable`` and ``Replica``.

A replica connection subscribes to the seat's channel on the Redis relay (the
same per-seat texts the owner's own connections get, so nothing another seat
may not see ever reaches it) and forwards what the client asks to the owner.
What forwards is a ``Forwarder`` (the cluster's node, server.cluster.node):
this module knows nothing of leases or of the lobby.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

import msgspec

from ...bots.hint import HintReason
from ...rules import Ruleset
from ...views import iso_time
from ..broker.envelope import Envelope
from ..broker.pubsub import channel
from ..store import SeatRow, TableRow
from ..table.seats import Seat, hash_token
from ..table.state import status_of, takeback_allowed
from ..wire import messages
from ..wire.refusals import ProtocolError
from .rpc import (
    AnyCall,
    AttachCall,
    BindCall,
    Bound,
    Described,
    DetachCall,
    HintCall,
    Hinted,
    JoinCall,
    Joined,
    LeaveCall,
    Left,
    MoveCall,
    ReadyCall,
    RematchCall,
    SyncCall,
    TakebackCall,
    read_sync,
)

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

    async def join(self, name: str, seat: int | None, account: str | None = None) -> tuple[int, str]:
        out = await self.forwarder.call(self.id, JoinCall(name=name, seat=seat, account=account), Joined)
        self._refresh(out.described)
        return out.seat, out.token

    async def leave(self, token: str) -> int:
        out = await self.forwarder.call(self.id, LeaveCall(token=token), Left)
        self._refresh(out.described)
        return out.seat

    async def leave_account(self, account: str) -> int:
        out = await self.forwarder.call(self.id, LeaveCall(token="", account=account), Left)
        self._refresh(out.described)
        return out.seat

    async def bind_account(self, token: str, account: str) -> int | None:
        out = await self.forwarder.call(self.id, BindCall(token=token, account=account), Bound)
        self._refresh(out.described)
        return out.seat

    async def move(self, seat: int | None, card_text: str, version: int) -> None:
        await self.forwarder.call(self.id, MoveCall(seat=seat, card=card_text, version=version), type(None))

    async def ready(self, seat: int | None) -> None:
        await self.forwarder.call(self.id, ReadyCall(seat=seat), type(None))

    async def take_back(self, seat: int | None, version: int) -> None:
        await self.forwarder.call(self.id, TakebackCall(seat=seat, version=version), type(None))

    async def ask_rematch(self, seat: int | None, address: str | None = None) -> None:
        await self.forwarder.call(self.id, RematchCall(seat=seat, address=address), type(None))

    async def hint(self, seat: int | None) -> tuple[str, str]:
        out = await self.forwarder.call(self.id, HintCall(seat=seat), Hinted)
        if out.coded:  # the reason's code and parameters, so the client can say it in its own language
            return out.card, HintReason(out.coded["code"], **out.coded["params"])
        return out.card, out.reason

    async def sync_envelope(self, seat: int | None) -> Envelope:
        return read_sync(await self.forwarder.call(self.id, SyncCall(seat=seat), str))

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


def listed_info(row: TableRow, seats: list[SeatRow], rated: str | None = None) -> messages.Table:
    """A lobby entry built from the database rows alone (a table another process owns).

    What only the owner knows (who is connected, the scores, the version) is as for a table just loaded: the
    lobby shows who sits where; the table's own page asks its owner for the rest.
    """
    ruleset = Ruleset.from_dict(json.loads(row.ruleset))
    places = [Seat.from_row(s) for s in seats]
    return messages.Table(
        id=row.id, title=row.title or "", status=status_of(row.status),
        ruleset=msgspec.convert(ruleset.to_dict(), messages.Ruleset), players=ruleset.players,
        seats=[messages.TableSeat(seat=s.seat, side=ruleset.side_of(s.seat),
                                  name=s.display_name() if s.taken else None,
                                  bot=s.bot_level if not s.human else row.takeover_level if s.left else None,
                                  human=s.human, taken=s.taken, connected=not s.human or s.left,
                                  away=s.human and not s.left and s.name is not None) for s in places],
        free_seats=[s.seat for s in places if not s.taken],
        turn_timer=row.turn_timer, takeover_after=row.takeover_after, takeover_level=row.takeover_level,
        private=bool(row.private), version=0, created_at=iso_time(row.created_at),
        finished_at=iso_time(row.finished_at),
        invite=f"/#/t/{row.id}", scores=[0] * ruleset.sides, winner=None, pause=None, rematch=None, rated=rated,
        takebacks=takeback_allowed(places) and rated is None,
    )
