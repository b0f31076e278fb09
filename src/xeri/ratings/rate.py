"""Rating one match: the humans' ratings move, the computer levels' anchors stay where the arena put them."""

from __future__ import annotations

from collections.abc import Sequence

from ..bots.registry import LEVELS
from .anchors import level_rating
from .formats import FORMATS, team_size
from .model import Rating, RatingError, model

#: a player in a rated match: an account's rating, or a computer level by name (its fixed anchor)
Member = Rating | str


def _check(fmt: str, teams: Sequence[Sequence[Member]]) -> None:
    if fmt not in FORMATS:
        raise RatingError(f"unknown format {fmt!r}; formats are: {', '.join(FORMATS)}")
    k = team_size(fmt)
    if len(teams) != 2 or any(len(team) != k for team in teams):
        raise RatingError(f"{fmt} rates two teams of {k}, not {[len(t) for t in teams]}")
    for team in teams:
        for m in team:
            if isinstance(m, str) and m not in LEVELS:
                raise RatingError(f"unknown level {m!r}; levels are: {', '.join(LEVELS)}")
            if not isinstance(m, (str, Rating)):
                raise RatingError(f"a team member is a Rating or a level name, not {type(m).__name__}")


def _as_rating(fmt: str, m: Member) -> Rating:
    return level_rating(fmt, m) if isinstance(m, str) else m


def rate(fmt: str, teams: Sequence[Sequence[Member]], winner: int) -> list[list[Rating]]:
    """The ratings after a match that team ``winner`` (0 or 1) won, in the teams' shape.

    A computer level comes back as its anchor, unchanged; only the accounts' ratings move.
    """
    _check(fmt, teams)
    if winner not in (0, 1) or isinstance(winner, bool):
        raise RatingError(f"the winner is team 0 or 1, not {winner!r}")
    m = model()
    game = [[m.create_rating([r.mu, r.sigma]) for r in (_as_rating(fmt, x) for x in team)] for team in teams]
    after = m.rate(game, ranks=[0, 1] if winner == 0 else [1, 0])
    return [[_as_rating(fmt, x) if isinstance(x, str) else Rating(float(new.mu), float(new.sigma))
             for x, new in zip(team, new_team, strict=True)] for team, new_team in zip(teams, after, strict=True)]


def predict(fmt: str, teams: Sequence[Sequence[Member]]) -> tuple[float, float]:
    """Each team's chance of winning the match, as the model sees it."""
    _check(fmt, teams)
    m = model()
    game = [[m.create_rating([r.mu, r.sigma]) for r in (_as_rating(fmt, x) for x in team)] for team in teams]
    a, b = m.predict_win(game)
    return float(a), float(b)
