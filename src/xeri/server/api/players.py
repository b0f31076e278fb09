"""Players' statistics: the most active players, and one player's totals."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from ..context import ctx
from ..wire import messages
from .guard import answer, limit


async def players(request: Request) -> Response:
    found = await ctx(request).store.player_stats(None, limit(request))
    return answer(messages.PlayerList, {"players": [p.to_dict() for p in found]})


async def player(request: Request) -> Response:
    name = request.path_params["name"]
    found = await ctx(request).store.player_stats(name)
    if not found:
        return answer(messages.Stats, {"name": name, "games": 0, "wins": 0, "points": 0, "xeris": 0,
                                       "jack_xeris": 0})
    return answer(messages.Stats, found[0].to_dict())
