"""Several ``xeri serve`` processes on one PostgreSQL and one Redis: forwarding and read replicas.

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

Nothing here is used by one process alone (SQLite, or PostgreSQL without
Redis): that keeps working exactly as before.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import msgspec

from ..rules import Ruleset
from .envelope import Envelope, EnvelopeError
from .errors import ProtocolError
from .limits import SharedSockets
from .ownership import LEASE_SECONDS, Ownership
from .pubsub import RedisBroker
from .seats import Seat, hash_token
from .store import SeatRow, Store, StoreError, TableRow
from .wire import channel, iso

if TYPE_CHECKING:
    from .lobby import Lobby
    from .table import Table

log = logging.getLogger("xeri.server")

#: seconds a forwarded request waits for the owner's reply
RPC_TIMEOUT = 5.0
#: a table that arrived at a process (handed over or adopted) stays there at least this many leases
#: before it is handed over again: connections that move back and forth cannot bounce it (hysteresis)
HANDOVER_HOLD_LEASES = 2.0
CONTROL = "xeri-ctl"


def inbox(node: str) -> str:
    return f"xeri-rpc:{node}"


def retry_later(detail: str) -> ProtocolError:
    """The refusal while a table changes owner: nothing changed, and the same request will work soon."""
    return ProtocolError("unavailable", f"{detail}; nothing changed, try again in a few seconds", retry=True)


class NotOwner(Exception):
    """The process asked does not own the table (any more), or is gone."""


class ClusterRefused(Exception):
    """This process may not start as configured (another mode already serves the database)."""


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

    @property
    def args(self) -> dict[str, Any]:
        """What the owner needs to count this connection (``attach`` and ``detach``)."""
        return {"seat": self.seat, "summary": self.summary}

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


class Cluster:
    """This process's part in a cluster: leases, forwarding to owners, serving forwarded requests."""

    def __init__(self, store: Store, broker: RedisBroker, lease: float = LEASE_SECONDS,
                 rpc_timeout: float = RPC_TIMEOUT, handover: bool = True) -> None:
        self.store = store
        self.broker = broker
        self.node = broker.node
        self.ownership = Ownership(store, self.node, lease)
        self.rpc_timeout = rpc_timeout
        self.lobby: Lobby | None = None
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
        self._pending: dict[str, asyncio.Future[Any]] = {}
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
        #: the cluster-wide connection counts (server.limits), from ``start``
        self.sockets: SharedSockets | None = None
        broker.listen(inbox(self.node), self._on_inbox)
        broker.listen(CONTROL, self._on_control)
        broker.on_resubscribed(self._resync_all)
        broker.relay = self.watched.__contains__

    # --- life ----------------------------------------------------------------

    async def start(self, lobby: Lobby) -> None:
        self.lobby = lobby
        # The per-address and per-seat connection caps hold across the cluster, not once per process.
        self.sockets = SharedSockets(self.broker.url, self.node, lobby.limits, 3 * self.ownership.lease)
        lobby.connections.shared = self.sockets
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
            await self.broker.send(CONTROL, Envelope.message({"released": self.node}))
        except Exception:  # the database or Redis is away: the leases simply expire
            pass

    def _spawn(self, coro: Any) -> None:
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
                log.warning("cannot renew table leases: %s", exc)
            except Exception:
                self.healthy = False
                log.exception("lease loop failed")

    async def tick(self) -> None:
        """Renew this process's leases, let go of tables taken over, and adopt orphaned ones."""
        lobby = self.lobby
        assert lobby is not None
        asked = time.monotonic()
        owned = await self.ownership.renew()
        now = time.monotonic()
        self._claimed = {t: at for t, at in self._claimed.items() if now - at < 4 * self.ownership.lease}
        for table in list(lobby.tables.values()):
            # (A table claimed or adopted while the renewal was on its way is not in its answer, yet owned.)
            recent = self._claimed.get(table.id, 0.0) >= asked - self.ownership.lease
            if table.id not in owned and not recent and table.status in ("waiting", "playing"):
                self._demote(table)
        stray = [t for t in owned if t not in self._claimed and t not in lobby.tables]
        if stray:
            # Owned but not held: finished (and forgotten), or handed over by another process whose message has
            # not been read yet. Those still in play are rebuilt here, the others' leases given up.
            for table_id in await self.store.unfinished_among(stray):
                self._claimed[table_id] = self._arrived[table_id] = now
                self._spawn(self.adopt(table_id))
        finished = [t for t in owned if t not in self._claimed
                    and (t not in lobby.tables or lobby.tables[t].status not in ("waiting", "playing"))]
        if finished:
            await self.ownership.release(finished)
        # The rest may take long (many orphans to rebuild at once): beside the renewals, which must keep their pace.
        if self._looking is None or self._looking.done():
            self._looking = asyncio.create_task(self._look_after())
            self._tasks.add(self._looking)
            self._looking.add_done_callback(self._tasks.discard)

    async def _look_after(self) -> None:
        """Adopt the orphaned tables, and hand over those whose connections are all elsewhere."""
        lobby = self.lobby
        assert lobby is not None
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
        for table in list(lobby.tables.values()):
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
        lobby = self.lobby
        assert lobby is not None
        if table_id in lobby.tables:
            return lobby.tables[table_id]
        running = self._adopting.get(table_id)
        if running is None:
            running = asyncio.ensure_future(self._adopt(table_id))
            self._adopting[table_id] = running
            running.add_done_callback(lambda _done: self._adopting.pop(table_id, None))
        return await asyncio.shield(running)

    async def _adopt(self, table_id: str) -> Table | None:
        lobby = self.lobby
        assert lobby is not None
        if table_id in lobby.tables:
            return lobby.tables[table_id]
        if not await self.ownership.take(table_id):
            return None
        self._claimed[table_id] = self._arrived[table_id] = time.monotonic()
        table = await lobby.load_owned(table_id)
        if table is None:
            await self.ownership.release([table_id])
            return None
        self.owners.pop(table_id, None)
        log.info("adopted table %s at version %d", table_id, table.version)
        if not await self._announce_adoption(table_id):
            # Redis is away: the table is ours all the same (the lease is in the database); say so once it is back.
            self._spawn(self._announce_later(table_id, table))
        self._spawn(self._reattach(table_id))
        return table

    async def _announce_adoption(self, table_id: str, quiet: bool = False) -> bool:
        """Tell the other processes this one owns ``table_id`` now; False (one warning line) if Redis is away."""
        try:
            await self.broker.send(CONTROL, Envelope.message({"adopted": table_id, "owner": self.node}))
        except OSError as exc:  # ConnectionError and its kin: the relay, not this table, is in trouble
            if not quiet:
                log.warning("cannot announce the adoption of table %s (%s): retrying", table_id,
                            str(exc) or type(exc).__name__)
            return False
        return True

    async def _announce_later(self, table_id: str, table: Table, tries: int = 120) -> None:
        """Retry an adoption's announcement each half lease, while the table is still this process's."""
        lobby = self.lobby
        assert lobby is not None
        for _ in range(tries):
            await asyncio.sleep(self.ownership.every)  # a retry period, not synchronisation
            if lobby.tables.get(table_id) is not table or not getattr(table, "owned", True):
                return
            if await self._announce_adoption(table_id, quiet=True):
                log.info("announced the adoption of table %s", table_id)
                return

    def _demote(self, table: Table) -> None:
        """Another process took this table's lease: stop acting for it; its seats reconnect to the new owner."""
        log.warning("lost the lease of table %s at version %d", table.id, table.version)
        self._let_go(table)

    def _let_go(self, table: Table) -> None:
        """Stop acting for a table another process owns now, and forget who followed it from elsewhere."""
        lobby = self.lobby
        assert lobby is not None
        if lobby.tables.get(table.id) is table:
            del lobby.tables[table.id]
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
            log.info("handed table %s over to %s at version %d", table.id, to, table.version)
            self.broker.post(inbox(to), Envelope.message({"handover": table.id, "from": self.node}))
        except StoreError as exc:
            log.warning("cannot hand table %s over: %s", table.id, exc)
        finally:
            self._handing.discard(table.id)

    async def open(self, table_id: str) -> Table | RemoteTable | None:
        """A table this process does not hold: adopt it if nobody owns it, else a proxy to its owner."""
        lobby = self.lobby
        assert lobby is not None
        found = await self.store.record_text(table_id)
        if found is None:
            return None
        if found[0] not in ("waiting", "playing"):
            return await lobby.load_finished(table_id)  # finished tables never change: any process shows them
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
            described = await self.call(table_id, "describe", {})
        except NotOwner:
            raise retry_later("the table's server is not answering") from None
        if described is None:
            return None
        held = lobby.tables.get(table_id)
        if held is not None and held.owned:  # it was handed over to this process meanwhile
            return held
        return RemoteTable(self, table_id, described)

    # --- requests to the owner ---------------------------------------------------

    async def call(self, table_id: str, op: str, args: dict[str, Any]) -> Any:
        """Run ``op`` on the table's owner (this process, or another over Redis) and return its result.

        Raises the owner's ``ProtocolError`` as if raised here, and an ``unavailable`` one (retryable)
        when no owner answers.
        """
        lobby = self.lobby
        assert lobby is not None
        for _attempt in range(3):
            table = lobby.tables.get(table_id)
            if table is not None and table.owned:
                return await serve_op(self, table, op, args, self.node)
            owner = self.owners.get(table_id) or await self.ownership.owner(table_id)
            if owner is None or owner == self.node:
                if await self.adopt(table_id) is None and await self.ownership.owner(table_id) is None:
                    raise retry_later("the table is changing servers")
                continue
            self.owners[table_id] = owner
            try:
                return await self._request(owner, table_id, op, args)
            except NotOwner:
                self.owners.pop(table_id, None)
                if await self.ownership.owner(table_id) == owner:
                    raise retry_later("the table's server is not answering") from None
        raise retry_later("the table is changing servers")

    async def _request(self, owner: str, table_id: str, op: str, args: dict[str, Any]) -> Any:
        rid = secrets.token_hex(8)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[rid] = future
        try:
            request = Envelope.message({"id": rid, "from": self.node, "op": op, "table": table_id, "args": args})
            try:
                received = await self.broker.send(inbox(owner), request)
            except Exception:
                raise retry_later("the message relay (Redis) is unavailable") from None
            if received == 0:
                raise NotOwner(owner)
            try:
                reply = await asyncio.wait_for(future, self.rpc_timeout)
            except TimeoutError:
                raise retry_later("the table's server did not answer in time") from None
        finally:
            self._pending.pop(rid, None)
        error = reply.get("error")
        if error is not None:
            if error["code"] == "not_owner":
                raise NotOwner(owner)
            raise ProtocolError(error["code"], error["message"], **error.get("extra", {}))
        return reply.get("ok")

    def _on_inbox(self, envelope: Envelope) -> None:
        message = _read(envelope)
        if "op" in message:
            self._spawn(self._serve(message))
            return
        handed = message.get("handover")
        if handed is not None:  # another process passed this one a table's lease: rebuild the table here
            log.info("table %s handed over to this process by %s", handed, message.get("from"))
            self._claimed[handed] = self._arrived[handed] = time.monotonic()
            self.handed_in += 1
            self._spawn(self.adopt(handed))
            return
        future = self._pending.get(message.get("id", ""))
        if future is not None and not future.done():
            future.set_result(message)

    async def _serve(self, message: dict[str, Any]) -> None:
        lobby = self.lobby
        reply: dict[str, Any] = {"id": message["id"]}
        table_id = message["table"]
        table = lobby.tables.get(table_id) if lobby is not None else None
        if table is None and (table_id in self._adopting or table_id in self._claimed):
            table = await self.adopt(table_id)  # handed over or adopted just now: answer once it is rebuilt
        if table is None or not table.owned:
            reply["error"] = {"code": "not_owner", "message": "this process does not own the table"}
        else:
            try:
                reply["ok"] = await serve_op(self, table, message["op"], message["args"], message["from"])
            except ProtocolError as exc:
                if table.owned:
                    reply["error"] = {"code": exc.code, "message": exc.message, "extra": exc.extra}
                else:  # handed over while the request waited: the requester asks the new owner
                    reply["error"] = {"code": "not_owner", "message": "this process does not own the table"}
            except Exception as exc:
                log.exception("forwarded %s on table %s failed", message["op"], message["table"])
                reply["error"] = {"code": "unavailable", "message": f"the owner failed: {type(exc).__name__}"}
        # Not waited for: if Redis loses it, the requester times out and retries.
        self.broker.post(inbox(message["from"]), Envelope.message(reply))

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
            sync = _envelope(await self.call(replica.table_id, "attach", replica.args))
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
            await self.call(replica.table_id, "detach", replica.args)
        except (ProtocolError, NotOwner):
            pass  # the owner is changing: the new one never counted this connection

    async def _reattach(self, table_id: str) -> None:
        """A table's owner changed: register this process's replica connections with it, each resynced."""
        await self._each_replica(table_id, "attach")

    async def _resync(self, table_id: str) -> None:
        await self._each_replica(table_id, "sync")

    async def _each_replica(self, table_id: str, op: str, patience: float = 30.0) -> None:
        """Send each replica of a table the owner's answer to ``op`` (its sync), retrying while the owner
        cannot be reached yet (Redis or the owner coming back), for ``patience`` seconds."""
        pending = set(self.replicas.get(table_id, ()))
        pause, deadline = 0.05, time.monotonic() + patience
        while pending:
            for replica in list(pending):
                if replica not in self.replicas.get(table_id, ()):
                    pending.discard(replica)  # the connection ended meanwhile
                    continue
                try:
                    replica.deliver(_envelope(await self.call(table_id, op, replica.args)))
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
        """Redis came back: what it relayed meanwhile is lost, so every replica connection resyncs."""
        for table_id in list(self.replicas):
            self._spawn(self._resync(table_id))

    def _on_control(self, envelope: Envelope) -> None:
        message = _read(envelope)
        adopted = message.get("adopted")
        if adopted is not None:
            self.owners[adopted] = message["owner"]
            if adopted in self.replicas:
                self._spawn(self._reattach(adopted))
        released = message.get("released")
        if released is not None:
            for table_id, owner in list(self.owners.items()):
                if owner == released:
                    del self.owners[table_id]

    # --- the lobby -----------------------------------------------------------------

    async def listed(self, statuses: tuple[str, ...], limit: int = 200) -> list[dict[str, Any]]:
        """The public unfinished tables as every process sees them: from the database."""
        lobby = self.lobby
        assert lobby is not None
        out = []
        for row, seats in await self.store.listed_tables(statuses, limit):
            held = lobby.tables.get(row.id)
            out.append(held.info() if held is not None else listed_info(row, seats))
        return out


