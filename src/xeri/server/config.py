"""``ServerConfig``: every setting of one server process, read once (from ``xeri serve``'s options or a test's
keywords) and checked once, so ``create_app`` and ``serve`` only read it.

A bad value is a ``ConfigError`` naming its ``xeri serve`` option, which the command line prints as one line.
"""

from __future__ import annotations

import argparse
import ipaddress
import re
from dataclasses import dataclass, field
from typing import Literal

from ..errors import XeriError
from .accounts.passwords import Passwords
from .limits.bucket import BURST, RATE
from .limits.caps import Limits
from .limits.sign_in import parse_rate
from .rated.policy import RATED_TARGETS, LeaderboardRules
from .workers import BotBudget

#: HTTP requests per second (average, burst) from one client address
HTTP_RATE, HTTP_BURST = 50.0, 200.0

LogLevel = Literal["critical", "error", "warning", "info", "debug"]
LogFormat = Literal["text", "json"]

#: an --allow-host: a name (perhaps *.name), or an IP address (perhaps in brackets)
_HOST_NAME = re.compile(r"(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.?|[0-9a-fA-F:.]+|\[[0-9a-fA-F:.]+\]")


class ConfigError(XeriError):
    """A setting the server cannot start with; the message names its ``xeri serve`` option."""


@dataclass(frozen=True)
class Storage:
    """Where matches are kept, and whether this process is one of a cluster (docs/scaling.md)."""

    #: a URL or a path (default: SQLite in the data directory)
    db: str | None = None
    #: upgrade an older schema on start (None: yes on SQLite, no on PostgreSQL)
    auto_migrate: bool | None = None
    #: Redis pub/sub shared with other processes: with PostgreSQL, a cluster (server.cluster)
    redis: str | None = None
    #: seconds a process owns a table unless it renews it (default server.cluster.ownership.LEASE_SECONDS)
    lease: float | None = None


@dataclass(frozen=True)
class Listening:
    """Where the process listens, and how long it waits for a client (``xeri serve``'s uvicorn)."""

    host: str = "127.0.0.1"
    port: int = 8000
    #: the port whose requests get the Prometheus metrics (server.metrics), or None: no metrics
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"
    #: seconds to receive a whole HTTP request (no slowloris)
    request_timeout: float = 10.0
    #: seconds an idle HTTP connection stays open
    keep_alive: float = 5.0
    #: TCP connections one address may open a second (server.http.timeouts)
    connection_rate: float = 20.0

    @property
    def is_loopback(self) -> bool:
        """Bound to this machine only: beyond it, any IP address is a good Host too (server.http.security)."""
        if self.host.lower() == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host.strip("[]")).is_loopback
        except ValueError:
            return False


@dataclass(frozen=True)
class Edges:
    """Who may reach the server, and through what (server.http.security, docs/security.md)."""

    #: host names the server answers to besides loopback (``*.example.org``, ``*`` for any)
    allow_hosts: tuple[str, ...] = ()
    #: page origins whose browsers may open the WebSocket, besides the server's own
    allow_origins: tuple[str, ...] = ()
    #: reverse proxies (addresses or networks) whose X-Forwarded-For names the client
    trusted_proxies: tuple[str, ...] = ()


@dataclass(frozen=True)
class Rates:
    """Messages a second per connection and API requests a second per address (average, burst)."""

    message_rate: float = RATE
    message_burst: float = BURST
    http_rate: float = HTTP_RATE
    http_burst: float = HTTP_BURST


@dataclass(frozen=True)
class Bots:
    """The server's bots and the worker pool behind search bots, hints and replays (server.workers)."""

    #: seconds before a server bot moves, so people can follow
    delay: float = 0.4
    #: the bot level behind hints (None: the strongest)
    hint_level: str | None = None
    #: worker processes (None: one per core less one; 0: a thread)
    workers: int | None = None
    #: jobs that may wait for a worker (None: server.workers' default)
    queue: int | None = None
    budget: BotBudget = field(default_factory=BotBudget)


@dataclass(frozen=True)
class Logging:
    level: LogLevel = "warning"
    format: LogFormat = "text"


