"""Prometheus metrics of ``xeri serve`` (prometheus_client), served on their own port (``--metrics-port``).

Counters and histograms are kept as things happen, by small hooks in the modules that do them (a decorator on
``Table.move``, ``Store.write``, ``Workers._launch``; one call where a refusal is sent); what is a state (tables
held, connections, the worker queue, leases) is read at scrape time from the app, on the event loop, so a
scrape sees one consistent moment. Each app has its own registry holding the process-wide counters and its own
live state. docs/operations.md says what each metric means and which alerts are worth setting.

The metrics are never on the public port: they count addresses and connections, which are nobody's business but
the operator's. ``--metrics-port`` opens a second listening socket (on ``--metrics-host``, loopback by default)
that answers ``GET /metrics`` and nothing else.
"""

from __future__ import annotations

import dataclasses
import functools
import time
from collections import Counter as Tally
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector
from starlette.types import ASGIApp, Receive, Scope, Send

from .http.security import host_allowed

F = TypeVar("F", bound=Callable[..., Any])

# No *_created series beside each counter: Prometheus does not need them.
disable_created_metrics()  # type: ignore[no-untyped-call]

#: latency buckets in seconds: a move stored and announced in a millisecond, up to a database stall
LATENCY = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: a worker job (a search bot's move, a hint, a replay): up to the bot budget and beyond
JOB = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)

MOVES = Counter("xeri_moves", "Moves applied by the tables this process owns, by who played them "
                "(player, bot, or takeover: a bot for a timed-out, away or departed player)", ["by"], registry=None)
MOVE_SECONDS = Histogram("xeri_move_seconds", "A move's time in its table, from arriving to announced: the lock, "
                         "the rules, the database write (group commit) and the publication", buckets=LATENCY,
                         registry=None)
STORE_SECONDS = Histogram("xeri_store_seconds", "Database round trips by kind: write (a change waiting for its "
                          "group commit), read, load (a table with its moves), lease (the lease renewal)", ["op"],
                          buckets=LATENCY, registry=None)
WORKER_JOB_SECONDS = Histogram("xeri_worker_job_seconds", "Jobs run on the worker pool (search bots, hints, "
                               "replays, reviews), from handing over to done", ["job"], buckets=JOB, registry=None)
REFUSALS = Counter("xeri_refusals", "Requests and messages refused, by error code and by where (http, socket)",
                   ["code", "via"], registry=None)
ADOPTIONS = Counter("xeri_adoptions", "Orphaned tables (their owner died) this process adopted", registry=None)
LEASES_LOST = Counter("xeri_lease_losses", "Tables whose lease this process found taken by another (it let them "
                      "go)", registry=None)
CLOSED_BY_OPERATOR = Counter("xeri_operator_closes", "Tables this process closed for `xeri admin close`",
                             registry=None)
BARRED = Counter("xeri_barred", "Requests and connections refused because their address is barred "
                 "(`xeri admin bar`)", ["via"], registry=None)
STARTED = Gauge("xeri_start_time_seconds", "When this process started (seconds since the epoch)", registry=None)
STARTED.set(time.time())

SHARED = (MOVES, MOVE_SECONDS, STORE_SECONDS, WORKER_JOB_SECONDS, REFUSALS, ADOPTIONS, LEASES_LOST,
          CLOSED_BY_OPERATOR, BARRED, STARTED)


# --- hooks ---------------------------------------------------------------------


def refused(code: str, via: str) -> None:
    """Count one refusal sent to a client (``via``: http or socket)."""
    REFUSALS.labels(code, via).inc()


def timed_move(method: F) -> F:
    """On ``Table._move``: its latency, and one move counted when it was applied (it returned)."""

    @functools.wraps(method)
    async def wrapped(table: Any, seat: int | None, card_text: str, version: int, auto: str | None = None) -> Any:
        started = time.perf_counter()
        out = await method(table, seat, card_text, version, auto)
        MOVE_SECONDS.observe(time.perf_counter() - started)
        if auto is not None:
            by = "takeover"
        else:
            by = "player" if seat is not None and table.seats[seat].human else "bot"
        MOVES.labels(by).inc()
        return out

    return wrapped  # type: ignore[return-value]