def _read(envelope: Envelope) -> Any:
    """A request, reply or announcement between processes (JSON that a process of this cluster wrote)."""
    return _DECODE(envelope.body)


_DECODE = msgspec.json.Decoder().decode


def _envelope(answer: Any) -> Envelope:
    """A sync the owner returned (encoded, server.envelope); a malformed one is the owner's failure."""
    try:
        return Envelope.decode(answer)
    except EnvelopeError:
        raise retry_later("the table's server answered with a malformed sync") from None


def listed_info(row: TableRow, seats: list[SeatRow]) -> dict[str, Any]:
    """A lobby entry built from the database rows alone (a table another process owns).

    What only the owner knows (who is connected, the scores, the version) is as for a table just loaded: the
    lobby shows who sits where; the table's own page asks its owner for the rest.
    """
    ruleset = Ruleset.from_dict(json.loads(row.ruleset))
    places = [Seat.from_row(s) for s in seats]
    return {
        "id": row.id, "title": row.title or "", "status": row.status, "ruleset": ruleset.to_dict(),
        "players": ruleset.players,
        "seats": [{"seat": s.seat, "side": ruleset.side_of(s.seat), "name": s.display_name() if s.taken else None,
                   "bot": s.bot_level if not s.human else row.takeover_level if s.left else None,
                   "human": s.human, "taken": s.taken, "connected": not s.human or s.left,
                   "away": s.human and not s.left and s.name is not None} for s in places],
        "free_seats": [s.seat for s in places if not s.taken],
        "turn_timer": row.turn_timer, "takeover_after": row.takeover_after, "takeover_level": row.takeover_level,
        "private": bool(row.private), "version": 0, "created_at": iso(row.created_at),
        "finished_at": iso(row.finished_at), "invite": f"/#/t/{row.id}", "scores": [0] * ruleset.sides,
        "winner": None, "pause": None, "rematch": None,
    }


