"""The pairing routes (docs/protocol.md, "Play online"): seek, ask, cancel.

``create_app`` wraps each in the API's guard (server.api.guard ``api``: the rate limit per address, the error JSON, the
CSRF check of a POST that carries the cookie); a seek also takes from its own, slower bucket per address, since
each one may make a table. A seek's id is its secret: whoever holds it gets its seat and token.
"""

from __future__ import annotations

import secrets
import time

from starlette.requests import Request
from starlette.responses import Response

from ...ratings.model import START_MU
from ...rules import find_ruleset
from ..accounts.sessions import current
from ..http.bodies import read_body
from ..limits.bucket import TokenBucket, take
from ..lobby.lobby import check_name
from ..lobby.pulse import pulse
from ..rated.policy import LEAVES_WINDOW, leave_penalty, rated_format
from ..store import Store
from ..wire import messages
from ..wire.protocol import Seek
from ..wire.refusals import ProtocolError
from .pools import FORMATS
from .service import Pairer

#: seeks per second from one address (average, burst): a player seeks again after a game or a cancel
SEEK_RATE, SEEK_BURST = 0.5, 10.0
#: a guest who gives no name plays as
GUEST_NAME = "Guest"


def service(request: Request) -> Pairer:
    return request.app.state.pairing  # type: ignore[no-any-return]


def _answer(model: type[messages.Model], data: object, status_code: int = 200) -> Response:
    return Response(messages.answer(model, data), status_code=status_code, media_type="application/json",
                    headers={"Cache-Control": "no-store"})


def _address(request: Request) -> str:
    return request.client.host if request.client else "-"


async def lobby_view(request: Request) -> dict[str, object]:
    """GET /api/pairing's answer: the pools' counts, the open challenges (nothing secret: ``service.challenge``),
    and the players online (seated with their table open, and seeking) and tables in play, every process's."""
    pairing = service(request)
    counts = await pairing.waiting()
    here = pulse(request.app.state.lobby.tables.values())
    total = await pairing.pulse(here)
    return {"pools": [{"format": fmt, "rated": rated, "waiting": n} for (fmt, rated), n in counts.items()],
            "challenges": await pairing.challenges(), "online": total.seated + sum(counts.values()),
            "playing": total.playing}


async def seek(request: Request) -> Response:
    """POST /api/pairing {format, rated, name?, key?}: into a pool; answers the seek's secret id and its state.
    GET /api/pairing: how many wait in each pool, the open challenges, players online and tables in play."""
    if request.method == "GET":
        return _answer(messages.PairingPools, await lobby_view(request))
    body = Seek.read(await read_body(request))
    fmt = FORMATS.get(body.format)
    if fmt is None:
        raise ProtocolError("bad_format", f"there is no format {body.format[:40]!r}; formats are: "
                            + ", ".join(FORMATS))
    store: Store = request.app.state.store
    me = await current(request, store)
    # The rated rules of a table, as a created table is checked (server.rated.policy): signed in, classic. The
    # match's end is the pairing's own (a rated pairing's table is played to the first rated target: make_table).
    if body.rated and me is None:  # a guest plays casual: a rated seek, or Accept on a rated open challenge (issue 41)
        raise ProtocolError("rated_needs_account", "rated games are for signed-in players: sign in to seek or accept "
                            "a rated game; a guest plays casual")
    ruleset = find_ruleset(fmt.ruleset, players=fmt.players)
    rated = rated_format(body.rated, ruleset, me is not None, [True] * fmt.players, targets=None)
    name = check_name(body.name) if body.name is not None else GUEST_NAME
    buckets: dict[str, TokenBucket] = request.app.state.seek_buckets
    if not take(buckets, _address(request), SEEK_RATE, SEEK_BURST):
        raise ProtocolError("rate_limited", f"slow down: at most {SEEK_RATE:g} seeks a second")
    pairing = service(request)
    if me is not None:
        rating, penalty = None, 0.0
        if rated is not None:
            rows = {r.format: r.mu for r in await store.ratings_of(me.account.id)}
            rating = rows.get(rated, START_MU)
            # Issue 41: who leaves rated matches early again and again waits longer to be paired.
            penalty = leave_penalty(await store.rated_leaves(me.account.id, time.time() - LEAVES_WINDOW))
        seek_id = await pairing.seek(fmt.name, rated is not None, f"account:{me.account.id}", me.account.name,
                                     (me.account.id, me.account.name), rating, penalty)
    else:
        # A guest is one seeker per browser key; without one, each seek is its own (never two of an address merged).
        who = f"guest:{body.key}" if body.key is not None else f"seek:{secrets.token_urlsafe(9)}"
        seek_id = await pairing.seek(fmt.name, False, who, name)
    state = await pairing.poll(seek_id)
    return _answer(messages.SeekState, {"seek_id": seek_id, **state}, status_code=201)


async def poll(request: Request) -> Response:
    """GET /api/pairing/{seek_id}: waiting, or paired with this seeker's seat and token. Ask every second or so:
    a seek not asked about for 15 s leaves its pool. DELETE cancels it."""
    if request.method == "DELETE":
        return await cancel(request)
    return _answer(messages.SeekState, await service(request).poll(request.path_params["seek_id"]))


async def cancel(request: Request) -> Response:
    """DELETE /api/pairing/{seek_id}."""
    return _answer(messages.SeekCancelled, {"cancelled": await service(request).cancel(request.path_params["seek_id"])})
