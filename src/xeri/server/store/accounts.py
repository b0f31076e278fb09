"""The accounts' rows: accounts, their sessions, and the seats (so the matches) each account holds.

Sessions live in the database every process shares, so a cluster's processes
all know a cookie at once (docs/accounts.md). A deletion is one transaction:
the account's name is replaced in every seat, result and record it held, its
sessions go, and its matches stay.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from sqlalchemy import Integer, delete, func, insert, or_, select, update

from ... import fairness
from .database import Database
from .failures import StoreConflict
from .tables import (
    AccountRow,
    MatchRow,
    PlayerStats,
    SessionRow,
    accounts_t,
    results_t,
    row_of,
    seat_accounts_t,
    seats_t,
    sessions_t,
    tables_t,
)


class Accounts(Database):
    """Accounts, sessions and seat bindings."""

    # --- accounts -------------------------------------------------------------------

    async def create_account(self, row: AccountRow) -> None:
        """Store a new account; ``StoreConflict`` if its name's key or look key is taken. Both are unique indexes,
        so two processes signing up look-alikes at once store one: the other's insert fails (``_direct`` makes it a
        ``StoreConflict``)."""
        a = accounts_t.c
        same = a.name_key == row.name_key if row.look_key is None else \
            or_(a.name_key == row.name_key, a.look_key == row.look_key)
        async with self._direct() as conn:
            if (await conn.execute(select(a.id).where(same))).first() is not None:
                raise StoreConflict("that name is taken")
            await conn.execute(insert(accounts_t), row_of(row))

    async def account_by_key(self, name_key: str) -> AccountRow | None:
        rows = await self._rows(select(accounts_t).where(accounts_t.c.name_key == name_key))
        return AccountRow(**rows[0]) if rows else None

    async def account_by_id(self, account_id: str) -> AccountRow | None:
        rows = await self._rows(select(accounts_t).where(accounts_t.c.id == account_id))
        return AccountRow(**rows[0]) if rows else None

    async def accounts_by_id(self, ids: list[str]) -> dict[str, AccountRow]:
        if not ids:
            return {}
        rows = await self._rows(select(accounts_t).where(accounts_t.c.id.in_(ids)))
        return {r["id"]: AccountRow(**r) for r in rows}

    async def set_password(self, account_id: str, password_hash: str, keep_session: str | None) -> None:
        """A new password; every session of the account but ``keep_session`` ends with the old one."""
        async with self._direct() as conn:
            await conn.execute(update(accounts_t).where(accounts_t.c.id == account_id)
                               .values(password_hash=password_hash))
            ended = delete(sessions_t).where(sessions_t.c.account_id == account_id)
            if keep_session is not None:
                ended = ended.where(sessions_t.c.id != keep_session)
            await conn.execute(ended)

    async def set_hidden(self, account_id: str, hidden: bool) -> None:
        async with self._direct() as conn:
            await conn.execute(update(accounts_t).where(accounts_t.c.id == account_id).values(hidden=hidden))

    async def delete_account(self, account_id: str, shown_as: str) -> list[str]:
        """Anonymise the account (its name becomes ``shown_as`` in its seats, results and records), free its name,
        end its sessions; the matches stay. Returns the tables whose seats were renamed."""
        async with self._direct() as conn:
            bound = (await conn.execute(select(seat_accounts_t.c.table_id, seat_accounts_t.c.seat)
                                        .where(seat_accounts_t.c.account_id == account_id))).all()
            for table_id, seat in bound:
                await conn.execute(update(seats_t).where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                                   .values(name=shown_as))
                await conn.execute(update(results_t).where(results_t.c.table_id == table_id,
                                                           results_t.c.seat == seat).values(name=shown_as))
                found = (await conn.execute(select(tables_t.c.names, tables_t.c.result, tables_t.c.record)
                                            .where(tables_t.c.id == table_id))).first()
                if found is not None:
                    await conn.execute(update(tables_t).where(tables_t.c.id == table_id)
                                       .values(**_renamed(found._mapping, seat, shown_as)))
            await conn.execute(update(accounts_t).where(accounts_t.c.id == account_id).values(
                name=shown_as, name_key=f"deleted:{account_id}", look_key=None, password_hash=None, deleted=True,
                hidden=True))
            await conn.execute(delete(sessions_t).where(sessions_t.c.account_id == account_id))
            return sorted({str(table_id) for table_id, _seat in bound})

    # --- sessions -------------------------------------------------------------------

    async def create_session(self, row: SessionRow, replaces: str | None = None) -> None:
        """A new session (a sign-in); ``replaces``, the session it follows on this browser, ends in the same
        transaction (the id changes at sign-in: no session fixation)."""
        async with self._direct() as conn:
            if replaces is not None:
                await conn.execute(delete(sessions_t).where(sessions_t.c.id == replaces))
            await conn.execute(insert(sessions_t), row_of(row))

    async def session(self, session_id: str, now: float) -> tuple[SessionRow, AccountRow] | None:
        """The live session ``session_id`` (a hash) and its account; None if unknown, expired or deleted."""
        s, a = sessions_t.c, accounts_t.c
        stmt = (select(sessions_t, *[c.label(f"a_{c.name}") for c in accounts_t.c])
                .join(accounts_t, a.id == s.account_id)
                .where(s.id == session_id, s.expires_at > now, a.deleted.is_(False)))
        rows = await self._rows(stmt)
        if not rows:
            return None
        r = rows[0]
        account = AccountRow(**{k[2:]: v for k, v in r.items() if k.startswith("a_")})
        return SessionRow(**{k: v for k, v in r.items() if not k.startswith("a_")}), account

    async def touch_session(self, session_id: str, seen_at: float, expires_at: float) -> None:
        async with self._direct() as conn:
            await conn.execute(update(sessions_t).where(sessions_t.c.id == session_id)
                               .values(seen_at=seen_at, expires_at=expires_at))

    async def end_session(self, session_id: str) -> None:
        async with self._direct() as conn:
            await conn.execute(delete(sessions_t).where(sessions_t.c.id == session_id))

    async def end_expired_sessions(self, now: float) -> int:
        async with self._direct() as conn:
            return int((await conn.execute(delete(sessions_t).where(sessions_t.c.expires_at <= now))).rowcount or 0)

    # --- seats bound to accounts ----------------------------------------------------------

    async def claim_seats(self, seats: list[tuple[str, int]], account_id: str, now: float) -> list[tuple[str, int]]:
        """Bind each (table, seat) that no account holds yet to ``account_id``; returns those bound now."""
        claimed = []
        async with self._direct() as conn:
            for table_id, seat in seats:
                held = await conn.execute(select(seat_accounts_t.c.account_id).where(
                    seat_accounts_t.c.table_id == table_id, seat_accounts_t.c.seat == seat))
                if held.first() is not None:
                    continue
                await conn.execute(insert(seat_accounts_t), {"table_id": table_id, "seat": seat,
                                                             "account_id": account_id, "bound_at": now,
                                                             "claimed": True})
                claimed.append((table_id, seat))
        return claimed

    async def seat_of_token(self, table_id: str, token_hash: str) -> tuple[int, str] | None:
        """(seat, table status) of the seat whose token hashes to ``token_hash``; None if no seat holds it.

        A seat given up (``left``) keeps no hash: its token proves nothing any more."""
        s, t = seats_t.c, tables_t.c
        rows = await self._rows(select(s.seat, s.token_hash, t.status).join(tables_t, t.id == s.table_id)
                                .where(s.table_id == table_id, s.token_hash.is_not(None)))
        for r in rows:
            if secrets.compare_digest(r["token_hash"], token_hash):
                return int(r["seat"]), r["status"]
        return None

    async def seats_of_account(self, account_id: str, statuses: tuple[str, ...],
                               include_left: bool = False) -> list[tuple[str, int, str]]:
        """(table, seat, status) of every seat the account holds at a table in ``statuses``, the newest first. A
        seat it gave up after the start (a bot plays it) is no longer its to play: left out unless
        ``include_left`` (a deletion waits for those tables' ends too, whose results carry the seat's name)."""
        b, t, s = seat_accounts_t.c, tables_t.c, seats_t.c
        stmt = (select(b.table_id, b.seat, t.status).join(tables_t, t.id == b.table_id)
                .join(seats_t, (s.table_id == b.table_id) & (s.seat == b.seat))
                .where(b.account_id == account_id, t.status.in_(list(statuses))).order_by(t.created_at.desc()))
        if not include_left:
            stmt = stmt.where(s.left.is_(False))
        return [(r["table_id"], int(r["seat"]), r["status"]) for r in await self._rows(stmt)]

    async def account_matches(self, account_id: str, limit: int,
                              include_private: bool = True) -> list[tuple[MatchRow, int]]:
        """The account's finished matches, newest first, with its seat (``include_private``: its private ones
        too, for the account itself)."""
        b, t = seat_accounts_t.c, tables_t.c
        stmt = (select(t.id, t.title, t.ruleset, t.names, t.result, t.finished_at, b.seat)
                .join(tables_t, t.id == b.table_id)
                .where(b.account_id == account_id, t.status == "finished")
                .order_by(t.finished_at.desc()).limit(limit))
        if not include_private:
            stmt = stmt.where(t.private.is_(False))
        out = []
        for r in await self._rows(stmt):
            seat = int(r.pop("seat"))
            out.append((MatchRow(**r), seat))
        return out

    async def account_stats(self, account_id: str, name: str, include_private: bool = True) -> PlayerStats:
        """The account's totals over its finished matches (its own seats' results; ``include_private``: its private
        matches' too, for the account itself)."""
        r, b = results_t.c, seat_accounts_t.c
        stmt = (select(func.count().label("games"), func.sum(func.cast(r.won, Integer)).label("wins"),
                       func.sum(r.points).label("points"), func.sum(r.xeris).label("xeris"),
                       func.sum(r.jack_xeris).label("jack_xeris"))
                .select_from(results_t.join(seat_accounts_t, (b.table_id == r.table_id) & (b.seat == r.seat)))
                .where(b.account_id == account_id))
        if not include_private:
            stmt = stmt.where(r.table_id.in_(select(tables_t.c.id).where(tables_t.c.private.is_(False))))
        row = (await self._rows(stmt))[0]
        return PlayerStats(name=name, games=int(row["games"] or 0), wins=int(row["wins"] or 0),
                           points=int(row["points"] or 0), xeris=int(row["xeris"] or 0),
                           jack_xeris=int(row["jack_xeris"] or 0))


