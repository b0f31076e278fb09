"""The ASGI app of ``xeri serve``, wired from one ``ServerConfig``: the services it builds, the route table, the
middleware and the lifespan. The handlers live in their rooms (server.api, server.accounts, server.pairing, ...).

The routes and messages are documented in docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.middleware.gzip import GZipMiddleware
from starlette.routing import Mount, Route, WebSocketRoute

from . import metrics
from .accounts import routes as account_routes
from .accounts.passwords import Passwords
from .accounts.service import AccountService
from .api import matches, meta, players, tables, verify
from .api.guard import api
from .broker.pubsub import Broker, InProcessBroker, RedisBroker
from .cluster import make_cluster, refuse_mixed_modes
from .config import ServerConfig
from .context import Context
from .http import offline_pack as offline
from .http.pages import index, invite
from .http.qr import qr
from .http.security import LOOPBACK_HOSTS, secure
from .http.static import PageFiles
from .limits.shared import SharedCaps
from .limits.sign_in import AccountLimits
from .lobby.lobby import Lobby
from .lobby.pulse import pulse
from .matches.forget import Forgetter
from .matches.replays import ReplayCache
from .matches.reviews import ReviewCache
from .ops.admin import install as install_operator
from .ops.health import healthz, readyz
from .pairing import routes as pairing_routes
from .pairing.service import Pairer, PairingService
from .pairing.shared import SharedPairing
from .rated import routes as rating_routes
from .socket.route import socket
from .store import Store
from .workers import Workers

WEB_DIR = offline.WEB_DIR  # the package's page, or $XERI_WEB_DIR

ROUTES = [
    Route("/", index),
    Route("/t/{table_id}", invite),
    Route("/api/health", api(meta.health)),
    Route("/healthz", healthz),
    Route("/readyz", readyz),
    Route("/api/meta", api(meta.meta)),
    Route("/api/rulesets", api(meta.list_rulesets)),
    Route("/api/levels", api(meta.levels)),
    Route("/api/tables", api(tables.tables), methods=["GET", "POST"]),
    Route("/api/tables/{table_id}", api(tables.table_info)),
    Route("/api/tables/{table_id}/join", api(tables.join), methods=["POST"]),
    Route("/api/pairing", api(pairing_routes.seek), methods=["GET", "POST"]),
    Route("/api/qr.svg", api(qr)),
    Route("/api/pairing/{seek_id}", api(pairing_routes.poll), methods=["GET", "DELETE"]),
    Route("/api/tables/{table_id}/leave", api(tables.leave), methods=["POST"]),
    Route("/api/tables/{table_id}/fairness", api(tables.table_fairness)),
    Route("/api/matches", api(matches.matches)),
    Route("/api/matches/{table_id}/record", api(matches.record)),
    Route("/api/matches/{table_id}/replay", api(matches.replay)),
    Route("/api/matches/{table_id}/review", api(matches.review)),
    Route("/api/players", api(players.players)),
    Route("/api/players/{name}/stats", api(players.player)),
    Route("/api/verify", api(verify.verify), methods=["POST"]),
    # Accounts (server.accounts.routes, docs/accounts.md).
    Route("/api/account", api(account_routes.who_am_i)),
    Route("/api/account/signup", api(account_routes.sign_up), methods=["POST"]),
    Route("/api/account/signin", api(account_routes.sign_in), methods=["POST"]),
    Route("/api/account/signout", api(account_routes.sign_out), methods=["POST"]),
    Route("/api/account/password", api(account_routes.change_password), methods=["POST"]),
    Route("/api/account/delete", api(account_routes.delete_account), methods=["POST"]),
    Route("/api/account/settings", api(account_routes.settings), methods=["POST"]),
    Route("/api/account/claim", api(account_routes.claim), methods=["POST"]),
    Route("/api/account/tables", api(account_routes.my_tables)),
    Route("/api/account/leave", api(account_routes.leave_mine), methods=["POST"]),
    Route("/api/account/matches", api(account_routes.my_matches)),
    Route("/api/profiles/{name}", api(account_routes.profile)),
    Route("/api/leaderboards/{format}", api(rating_routes.leaderboard)),
    WebSocketRoute("/ws/tables/{table_id}", socket),
    # The installable page's service worker, and the offline pack (server.http.offline_pack).
    Route("/sw.js", offline.service_worker),
    Route("/offline/worker.js", offline.worker_script),
    Route("/offline/pack.json", offline.manifest),
    Route("/offline/{name:path}", offline.pack_file),
    Mount("/static", PageFiles(directory=WEB_DIR, check_dir=False), name="static"),
]


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    c: Context = app.state.ctx
    await c.store.open()
    await refuse_mixed_modes(c.store, c.cluster)
    await c.lobby.broker.start()
    await c.lobby.start()
    await app.state.operator.start()  # the operator's bars and requests (server.ops.admin)
    sweeping = asyncio.create_task(app.state.accounts.sweep())  # expired sessions (server.accounts.service)
    # The worker processes start in the background, so the first bot move does not wait for them.
    warming = asyncio.create_task(c.workers.warm())
    # In a cluster each process gives its lobby counts to Redis now and then (server.pairing.shared).
    pairing = app.state.pairing
    beating = (asyncio.create_task(pairing.beat(lambda: pulse(c.lobby.tables.values())))
               if isinstance(pairing, SharedPairing) else None)
    try:
        yield
    finally:
        sweeping.cancel()
        if beating is not None:
            beating.cancel()
        await app.state.pairing.close()
        await app.state.operator.stop()
        await c.lobby.close()
        if c.caps is not None:
            await c.caps.close()
        c.reviews.close()
        warming.cancel()
        c.workers.close()
        await c.lobby.broker.close()
        await c.store.close()


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The app of ``config`` (default: SQLite in the data directory, every other setting its default).

    A Redis broker (``config.storage.redis``) on PostgreSQL makes this process one of a cluster (server.cluster).
    """
    config = config or ServerConfig()
    limits, bots, rates = config.limits, config.bots, config.rates
    store = Store(config.storage.db)
    pool = Workers(bots.workers, bots.queue, bots.budget)
    broker: Broker = RedisBroker(config.storage.redis) if config.storage.redis else InProcessBroker()
    cluster = make_cluster(store, broker, config.storage.lease)
    lobby = Lobby(store, broker, bot_delay=bots.delay, hint_level=bots.hint_level, limits=limits, workers=pool,
                  locator=cluster, rated_targets=config.rated_targets)
    # In a cluster the per-address caps (requests, hints, tables) count across every process, in Redis.
    caps = (SharedCaps(cluster.broker.url, limits, store.statuses, rates.http_rate, rates.http_burst,
                       database=store.url) if cluster is not None else None)
    lobby.caps = caps
    app = Starlette(routes=ROUTES, lifespan=lifespan)
    app.add_middleware(GZipMiddleware, minimum_size=512)  # the page's files and the API's JSON
    install_operator(app, store, lobby, config.admin_every)
    edges = config.edges
    secure(app, allow_origins=edges.allow_origins, trusted_proxies=edges.trusted_proxies,
           allow_hosts=[*LOOPBACK_HOSTS, *(h.strip("[]") for h in edges.allow_hosts)],
           any_ip_host=not config.listening.is_loopback)
    if config.listening.metrics_port is not None:
        app.add_middleware(metrics.MetricsPort, port=config.listening.metrics_port)
    replays = ReplayCache(pool.run, max_bytes=config.replay_cache_bytes, max_replay=limits.max_replay_bytes,
                          gzipped=True)
    reviews = ReviewCache(pool.run)
    app.state.ctx = Context(store=store, lobby=lobby, workers=pool, replays=replays, rate=rates.message_rate,
                            burst=rates.message_burst, http_rate=rates.http_rate, http_burst=rates.http_burst,
                            reviews=reviews, cluster=cluster, caps=caps)
    # A deleted account's name leaves every finished match built here, and in a cluster everywhere else.
    app.state.forget_matches = Forgetter([lobby, replays, reviews], cluster)
    app.state.cluster = cluster
    app.state.lobby = lobby
    app.state.store = store
    app.state.leaderboard = config.leaderboard
    # "Play online" (server.pairing): alone, the pools are this process's; in a cluster, every process's, in Redis.
    pairing: Pairer = (SharedPairing(cluster.broker.url, lobby, database=store.url) if cluster is not None
                       else PairingService(lobby))
    app.state.pairing = pairing
    app.state.seek_buckets = {}
    app.state.accounts = AccountService(store, config.passwords or Passwords(),
                                        AccountLimits(limits, caps.storage if caps is not None else None))
    app.state.service_worker = offline.ServiceWorker()
    folder = offline.pack_folder(config.offline_pack)
    app.state.offline_pack = offline.OfflinePack(folder) if folder is not None else None
    return app
