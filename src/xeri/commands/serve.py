"""``xeri serve``: run the game server (Starlette on uvicorn) for browsers and other clients."""

from __future__ import annotations

import argparse
import socket
from dataclasses import replace

from ..errors import XeriError


class ServeError(XeriError):
    """The server cannot start: a missing extra, a bad address, a busy port."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Every setting's option, from its one declaration (server.config ``OPTIONS``), and ``--data-dir``."""
    from ..server.config import add_options  # the server's own extra: only ``xeri serve`` needs it

    parser.add_argument("--data-dir", help="where the default SQLite database lives "
                        "(default: the user data folder, or $XERI_DATA_DIR)")
    add_options(parser)


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