def _renamed(found: Any, seat: int, shown_as: str) -> dict[str, Any]:
    """A table's names, result and record with seat ``seat``'s name replaced by ``shown_as``."""
    values: dict[str, Any] = {}
    if found["names"]:
        names = json.loads(found["names"])
        if 0 <= seat < len(names):
            old = names[seat]
            names[seat] = shown_as
            values["names"] = json.dumps(names, ensure_ascii=False, separators=(",", ":"))
            if found["result"]:
                result = json.loads(found["result"])
                result["winners"] = [shown_as if w == old else w for w in result.get("winners", [])]
                values["result"] = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
    if found["record"]:
        record = json.loads(found["record"])
        for s in record.get("seats", []):
            if s.get("seat") == seat:
                _withhold(record, seat, str(s.get("name")))
                s["name"] = shown_as
        values["record"] = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    return values


def _withhold(record: dict[str, Any], seat: int, name: str) -> None:
    """A ``xeri-v3`` record keeps verifying with seat ``seat``'s name withheld: its fairness entry gives the hash of
    the name played under in place of the salt (fairness.withheld). A v1 or v2 record binds no such hash: it
    cannot verify once the name is gone (docs/fairness.md)."""
    fair = record.get("fairness")
    whole = fair.get("match") if isinstance(fair, dict) else None
    seats = whole.get("seats") if isinstance(whole, dict) else None
    if isinstance(seats, list) and 0 <= seat < len(seats) and isinstance(seats[seat], dict):
        seats[seat] = fairness.withheld(seats[seat], name)
