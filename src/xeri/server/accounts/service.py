"""Optional accounts: sign up, sign in and out, change the password, delete; and a guest's seats claimed.

A guest plays exactly as before. Signed in, a seat taken is bound to the account (server.store's
``xeri_seat_accounts``) and its token answers to that account's session only (``seats.may_use``); the account's
tables, matches and totals are read by its id, not by a typed name. docs/accounts.md describes it all.

Nothing a refusal says tells which names have accounts: a wrong name and a wrong password are the one
``bad_credentials``, the unknown name costs the same argon2 work (server.accounts.passwords), and the rate limits
count a name whether or not it exists (server.limits.sign_in). Every check of a password, at sign-in, at a new
password and at deletion, is under those limits (issue 42: a stolen session must not guess its account's password),
and a browser that proves an earlier sign-in (server.accounts.devices) is counted by itself, not by the name.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
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
NAME_TAKEN = "that name, or one that reads the same (such as Bill and BiIl, or Amie and Arnie), has an account: " \
    "choose another"


#: the id of the request's device if its cookie proves an earlier sign-in to the account given (server.accounts.devices)
Device = Callable[[AccountRow | None], str | None]


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
        self.passwords.check_room()
        await self.limits.signup(address)
        if await self.store.account_by_key(account_names.legacy_key(shown)) is not None:
            raise ProtocolError("name_taken", NAME_TAKEN)  # an account made before the skeleton (names.legacy_key)
        # Its look key (names.look_key: its capitals may pass for another's) is a unique column, as its key is: the
        # store refuses either taken, across processes too, without reading every account's name.
        row = AccountRow(id=secrets.token_hex(12), name=shown, name_key=account_names.key(shown),
                         password_hash=await self.passwords.hash(password), created_at=time.time(),
                         look_key=account_names.look_key(shown))
        try:
            await self.store.create_account(row)
        except StoreConflict:
            raise ProtocolError("name_taken", NAME_TAKEN) from None
        value, csrf = await self._open(row, replaces)
        return row, value, csrf

    async def by_name(self, name: str) -> AccountRow | None:
        """The account of a typed name: by its key, or by the key it was stored under before the skeleton."""
        if not name.strip():
            return None
        found = await self.store.account_by_key(account_names.key(name))
        if found is None and (legacy := account_names.legacy_key(name)) != account_names.key(name):
            found = await self.store.account_by_key(legacy)
        return found

    async def sign_in(self, name: str, password: str, address: str, replaces: str | None = None,
                      device: Device | None = None) -> tuple[AccountRow, str, str]:
        """(account, cookie value, CSRF token) of a new session; ``bad_credentials`` for a wrong name or password
        alike, after the same work. ``device`` gives the id of the request's device if it proves the account."""
        text = name if isinstance(name, str) else ""
        self.passwords.check_room()
        await self.limits.signin_address(address)
        found = await self.by_name(text)
        await self.limits.signin_name(account_names.key(text) if text.strip() else "",
                                      device(found) if device is not None else None)
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

    async def _limited(self, me: Current, address: str, device: Device | None) -> None:
        """A password check of a signed-in session counts as a sign-in does (per address, per name or device)."""
        await self.limits.signin_address(address)
        await self.limits.signin_name(account_names.key(me.account.name),
                                      device(me.account) if device is not None else None)

    async def change_password(self, me: Current, password: str, new_password: str, address: str = "-",
                              device: Device | None = None) -> AccountRow:
        """A new password (the current one proven, under the sign-in limits); the account's other sessions end.
        Returns the account with its new hash (for this browser's new device cookie)."""
        await self._limited(me, address, device)
        if not await self.passwords.verify(me.account.password_hash, password):
            raise ProtocolError("bad_credentials", "the current password is not right")
        self.passwords.check_new(new_password, me.account.name)
        new_hash = await self.passwords.hash(new_password)
        await self.store.set_password(me.account.id, new_hash, me.session.id)
        return replace(me.account, password_hash=new_hash)

    async def delete(self, me: Current, password: str, address: str = "-",
                     device: Device | None = None) -> tuple[str, list[str]]:
        """Delete the account (the password proven, under the sign-in limits): its matches stay under an anonymous
        name; returns it, and the tables renamed (whose built copies the caller drops: server.matches.forget)."""
        await self._limited(me, address, device)
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
