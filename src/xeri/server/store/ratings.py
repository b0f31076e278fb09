"""Rated matches: the mark that a table is rated, the update of its players' ratings at its end, and the reads of
the profile and the leaderboard (docs/ratings.md).

The update of one match is one transaction that first claims the table's mark (``rated_at`` from NULL to now):
a second try, after a restart or in another process of a cluster, finds the mark taken and changes nothing, and a
crash before the commit leaves the mark free for the next try (``pending_ratings``). On PostgreSQL the players'
rows are read ``FOR UPDATE``, so two of an account's matches ending at once are rated one after the other.
"""

from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from ...ratings import Member, Rating, format_of, initial, rate, team_size
from ...rules import Ruleset
from .database import Database
from .failures import StoreConflict
from .tables import (
    LeaderRow,
    RatingPoint,
    RatingRow,
    accounts_t,
    rated_tables_t,
    rating_history_t,
    ratings_t,
    seat_accounts_t,
    seats_t,
    tables_t,
)


class Ratings(Database):
    """The rated tables' marks, the ratings' update at a match's end, and what the profile and leaderboard read."""

    async def rated_format(self, table_id: str) -> str | None:
        """The format a table is rated in, or None for a casual one."""
        rows = await self._rows(select(rated_tables_t.c.format).where(rated_tables_t.c.table_id == table_id))
        return rows[0]["format"] if rows else None

    async def pending_ratings(self, limit: int = 100) -> list[str]:
        """Finished rated tables whose match has not moved the ratings yet (a crash between the two)."""
        t, r = tables_t.c, rated_tables_t.c
        stmt = (select(r.table_id).join(tables_t, t.id == r.table_id)
                .where(r.rated_at.is_(None), t.status == "finished").limit(limit))
        return [row["table_id"] for row in await self._rows(stmt)]

    async def rate_match(self, table_id: str, now: float | None = None) -> bool:
        """Move the ratings of a finished rated match's accounts, once: True if this call did it.

        Nothing happens for a casual table, one not finished, or one rated already. A conflict (two brand-new
        ratings of one account written at once by two processes) is tried again.
        """
        for attempt in range(3):
            try:
                async with self._direct() as conn:
                    return await _rate(conn, table_id, time.time() if now is None else now, self.is_sqlite)
            except StoreConflict:
                if attempt == 2:
                    raise
        return False

    async def rated_leaves(self, account_id: str, since: float) -> int:
        """How many rated matches made since ``since`` the account left or forfeited after
        their start (both store the seat as left: server.rated.policy.forfeits)."""
        b, s, t, r = seat_accounts_t.c, seats_t.c, tables_t.c, rated_tables_t.c
        stmt = (select(func.count()).select_from(seat_accounts_t)
                .join(seats_t, (s.table_id == b.table_id) & (s.seat == b.seat))
                .join(tables_t, t.id == b.table_id).join(rated_tables_t, r.table_id == b.table_id)
                .where(b.account_id == account_id, s.left.is_(True), t.created_at >= since))
        rows = await self._rows(stmt)
        return int(next(iter(rows[0].values()))) if rows else 0

    async def ratings_of(self, account_id: str) -> list[RatingRow]:
        """An account's rating in each format it has played rated."""
        r = ratings_t.c
        rows = await self._rows(select(r.format, r.mu, r.sigma, r.games, r.wins).where(r.account_id == account_id)
                                .order_by(r.format))
        return [RatingRow(**row) for row in rows]

    async def rating_history(self, account_id: str, limit: int = 200) -> list[RatingPoint]:
        """An account's rating after each of its latest rated matches, the oldest first (the profile's chart)."""
        h = rating_history_t.c
        rows = await self._rows(select(h.format, h.at, h.mu, h.sigma, h.won).where(h.account_id == account_id)
                                .order_by(h.at.desc()).limit(limit))
        return [RatingPoint(**row) for row in reversed(rows)]

    async def leaderboard(self, fmt: str, min_games: int, max_sigma: float, limit: int = 100) -> list[LeaderRow]:
        """A format's players with enough games and a low enough deviation, the highest first; an account that
        hides itself, or is deleted, is left out."""
        r, a = ratings_t.c, accounts_t.c
        stmt = (select(a.name, r.mu, r.sigma, r.games, r.wins).join(accounts_t, a.id == r.account_id)
                .where(r.format == fmt, r.games >= min_games, r.sigma <= max_sigma, a.hidden.is_(False),
                       a.deleted.is_(False))
                .order_by(r.mu.desc(), a.name).limit(limit))
        return [LeaderRow(**row) for row in await self._rows(stmt)]


