"""``xeri serve``: run the game server (Starlette on uvicorn) for browsers and other clients."""

from __future__ import annotations

import argparse
import socket
from dataclasses import replace

from ..errors import XeriError


class ServeError(XeriError):
    """The server cannot start: a missing extra, a bad address, a busy port."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    parser.add_argument("--db", default=None, metavar="URL",
                        help="database: sqlite:///PATH, a file path, or postgresql://user:pass@host/db "
                             "(default: SQLite in the data directory)")
    parser.add_argument("--data-dir", help="where the default SQLite database lives "
                        "(default: the user data folder, or $XERI_DATA_DIR)")
    parser.add_argument("--bot-delay", type=float, default=0.4, metavar="SECONDS",
                        help="pause before a server bot moves, so people can follow (default 0.4)")
    parser.add_argument("--redis", default=None, metavar="URL",
                        help="share table messages between server processes through Redis pub/sub "
                             "(redis://host:6379/0; see docs/scaling.md)")
    parser.add_argument("--lease", type=float, default=None, metavar="SECONDS",
                        help="with --redis on PostgreSQL: how long a process owns a table unless it renews it, "
                             "so a dead process's tables move after this (default 5; docs/scaling.md)")
    parser.add_argument("--rate", type=float, default=20.0, metavar="N",
                        help="messages a second each connection may send (default 20; bursts of twice that)")
    parser.add_argument("--http-rate", type=float, default=50.0, metavar="N",
                        help="API requests a second from one client address (default 50; bursts of four times that)")
    parser.add_argument("--offline-pack", default=None, metavar="DIR",
                        help="serve the offline pack, so the page plays the computer with no network: DIR is "
                             "Pyodide's folder, npm's pyodide package (npm install pyodide@314.0.8, then "
                             "node_modules/pyodide; default $XERI_OFFLINE_PACK; docs/web.md#offline)")
    parser.add_argument("--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"])
    ops = parser.add_argument_group("operations (docs/operations.md)")
    ops.add_argument("--log-format", default="text", choices=["text", "json"],
                     help="text lines, or one JSON object a line (time, level, event, table; docs/operations.md)")
    ops.add_argument("--auto-migrate", action=argparse.BooleanOptionalAction, default=None,
                     help="upgrade an older database schema on start (default: yes on SQLite, which one process "
                          "owns; no on PostgreSQL, where `xeri db upgrade` does it once for every process)")
    ops.add_argument("--metrics-port", type=int, default=None, metavar="PORT",
                     help="serve Prometheus metrics at /metrics on this port (default: no metrics); never on the "
                          "public port, since they count addresses")
    ops.add_argument("--metrics-host", default="127.0.0.1", metavar="HOST",
                     help="the address of the metrics port (default 127.0.0.1)")
    ops.add_argument("--admin-poll", type=float, default=2.0, metavar="SECONDS",
                     help="how often this process reads the operator's bars and requests (`xeri admin`; default 2)")
    edges = parser.add_argument_group("edges (docs/security.md)")
    edges.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                       help="a host name the server answers to (xeri.example.org, *.example.org for its "
                            "subdomains, '*' for any); repeat for several. Default: localhost and loopback "
                            "addresses, and any IP address when --host is not loopback; others get 421")
    edges.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                       help="a page origin (https://example.org) whose browsers may open the WebSocket, besides "
                            "the server's own; repeat for several, '*' for any (default: the server's own only)")
    edges.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDRESS",
                       help="a reverse proxy's address or network (10.0.0.0/8) whose X-Forwarded-For names the "
                            "client; repeat for several (default: none, the peer's address is the client's)")
    caps = parser.add_argument_group("limits (one client cannot slow every table; docs/security.md)")
    caps.add_argument("--workers", type=int, default=None, metavar="N",
                      help="processes for search bots, hints and replays (default: one per core less one)")
    caps.add_argument("--bot-queue", type=int, default=None, metavar="N",
                      help="jobs that may wait for a worker, in turn; beyond, a search bot's move is played by "
                           "the expert bot and a hint or replay gets busy (default 64)")
    caps.add_argument("--bot-seconds", type=float, default=1.0, metavar="S",
                      help="the most a search bot thinks per move, whatever its level asks (default 1.0)")
    caps.add_argument("--bot-iterations", type=int, default=2000, metavar="N",
                      help="the most playouts a search bot runs per move (default 2000)")
    caps.add_argument("--waiting-per-address", type=int, default=10, metavar="N",
                      help="tables waiting for players that one address may create (default 10)")
    caps.add_argument("--playing-per-address", type=int, default=16, metavar="N",
                      help="tables in play that one address may have created (default 16)")
    caps.add_argument("--ws-per-address", type=int, default=64, metavar="N",
                      help="WebSocket connections at once from one address (default 64)")
    caps.add_argument("--ws-opens", type=float, default=50.0, metavar="N",
                      help="WebSocket connections one address may open a second (default 50; bursts of four times "
                           "that)")
    caps.add_argument("--ws-per-seat", type=int, default=4, metavar="N",
                      help="WebSocket connections at once on one seat (default 4)")
    caps.add_argument("--hint-cooldown", type=float, default=2.0, metavar="S",
                      help="seconds between two hints for one seat (default 2)")
    caps.add_argument("--waiting-ttl", type=float, default=1800.0, metavar="S",
                      help="seconds a table may wait for players before it is closed (default 1800)")
    caps.add_argument("--lobby-per-address", type=int, default=3, metavar="N",
                      help="tables of one creating address that the lobby lists, the newest (default 3)")
    caps.add_argument("--max-rounds", type=int, default=30, metavar="N",
                      help="rounds a match may have (default 30)")
    caps.add_argument("--max-target", type=int, default=301, metavar="N",
                      help="the highest target score of a match (default 301)")
    caps.add_argument("--max-replay-mb", type=float, default=8.0, metavar="MB",
                      help="the largest replay served; a longer match offers its record only (default 8)")
    caps.add_argument("--request-timeout", type=float, default=10.0, metavar="S",
                      help="seconds to receive a whole HTTP request, or the connection closes (default 10)")
    caps.add_argument("--connection-rate", type=float, default=20.0, metavar="N",
                      help="TCP connections one address may open a second, bursts of four times that; beyond, "
                           "each is answered 429 and closed; through a --trusted-proxy, the requests of the "
                           "address its X-Forwarded-For names are counted instead, ten for one (default 20)")
    caps.add_argument("--keep-alive", type=float, default=5.0, metavar="S",
                      help="seconds an idle HTTP connection stays open (default 5)")
    accounts = parser.add_argument_group("sign-in limits (docs/accounts.md); RATE is the limits library's "
                                         "notation: 5/minute, 30 per 10 minutes, 100/day")
    accounts.add_argument("--signin-limit", default="30 per 10 minutes", metavar="RATE",
                          help="sign-in attempts from one address (default '30 per 10 minutes')")
    accounts.add_argument("--signin-name-limit", default="10 per 10 minutes", metavar="RATE",
                          help="sign-in attempts for one account name, from anywhere (default '10 per 10 minutes')")
    accounts.add_argument("--signup-limit", default="5 per 10 minutes", metavar="RATE",
                          help="accounts one address may make (default '5 per 10 minutes')")
    boards = parser.add_argument_group("leaderboards (docs/ratings.md)")
    boards.add_argument("--leaderboard-games", type=int, default=None, metavar="N",
                        help="rated matches a player needs in a format to be on its leaderboard (default 10)")
    boards.add_argument("--leaderboard-deviation", type=float, default=None, metavar="D",
                        help="the largest deviation a leaderboard lists (default 300)")
    boards.add_argument("--rated-targets", default="51,101", metavar="LIST",
                        help="the scores a rated match may be played to, comma-separated, or 'any' for any match "
                             "end, one round too (default 51,101)")


def _check_address(host: str, port: int) -> None:
    """Fail with one line, before starting, if the address cannot be listened on."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _name, addr = infos[0]
        with socket.socket(family, kind, proto) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(addr)
    except OSError as exc:
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def _tune_gc() -> None:
    """Fewer, cheaper garbage collections for a long-running server.

    What is loaded by now (modules, the app) lives as long as the process: frozen, no full collection walks
    it again (with 500 busy tables one took some 0.1 s, every table waiting). Every move allocates events
    and messages, most freed at once by their reference counts, so young collections run every 10,000
    allocations rather than 700.
    """
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


