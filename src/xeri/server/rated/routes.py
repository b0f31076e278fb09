"""The ratings' routes (docs/ratings.md): a format's leaderboard, and the ratings a profile shows.

Both answer with names, whole-point ratings, deviations, counts and the times of rated matches: no account id,
no table, no token. A rated table is never private, so a profile's chart shows nothing of a private match.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ...ratings import FORMATS
from ...views import iso_time
from ..store import Store
from ..wire import messages
from .policy import LeaderboardRules, check_format

#: the rated matches a profile's chart shows at most
CHART_POINTS = 200


async def profile_ratings(store: Store, account_id: str) -> dict[str, Any]:
    """The profile's ``ratings`` and ``rating_history``."""
    ratings = await store.ratings_of(account_id)
    history = await store.rating_history(account_id, CHART_POINTS)
    return {
        "ratings": [{"format": r.format, "rating": round(r.mu), "deviation": round(r.sigma), "games": r.games,
                     "wins": r.wins} for r in ratings],
        "rating_history": [{"format": p.format, "at": iso_time(p.at), "rating": round(p.mu),
                            "deviation": round(p.sigma), "won": p.won} for p in history],
    }


async def leaderboard(request: Request) -> Response:
    fmt = check_format(request.path_params["format"])
    rules: LeaderboardRules = request.app.state.leaderboard
    store: Store = request.app.state.store
    rows = await store.leaderboard(fmt, rules.min_games, rules.max_deviation, rules.size)
    data = {"format": fmt, "formats": list(FORMATS), "min_games": rules.min_games,
            "max_deviation": round(rules.max_deviation),
            "players": [{"rank": i + 1, "name": r.name, "rating": round(r.mu), "deviation": round(r.sigma),
                         "games": r.games, "wins": r.wins} for i, r in enumerate(rows)]}
    return Response(messages.answer(messages.Leaderboard, data), media_type="application/json")
