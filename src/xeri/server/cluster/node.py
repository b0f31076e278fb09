"""This process's node in a cluster of ``xeri serve`` processes on one PostgreSQL and one Redis.

Each unfinished table has one owner (``ownership``): the process holding its
lease keeps the authoritative ``Table`` in memory. Any other process serves
the table's connections as a *read replica*: it subscribes to the seat's
channel on the Redis relay (the same per-seat texts the owner's own
connections get, so nothing another seat may not see ever reaches it), and
forwards what the client asks (a move, a join, a sync) to the owner as a
request over Redis (``xeri-rpc:{node}``), with a timeout, routing the reply
back. A table whose connections are all on one other process is handed over
to it (``Cluster.consider``): with a balancer that sends every connection of a
table to one process (deploy/haproxy.cfg hashes the table's path), a table
then lives where its players are, and a move involves no other process. When
an owner dies, the first process to find its lease expired (its periodic look
for orphans, or a client arriving) takes the lease, rebuilds the
table from the database, and says so on ``xeri-ctl``; replicas then
re-register their connections with it and resynchronise.

The node is the lobby's locator (server.lobby.locator) in a cluster: its lease loop,
adoptions and handovers are here, with the owner's side of the requests; the
messages and the asking side are in ``rpc``, the replicas and ``RemoteTable``
in ``remote``, the leases in ``ownership``. Nothing here is used by one process
alone (SQLite, or PostgreSQL without Redis): that keeps working exactly as before.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import msgspec
from msgspec import Raw

from .. import metrics
from ..broker.envelope import Envelope
from ..broker.pubsub import RedisBroker, channel
from ..limits.caps import SharedSockets
from ..lobby.locator import TableHost
from ..store import Store, StoreError
from ..table import Table
from ..table.commands import Origin
from ..table.handle import TableHandle
from ..table.views import listed_info
from ..wire import messages
from ..wire.protocol import Sync
from ..wire.refusals import ProtocolError
from .ownership import LEASE_SECONDS, Ownership
from .remote import RemoteTable, Replica
from .rpc import (
    CONTROL,
    RPC_TIMEOUT,
    Adopted,
    Answer,
    AnyCall,
    AttachCall,
    Describe,
    Described,
    DetachCall,
    Forget,
    Forward,
    Handover,
    NotOwner,
    Refusal,
    Released,
    Reply,
    Request,
    Requests,
    decoded,
    envelope,
    inbox,
    raw,
    read_control,
    read_inbox,
    read_sync,
    retry_later,
)

log = logging.getLogger("xeri.server")

T = TypeVar("T")

#: a table that arrived at a process (handed over or adopted) stays there at least this many leases
#: before it is handed over again: connections that move back and forth cannot bounce it (hysteresis)
HANDOVER_HOLD_LEASES = 2.0


class ClusterRefused(Exception):
    """This process may not start as configured (another mode already serves the database)."""


class Cluster:
    """This process's part in a cluster: leases, forwarding to owners, serving forwarded requests (a ``Locator``)."""

    def __init__(self, store: Store, broker: RedisBroker, lease: float = LEASE_SECONDS,
                 rpc_timeout: float = RPC_TIMEOUT, handover: bool = True) -> None:
        self.store = store
        self.broker = broker
        self.node = broker.node
        self.ownership = Ownership(store, self.node, lease)
        #: this process's requests to other processes, waiting for their replies
        self.requests = Requests(broker, rpc_timeout)
        #: the lobby that holds this process's tables (``start``)
        self.host: TableHost | None = None
        #: the last known owner of each table this process forwards to
        self.owners: dict[str, str] = {}
        #: replica connections per table
        self.replicas: dict[str, set[Replica]] = {}
        #: per channel of a table owned here, how many connections on other processes follow it: only
        #: those channels are relayed to Redis (a table whose connections are all here costs Redis nothing)
        self.watched: Counter[str] = Counter()
        #: per table owned here, how many of its connections each other process holds (``consider``)
        self.remote: dict[str, Counter[str]] = {}
        #: whether tables are handed over to the process that holds all their connections
        self.handover = handover
        #: seconds a table stays after arriving before it may be handed over again
        self.hold = HANDOVER_HOLD_LEASES * lease
        #: when each table arrived here by a handover or an adoption (monotonic time)
        self._arrived: dict[str, float] = {}
        #: tables being handed over now
        self._handing: set[str] = set()
        #: tables handed over by this process and to it, since it started
        self.handed_out = 0
        self.handed_in = 0
        #: adoptions under way, per table
        self._adopting: dict[str, asyncio.Future[Table | None]] = {}
        #: tables claimed for creation (monotonic time), whose rows may not be in memory yet
        self._claimed: dict[str, float] = {}
        self._loop: asyncio.Task[None] | None = None
        #: the lease loop's look for orphans and handovers, when one is under way
        self._looking: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        #: whether the lease loop has reached the database at its last tick (readiness)
        self.healthy = False
        #: the cluster-wide connection counts (server.limits.caps), from ``start``
        self.sockets: SharedSockets | None = None
        #: what drops this process's built copies of finished matches another process says changed (``Forget``)
        self.on_forget: list[Callable[[list[str]], None]] = []
        #: what drops every such copy here when Redis comes back: a ``Forget`` sent meanwhile never arrives
        self.on_forget_all: list[Callable[[], None]] = []
        broker.listen(inbox(self.node), self._on_inbox)
        broker.listen(CONTROL, self._on_control)
        broker.on_resubscribed(self._resync_all)
        broker.relay = self.watched.__contains__

    # --- life ----------------------------------------------------------------

    def _host(self) -> TableHost:
        if self.host is None:
            raise RuntimeError("the cluster's node is not started")
        return self.host

    async def start(self, host: TableHost) -> None:
        self.host = host
        # The per-address and per-seat connection caps hold across the cluster, not once per process.
        self.sockets = SharedSockets(self.broker.url, self.node, host.limits, 3 * self.ownership.lease)
        host.connections.shared = self.sockets
        await self.ownership.renew()
        self.healthy = True
        self._loop = asyncio.create_task(self._tick_loop())

    async def stop(self) -> None:
        """Give every lease up, so another process adopts the tables at once (a clean stop)."""
        if self._loop is not None:
            self._loop.cancel()
            try:
                await self._loop
            except asyncio.CancelledError:
                pass
            self._loop = None
        for task in list(self._tasks):
            task.cancel()
        if self.sockets is not None:
            await self.sockets.close()
        try:
            await self.ownership.release()
            await self.store.leave_cluster(self.node)
            await self.broker.send(CONTROL, envelope(Released(node=self.node)))
        except Exception:  # the database or Redis is away: the leases simply expire
            pass

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _tick_loop(self) -> None:
        started = time.monotonic()
        while True:
            # The lease period, not synchronisation; at a steady pace, however long the last tick took.
            started = max(started + self.ownership.every, time.monotonic())
            await asyncio.sleep(started - time.monotonic())
            try:
                await self.tick()
                self.healthy = True
            except StoreError as exc:
                self.healthy = False
                log.warning("cannot renew table leases: %s", exc, extra={"event": "lease_renewal_failed"})
            except Exception:
                self.healthy = False
                log.exception("lease loop failed")

    async def tick(self) -> None:
        """Renew this process's leases, let go of tables taken over, and adopt orphaned ones."""
        host = self._host()
        asked = time.monotonic()
        owned = await self.ownership.renew()
        now = time.monotonic()
        self._claimed = {t: at for t, at in self._claimed.items() if now - at < 4 * self.ownership.lease}
        for table in list(host.tables.values()):
            # (A table claimed or adopted while the renewal was on its way is not in its answer, yet owned.)
            recent = self._claimed.get(table.id, 0.0) >= asked - self.ownership.lease
            if table.id not in owned and not recent and table.status in ("waiting", "playing"):
                self._demote(table)
        stray = [t for t in owned if t not in self._claimed and t not in host.tables]
        if stray:
            # Owned but not held: finished (and forgotten), or handed over by another process whose message has
            # not been read yet. Those still in play are rebuilt here, the others' leases given up.
            for table_id in await self.store.unfinished_among(stray):
                self._claimed[table_id] = self._arrived[table_id] = now
                self._spawn(self.adopt(table_id))
        finished = [t for t in owned if t not in self._claimed
                    and (t not in host.tables or host.tables[t].status not in ("waiting", "playing"))]
        if finished:
            await self.ownership.release(finished)
        # The rest may take long (many orphans to rebuild at once): beside the renewals, which must keep their pace.
        if self._looking is None or self._looking.done():
            self._looking = asyncio.create_task(self._look_after())
            self._tasks.add(self._looking)
            self._looking.add_done_callback(self._tasks.discard)

    async def _look_after(self) -> None:
        """Adopt the orphaned tables, and hand over those whose connections are all elsewhere."""
        host = self._host()
        if self.sockets is not None:
            try:
                await self.sockets.renew()
            except Exception as exc:  # Redis away: the counts fall back to this process's
                log.warning("cannot renew the shared connection counts: %s", exc)
        try:
            for table_id in await self.ownership.orphans():
                await self.adopt(table_id)
        except (StoreError, OSError) as exc:  # the database or Redis is away: the next tick looks again
            log.warning("cannot look for orphaned tables: %s", str(exc) or type(exc).__name__)
        except Exception:
            log.exception("the look for orphaned tables failed")
        now = time.monotonic()
        self._arrived = {t: at for t, at in self._arrived.items() if now - at < self.hold}
        for table in list(host.tables.values()):
            self.consider(table)  # a connection left, or the hold ran out: its connections may all be elsewhere

    # --- ownership -------------------------------------------------------------

    async def claim(self, table_id: str) -> None:
        """Own a table about to be created here (before its row exists, so nobody can adopt it first)."""
        if not await self.ownership.take(table_id):
            raise retry_later("the new table's id is in use")
        self._claimed[table_id] = time.monotonic()

    async def adopt(self, table_id: str) -> Table | None:
        """Take an orphaned table's lease and rebuild it from the database; None if another process won.

        One adoption per table at a time: the lease loop and a client arriving for the same orphan share it
        (two rebuilt copies would each run the bots, and one would refuse every move as stale).
        """
        host = self._host()
        if table_id in host.tables:
            return host.tables[table_id]
        running = self._adopting.get(table_id)
        if running is None:
            running = asyncio.ensure_future(self._adopt(table_id))
            self._adopting[table_id] = running
            running.add_done_callback(lambda _done: self._adopting.pop(table_id, None))
        return await asyncio.shield(running)

    async def _adopt(self, table_id: str) -> Table | None:
        host = self._host()
        if table_id in host.tables:
            return host.tables[table_id]
        if not await self.ownership.take(table_id):
            return None
        self._claimed[table_id] = self._arrived[table_id] = time.monotonic()
        table = await host.load_owned(table_id)
        if table is None:
            await self.ownership.release([table_id])
            return None
        self.owners.pop(table_id, None)
        log.info("adopted table %s at version %d", table_id, table.version,
                 extra={"event": "table_adopted", "table": table_id})
        metrics.ADOPTIONS.inc()
        if not await self._announce_adoption(table_id):
            # Redis is away: the table is ours all the same (the lease is in the database); say so once it is back.
            self._spawn(self._announce_later(table_id, table))
        self._spawn(self._reattach(table_id))
        return table

    async def _announce_adoption(self, table_id: str, quiet: bool = False) -> bool:
        """Tell the other processes this one owns ``table_id`` now; False (one warning line) if Redis is away."""
        try:
            await self.broker.send(CONTROL, envelope(Adopted(table=table_id, owner=self.node)))
        except OSError as exc:  # ConnectionError and its kin: the relay, not this table, is in trouble
            if not quiet:
                log.warning("cannot announce the adoption of table %s (%s): retrying", table_id,
                            str(exc) or type(exc).__name__)
            return False
        return True

    async def _announce_later(self, table_id: str, table: Table, tries: int = 120) -> None:
        """Retry an adoption's announcement each half lease, while the table is still this process's."""
        host = self._host()
        for _ in range(tries):
            await asyncio.sleep(self.ownership.every)  # a retry period, not synchronisation
            if host.tables.get(table_id) is not table or not table.owned:
                return
            if await self._announce_adoption(table_id, quiet=True):
                log.info("announced the adoption of table %s", table_id,
                         extra={"event": "adoption_announced", "table": table_id})
                return

    def _demote(self, table: Table) -> None:
        """Another process took this table's lease: stop acting for it; its seats reconnect to the new owner."""
        log.warning("lost the lease of table %s at version %d", table.id, table.version,
                    extra={"event": "lease_lost", "table": table.id})
        metrics.LEASES_LOST.inc()
        self._let_go(table)

    def _let_go(self, table: Table) -> None:
        """Stop acting for a table another process owns now, and forget who followed it from elsewhere."""
        host = self._host()
        if host.tables.get(table.id) is table:
            del host.tables[table.id]
        table.disown()
        self.remote.pop(table.id, None)
        for seat in (None, *range(len(table.seats))):
            self.watched.pop(channel(table.id, seat), None)

    # --- handing a table over to where its connections are ------------------------------

    def target(self, table: Table) -> str | None:
        """The process to hand ``table`` to: the one other process that holds every connection of it, if any.

        Only a table in play, owned here, with no connection here, and not arrived less than ``hold`` seconds
        ago (so connections that come and go cannot make it bounce).
        """
        nodes = self.remote.get(table.id)
        if (not self.handover or not nodes or len(nodes) != 1 or not table.owned
                or table.status not in ("waiting", "playing")):
            return None
        ((node, count),) = nodes.items()
        if table.clients > count:  # a connection on this process (its own replicas count as local too)
            return None
        if time.monotonic() - self._arrived.get(table.id, -self.hold) < self.hold:
            return None
        return node

    def consider(self, table: Table) -> None:
        """Hand ``table`` over if all its connections are on one other process (``target``)."""
        to = self.target(table) if table.id not in self._handing else None
        if to is not None:
            self._handing.add(table.id)
            self._spawn(self._hand_over(table, to))

    async def _hand_over(self, table: Table, to: str) -> None:
        """Pass the lease to ``to`` and let the table go; ``to`` rebuilds it from the database, as an adoption does.

        Under the table's lock, so no move is half applied: every move stored so far is in the database, and the
        moves' primary key keeps a late one from being applied twice. A forwarded request that finds the table
        gone is answered ``not_owner``, and its process asks the new owner. If ``to`` never takes the table (it
        died), the lease it got expires and the table is adopted as any orphan.
        """
        try:
            async with table.lock:
                if self.target(table) != to:  # a connection came or went meanwhile
                    return
                if not await self.store.hand_lease(table.id, self.node, to, self.ownership.lease):
                    return
                self._let_go(table)
            self.handed_out += 1
            log.info("handed table %s over to %s at version %d", table.id, to, table.version,
                     extra={"event": "table_handed_over", "table": table.id, "to": to})
            self.broker.post(inbox(to), envelope(Handover(table=table.id, sender=self.node)))
        except StoreError as exc:
            log.warning("cannot hand table %s over: %s", table.id, exc,
                        extra={"event": "handover_failed", "table": table.id})
        finally:
            self._handing.discard(table.id)

    async def open(self, table_id: str) -> TableHandle | None:
        """A table this process does not hold: adopt it if nobody owns it, else a proxy to its owner."""
        host = self._host()
        found = await self.store.record_text(table_id)
        if found is None:
            return None
        if found[0] not in ("waiting", "playing"):
            return await host.load(table_id)  # finished tables never change: any process shows them
        owner = await self.ownership.owner(table_id)
        if owner is None or owner == self.node:
            table = await self.adopt(table_id)
            if table is not None:
                return table
            owner = await self.ownership.owner(table_id)
            if owner is None:
                raise retry_later("the table is changing servers")
        self.owners[table_id] = owner
        try:
            described = await self.call(table_id, Describe(), Described)
        except NotOwner:
            raise retry_later("the table's server is not answering") from None
        held = host.tables.get(table_id)
        if held is not None and held.owned:  # it was handed over to this process meanwhile
            return held
        return RemoteTable(self, table_id, described)

    # --- requests to the owner ---------------------------------------------------


    # --- requests to the owner ---------------------------------------------------

    async def call(self, table_id: str, call: AnyCall, into: type[T]) -> T:
        """Run ``call`` on the table's owner (this process, or another over Redis); its result as ``into``.

        Raises the owner's ``ProtocolError`` as if raised here, and an ``unavailable`` one (retryable)
        when no owner answers.
        """
        host = self._host()
        for _attempt in range(3):
            table = host.tables.get(table_id)
            if table is not None and table.owned:
                result = await self.apply(table, call, self.node)
                return result if isinstance(result, into) else msgspec.convert(result, into)
            owner = self.owners.get(table_id) or await self.ownership.owner(table_id)
            if owner is None or owner == self.node:
                if await self.adopt(table_id) is None and await self.ownership.owner(table_id) is None:
                    raise retry_later("the table is changing servers")
                continue
            self.owners[table_id] = owner
            try:
                return decoded(await self.requests.ask(owner, table_id, call), into)
            except NotOwner:
                self.owners.pop(table_id, None)
                if await self.ownership.owner(table_id) == owner:
                    raise retry_later("the table's server is not answering") from None
        raise retry_later("the table is changing servers")

    def _on_inbox(self, received: Envelope) -> None:
        message = read_inbox(received)
        if isinstance(message, Request):
            self._spawn(self._serve(message))
        elif isinstance(message, Handover):  # another process passed this one a table's lease: rebuild it here
            log.info("table %s handed over to this process by %s", message.table, message.sender,
                     extra={"event": "table_handed_in", "table": message.table})
            self._claimed[message.table] = self._arrived[message.table] = time.monotonic()
            self.handed_in += 1
            self._spawn(self.adopt(message.table))
        elif isinstance(message, Reply):
            self.requests.answered(message)

    async def _serve(self, request: Request) -> None:
        """Answer another process's request for a table this process owns (or say it does not own it)."""
        not_owner = Refusal("not_owner", "this process does not own the table")
        host = self.host
        table_id = request.table
        table = host.tables.get(table_id) if host is not None else None
        if table is None and (table_id in self._adopting or table_id in self._claimed):
            table = await self.adopt(table_id)  # handed over or adopted just now: answer once it is rebuilt
        if table is None or not table.owned:
            reply = Reply(id=request.id, error=not_owner)
        else:
            try:
                reply = Reply(id=request.id, ok=raw(await self.apply(table, request.call, request.sender)))
            except ProtocolError as exc:
                # handed over while the request waited: the requester asks the new owner
                refusal = Refusal(exc.code, exc.message, exc.extra) if table.owned else not_owner
                reply = Reply(id=request.id, error=refusal)
            except Exception as exc:
                log.exception("forwarded %s on table %s failed", type(request.call).__name__, table_id)
                reply = Reply(id=request.id, error=Refusal("unavailable", f"the owner failed: {type(exc).__name__}"))
        # Not waited for: if Redis loses it, the requester times out and retries.
        self.broker.post(inbox(request.sender), envelope(reply))

    async def apply(self, table: Table, call: AnyCall, node: str) -> Any:
        """Serve a forwarded request on an owned table (the owner's side of ``call``), from process ``node``.

        Every table action is a ``Forward``, served by the table itself; the rest keep the cluster's own counts."""
        match call:
            case Forward(command=command, origin=origin):
                outcome = await table.handle(command, origin)
                return Answer.of(outcome, describe(table) if outcome.reseated else None)
            case Describe():
                return describe(table)
            case AttachCall(seat=seat, summary=summary):
                remote = node != self.node  # a connection on another process: relay its channel to Redis from now on
                if remote:
                    self.watch(table.id, seat, +1, node)
                try:
                    sync = (await table.attach_remote(seat, summary)).carried()
                except BaseException:
                    if remote:
                        self.watch(table.id, seat, -1, node)
                    raise
                if remote:
                    self.consider(table)  # all its connections may be on that process now
                return sync
            case DetachCall(seat=seat, summary=summary):
                await table.detach_remote(seat, summary)
                if node != self.node:
                    self.watch(table.id, seat, -1, node)
                    self.consider(table)
                return None
        raise ProtocolError("bad_request", f"unknown forwarded request {type(call).__name__}")

    # --- replicas --------------------------------------------------------------

    def watch(self, table_id: str, seat: int | None, change: int, node: str) -> None:
        """Count a connection on process ``node`` following one of this process's tables' channels."""
        ch = channel(table_id, seat)
        count = self.watched[ch] + change
        if count > 0:
            self.watched[ch] = count
        else:
            self.watched.pop(ch, None)
        nodes = self.remote.setdefault(table_id, Counter())
        held = nodes[node] + change
        if held > 0:
            nodes[node] = held
        else:
            nodes.pop(node, None)
            if not nodes:
                del self.remote[table_id]

    async def attach_replica(self, replica: Replica) -> None:
        """Follow a replica connection's channel on Redis, register it with the owner, and hand it the owner's sync."""
        try:
            await self.broker.follow(replica.channel, replica.receive)
        except Exception:
            raise retry_later("the message relay (Redis) is unavailable") from None
        self.replicas.setdefault(replica.table_id, set()).add(replica)
        try:
            sync = await self._attached(replica)
        except BaseException:
            self.detach_local(replica)
            raise
        replica.synced(sync)

    def detach_local(self, replica: Replica) -> None:
        self.broker.unfollow(replica.channel, replica.receive)
        group = self.replicas.get(replica.table_id)
        if group is not None:
            group.discard(replica)
            if not group:
                del self.replicas[replica.table_id]

    async def detach_replica(self, replica: Replica) -> None:
        self.detach_local(replica)
        try:
            await self.call(replica.table_id, replica.detach_call(), type(None))
        except (ProtocolError, NotOwner):
            pass  # the owner is changing: the new one never counted this connection

    async def _attached(self, replica: Replica) -> Envelope:
        """Register ``replica`` with the table's owner (wherever it is now): its sync."""
        return read_sync(await self.call(replica.table_id, replica.attach_call(), Raw))

    async def _synced(self, replica: Replica) -> Envelope:
        """The owner's sync for ``replica``'s seat (the connection missed what Redis lost)."""
        answer = await self.call(replica.table_id, Forward(command=Sync(), origin=Origin(seat=replica.seat)), Answer)
        sync = answer.outcome().reply
        if sync is None:
            raise retry_later("the table's server answered a sync with nothing")
        return sync

    async def _reattach(self, table_id: str) -> None:
        """A table's owner changed: register this process's replica connections with it, each resynced."""
        await self._each_replica(table_id, self._attached)

    async def _resync(self, table_id: str) -> None:
        await self._each_replica(table_id, self._synced)

    async def _each_replica(self, table_id: str, sync: Callable[[Replica], Awaitable[Envelope]],
                            patience: float = 30.0) -> None:
        """Send each replica of a table the owner's sync for it (``sync``), retrying while the owner cannot be
        reached yet (Redis or the owner coming back), for ``patience`` seconds."""
        pending = set(self.replicas.get(table_id, ()))
        pause, deadline = 0.05, time.monotonic() + patience
        while pending:
            for replica in list(pending):
                if replica not in self.replicas.get(table_id, ()):
                    pending.discard(replica)  # the connection ended meanwhile
                    continue
                try:
                    replica.deliver(await sync(replica))
                    pending.discard(replica)
                except (ProtocolError, NotOwner) as exc:
                    if time.monotonic() > deadline:
                        # A connection left without updates would wait for ever: close those left, so
                        # their clients reconnect (to whichever process serves the table by then).
                        log.warning("cannot resync %d connection(s) of table %s: %s", len(pending), table_id, exc)
                        for stale in pending:
                            self.detach_local(stale)
                            if stale.close is not None:
                                stale.close()
                        return
            if pending:
                await asyncio.sleep(pause)  # a retry pause while the owner is unreachable, not synchronisation
                pause = min(pause * 2, 1.0)

    def _resync_all(self) -> None:
        """Redis came back: what it relayed meanwhile is lost, so every replica connection resyncs, and every
        finished match built here is dropped (a deletion's ``Forget`` may be among what was lost)."""
        for table_id in list(self.replicas):
            self._spawn(self._resync(table_id))
        for forget_all in self.on_forget_all:
            forget_all()

    def _on_control(self, received: Envelope) -> None:
        message = read_control(received)
        if isinstance(message, Adopted):
            self.owners[message.table] = message.owner
            if message.table in self.replicas:
                self._spawn(self._reattach(message.table))
        elif isinstance(message, Released):
            for table_id, owner in list(self.owners.items()):
                if owner == message.node:
                    del self.owners[table_id]
        elif isinstance(message, Forget):
            for forget in self.on_forget:
                forget(message.tables)

    async def forget(self, table_ids: list[str]) -> None:
        """Tell every other process to drop what it built of these finished matches (server.matches.forget)."""
        await self.broker.send(CONTROL, envelope(Forget(tables=table_ids)))

    # --- the lobby -----------------------------------------------------------------

    async def listed(self, statuses: tuple[str, ...], limit: int = 200) -> list[messages.Table]:
        """The public unfinished tables as every process sees them: from the database."""
        host = self._host()
        out = []
        for row, seats, rated in await self.store.listed_tables(list(statuses), limit):
            held = host.tables.get(row.id)
            out.append(held.info() if held is not None else listed_info(row, seats, rated))
        return out


def describe(table: Table) -> Described:
    return Described(info=table.info(), hashes=[s.token_hash for s in table.seats], fairness=table.fairness_report(),
                     accounts=[s.account for s in table.seats])


def make_cluster(store: Store, broker: Any, lease: float | None) -> Cluster | None:
    """A cluster part for a process on PostgreSQL with a Redis relay; None for one process alone."""
    if store.is_sqlite or not isinstance(broker, RedisBroker):
        return None
    return Cluster(store, broker, lease or LEASE_SECONDS)


async def refuse_mixed_modes(store: Store, cluster: Cluster | None) -> None:
    """A process without Redis on a PostgreSQL that a cluster serves would own tables beside it: refuse."""
    if cluster is not None or store.is_sqlite:
        return
    nodes = await store.live_nodes()
    if nodes:
        raise ClusterRefused(f"{len(nodes)} other xeri serve process(es) use this database as a cluster, with "
                             "Redis: start this one with --redis URL too (docs/scaling.md)")