@dataclass(frozen=True)
class ServerConfig:
    """Every setting of a server process; checked when made (``validate``)."""

    storage: Storage = field(default_factory=Storage)
    listening: Listening = field(default_factory=Listening)
    edges: Edges = field(default_factory=Edges)
    rates: Rates = field(default_factory=Rates)
    bots: Bots = field(default_factory=Bots)
    #: the per-address caps (server.limits.caps)
    limits: Limits = field(default_factory=Limits)
    #: who the leaderboards list (server.rated.policy)
    leaderboard: LeaderboardRules = field(default_factory=LeaderboardRules)
    #: the scores a rated match may be played to (None: any end)
    rated_targets: tuple[int, ...] | None = RATED_TARGETS
    #: the bytes of gzipped replays kept (server.matches.replays)
    replay_cache_bytes: int = 64 << 20
    #: seconds between two reads of the operator's bars and requests (server.ops.admin)
    admin_every: float = 2.0
    #: the folder of Pyodide's files the offline pack serves (None: ``$XERI_OFFLINE_PACK``, or no pack)
    offline_pack: str | None = None
    #: the accounts' password hasher (None: argon2id at RFC 9106's parameters; tests pass a cheap one)
    passwords: Passwords | None = None
    logging: Logging = field(default_factory=Logging)

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Raise ConfigError, naming the option, at the first setting the server cannot run with."""
        where, rates, bots, storage = self.listening, self.rates, self.bots, self.storage
        if not 0 < where.port < 65536:
            raise ConfigError(f"--port must be 1..65535, not {where.port}")
        if storage.redis and not storage.redis.startswith(("redis://", "rediss://", "unix://")):
            raise ConfigError("--redis must be a redis:// URL")
        if storage.lease is not None and not 0.5 <= storage.lease <= 600:
            raise ConfigError("--lease must be 0.5..600 seconds")
        if not 0 < rates.message_rate <= 100000:
            raise ConfigError("--rate must be a positive number of messages a second")
        if not 0 < rates.http_rate <= 100000:
            raise ConfigError("--http-rate must be a positive number of requests a second")
        if not 0 <= bots.delay:
            raise ConfigError("--bot-delay must be 0..10 seconds")  # the command's bound (from_args); tests wait longer
        self._check_edges()
        if not 0 < where.request_timeout <= 3600 or not 0 < where.keep_alive <= 3600:
            raise ConfigError("--request-timeout and --keep-alive must be 0..3600 seconds (above 0)")
        if not 0 < where.connection_rate <= 100000:
            raise ConfigError("--connection-rate must be a positive number of connections a second")
        if bots.workers is not None and not 0 <= bots.workers <= 256:
            raise ConfigError("--workers must be 0..256 (0: one thread instead of processes)")
        if bots.queue is not None and not 0 <= bots.queue <= 10000:
            raise ConfigError("--bot-queue must be 0..10000")
        if where.metrics_port is not None and (not 0 < where.metrics_port < 65536 or where.metrics_port == where.port):
            raise ConfigError("--metrics-port must be 1..65535, and not the --port")
        if not 0.05 <= self.admin_every <= 3600:
            raise ConfigError("--admin-poll must be 0.05..3600 seconds")
        if self.leaderboard.min_games < 0:
            raise ConfigError("--leaderboard-games must be 0 or more")
        if not 0 < self.leaderboard.max_deviation < float("inf"):
            raise ConfigError("--leaderboard-deviation must be a positive number")
        if self.rated_targets is not None and (not self.rated_targets
                                               or any(not 1 <= t <= 10_000 for t in self.rated_targets)):
            raise ConfigError("--rated-targets: each score must be 1 to 10000")

    def _check_edges(self) -> None:
        """--allow-host, --allow-origin and --trusted-proxy."""
        for name in self.edges.allow_hosts:
            if name != "*" and not _HOST_NAME.fullmatch(name):
                raise ConfigError(f"--allow-host must be a host name such as xeri.example.org (no scheme or port), "
                                  f"*.example.org, or '*', not {name!r}")
        for origin in self.edges.allow_origins:
            if origin != "*" and not re.fullmatch(r"https?://[^/\s]+/?", origin):
                raise ConfigError(f"--allow-origin must be an origin such as https://example.org, or '*', "
                                  f"not {origin!r}")
        for proxy in self.edges.trusted_proxies:
            try:
                ipaddress.ip_network(proxy, strict=False)
            except ValueError:
                raise ConfigError(f"--trusted-proxy must be an IP address or network, not {proxy!r}") from None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> ServerConfig:
        """The config of ``xeri serve``'s parsed options (commands/serve.py ``configure``); ConfigError if bad."""
        if not 0 <= args.bot_delay <= 10:  # a player's pause before a bot's card; a test's server may wait longer
            raise ConfigError("--bot-delay must be 0..10 seconds")
        return cls(
            storage=Storage(db=args.db, auto_migrate=args.auto_migrate, redis=args.redis, lease=args.lease),
            listening=Listening(host=args.host, port=args.port, metrics_port=args.metrics_port,
                                metrics_host=args.metrics_host, request_timeout=args.request_timeout,
                                keep_alive=args.keep_alive, connection_rate=args.connection_rate),
            edges=Edges(allow_hosts=tuple(args.allow_host), allow_origins=tuple(args.allow_origin),
                        trusted_proxies=tuple(args.trusted_proxy)),
            rates=Rates(message_rate=args.rate, message_burst=2 * args.rate, http_rate=args.http_rate,
                        http_burst=4 * args.http_rate),
            bots=Bots(delay=args.bot_delay, workers=args.workers, queue=args.bot_queue, budget=_budget(args)),
            limits=_limits(args),
            leaderboard=_leaderboard(args.leaderboard_games, args.leaderboard_deviation),
            rated_targets=_rated_targets(args.rated_targets),
            admin_every=args.admin_poll,
            offline_pack=args.offline_pack,
            logging=Logging(level=args.log_level, format=args.log_format),
        )


