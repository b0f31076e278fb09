"""Optional accounts: sign up, sign in and out, change the password, delete; and a guest's seats claimed.

A guest plays exactly as before. Signed in, a seat taken is bound to the account (server.store's
``xeri_seat_accounts``) and its token answers to that account's session only (``seats.may_use``); the account's
tables, matches and totals are read by its id, not by a typed name. docs/accounts.md describes it all.

Nothing a refusal says tells which names have accounts: a wrong name and a wrong password are the one
``bad_credentials``, the unknown name costs the same argon2 work (server.accounts.passwords), and the rate limits
count a name whether or not it exists (server.limits.sign_in).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Sequence
from typing import Protocol

from ..limits.sign_in import AccountLimits
from ..store import AccountRow, Store, StoreConflict, StoreError
from ..table.commands import Bind, Origin
from ..table.handle import TableHandle
from ..table.seats import hash_token
from ..wire.protocol import ClaimedSeat
from ..wire.refusals import ProtocolError
from . import names as account_names
from .passwords import Passwords
from .sessions import Current, new_session

BAD_CREDENTIALS = "that name and password do not match an account"


class Tables(Protocol):
    """Where a claim finds a table still in play (server.lobby.lobby's ``Lobby``)."""

    async def get(self, table_id: str) -> TableHandle | None: ...


class AccountService:
    """The accounts of one server (``app.state.accounts``)."""

    def __init__(self, store: Store, passwords: Passwords, limits: AccountLimits) -> None:
        self.store = store
        self.passwords = passwords
        self.limits = limits

    async def sign_up(self, name: str, password: str, address: str,
                      replaces: str | None = None) -> tuple[AccountRow, str, str]:
        """A new account, signed in: (account, cookie value, CSRF token). ``bad_name``, ``bad_password``,
        ``name_taken`` (a name is public once taken: the lobby shows it) or ``rate_limited``."""
        shown = account_names.check(name)
        self.passwords.check_new(password, shown)
        await self.limits.signup(address)
        row = AccountRow(id=secrets.token_hex(12), name=shown, name_key=account_names.key(shown),
                         password_hash=await self.passwords.hash(password), created_at=time.time())
        try:
            await self.store.create_account(row)
        except StoreConflict:
            raise ProtocolError("name_taken", "that name, or one that reads the same, has an account: "
                                "choose another") from None
        value, csrf = await self._open(row, replaces)
        return row, value, csrf

    async def sign_in(self, name: str, password: str, address: str,
                      replaces: str | None = None) -> tuple[AccountRow, str, str]:
        """(account, cookie value, CSRF token) of a new session; ``bad_credentials`` for a wrong name or password
        alike, after the same work."""
        text = name if isinstance(name, str) else ""
        name_key = account_names.key(text) if text.strip() else ""
        await self.limits.signin(address, name_key)
        found = await self.store.account_by_key(name_key) if name_key else None
        stored = found.password_hash if found is not None and not found.deleted else None
        if not await self.passwords.verify(stored, password) or found is None:
            raise ProtocolError("bad_credentials", BAD_CREDENTIALS)
        value, csrf = await self._open(found, replaces)
        return found, value, csrf

    async def _open(self, account: AccountRow, replaces: str | None) -> tuple[str, str]:
        value, session = new_session(account.id)
        await self.store.create_session(session, replaces=replaces)
        return value, session.csrf

    async def sweep(self, every: float = 3600.0) -> None:
        """End the expired sessions now and then (a periodic timer; a cookie past its expiry opens nothing anyway)."""
        while True:
            try:
                await self.store.end_expired_sessions(time.time())
            except StoreError:
                pass  # the database is away: next time
            await asyncio.sleep(every)

    async def sign_out(self, me: Current) -> None:
        await self.store.end_session(me.session.id)

    async def change_password(self, me: Current, password: str, new_password: str) -> None:
        """A new password (the current one proven); the account's other sessions end."""
        if not await self.passwords.verify(me.account.password_hash, password):
            raise ProtocolError("bad_credentials", "the current password is not right")
        self.passwords.check_new(new_password, me.account.name)
        await self.store.set_password(me.account.id, await self.passwords.hash(new_password), me.session.id)

    async def delete(self, me: Current, password: str) -> tuple[str, list[str]]:
        """Delete the account (the password proven): its matches stay under an anonymous name; returns it, and the
        tables renamed (whose built copies the caller drops: server.matches.forget)."""
        if not await self.passwords.verify(me.account.password_hash, password):
            raise ProtocolError("bad_credentials", "the password is not right")
        if await self.store.seats_of_account(me.account.id, ("waiting", "playing"), include_left=True):
            raise ProtocolError("tables_open", "leave or finish your open tables first: then delete the account")
        shown_as = account_names.DELETED + me.account.id[:8]
        renamed = await self.store.delete_account(me.account.id, shown_as)
        return shown_as, renamed

    async def claim(self, me: Current, seats: Sequence[ClaimedSeat],
                    lobby: Tables | None = None) -> list[tuple[str, int, str]]:
        """Bind to the account each guest seat whose token is proven and which no account holds yet; (table, seat,
        status) of those bound now. A finished match's seat is bound in the database; a table still in play is
        asked of its owner (``lobby``: wherever it is owned), which binds the seat there too, so that from now on
        its token answers to this account's session only and the seat follows the account to any device. A token
        proves nothing it does not hold."""
        proven: list[tuple[str, int]] = []
        statuses: dict[str, str] = {}
        live: list[tuple[str, int, str]] = []
        for entry in seats:
            found = await self.store.seat_of_token(entry.table_id, hash_token(entry.token))
            if found is None:
                continue
            seat, status = found
            if status == "finished":
                proven.append((entry.table_id, seat))
                statuses[entry.table_id] = status
            elif status in ("waiting", "playing") and lobby is not None:
                try:
                    table = await lobby.get(entry.table_id)
                    bound = None if table is None else (
                        await table.handle(Bind(token=entry.token, account=me.account.id), Origin())).seat
                except ProtocolError:
                    continue  # the table is changing servers this instant: a later sign-in claims it
                if table is not None and bound is not None:
                    live.append((entry.table_id, bound, table.status))
        claimed = await self.store.claim_seats(sorted(set(proven)), me.account.id, time.time())
        return live + [(t, s, statuses[t]) for t, s in claimed]