def _check_services(db: str | None, redis_url: str | None, auto_migrate: bool | None = None) -> None:
    """Open the database (making its tables, or upgrading an older schema when ``auto_migrate``; by default on
    SQLite only) and ping Redis once, so a bad one is a one-line error."""
    import asyncio

    from ..server.store import Store, display_url, sqlite_path
    from ..server.store.migrations import SchemaError, SchemaOutdated

    store = Store(db)
    shown = sqlite_path(store.url) or display_url(store.url)
    store.auto_migrate = store.is_sqlite if auto_migrate is None else auto_migrate

    async def probe() -> None:
        try:
            await store.open()
            if not redis_url and not store.is_sqlite:
                from ..server.cluster import refuse_mixed_modes

                await refuse_mixed_modes(store, None)
        finally:
            await store.close()

    try:
        asyncio.run(probe())
    except SchemaOutdated as exc:
        where = f" --db {db}" if db else ""
        raise ServeError(f"refusing to start: the database {shown} is at schema revision {exc.revision}, older than "
                         f"this xeri's: run `xeri db upgrade{where}` first (docs/operations.md)") from None
    except SchemaError as exc:
        raise ServeError(f"refusing to start: {str(exc).strip().splitlines()[0]}") from None
    except Exception as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        if type(exc).__name__ == "ClusterRefused":
            raise ServeError(f"refusing to start: {first}") from None
        raise ServeError(f"cannot open the database {shown}: {first}") from None
    if store.schema_change is not None and store.schema_change[0] is not None:
        before, after = store.schema_change
        print(f"xeri serve: upgraded the schema of {shown} from revision {before} to {after}", flush=True)
    if redis_url:
        try:
            import redis
        except ImportError:
            raise ServeError("--redis needs the redis package: pip install 'xeri[server]'") from None
        try:
            client = redis.Redis.from_url(redis_url, socket_connect_timeout=5)
            client.ping()
            client.close()
        except redis.RedisError as exc:
            raise ServeError(f"cannot reach Redis at {redis_url}: {exc}") from None


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket for uvicorn (the public port and the metrics port are served by one server)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, kind, proto, _name, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(addr)
    except OSError as exc:
        sock.close()
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..server import create_app
        from ..server.config import ServerConfig
        from ..server.store import normalize_url
    except ImportError as exc:
        raise ServeError(f"the server needs its extra: pip install 'xeri[server]' ({exc.name} is missing)") from None
    config = ServerConfig.from_args(args)  # every option checked once, before anything is opened
    if config.storage.db is None and args.data_dir:
        from ..paths import data_dir

        try:
            db = str(data_dir(args.data_dir) / "server.sqlite3")
        except OSError as exc:
            raise ServeError(f"cannot use the data folder {args.data_dir}: {exc.strerror}") from None
        config = replace(config, storage=replace(config.storage, db=db))
    storage, where = config.storage, config.listening
    normalize_url(storage.db)  # a bad URL is a one-line error, before anything starts
    _check_address(where.host, where.port)
    if where.metrics_port is not None:
        _check_address(where.metrics_host, where.metrics_port)
    _check_services(storage.db, storage.redis, storage.auto_migrate)
    from ..offline.pack import PackError

    try:
        app = create_app(config)
    except PackError as exc:
        raise ServeError(f"--offline-pack: {exc}") from None
    from ..server.http.timeouts import timed_protocol
    from ..server.ops import logs
    from ..server.socket.ws_protocol import QuietWebSocketProtocol

    logs.configure(config.logging.level, config.logging.format)
    print(f"xeri serve: http://{where.host}:{where.port}/  (Ctrl-C stops)", flush=True)
    if where.metrics_port is not None:
        print(f"xeri serve: metrics at http://{where.metrics_host}:{where.metrics_port}/metrics", flush=True)
    _tune_gc()
    # Messages are small JSON; per-message compression would cost more CPU than it saves.
    # A request that does not arrive whole within --request-timeout is closed (no slowloris).
    uv = uvicorn.Config(app, host=where.host, port=where.port, log_level=config.logging.level, ws_max_size=1 << 16,
                        proxy_headers=False,  # X-Forwarded-For only from --trusted-proxy (server.http.security)
                        ws_per_message_deflate=False, timeout_graceful_shutdown=3, ws=QuietWebSocketProtocol,
                        http=timed_protocol(where.request_timeout, where.connection_rate,
                                            list(config.edges.trusted_proxies)),
                        # uvicorn declares an int and passes it to loop.call_later, which takes fractions too
                        timeout_keep_alive=where.keep_alive,  # type: ignore[arg-type]
                        log_config=logs.uvicorn_config(config.logging.format))
    sockets = None
    if where.metrics_port is not None:  # one server, two listening sockets: the app tells them apart by port
        sockets = [_listen(where.host, where.port), _listen(where.metrics_host, where.metrics_port)]
    server = uvicorn.Server(uv)
    try:
        server.run(sockets=sockets)
    except KeyboardInterrupt:
        pass
    except OSError as exc:
        raise ServeError(f"cannot listen on {where.host}:{where.port}: {exc.strerror}") from None
    if not server.started:
        return 3  # uvicorn's own exit code for a failed start (its log says why)
    return 0
