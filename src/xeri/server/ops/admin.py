"""The servers' side of ``xeri admin``: every process obeys the operator's bars and closes the tables it owns.

``xeri admin`` writes to the database the servers share (server.ops.operator_store); each process reads it every
``every`` seconds (``xeri serve --admin-poll``), so the operator needs no connection to any process:

- a **bar** (an address or a network, for a while or until lifted) refuses that client's requests with
  ``403 barred`` and its WebSocket handshakes, on every process, and closes the WebSockets it has open (the
  address is the one the server sees: the peer's, or the X-Forwarded-For of a ``--trusted-proxy``); the health
  checks (``/healthz``, ``/readyz``) are never barred, so a bar of a balancer's address cannot take a process out;
- a **close** request is carried out by the process that owns the table (its one writer): the table is closed and
  stored so, its bots and timers stop, every connection is told (an ``error`` of code ``table_closed``, then the
  table's new status), and its moves stay in the database (``xeri admin export`` gives them).

Each change a process carries out is logged (``event``: ``table_closed``, ``address_barred``, ``bar_lifted``).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import os
import socket as sockets
from typing import TYPE_CHECKING, Any

from starlette.types import ASGIApp, Receive, Scope, Send

from .. import metrics
from ..broker.envelope import Envelope
from ..broker.pubsub import channel
from ..store import Store, StoreError
from .operator_store import Action, OperatorStore

if TYPE_CHECKING:
    from ..lobby.lobby import Lobby
    from ..table import Table

log = logging.getLogger("xeri.server")

#: what a bar never refuses: the balancer's health checks
HEALTH_PATHS = ("/healthz", "/readyz")
#: the close code of a barred address's WebSocket
CLOSE_BARRED = 4403
#: seconds between two reads of the operator's bars and requests
EVERY = 2.0
BARRED_BODY = b'{"error": {"code": "barred", "message": "this address is barred from this server"}}'

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def closed_message(reason: str | None) -> bytes:
    text = "The server's operator closed this table" + (f": {reason}" if reason else ".")
    return json.dumps({"type": "error", "code": "table_closed", "message": text}, ensure_ascii=False).encode()


async def close_table(table: Table, reason: str | None) -> bool:
    """Close an unfinished table this process owns, and tell everyone at it; False if it is not unfinished.

    Stored first (a failed write raises ``StoreError`` and changes nothing); its moves stay stored.
    """
    async with table.lock:
        if table.status not in ("waiting", "playing") or not table.owned:
            return False
        await table.store.close_table(table.id)
        table.state.status = "closed"
        table.autoplay.stop()
        notice = Envelope.plain(closed_message(reason))
        for seat in (None, *range(table.state.ruleset.players)):
            ch = channel(table.id, seat)
            if table.broker.interested(ch):
                await table.broker.publish(ch, notice)
        await table.publish_table()
    metrics.CLOSED_BY_OPERATOR.inc()
    return True


class Operator:
    """This process's reading of the operator's bars and requests (started and stopped with the app)."""

    def __init__(self, store: Store, lobby: Lobby, every: float = EVERY) -> None:
        self.ops = OperatorStore(store)
        self.lobby = lobby
        self.every = every
        #: the networks barred now
        self.networks: list[Network] = []
        self._verdicts: dict[str, bool] = {}
        #: per client address, how to close each of its open WebSockets (the ``Gate`` keeps it)
        self.sockets: dict[str, set[Send]] = {}
        self._task: asyncio.Task[None] | None = None
        self._closing: set[asyncio.Future[None]] = set()
        self._warned = False

    @property
    def node(self) -> str:
        node = getattr(self.lobby.locator, "node", None)  # the cluster's name for this process, if it is one
        return node if isinstance(node, str) else f"{sockets.gethostname()}:{os.getpid()}"

    def barred(self, address: str) -> bool:
        """Whether a client address is barred now (remembered until the bars change)."""
        verdict = self._verdicts.get(address)
        if verdict is None:
            if not self.networks:
                return False
            try:
                ip = ipaddress.ip_address(address)
            except ValueError:
                return False
            verdict = any(ip in n for n in self.networks)
            if len(self._verdicts) > 10_000:
                self._verdicts.clear()
            self._verdicts[address] = verdict
        return verdict

    async def start(self) -> None:
        try:
            await self.refresh()
        except StoreError as exc:
            log.warning("cannot read the operator's bars and requests: %s", exc)
        self._task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.every)  # a period, not synchronisation
            try:
                await self.refresh()
                self._warned = False
            except StoreError as exc:
                if not self._warned:  # once per outage: /readyz already says the database is away
                    log.warning("cannot read the operator's bars and requests: %s", exc)
                    self._warned = True
            except Exception:
                log.exception("reading the operator's bars and requests failed")

    async def refresh(self) -> None:
        """Read the bars (closing the sockets of newly barred addresses) and carry out the requests for us."""
        networks = []
        for bar in await self.ops.bars():
            try:
                networks.append(ipaddress.ip_network(bar.network, strict=False))
            except ValueError:
                continue
        before = set(self.networks)
        self.networks = networks
        self._verdicts = {}
        for network in set(networks) - before:
            log.info("barred %s (the operator's bar)", network, extra={"event": "address_barred",
                                                                        "address": str(network)})
        for network in before - set(networks):
            log.info("the bar of %s is lifted", network, extra={"event": "bar_lifted", "address": str(network)})
        if set(networks) - before:
            self._close_barred()
        for action in await self.ops.pending():
            if action.action == "close":
                await self._close(action)

    def _close_barred(self) -> None:
        for address, sends in list(self.sockets.items()):
            if self.barred(address):
                for send in list(sends):
                    task = asyncio.ensure_future(_close_socket(send))
                    self._closing.add(task)
                    task.add_done_callback(self._closing.discard)

    async def _close(self, action: Action) -> None:
        table = self.lobby.tables.get(action.target)
        if table is None or not table.owned:
            return  # another process owns it (it carries it out), or none does (xeri admin does)
        try:
            closed = await close_table(table, action.reason)
        except StoreError as exc:
            log.warning("cannot close table %s for the operator: %s", table.id, exc,
                        extra={"event": "table_close_failed", "table": table.id})
            return
        outcome = "closed" if closed else f"not closed: it was {table.status}"
        if await self.ops.done(action.id, self.node, outcome):
            log.info("closed table %s for the operator (%s)", table.id, action.actor if closed else outcome,
                     extra={"event": "table_closed" if closed else "table_close_skipped", "table": table.id,
                            "actor": action.actor})
        self.lobby.release(table)


async def _close_socket(send: Send) -> None:
    try:
        await send({"type": "websocket.close", "code": CLOSE_BARRED, "reason": "this address is barred"})
    except Exception:  # closed meanwhile
        pass


class Gate:
    """ASGI middleware (inside the edges, so the address is the client's): barred addresses are refused, and each
    open WebSocket is counted by its address (the metrics read it; a new bar closes them)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        operator: Operator | None = getattr(scope["app"].state, "operator", None) if "app" in scope else None
        if kind not in ("http", "websocket") or operator is None:
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        host = client[0] if client else "-"
        if operator.networks and scope.get("path") not in HEALTH_PATHS and operator.barred(host):
            via = "http" if kind == "http" else "socket"
            metrics.BARRED.labels(via).inc()
            metrics.refused("barred", via)
            await _refuse(kind, send)
            return
        if kind == "http":
            await self.app(scope, receive, send)
            return
        held = operator.sockets.setdefault(host, set())
        held.add(send)
        try:
            await self.app(scope, receive, send)
        finally:
            held.discard(send)
            if not held and operator.sockets.get(host) is held:
                del operator.sockets[host]


async def _refuse(kind: str, send: Send) -> None:
    if kind == "websocket":
        await send({"type": "websocket.close", "code": CLOSE_BARRED, "reason": "this address is barred"})
        return
    await send({"type": "http.response.start", "status": 403,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(BARRED_BODY)).encode())]})
    await send({"type": "http.response.body", "body": BARRED_BODY})


def install(app: Any, store: Store, lobby: Lobby, every: float = EVERY) -> Operator:
    """Put the operator's gate on ``app`` (before ``security.secure``: inside the edges, it sees the client)."""
    operator = Operator(store, lobby, every)
    app.state.operator = operator
    app.add_middleware(Gate)
    return operator
