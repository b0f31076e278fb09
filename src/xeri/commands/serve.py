"""``xeri serve``: run the game server (Starlette on uvicorn) for browsers and other clients."""

from __future__ import annotations

import argparse
import socket

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
    parser.add_argument("--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"])


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


def _check_services(db: str | None, redis_url: str | None) -> None:
    """Open the database (creating its tables) and ping Redis once, so a bad one is a one-line error."""
    import asyncio

    from ..server.store import Store, display_url

    store = Store(db)
    shown = display_url(store.url)

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
    except Exception as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        if type(exc).__name__ == "ClusterRefused":
            raise ServeError(f"refusing to start: {first}") from None
        raise ServeError(f"cannot open the database {shown}: {first}") from None
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


def run(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        raise ServeError(f"--port must be 1..65535, not {args.port}")
    if args.redis and not args.redis.startswith(("redis://", "rediss://", "unix://")):
        raise ServeError("--redis must be a redis:// URL")
    if args.lease is not None and not 0.5 <= args.lease <= 600:
        raise ServeError("--lease must be 0.5..600 seconds")
    if not 0 < args.rate <= 100000:
        raise ServeError("--rate must be a positive number of messages a second")
    if not 0 < args.http_rate <= 100000:
        raise ServeError("--http-rate must be a positive number of requests a second")
    if not 0 <= args.bot_delay <= 10:
        raise ServeError("--bot-delay must be 0..10 seconds")
    try:
        import uvicorn

        from ..server import create_app
        from ..server.store import normalize_url
    except ImportError as exc:
        raise ServeError(f"the server needs its extra: pip install 'xeri[server]' ({exc.name} is missing)") from None
    db = args.db
    if db is None and args.data_dir:
        from ..paths import data_dir

        try:
            db = str(data_dir(args.data_dir) / "server.sqlite3")
        except OSError as exc:
            raise ServeError(f"cannot use the data folder {args.data_dir}: {exc.strerror}") from None
    normalize_url(db)  # a bad URL is a one-line error, before anything starts
    _check_address(args.host, args.port)
    _check_services(db, args.redis)
    broker = None
    if args.redis:
        from ..server.pubsub import RedisBroker

        broker = RedisBroker(args.redis)
    app = create_app(db, bot_delay=args.bot_delay, rate=args.rate, burst=2 * args.rate, broker=broker,
                     http_rate=args.http_rate, http_burst=4 * args.http_rate, lease=args.lease)
    print(f"xeri serve: http://{args.host}:{args.port}/  (Ctrl-C stops)", flush=True)
    try:
        # Messages are small JSON; per-message compression would cost more CPU than it saves.
        uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, ws_max_size=1 << 16,
                    ws_per_message_deflate=False, timeout_graceful_shutdown=3)
    except OSError as exc:
        raise ServeError(f"cannot listen on {args.host}:{args.port}: {exc.strerror}") from None
    return 0
