"""The ASGI app of ``xeri serve``: HTTP routes for the lobby and history, a WebSocket per player.

The routes and messages are documented in docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gzip
import json
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.websockets import WebSocket

from .. import __version__ as _version
from .. import fairness
from ..bots.registry import available_levels
from ..errors import XeriError
from ..record import deal_from_dict, deal_to_dict
from ..rules import PRESET_HELP, PRESETS, Ruleset, find_ruleset
from ..scoring import point_items
from . import metrics
from .accounts import routes as account_routes
from .accounts import sessions
from .accounts.passwords import Passwords
from .accounts.service import AccountService
from .broker.pubsub import Broker, InProcessBroker
from .cluster import Cluster, make_cluster, refuse_mixed_modes
from .http import offline_pack as offline
from .http.bodies import read_body as _body
from .http.qr import qr
from .http.security import origin_allowed, secure
from .http.static import PageFiles, page_response
from .limits.bucket import BURST, RATE, TokenBucket, take
from .limits.caps import Limits
from .limits.shared import SharedCaps
from .limits.sign_in import AccountLimits
from .lobby.lobby import NAME_LENGTH, Lobby, check_name, options_help
from .matches.forget import Forgetter
from .matches.replays import ReplayCache, ReplayTooLarge
from .matches.reviews import ReviewBusy, ReviewCache, ReviewFailed
from .matches.summaries import summary
from .ops.admin import install as install_operator
from .ops.health import healthz, readyz
from .pairing import routes as pairing_routes
from .pairing.service import Pairer, PairingService
from .pairing.shared import SharedPairing
from .rated import routes as rating_routes
from .rated.policy import RATED_TARGETS, LeaderboardRules
from .socket.connection import CLOSE_TOO_MANY, MAX_MESSAGE, serve_socket
from .store import Store, StoreError, StoreUnavailable
from .table import unavailable
from .table.commands import Join, Leave, Origin
from .table.handle import TableHandle
from .table.seats import hash_token, may_use
from .wire import inputs, messages
from .wire.protocol import TAKEOVER_AFTER, TURN_TIMER, JoinTable, LeaveTable, VerifyRecord, VerifyRound
from .wire.refusals import ProtocolError, private_match
from .workers import BotBudget, PoolBusy, Workers

WEB_DIR = offline.WEB_DIR  # the package's page, or $XERI_WEB_DIR
#: the close code of a WebSocket from an origin that is not allowed (sent as HTTP 403 before the handshake)
CLOSE_BAD_ORIGIN = 4403
#: the bound of ``?seat=`` (a review then names the match's own seats)
MAX_SEAT = 99

_STATUS = {"no_such_table": 404, "no_such_match": 404, "no_such_player": 404, "bad_token": 403,
           "table_full": 409, "seat_taken": 409, "not_waiting": 409, "not_finished": 409, "too_large": 413,
           "rate_limited": 429,
           "unsupported_media_type": 415, "unavailable": 503, "too_many_tables": 429, "too_many_connections": 429,
           "hint_cooldown": 429, "busy": 503, "private_match": 403, "game_over": 409,
           "bad_credentials": 401, "not_signed_in": 401, "csrf": 403, "name_taken": 409, "tables_open": 409,
           "rated_needs_account": 401, "no_such_format": 404, "no_such_seek": 404}

#: HTTP requests per second (average, burst) from one client address
HTTP_RATE, HTTP_BURST = 50.0, 200.0

PLACEHOLDER = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Xeri</title>
<body><h1>Xeri server</h1><p>The browser page is not installed. The API is described in docs/protocol.md:
try <a href="/api/meta">/api/meta</a> and <a href="/api/tables">/api/tables</a>.</p></body></html>"""


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


def _answer(model: type[messages.Model], data: Any, status_code: int = 200) -> Response:
    """An answer checked against its model (server.wire.messages), as the page's declarations describe it."""
    return Response(messages.answer(model, data), status_code=status_code, media_type="application/json")


def _error(exc: ProtocolError) -> JSONResponse:
    metrics.refused(exc.code, "http")
    wait = exc.extra.get("retry_after")
    return JSONResponse({"error": {"code": exc.code, "message": exc.message, **exc.extra}},
                        status_code=_STATUS.get(exc.code, 400),
                        headers={"Retry-After": str(wait)} if isinstance(wait, int) else None)