def timed_store(op: str) -> Callable[[F], F]:
    """On a ``Store`` coroutine method: how long it took (failures too: a stall is what this shows)."""
    histogram = STORE_SECONDS.labels(op)

    def decorate(method: F) -> F:
        @functools.wraps(method)
        async def wrapped(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await method(*args, **kwargs)
            finally:
                histogram.observe(time.perf_counter() - started)

        return wrapped  # type: ignore[return-value]

    return decorate


def timed_job(launch: F) -> F:
    """On ``Workers._launch``: each job's time, from handing it to a worker to its end."""

    @functools.wraps(launch)
    def wrapped(workers: Any, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        started = time.perf_counter()
        future = launch(workers, fn, args)
        histogram = WORKER_JOB_SECONDS.labels(getattr(fn, "__name__", "job"))
        future.add_done_callback(lambda _f: histogram.observe(time.perf_counter() - started))
        return future

    return wrapped  # type: ignore[return-value]


# --- what is read at scrape time ---------------------------------------------------


class Live(Collector):
    """The app's state now: tables by status, connections, the worker pool, the cluster's leases, bars."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def collect(self) -> Iterator[Any]:
        state = self.app.state
        lobby = state.lobby
        tables = GaugeMetricFamily("xeri_tables", "Tables this process holds in memory, by status (finished: the "
                                   "cache of recently watched ones)", labels=["status"])
        counts = Tally(t.status for t in list(lobby.tables.values()))
        for status in ("waiting", "playing", "closed"):
            tables.add_metric([status], counts.get(status, 0))
        tables.add_metric(["finished"], counts.get("finished", 0) + len(lobby.finished))
        yield tables
        operator = getattr(state, "operator", None)
        sockets = operator.sockets if operator is not None else {}
        yield GaugeMetricFamily("xeri_connections", "WebSocket connections open on this process",
                                value=sum(len(s) for s in sockets.values()))
        yield GaugeMetricFamily("xeri_connected_addresses", "Client addresses with a WebSocket open on this process",
                                value=len(sockets))
        workers = state.ctx.workers
        yield GaugeMetricFamily("xeri_workers", "Worker slots (processes, or one thread)", value=workers.slots)
        yield GaugeMetricFamily("xeri_worker_busy", "Worker jobs running now", value=workers.in_flight)
        yield GaugeMetricFamily("xeri_worker_queue", "Worker jobs waiting for a free worker", value=workers.waiting)
        yield CounterMetricFamily("xeri_worker_refused", "Worker jobs refused with the queue full (a search bot's "
                                  "move then played by the fallback bot, a hint or replay answered busy)",
                                  value=workers.refused)
        store = state.store
        yield GaugeMetricFamily("xeri_store_queue", "Writes waiting for the group commit", value=store.pending_writes)
        cluster = state.cluster
        yield GaugeMetricFamily("xeri_cluster", "1 if this process is one of a cluster (PostgreSQL and Redis)",
                                value=1 if cluster is not None else 0)
        if cluster is not None:
            yield GaugeMetricFamily("xeri_leases", "Table leases this process holds (the tables it owns)",
                                    value=sum(1 for t in list(lobby.tables.values())
                                              if t.status in ("waiting", "playing")))
            yield GaugeMetricFamily("xeri_cluster_healthy", "1 if the last lease renewal reached the database",
                                    value=1 if cluster.healthy else 0)
            yield GaugeMetricFamily("xeri_redis_up", "1 if the Redis relay is connected",
                                    value=1 if cluster.broker.up else 0)
            handovers = CounterMetricFamily("xeri_handovers", "Tables handed over to the process holding all their "
                                            "connections: out (from here), in (to here)", labels=["direction"])
            handovers.add_metric(["out"], cluster.handed_out)
            handovers.add_metric(["in"], cluster.handed_in)
            yield handovers
        if operator is not None:
            yield GaugeMetricFamily("xeri_bars", "Addresses and networks barred now (`xeri admin bar`)",
                                    value=len(operator.networks))


def registry_for(app: Any) -> CollectorRegistry:
    """The app's registry: the process's counters, its live state, and the process's own (CPU, memory, GC)."""
    registry = CollectorRegistry(auto_describe=False)
    for collector in SHARED:
        registry.register(collector)
    registry.register(Live(app))
    for make in (ProcessCollector, PlatformCollector, GCCollector):
        make(registry=registry)
    return registry


class MetricsPort:
    """ASGI middleware, outermost: what arrives on the metrics port gets the metrics (``GET /metrics``) or a 404,
    and never reaches the app; what arrives on any other port never gets the metrics.

    Its Host must be one the server answers to or an IP address (a scraper on another machine names the
    address), so a DNS-rebinding page cannot read the metrics from the operator's browser either.
    """

    def __init__(self, app: ASGIApp, port: int) -> None:
        self.app = app
        self.port = port
        self._registry: CollectorRegistry | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        server = scope.get("server")
        if scope["type"] not in ("http", "websocket") or not server or server[1] != self.port:
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 4404})
            return
        settings = getattr(scope["app"].state, "security", None)
        if settings is not None and not host_allowed(dataclasses.replace(settings, any_ip_host=True), scope):
            await _plain(send, 421, b"this server does not answer to that Host name\n")
            return
        if scope["path"] != "/metrics" or scope["method"] not in ("GET", "HEAD"):
            await _plain(send, 404, b"the metrics port serves GET /metrics only\n")
            return
        if self._registry is None:
            self._registry = registry_for(scope["app"])
        await _plain(send, 200, generate_latest(self._registry), CONTENT_TYPE_LATEST,
                     head=scope["method"] == "HEAD")


async def _plain(send: Send, status: int, body: bytes, kind: str = "text/plain; charset=utf-8",
                 head: bool = False) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", kind.encode()), (b"content-length", str(len(body)).encode()),
                            (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": b"" if head else body})


def metrics_text(app: Any) -> str:
    """The metrics of ``app`` as a scrape would get them (tests, and the benchmark's in-process use)."""
    return generate_latest(registry_for(app)).decode()