class RemoteTable:
    """A table owned by another process, as this process's routes and connections use it (a ``TableHandle``).

    Each asks the owner (``Cluster.call``); a connection is a ``Replica``, counted at the owner, its summary too.
    """

    def __init__(self, cluster: Cluster, table_id: str, described: dict[str, Any]) -> None:
        self.cluster = cluster
        self.id = table_id
        self.clients = 0
        self.owned = False
        #: this handle's connection, once it attached (one RemoteTable per connection: ``Lobby.get`` makes it)
        self._replica: Replica | None = None
        self._refresh(described)

    def _refresh(self, described: dict[str, Any]) -> None:
        self._info: dict[str, Any] = described["info"]
        self.status: str = self._info["status"]
        self.version: int = self._info["version"]
        self._hashes: list[str | None] = described["hashes"]
        self._fairness: dict[str, Any] = described.get("fairness") or {}

    def info(self) -> dict[str, Any]:
        return self._info

    def fairness_report(self) -> dict[str, Any]:
        return self._fairness

    def seat_for_token(self, token: str) -> int | None:
        digest = hash_token(token)
        for seat, stored in enumerate(self._hashes):
            if stored is not None and secrets.compare_digest(stored, digest):
                return seat
        return None

    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        out = await self.cluster.call(self.id, "join", {"name": name, "seat": seat})
        self._refresh(out["described"])
        return int(out["seat"]), str(out["token"])

    async def leave(self, token: str) -> int:
        out = await self.cluster.call(self.id, "leave", {"token": token})
        self._refresh(out["described"])
        return int(out["seat"])

    async def move(self, seat: int | None, card_text: str, version: int) -> None:
        await self.cluster.call(self.id, "move", {"seat": seat, "card": card_text, "version": version})

    async def ready(self, seat: int | None) -> None:
        await self.cluster.call(self.id, "ready", {"seat": seat})

    async def ask_rematch(self, seat: int | None, address: str | None = None) -> None:
        await self.cluster.call(self.id, "rematch", {"seat": seat, "address": address})

    async def hint(self, seat: int | None) -> tuple[str, str]:
        out = await self.cluster.call(self.id, "hint", {"seat": seat})
        coded = out[2] if len(out) > 2 else None
        if coded:  # the reason's code and parameters, so the client can say it in its own language
            from ..bots.hint import HintReason

            return str(out[0]), HintReason(coded["code"], **coded["params"])
        return str(out[0]), str(out[1])

    async def sync_envelope(self, seat: int | None) -> Envelope:
        return _envelope(await self.cluster.call(self.id, "sync", {"seat": seat}))

    async def attach(self, seat: int | None, ch: str, deliver: Callable[[Envelope], None],
                     close: Callable[[], None] | None = None, summary: bool = False) -> None:
        """Become a replica connection; if the owner cannot be reached now, the connection is closed with a
        retryable error (the client reconnects) rather than left without its sync."""
        self._replica = Replica(self.id, seat, deliver, close=close, summary=summary)
        try:
            await self.cluster.attach_replica(self._replica)
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
            await self.cluster.detach_replica(self._replica)
            self._replica = None