def _limit(request: Request, default: int = 50) -> int:
    """``?limit=``: digits only; beyond 1..500 it is brought into that range."""
    return inputs.query_int(request.query_params, "limit", default, 1, 500, clamp=True)


def _client(request: HTTPConnection) -> str:
    """The client's address, the key of its per-address limits."""
    return request.client.host if request.client else "-"


async def _allowed(request: HTTPConnection) -> bool:
    """Take one request from the client address's bucket: across the cluster when one runs (server.limits.shared)."""
    c = ctx(request)
    host = _client(request)
    if c.caps is not None:
        shared = await c.caps.allow_request(host)
        if shared is not None:
            return shared
    return take(c.buckets, host, c.http_rate, c.http_burst)


Handler = Callable[[Request], Awaitable[Response]]


def _check_address(request: Request) -> None:
    """Path and query text the database can hold (no NUL, no lone surrogate), before any handler reads it."""
    for key, value in (*request.path_params.items(), *request.query_params.multi_items()):
        if isinstance(value, str):
            inputs.check_text(value, f"the address's {key!r}")


def api(handler: Handler) -> Handler:
    """An API route: rate-limited per client address; a refusal becomes its 4xx (or 503) JSON error."""

    @functools.wraps(handler)
    async def wrapped(request: Request) -> Response:
        try:
            if not await _allowed(request):
                raise ProtocolError("rate_limited", f"slow down: at most {ctx(request).http_rate:g} requests a second")
            _check_address(request)
            if request.method == "POST":  # a POST made with the session cookie proves it came from this page
                await sessions.check_csrf(request, ctx(request).store, request.app.state.security.allow_origins)
            return await handler(request)
        except ProtocolError as exc:
            return _error(exc)
        except StoreError as exc:
            if request.method in ("GET", "HEAD"):  # a read: nothing was to be stored
                detail = str(exc) if isinstance(exc, StoreUnavailable) else "the database refused it"
                return _error(ProtocolError("unavailable", f"the request could not be answered ({detail}); "
                                            "try again", retry=True))
            return _error(unavailable(exc, "the request"))

    return wrapped


async def _table_of(request: Request) -> TableHandle:
    table = await ctx(request).lobby.get(request.path_params["table_id"])
    if table is None:
        raise ProtocolError("no_such_table", "there is no such table")
    return table


async def _account_id(request: HTTPConnection) -> str | None:
    """The signed-in account of the request (server.accounts.sessions), or None for a guest."""
    me = await sessions.current(request, ctx(request).store)
    return me.account.id if me is not None else None


async def _seat_of(table: TableHandle, token: str, request: HTTPConnection) -> int | None:
    """The seat ``token`` holds at ``table``, if this request may use it: a signed-in player's seat answers to
    that account's session only (server.table.seats ``may_use``)."""
    seat = table.seat_for_token(token)
    if seat is not None and table.seat_account(seat) is not None:
        if not may_use(table.seat_account(seat), await _account_id(request)):
            return None
    return seat


async def _shown_table(request: Request) -> TableHandle:
    """A table to describe: a finished private one only with one of its seats' tokens (or its account's session)."""
    table = await _table_of(request)
    if table.status == "finished" and table.info().private:
        token = _seat_token(request)
        if token is None or await _seat_of(table, token, request) is None:
            account = await _account_id(request)
            if account is None or account not in {a for a, _c in (await ctx(request).store.seat_accounts(
                    table.id)).values()}:
                raise private_match()
    return table


def _seat_token(request: HTTPConnection) -> str | None:
    """The seat token a finished private match asks for: the ``X-Seat-Token`` header, or ``?token=`` (a link)."""
    return request.headers.get("x-seat-token") or request.query_params.get("token") or None


