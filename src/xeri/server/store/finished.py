"""The history's queries: finished matches and the players' totals, of public matches only."""

from __future__ import annotations

from sqlalchemy import Integer, exists, func, select

from .database import Database
from .tables import MatchRow, PlayerStats, results_t, seat_accounts_t, tables_t


class History(Database):
    """What the history list and the players' statistics read."""

    async def finished_matches(self, player: str | None, limit: int) -> list[MatchRow]:
        """The public finished matches, newest first: a private one is shown only to its seats (``access``)."""
        stmt = select(tables_t.c.id, tables_t.c.title, tables_t.c.ruleset, tables_t.c.names, tables_t.c.result,
                      tables_t.c.finished_at).where(tables_t.c.status == "finished", tables_t.c.private.is_(False))
        if player:
            ids = select(results_t.c.table_id).where(func.lower(results_t.c.name) == player.lower(),
                                                     results_t.c.human.is_(True))
            stmt = stmt.where(tables_t.c.id.in_(ids))
        return [MatchRow(**r) for r in await self._rows(stmt.order_by(tables_t.c.finished_at.desc()).limit(limit))]

    async def player_stats(self, name: str | None, limit: int = 50) -> list[PlayerStats]:
        """People's totals over public finished matches (a private match's results count for nobody to see)."""
        r = results_t.c
        key = func.lower(r.name)
        public = select(tables_t.c.id).where(tables_t.c.private.is_(False))
        b = seat_accounts_t.c
        # An account's seats count for the account (its profile), never for whoever types its name.
        of_accounts = exists().where(b.table_id == r.table_id, b.seat == r.seat)
        stmt = (
            select(func.min(r.name).label("name"), func.count().label("games"),
                   func.sum(func.cast(r.won, Integer)).label("wins"), func.sum(r.points).label("points"),
                   func.sum(r.xeris).label("xeris"), func.sum(r.jack_xeris).label("jack_xeris"))
            .where(r.human.is_(True), r.table_id.in_(public), ~of_accounts).group_by(key)
        )
        if name is not None:
            stmt = stmt.where(key == name.lower())
        else:
            stmt = stmt.order_by(func.sum(func.cast(r.won, Integer)).desc(), func.count().desc()).limit(limit)
        return [PlayerStats(name=row["name"], games=int(row["games"] or 0), wins=int(row["wins"] or 0),
                            points=int(row["points"] or 0), xeris=int(row["xeris"] or 0),
                            jack_xeris=int(row["jack_xeris"] or 0))
                for row in await self._rows(stmt)]
