"""``ServerConfig``: every setting of one server process, read once (from ``xeri serve``'s options or a test's
keywords) and checked once, so ``create_app`` and ``serve`` only read it.

``xeri serve``'s options are made from ``OPTIONS``: each names the settings it sets, its help and how it reads,
once; its default is the setting's own default, here, so a new setting is its field and one ``Option``.
A bad value is a ``ConfigError`` naming its ``xeri serve`` option, which the command line prints as one line.
"""

from __future__ import annotations

import argparse
import ipaddress
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal, get_args

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
        """The config of ``xeri serve``'s parsed options (``add_options``): each option given replaces its settings
        in the default config; ConfigError, naming the option, if one is bad."""
        if args.bot_delay is not None and not 0 <= args.bot_delay <= 10:  # a player's pause; a test's may be longer
            raise ConfigError("--bot-delay must be 0..10 seconds")
        given: dict[str, Any] = {}
        for option in OPTIONS:
            value = getattr(args, option.dest)
            if value is not None and value != []:
                given.update(zip(option.sets, option.read(tuple(value) if option.many else value), strict=True))
        config: ServerConfig = _replaced(cls(), given)
        return config


def _replaced(value: Any, settings: dict[str, Any]) -> Any:
    """``value`` (a frozen dataclass) with ``settings`` ({"bots.delay": 1.0, ...}) replaced, each part made (and
    checked) once; a part's own refusal (Limits, BotBudget) is a ConfigError."""
    own: dict[str, Any] = {}
    parts: dict[str, dict[str, Any]] = {}
    for path, setting in settings.items():
        head, _, rest = path.partition(".")
        if rest:
            parts.setdefault(head, {})[rest] = setting
        else:
            own[head] = setting
    try:
        for head, inner in parts.items():
            own[head] = _replaced(getattr(value, head), inner)
        return replace(value, **own) if own else value
    except ConfigError:
        raise
    except ValueError as exc:
        raise ConfigError(f"bad limit: {exc}") from None


# --- xeri serve's options: each one's settings, help and reading, once; its default is the setting's own ----------


def _shown(*values: Any) -> str:
    value = values[0]
    return f"{value:g}" if isinstance(value, float) else str(value)


@dataclass(frozen=True)
class Option:
    """One ``xeri serve`` option: the settings it sets (paths into ServerConfig) and how it reads.

    Its default is no value: an option not given leaves its settings at ServerConfig()'s, which ``--help`` shows
    (``shown``; None where the help says it in words)."""

    flag: str
    sets: tuple[str, ...]
    help: str
    #: the ``--help`` group (GROUPS), or "" for the first
    group: str = ""
    metavar: str | None = None
    #: argparse's type (a value it cannot read is argparse's own one-line error)
    kind: Callable[[str], Any] | None = None
    #: the value given (after ``kind``) as the values of ``sets``; ConfigError, naming the option, if bad
    reads: Callable[[Any], tuple[Any, ...]] | None = None
    shown: Callable[..., str] | None = _shown
    choices: tuple[str, ...] | None = None
    #: repeated, each value kept (a tuple)
    many: bool = False
    #: a switch: --NAME and --no-NAME
    switch: bool = False

    @property
    def dest(self) -> str:
        return self.flag.removeprefix("--").replace("-", "_")

    def read(self, value: Any) -> tuple[Any, ...]:
        return self.reads(value) if self.reads is not None else (value,)

    def add_to(self, parser: argparse.ArgumentParser | argparse._ArgumentGroup, defaults: ServerConfig) -> None:
        text = self.help
        if self.shown is not None:
            text += f" (default {self.shown(*(_setting(defaults, path) for path in self.sets))})"
        extra: dict[str, Any] = {"action": "append"} if self.many else {"type": self.kind} if self.kind else {}
        if self.switch:
            extra = {"action": argparse.BooleanOptionalAction}
        if self.metavar is not None:
            extra["metavar"] = self.metavar
        if self.choices is not None:
            extra["choices"] = self.choices
        parser.add_argument(self.flag, default=None, help=text, **extra)


def _setting(config: Any, path: str) -> Any:
    for name in path.split("."):
        config = getattr(config, name)
    return config


def _sign_in_rate(flag: str) -> Callable[[str], tuple[int, float]]:
    def read(text: str) -> tuple[int, float]:
        try:
            return parse_rate(text)
        except ValueError as exc:
            raise ConfigError(f"{flag}: {exc}") from None
    return read


def _rate_shown(hits: int, seconds: float) -> str:
    return f"'{hits} per {seconds / 60:g} minutes'"