async def _open_match(request: Request) -> None:
    """A finished match any may see, or a private one asked for with one of its seats' tokens.

    Checked before any cache is read: a cached replay or review of a private match is still private.
    """
    table_id = request.path_params["table_id"]
    found = await ctx(request).store.access(table_id) if inputs.is_table_id(table_id) else None
    if found is None:
        raise ProtocolError("no_such_match", "there is no such match")
    _status, private, hashes = found
    if private:
        token = _seat_token(request)
        digest = hash_token(token) if token is not None else None
        account = await _account_id(request)
        held = await ctx(request).store.seat_accounts(table_id)
        proven = [seat for seat, h in hashes if digest is not None and secrets.compare_digest(digest, h)]
        # A seat's token opens the match (one taken signed in only with its account's session), and so does the
        # session of an account holding one of its seats.
        bound = {seat: held_by for seat, (held_by, claimed) in held.items() if not claimed}
        if not any(may_use(bound.get(seat), account) for seat in proven) \
                and account not in {held_by for held_by, _claimed in held.values()}:
            raise private_match()


# --- pages ---------------------------------------------------------------


async def index(request: Request) -> Response:
    page = WEB_DIR / "index.html"
    return page_response(request, page) if page.is_file() else HTMLResponse(PLACEHOLDER)


async def invite(request: Request) -> Response:
    return RedirectResponse(f"/#/t/{request.path_params['table_id']}", status_code=302)


# --- lobby ---------------------------------------------------------------


async def health(_request: Request) -> Response:
    return JSONResponse({"ok": True})


def _rulesets() -> list[dict[str, Any]]:
    """Each preset with its options and its point cards, so How to play tells what every card is worth."""
    return [{"name": name, "help": PRESET_HELP.get(name, ""), "options": r.options(),
             "point_items": [{"label": i.label, "points": i.points, "each": len(i.cards) > 1}
                             for i in point_items(r.scoring, r.two_of_spades)]}
            for name, r in PRESETS.items()]


async def meta(request: Request) -> Response:
    return _answer(messages.ServerMeta, {
        "rulesets": _rulesets(), "options": options_help(), "levels": available_levels(), "version": _version,
        "limits": {"turn_timer": list(TURN_TIMER), "takeover_after": list(TAKEOVER_AFTER),
                   "name_length": NAME_LENGTH, "message_bytes": MAX_MESSAGE},
        # The offline pack this server serves (its levels, size and version), or null (server.http.offline_pack).
        "offline": await offline.summary(request),
        "rated_targets": None if (targets := ctx(request).lobby.rated_targets) is None else list(targets),
    })


async def list_rulesets(_request: Request) -> Response:
    return JSONResponse(_rulesets())


async def levels(_request: Request) -> Response:
    return JSONResponse(available_levels())


async def tables(request: Request) -> Response:
    lobby = ctx(request).lobby
    if request.method == "POST":
        body = await _body(request)
        me = await sessions.current(request, ctx(request).store)
        holder = (me.account.id, me.account.name) if me is not None else None
        table, seat, token = await lobby.create(body, _client(request), holder)
        out: dict[str, Any] = {"table_id": table.id, "table": table.info(), "invite": f"/#/t/{table.id}"}
        if token is not None:
            out.update(seat=seat, token=token)
        return _answer(messages.Created, out, status_code=201)
    return _answer(messages.TableList, {"tables": await lobby.listing(request.query_params.get("status", "open"))})


async def table_info(request: Request) -> Response:
    return _answer(messages.Table, (await _shown_table(request)).info())


async def join(request: Request) -> Response:
    table = await _table_of(request)
    body = JoinTable.read(await _body(request))
    name = check_name(body.name)
    me = await sessions.current(request, ctx(request).store)
    if me is not None:  # signed in: the seat is the account's, under its name
        joined = await table.handle(Join(name=me.account.name, seat=body.seat, account=me.account.id), Origin())
    else:
        joined = await table.handle(Join(name=name, seat=body.seat), Origin())
    seat, token = joined.seated()
    return _answer(messages.Seated, {"table_id": table.id, "seat": seat, "token": token, "table": table.info()})


async def leave(request: Request) -> Response:
    table = await _table_of(request)
    token = LeaveTable.read(await _body(request)).token
    if table.seat_for_token(token) is not None and await _seat_of(table, token, request) is None:
        raise ProtocolError("bad_token", "that seat is another account's: sign in as it to leave")
    await table.handle(Leave(token=token), Origin())
    ctx(request).lobby.release(table)
    return _answer(messages.LeftTable, {"ok": True, "table": table.info()})