def _rated_targets(text: str) -> tuple[int, ...] | None:
    """--rated-targets: 'any', or target scores such as 51,101."""
    if text.strip().lower() == "any":
        return None
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise ConfigError(f"--rated-targets must be 'any' or scores such as 51,101, not {text[:40]!r}") from None


def _leaderboard(games: int | None, deviation: float | None) -> LeaderboardRules:
    """Who the leaderboards list: the defaults of server.rated.policy, or the operator's own thresholds."""
    rules = LeaderboardRules()
    return LeaderboardRules(min_games=rules.min_games if games is None else games,
                            max_deviation=rules.max_deviation if deviation is None else deviation, size=rules.size)


def _sign_in_rates(args: argparse.Namespace) -> dict[str, tuple[int, float]]:
    """``--signin-limit``, ``--signin-name-limit`` and ``--signup-limit`` as (hits, seconds)."""
    rates = {}
    for flag in ("signin_limit", "signin_name_limit", "signup_limit"):
        try:
            rates[flag] = parse_rate(getattr(args, flag))
        except ValueError as exc:
            raise ConfigError(f"--{flag.replace('_', '-')}: {exc}") from None
    return rates


def _limits(args: argparse.Namespace) -> Limits:
    rates = _sign_in_rates(args)
    try:
        return Limits(waiting_per_address=args.waiting_per_address, playing_per_address=args.playing_per_address,
                      ws_per_address=args.ws_per_address, ws_per_seat=args.ws_per_seat,
                      ws_opens_per_second=args.ws_opens,
                      hint_cooldown=args.hint_cooldown, waiting_ttl=args.waiting_ttl,
                      lobby_per_address=args.lobby_per_address, max_rounds=args.max_rounds,
                      max_target=args.max_target, max_replay_bytes=int(args.max_replay_mb * (1 << 20)),
                      signins_per_address=rates["signin_limit"][0], signin_address_window=rates["signin_limit"][1],
                      signins_per_name=rates["signin_name_limit"][0],
                      signin_name_window=rates["signin_name_limit"][1],
                      signups_per_address=rates["signup_limit"][0], signup_window=rates["signup_limit"][1])
    except ValueError as exc:
        raise ConfigError(f"bad limit: {exc}") from None


def _budget(args: argparse.Namespace) -> BotBudget:
    try:
        return BotBudget(seconds=args.bot_seconds, iterations=args.bot_iterations)
    except ValueError as exc:
        raise ConfigError(f"bad limit: {exc}") from None
