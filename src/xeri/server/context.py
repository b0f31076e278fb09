"""What the route handlers (server.api, server.socket.route) share: built once by ``create_app``, kept on
``app.state.ctx``."""

from __future__ import annotations

from dataclasses import dataclass, field

from starlette.requests import HTTPConnection

from .cluster import Cluster
from .config import HTTP_BURST, HTTP_RATE
from .limits.bucket import BURST, RATE, TokenBucket
from .limits.shared import SharedCaps
from .lobby.lobby import Lobby
from .matches.replays import ReplayCache
from .matches.reviews import ReviewCache
from .store import Store
from .workers import Workers


@dataclass
class Context:
    """What the route handlers share, kept on ``app.state.ctx``."""

    store: Store
    lobby: Lobby
    #: the process pool of search bots, hints and replays
    workers: Workers
    replays: ReplayCache
    rate: float = RATE
    burst: float = BURST
    http_rate: float = HTTP_RATE
    http_burst: float = HTTP_BURST
    #: per client address, its HTTP request bucket (in order of last use)
    buckets: dict[str, TokenBucket] = field(default_factory=dict)
    #: per client address, its bucket of WebSocket opens (server.limits.caps ``ws_opens_per_second``)
    ws_opens: dict[str, TokenBucket] = field(default_factory=dict)
    #: reviews of finished matches, built move by move in the worker pool and cached (server.matches.reviews)
    reviews: ReviewCache = field(default_factory=ReviewCache)
    #: this process's node in a cluster (server.cluster), or None when it serves alone
    cluster: Cluster | None = None
    #: in a cluster, the per-address caps counted across every process (server.limits.shared)
    caps: SharedCaps | None = None


def ctx(request: HTTPConnection) -> Context:
    return request.app.state.ctx  # type: ignore[no-any-return]


def client(request: HTTPConnection) -> str:
    """The client's address, the key of its per-address limits."""
    return request.client.host if request.client else "-"