async def table_fairness(request: Request) -> Response:
    return _answer(messages.Fairness, (await _shown_table(request)).fairness_report())


# --- history ---------------------------------------------------------------


async def matches(request: Request) -> Response:
    player = request.query_params.get("player") or None
    rows = await ctx(request).store.finished_matches(player, _limit(request))
    return _answer(messages.MatchList, {"matches": [summary(r) for r in rows]})


async def _finished_text(request: Request) -> str:
    table_id = request.path_params["table_id"]
    found = await ctx(request).store.record_text(table_id) if inputs.is_table_id(table_id) else None
    if found is None:
        raise ProtocolError("no_such_match", "there is no such match")
    status, text = found
    if status != "finished" or text is None:
        raise ProtocolError("not_finished", "the match is not finished: its record keeps hidden cards until then")
    return text


async def finished_record(request: Request) -> dict[str, Any]:
    return json.loads(await _finished_text(request))  # type: ignore[no-any-return]


async def record(request: Request) -> Response:
    await _open_match(request)
    data = await finished_record(request)
    name = f"xeri-{request.path_params['table_id']}.json"
    return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="{name}"'})


async def replay(request: Request) -> Response:
    """Built in the worker pool, not on the event loop, and cached: a finished match never changes.

    Kept gzipped (server.matches.replays) and sent so; a client that does not take gzip gets it unzipped in a thread.
    """
    await _open_match(request)
    replays = ctx(request).replays
    try:
        data = await replays.get(request.path_params["table_id"], lambda: _finished_text(request))
    except PoolBusy:
        raise ProtocolError("busy", "the server is busy: try the replay again in a moment") from None
    except ReplayTooLarge as exc:
        raise ProtocolError("too_large", str(exc)) from None
    if not replays.gzipped:
        return Response(data, media_type="application/json")
    if "gzip" in request.headers.get("accept-encoding", "").lower():
        return Response(data, media_type="application/json",
                        headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
    return Response(await asyncio.to_thread(gzip.decompress, data), media_type="application/json")


async def review(request: Request) -> Response:
    """One seat's review of a finished match (xeri.review): 200 with it once built, 202 with the progress before.

    The first request starts the build off the event loop; the browser polls until it is done. Cached.
    """
    seat = inputs.query_int(request.query_params, "seat", 0, 0, MAX_SEAT, what="a seat number")
    await _open_match(request)

    async def text() -> str:
        return json.dumps(await finished_record(request))

    try:
        out = await ctx(request).reviews.request(request.path_params["table_id"][:32], seat, text)
    except XeriError as exc:
        raise ProtocolError("bad_request", str(exc)) from None
    except (ReviewBusy, ReviewFailed) as exc:
        raise ProtocolError("unavailable", str(exc)) from None
    return _answer(messages.ReviewProgress, out, status_code=200 if out["state"] == "done" else 202)


async def players(request: Request) -> Response:
    found = await ctx(request).store.player_stats(None, _limit(request))
    return _answer(messages.PlayerList, {"players": [p.to_dict() for p in found]})


async def player(request: Request) -> Response:
    name = request.path_params["name"]
    found = await ctx(request).store.player_stats(name)
    if not found:
        return _answer(messages.Stats, {"name": name, "games": 0, "wins": 0, "points": 0, "xeris": 0,
                                        "jack_xeris": 0})
    return _answer(messages.Stats, found[0].to_dict())


# --- fairness ----------------------------------------------------------------


async def verify(request: Request) -> Response:
    body = await _body(request)
    try:
        if isinstance(body, dict) and "record" in body:
            whole = VerifyRecord.read(body)
            verdict = fairness.verify_match(whole.record, whole.match_commitment)
            checks = verdict.checks
            out = {
                "ok": verdict.ok, "finished": verdict.finished, "scheme": verdict.scheme, "binds": verdict.binds,
                "detail": "; ".join(f"round {c.round}: {c.detail}" if c.round else c.detail for c in checks),
                "rounds": [{"round": c.round, "ok": c.ok, "detail": c.detail} for c in checks if c.round],
            }
        else:
            one = VerifyRound.read(body)
            ruleset = find_ruleset(one.ruleset) if isinstance(one.ruleset, str) else Ruleset.from_dict(one.ruleset)
            if not 0 <= one.dealer < ruleset.players:
                raise ProtocolError("bad_request",
                                    "give ruleset, dealer (a seat), seed (an integer), salt and commitment")
            seed = int(one.seed)  # a 64-bit seed comes as its digits (server.wire.messages), an integer from others
            deal = deal_from_dict(one.deal) if one.deal is not None else None
            check = fairness.verify_round(ruleset, one.dealer, seed, one.salt, one.commitment, deal, one.round)
            out = {"ok": check.ok, "detail": check.detail,
                   "rounds": [{"round": check.round, "ok": check.ok, "detail": check.detail}],
                   "deal": deal_to_dict(check.deal) if check.deal else None}
    except (XeriError, TypeError, AttributeError, ValueError, OverflowError) as exc:
        raise ProtocolError("bad_request", str(exc)) from None
    return _answer(messages.Verdict, out)


async def socket(ws: WebSocket) -> None:
    c = ctx(ws)
    if not origin_allowed(ws):
        # A page of another site may not play with its visitor's seat (cross-site WebSocket hijacking).
        metrics.refused("bad_origin", "socket")
        await ws.close(code=CLOSE_BAD_ORIGIN, reason="this origin may not connect (see xeri serve --allow-origin)")
        return
    # An address opens only so many connections a second and holds only so many at once; beyond,
    # the handshake is refused (HTTP 403) before any work, so a reconnect storm stays cheap.
    host, limits = _client(ws), c.lobby.limits
    opened = await c.caps.allow_open(host) if c.caps is not None else None  # across the cluster (server.limits.shared)
    if opened is None:
        opened = take(c.ws_opens, host, limits.ws_opens_per_second, max(4 * limits.ws_opens_per_second, 1.0))
    if not opened or c.lobby.book.sockets.get(host, 0) >= limits.ws_per_address:
        metrics.refused("too_many_connections", "socket")
        await ws.close(code=CLOSE_TOO_MANY)
        return
    me = await sessions.current(ws, c.store) if sessions.cookie_value(ws) is not None else None
    await serve_socket(ws, c.lobby, c.rate, c.burst, account=me.account.id if me is not None else None)


ROUTES = [
    Route("/", index),
    Route("/t/{table_id}", invite),
    Route("/api/health", api(health)),
    Route("/healthz", healthz),
    Route("/readyz", readyz),
    Route("/api/meta", api(meta)),
    Route("/api/rulesets", api(list_rulesets)),
    Route("/api/levels", api(levels)),
    Route("/api/tables", api(tables), methods=["GET", "POST"]),
    Route("/api/tables/{table_id}", api(table_info)),
    Route("/api/tables/{table_id}/join", api(join), methods=["POST"]),
    Route("/api/pairing", api(pairing_routes.seek), methods=["GET", "POST"]),
    Route("/api/qr.svg", api(qr)),
    Route("/api/pairing/{seek_id}", api(pairing_routes.poll), methods=["GET", "DELETE"]),
    Route("/api/tables/{table_id}/leave", api(leave), methods=["POST"]),
    Route("/api/tables/{table_id}/fairness", api(table_fairness)),
    Route("/api/matches", api(matches)),
    Route("/api/matches/{table_id}/record", api(record)),
    Route("/api/matches/{table_id}/replay", api(replay)),
    Route("/api/matches/{table_id}/review", api(review)),
    Route("/api/players", api(players)),
    Route("/api/players/{name}/stats", api(player)),
    Route("/api/verify", api(verify), methods=["POST"]),
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
    try:
        yield
    finally:
        sweeping.cancel()
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


def create_app(db: str | None = None, *, bot_delay: float = 0.4, broker: Broker | None = None,
               rate: float = RATE, burst: float = BURST, hint_level: str | None = None,
               http_rate: float = HTTP_RATE, http_burst: float = HTTP_BURST, limits: Limits | None = None,
               workers: int | None = None, bot_queue: int | None = None, bot_budget: BotBudget | None = None,
               replay_cache_bytes: int = 64 << 20, lease: float | None = None, metrics_port: int | None = None,
               admin_every: float = 2.0, offline_pack: str | Path | None = None,
               passwords: Passwords | None = None, leaderboard: LeaderboardRules | None = None,
               rated_targets: Sequence[int] | None = RATED_TARGETS) -> Starlette:
    """The app, storing in ``db`` (a URL or path; default SQLite in the data directory).

    ``rate`` and ``burst`` set each connection's message limit (benchmarks raise it);
    ``http_rate`` and ``http_burst`` limit each client address's API requests;
    ``hint_level`` is the bot level behind hints (default: the strongest);
    ``limits`` holds the per-address caps (server.limits.caps); ``workers`` processes (default: one per core
    less one; 0: a thread) run search bots, hints and replays, ``bot_queue`` jobs wait beside them at most,
    and ``bot_budget`` caps a search bot's time per move.
    A Redis ``broker`` on PostgreSQL makes this process one of a cluster (server.cluster), its table
    leases lasting ``lease`` seconds (default server.cluster.ownership.LEASE_SECONDS).
    ``metrics_port``: the port whose requests get the Prometheus metrics (server.metrics; the caller listens on
    it); ``admin_every``: how often the operator's bars and requests are read (server.ops.admin).
    ``offline_pack`` is the folder of Pyodide's files the offline pack serves (default ``$XERI_OFFLINE_PACK``;
    none: no pack, server.http.offline_pack).
    ``leaderboard``: who the leaderboards list (server.rated.policy; default 10 rated matches, a deviation of 300);
    ``rated_targets``: the scores a rated match may be played to (default 51 or 101; None: any end).
    ``passwords`` hashes the accounts' passwords (server.accounts.passwords; default argon2id at RFC 9106's parameters).
    """
    limits = limits or Limits()
    store = Store(db)
    pool = Workers(workers, bot_queue, bot_budget)
    broker = broker or InProcessBroker()
    cluster = make_cluster(store, broker, lease)
    lobby = Lobby(store, broker, bot_delay=bot_delay, hint_level=hint_level, limits=limits, workers=pool,
                  locator=cluster, rated_targets=rated_targets)
    # In a cluster the per-address caps (requests, hints, tables) count across every process, in Redis.
    caps = (SharedCaps(cluster.broker.url, limits, store.statuses, http_rate, http_burst, database=store.url)
            if cluster is not None else None)
    lobby.caps = caps
    app = Starlette(routes=ROUTES, lifespan=lifespan)
    app.add_middleware(GZipMiddleware, minimum_size=512)  # the page's files and the API's JSON
    install_operator(app, store, lobby, admin_every)
    secure(app)
    if metrics_port is not None:
        app.add_middleware(metrics.MetricsPort, port=metrics_port)
    replays = ReplayCache(pool.run, max_bytes=replay_cache_bytes, max_replay=limits.max_replay_bytes, gzipped=True)
    reviews = ReviewCache(pool.run)
    app.state.ctx = Context(store=store, lobby=lobby, workers=pool, replays=replays, rate=rate, burst=burst,
                            http_rate=http_rate, http_burst=http_burst, reviews=reviews,
                            cluster=cluster, caps=caps)
    # A deleted account's name leaves every finished match built here, and in a cluster everywhere else.
    app.state.forget_matches = Forgetter([lobby, replays, reviews], cluster)
    app.state.cluster = cluster
    app.state.lobby = lobby
    app.state.store = store
    app.state.leaderboard = leaderboard or LeaderboardRules()
    # "Play online" (server.pairing): alone, the pools are this process's; in a cluster, every process's, in Redis.
    pairing: Pairer = (SharedPairing(cluster.broker.url, lobby, database=store.url) if cluster is not None
                       else PairingService(lobby))
    app.state.pairing = pairing
    app.state.seek_buckets = {}
    app.state.accounts = AccountService(store, passwords or Passwords(),
                                        AccountLimits(limits, caps.storage if caps is not None else None))
    app.state.service_worker = offline.ServiceWorker()
    folder = offline.pack_folder(str(offline_pack) if offline_pack is not None else None)
    app.state.offline_pack = offline.OfflinePack(folder) if folder is not None else None
    return app