async def _rate(conn: AsyncConnection, table_id: str, now: float, sqlite: bool) -> bool:
    r = rated_tables_t.c
    claim = update(rated_tables_t).where(r.table_id == table_id, r.rated_at.is_(None)).values(rated_at=now)
    row = (await conn.execute(select(r.format, tables_t.c.status, tables_t.c.result, tables_t.c.ruleset)
                              .join(tables_t, tables_t.c.id == r.table_id).where(r.table_id == table_id))).first()
    if row is None or row.status != "finished" or row.result is None:
        return False
    if (await conn.execute(claim)).rowcount != 1:
        return False  # rated already (here, after a restart, or by another process)
    fmt: str = row.format
    winner = json.loads(row.result)["winner"]
    ruleset = Ruleset.from_dict(json.loads(row.ruleset))
    seats = (await conn.execute(select(seats_t.c.seat, seats_t.c.human, seats_t.c.bot_level)
                                .where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat))).all()
    held = {s.seat: s.account_id for s in (await conn.execute(
        select(seat_accounts_t.c.seat, seat_accounts_t.c.account_id)
        .where(seat_accounts_t.c.table_id == table_id, seat_accounts_t.c.claimed.is_(False)))).all()}
    accounts = [held.get(s.seat) for s in seats if s.human]
    if (format_of(ruleset, [not s.human or s.seat in held for s in seats]) != fmt
            or len(set(accounts)) != len(accounts) or None in accounts):
        return True  # nothing to rate (a guest at the table, or one account in two seats): marked, and left so
    ids = [a for a in accounts if a is not None]
    stmt = select(ratings_t).where(ratings_t.c.format == fmt, ratings_t.c.account_id.in_(ids))
    if not sqlite:
        stmt = stmt.with_for_update()
    before = {x.account_id: x for x in (await conn.execute(stmt)).all()}
    sides = [[s for s in seats if ruleset.side_of(s.seat) == side] for side in range(2)]
    teams: list[list[Member]] = [[_member(s, held, before, fmt) for s in side] for side in sides]
    if any(len(t) != team_size(fmt) for t in teams):
        return True
    after = rate(fmt, teams, int(winner))
    for side, team, new_team in zip(sides, teams, after, strict=True):
        for s, old, new in zip(side, team, new_team, strict=True):
            if not s.human or not isinstance(old, Rating):
                continue
            account = held[s.seat]
            won = ruleset.side_of(s.seat) == winner
            await _store(conn, account, fmt, before.get(account), new, won, now)
            await conn.execute(insert(rating_history_t).values(
                table_id=table_id, account_id=account, format=fmt, mu_before=old.mu, sigma_before=old.sigma,
                mu=new.mu, sigma=new.sigma, won=won, at=now))
    return True


def _member(seat: Any, held: dict[int, str], before: dict[str, Any], fmt: str) -> Member:
    """A seat as the model sees it: a bot's level (its fixed anchor), an account's rating (or a new one's)."""
    if not seat.human:
        return str(seat.bot_level)
    row = before.get(held[seat.seat])
    return initial() if row is None else Rating(float(row.mu), float(row.sigma))


async def _store(conn: AsyncConnection, account: str, fmt: str, old: Any, new: Rating, won: bool,
                 now: float) -> None:
    if old is None:
        await conn.execute(insert(ratings_t).values(account_id=account, format=fmt, mu=new.mu, sigma=new.sigma,
                                                    games=1, wins=int(won), updated_at=now))
        return
    r = ratings_t.c
    await conn.execute(update(ratings_t).where(and_(r.account_id == account, r.format == fmt)).values(
        mu=new.mu, sigma=new.sigma, games=r.games + 1, wins=r.wins + int(won), updated_at=now))