def _rated_targets(text: str) -> tuple[tuple[int, ...] | None]:
    """--rated-targets: 'any', or target scores such as 51,101."""
    if text.strip().lower() == "any":
        return (None,)
    try:
        return (tuple(int(part) for part in text.split(",")),)
    except ValueError:
        raise ConfigError(f"--rated-targets must be 'any' or scores such as 51,101, not {text[:40]!r}") from None


#: the ``--help`` groups of the options, in order (the first, "", is argparse's own)
GROUPS = {
    "ops": "operations (docs/operations.md)",
    "edges": "edges (docs/security.md)",
    "caps": "limits (one client cannot slow every table; docs/security.md)",
    "accounts": "sign-in limits (docs/accounts.md); RATE is the limits library's notation: 5/minute, "
                "30 per 10 minutes, 100/day",
    "boards": "leaderboards (docs/ratings.md)",
}

#: every ``xeri serve`` option but ``--data-dir`` (the command's own: where the default database lives)
OPTIONS: tuple[Option, ...] = (
    Option("--host", ("listening.host",), "address to listen on"),
    Option("--port", ("listening.port",), "port to listen on", kind=int),
    Option("--db", ("storage.db",), "database: sqlite:///PATH, a file path, or postgresql://user:pass@host/db "
           "(default: SQLite in the data directory)", metavar="URL", shown=None),
    Option("--bot-delay", ("bots.delay",), "pause before a server bot moves, so people can follow",
           metavar="SECONDS", kind=float),
    Option("--redis", ("storage.redis",), "share table messages between server processes through Redis pub/sub "
           "(redis://host:6379/0; see docs/scaling.md)", metavar="URL", shown=None),
    Option("--lease", ("storage.lease",), "with --redis on PostgreSQL: how long a process owns a table unless it "
           "renews it, so a dead process's tables move after this (default 5; docs/scaling.md)", metavar="SECONDS",
           kind=float, shown=None),
    Option("--rate", ("rates.message_rate", "rates.message_burst"), "messages a second each connection may send, "
           "bursts of twice that", metavar="N", kind=float, reads=lambda rate: (rate, 2 * rate)),
    Option("--http-rate", ("rates.http_rate", "rates.http_burst"), "API requests a second from one client address, "
           "bursts of four times that", metavar="N", kind=float, reads=lambda rate: (rate, 4 * rate)),
    Option("--offline-pack", ("offline_pack",), "serve the offline pack, so the page plays the computer with no "
           "network: DIR is Pyodide's folder, npm's pyodide package (npm install pyodide@314.0.8, then "
           "node_modules/pyodide; default $XERI_OFFLINE_PACK; docs/web.md#offline)", metavar="DIR", shown=None),
    Option("--log-level", ("logging.level",), "what the log keeps", choices=get_args(LogLevel)),
    Option("--log-format", ("logging.format",), "text lines, or one JSON object a line (time, level, event, table; "
           "docs/operations.md)", "ops", choices=get_args(LogFormat)),
    Option("--auto-migrate", ("storage.auto_migrate",), "upgrade an older database schema on start (default: yes "
           "on SQLite, which one process owns; no on PostgreSQL, where `xeri db upgrade` does it once for every "
           "process)", "ops", switch=True, shown=None),
    Option("--metrics-port", ("listening.metrics_port",), "serve Prometheus metrics at /metrics on this port "
           "(default: no metrics); never on the public port, since they count addresses", "ops", metavar="PORT",
           kind=int, shown=None),
    Option("--metrics-host", ("listening.metrics_host",), "the address of the metrics port", "ops",
           metavar="HOST"),
    Option("--admin-poll", ("admin_every",), "how often this process reads the operator's bars and requests "
           "(`xeri admin`)", "ops", metavar="SECONDS", kind=float),
    Option("--allow-host", ("edges.allow_hosts",), "a host name the server answers to (xeri.example.org, "
           "*.example.org for its subdomains, '*' for any); repeat for several. Default: localhost and loopback "
           "addresses, and any IP address when --host is not loopback; others get 421", "edges", metavar="NAME",
           many=True, shown=None),
    Option("--allow-origin", ("edges.allow_origins",), "a page origin (https://example.org) whose browsers may "
           "open the WebSocket, besides the server's own; repeat for several, '*' for any (default: the server's "
           "own only)", "edges", metavar="ORIGIN", many=True, shown=None),
    Option("--trusted-proxy", ("edges.trusted_proxies",), "a reverse proxy's address or network (10.0.0.0/8) whose "
           "X-Forwarded-For names the client; repeat for several (default: none, the peer's address is the "
           "client's)", "edges", metavar="ADDRESS", many=True, shown=None),
    Option("--workers", ("bots.workers",), "processes for search bots, hints and replays (default: one per core "
           "less one)", "caps", metavar="N", kind=int, shown=None),
    Option("--bot-queue", ("bots.queue",), "jobs that may wait for a worker, in turn; beyond, a search bot's move "
           "is played by the expert bot and a hint or replay gets busy (default 64)", "caps", metavar="N", kind=int,
           shown=None),
    Option("--bot-seconds", ("bots.budget.seconds",), "the most a search bot thinks per move, whatever its level "
           "asks", "caps", metavar="S", kind=float),
    Option("--bot-iterations", ("bots.budget.iterations",), "the most playouts a search bot runs per move", "caps",
           metavar="N", kind=int),
    Option("--waiting-per-address", ("limits.waiting_per_address",), "tables waiting for players that one address "
           "may create", "caps", metavar="N", kind=int),
    Option("--playing-per-address", ("limits.playing_per_address",), "tables in play that one address may have "
           "created", "caps", metavar="N", kind=int),
    Option("--ws-per-address", ("limits.ws_per_address",), "WebSocket connections at once from one address", "caps",
           metavar="N", kind=int),
    Option("--ws-opens", ("limits.ws_opens_per_second",), "WebSocket connections one address may open a second, "
           "bursts of four times that", "caps", metavar="N", kind=float),
    Option("--ws-per-seat", ("limits.ws_per_seat",), "WebSocket connections at once on one seat", "caps",
           metavar="N", kind=int),
    Option("--hint-cooldown", ("limits.hint_cooldown",), "seconds between two hints for one seat", "caps",
           metavar="S", kind=float),
    Option("--waiting-ttl", ("limits.waiting_ttl",), "seconds a table may wait for players before it is closed",
           "caps", metavar="S", kind=float),
    Option("--lobby-per-address", ("limits.lobby_per_address",), "tables of one creating address that the lobby "
           "lists, the newest", "caps", metavar="N", kind=int),
    Option("--max-rounds", ("limits.max_rounds",), "rounds a match may have", "caps", metavar="N", kind=int),
    Option("--max-target", ("limits.max_target",), "the highest target score of a match", "caps", metavar="N",
           kind=int),
    Option("--max-replay-mb", ("limits.max_replay_bytes",), "the largest replay served; a longer match offers its "
           "record only", "caps", metavar="MB", kind=float, reads=lambda mb: (int(mb * (1 << 20)),),
           shown=lambda size: f"{size / (1 << 20):g}"),
    Option("--request-timeout", ("listening.request_timeout",), "seconds to receive a whole HTTP request, or the "
           "connection closes", "caps", metavar="S", kind=float),
    Option("--connection-rate", ("listening.connection_rate",), "TCP connections one address may open a second, "
           "bursts of four times that; beyond, each is answered 429 and closed; through a --trusted-proxy, the "
           "requests of the address its X-Forwarded-For names are counted instead, ten for one", "caps",
           metavar="N", kind=float),
    Option("--keep-alive", ("listening.keep_alive",), "seconds an idle HTTP connection stays open", "caps",
           metavar="S", kind=float),
    Option("--signin-limit", ("limits.signins_per_address", "limits.signin_address_window"), "sign-in attempts "
           "from one address", "accounts", metavar="RATE", reads=_sign_in_rate("--signin-limit"), shown=_rate_shown),
    Option("--signin-name-limit", ("limits.signins_per_name", "limits.signin_name_window"), "sign-in attempts for "
           "one account name, from anywhere", "accounts", metavar="RATE", reads=_sign_in_rate("--signin-name-limit"),
           shown=_rate_shown),
    Option("--signup-limit", ("limits.signups_per_address", "limits.signup_window"), "accounts one address may "
           "make", "accounts", metavar="RATE", reads=_sign_in_rate("--signup-limit"), shown=_rate_shown),
    Option("--leaderboard-games", ("leaderboard.min_games",), "rated matches a player needs in a format to be on "
           "its leaderboard", "boards", metavar="N", kind=int),
    Option("--leaderboard-deviation", ("leaderboard.max_deviation",), "the largest deviation a leaderboard lists",
           "boards", metavar="D", kind=float),
    Option("--rated-targets", ("rated_targets",), "the scores a rated match may be played to, comma-separated, or "
           "'any' for any match end, one round too", "boards", metavar="LIST", reads=_rated_targets,
           shown=lambda targets: "any" if targets is None else ",".join(map(str, targets))),
)


def add_options(parser: argparse.ArgumentParser) -> None:
    """``xeri serve``'s options, made from ``OPTIONS``: their defaults are ServerConfig()'s, shown by ``--help``."""
    defaults = ServerConfig()
    groups: dict[str, argparse.ArgumentParser | argparse._ArgumentGroup] = {"": parser}
    for option in OPTIONS:
        if option.group not in groups:
            groups[option.group] = parser.add_argument_group(GROUPS[option.group])
        option.add_to(groups[option.group], defaults)