def describe(table: Table) -> dict[str, Any]:
    return {"info": table.info(), "hashes": [s.token_hash for s in table.seats],
            "fairness": table.fairness_report()}


async def serve_op(cluster: Cluster, table: Table, op: str, args: dict[str, Any], node: str) -> Any:
    """Apply a forwarded request to an owned table (the owner's side of ``Cluster.call``)."""
    seat = args.get("seat")
    if op == "describe":
        return describe(table)
    if op == "move":
        await table.move(seat, args["card"], args["version"])
        return None
    if op == "sync":
        return (await table.sync_envelope(seat)).encode()
    if op == "attach":
        remote = node != cluster.node  # a connection on another process: relay its channel to Redis from now on
        if remote:
            cluster.watch(table.id, seat, +1, node)
        try:
            sync = (await table.attach_remote(seat, bool(args.get("summary")))).encode()
        except BaseException:
            if remote:
                cluster.watch(table.id, seat, -1, node)
            raise
        if remote:
            cluster.consider(table)  # all its connections may be on that process now
        return sync
    if op == "detach":
        await table.detach_remote(seat, bool(args.get("summary")))
        if node != cluster.node:
            cluster.watch(table.id, seat, -1, node)
            cluster.consider(table)
        return None
    if op == "ready":
        await table.ready(seat)
        return None
    if op == "rematch":
        address = args.get("address")
        await table.ask_rematch(seat, address if isinstance(address, str) else None)
        return None
    if op == "hint":
        card, reason = await table.hint(seat)
        to_json = getattr(reason, "to_json", None)
        return [card, str(reason), to_json() if to_json is not None else None]
    if op == "join":
        joined, token = await table.join(args["name"], seat)
        return {"seat": joined, "token": token, "described": describe(table)}
    if op == "leave":
        left = await table.leave(args["token"])
        return {"seat": left, "described": describe(table)}
    raise ProtocolError("bad_request", f"unknown forwarded request {op!r}")


__all__ = ["Cluster", "ClusterRefused", "RemoteTable", "Replica", "make_cluster", "retry_later"]


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
