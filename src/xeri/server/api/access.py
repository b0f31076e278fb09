"""Who may see a table or a finished match: a private one only with one of its seats' tokens, or the session of
the account that holds a seat (server.table.seats ``may_use``)."""

from __future__ import annotations

import secrets

from starlette.requests import HTTPConnection, Request

from ..accounts import sessions
from ..context import ctx
from ..table.handle import TableHandle
from ..table.seats import hash_token, may_use
from ..wire import inputs
from ..wire.refusals import ProtocolError, private_match


async def table_of(request: Request) -> TableHandle:
    table = await ctx(request).lobby.get(request.path_params["table_id"])
    if table is None:
        raise ProtocolError("no_such_table", "there is no such table")
    return table


async def account_id(request: HTTPConnection) -> str | None:
    """The signed-in account of the request (server.accounts.sessions), or None for a guest."""
    me = await sessions.current(request, ctx(request).store)
    return me.account.id if me is not None else None


async def seat_of(table: TableHandle, token: str, request: HTTPConnection) -> int | None:
    """The seat ``token`` holds at ``table``, if this request may use it: a signed-in player's seat answers to
    that account's session only (server.table.seats ``may_use``)."""
    seat = table.seat_for_token(token)
    if seat is not None and table.seat_account(seat) is not None:
        if not may_use(table.seat_account(seat), await account_id(request)):
            return None
    return seat


async def shown_table(request: Request) -> TableHandle:
    """A table to describe: a finished private one only with one of its seats' tokens (or its account's session)."""
    table = await table_of(request)
    if table.status == "finished" and table.info().private:
        token = seat_token(request)
        if token is None or await seat_of(table, token, request) is None:
            account = await account_id(request)
            if account is None or account not in {a for a, _c in (await ctx(request).store.seat_accounts(
                    table.id)).values()}:
                raise private_match()
    return table


def seat_token(request: HTTPConnection) -> str | None:
    """The seat token a finished private match asks for: the ``X-Seat-Token`` header, or ``?token=`` (a link)."""
    return request.headers.get("x-seat-token") or request.query_params.get("token") or None


async def open_match(request: Request) -> None:
    """A finished match any may see, or a private one asked for with one of its seats' tokens.

    Checked before any cache is read: a cached replay or review of a private match is still private.
    """
    table_id = request.path_params["table_id"]
    found = await ctx(request).store.access(table_id) if inputs.is_table_id(table_id) else None
    if found is None:
        raise ProtocolError("no_such_match", "there is no such match")
    _status, private, hashes = found
    if private:
        token = seat_token(request)
        digest = hash_token(token) if token is not None else None
        account = await account_id(request)
        held = await ctx(request).store.seat_accounts(table_id)
        proven = [seat for seat, h in hashes if digest is not None and secrets.compare_digest(digest, h)]
        # A seat's token opens the match (one taken signed in only with its account's session), and so does the
        # session of an account holding one of its seats.
        bound = {seat: held_by for seat, (held_by, claimed) in held.items() if not claimed}
        if not any(may_use(bound.get(seat), account) for seat in proven) \
                and account not in {held_by for held_by, _claimed in held.values()}:
            raise private_match()
