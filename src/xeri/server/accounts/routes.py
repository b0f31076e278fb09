"""The account routes (docs/accounts.md): who am I, sign up, in and out, the password, deletion, settings, claims,
the account's tables (and leaving one) and matches, and a player's public profile.

``create_app`` wraps each in the API's guard (server.api.guard ``api``: the rate limit per address, the error JSON, the
CSRF check of a POST that carries the cookie). A change answers with the account as GET /api/account does.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ...views import iso_time
from ..http.bodies import read_body
from ..matches.summaries import summary
from ..rated.routes import profile_ratings
from ..table.commands import Leave, Origin
from ..wire import inputs, messages
from ..wire.protocol import AccountSettings, ChangePassword, ClaimSeats, DeleteAccount, LeaveMine, SignIn, SignUp
from ..wire.refusals import ProtocolError
from . import devices
from .service import AccountService, Device
from .sessions import Current, clear_cookie, cookie_value, current, forget, same_origin, session_id, set_cookie

#: the matches a profile lists
PROFILE_MATCHES = 20


def service(request: Request) -> AccountService:
    return request.app.state.accounts  # type: ignore[no-any-return]


def _answer(model: type[messages.Model], data: Any, status_code: int = 200) -> Response:
    return Response(messages.answer(model, data), status_code=status_code, media_type="application/json",
                    headers={"Cache-Control": "no-store"})


def _account(me: Current | None, csrf: str | None = None) -> dict[str, Any]:
    if me is None:
        return {"signed_in": False}
    return {"signed_in": True, "name": me.account.name, "csrf": csrf or me.session.csrf, "hidden": me.account.hidden}


async def signed_in(request: Request) -> Current:
    """The request's account, or 401 ``not_signed_in``."""
    me = await current(request, service(request).store)
    if me is None:
        raise ProtocolError("not_signed_in", "sign in first")
    return me


def _address(request: Request) -> str:
    return request.client.host if request.client else "-"


def _no_foreign_origin(request: Request) -> None:
    """A sign-in or sign-up from another site's page is refused (login CSRF), cookie or not."""
    if same_origin(request, request.app.state.security.allow_origins) is False:
        raise ProtocolError("csrf", "this request came from another site: it is refused")


async def who_am_i(request: Request) -> Response:
    return _answer(messages.Account, _account(await current(request, service(request).store)))


def _device(request: Request) -> Device:
    """The request's proof of an earlier sign-in to an account (server.accounts.devices), for the sign-in limits."""
    return lambda account: devices.proven(request, account)


async def _opened(request: Request, account: Any, value: str, csrf: str, status: int) -> Response:
    response = _answer(messages.Account, {"signed_in": True, "name": account.name, "csrf": csrf,
                                          "hidden": account.hidden}, status)
    set_cookie(response, request, value)  # a new session id at every sign-in (no fixation)
    devices.set_cookie(response, request, devices.issue(account))  # this browser is now known to the account
    forget(request)
    return response


def _replaced(request: Request) -> str | None:
    value = cookie_value(request)
    return session_id(value) if value is not None else None


async def sign_up(request: Request) -> Response:
    _no_foreign_origin(request)
    body = SignUp.read(await read_body(request))
    account, value, csrf = await service(request).sign_up(body.name, body.password, _address(request),
                                                          _replaced(request))
    return await _opened(request, account, value, csrf, 201)


async def sign_in(request: Request) -> Response:
    _no_foreign_origin(request)
    body = SignIn.read(await read_body(request))
    account, value, csrf = await service(request).sign_in(body.name, body.password, _address(request),
                                                          _replaced(request), _device(request))
    return await _opened(request, account, value, csrf, 200)


async def sign_out(request: Request) -> Response:
    me = await current(request, service(request).store)
    if me is not None:
        await service(request).sign_out(me)
    response = _answer(messages.Account, {"signed_in": False})
    clear_cookie(response, request)
    return response


async def change_password(request: Request) -> Response:
    me = await signed_in(request)
    body = ChangePassword.read(await read_body(request))
    changed = await service(request).change_password(me, body.password, body.new_password, _address(request),
                                                     _device(request))
    response = _answer(messages.Account, _account(me))
    devices.set_cookie(response, request, devices.issue(changed))  # the old password's device cookies are void
    return response


async def delete_account(request: Request) -> Response:
    me = await signed_in(request)
    body = DeleteAccount.read(await read_body(request))
    _shown_as, renamed = await service(request).delete(me, body.password, _address(request), _device(request))
    await request.app.state.forget_matches.everywhere(renamed)  # no cache anywhere shows the old name
    response = _answer(messages.Account, {"signed_in": False})
    clear_cookie(response, request)
    return response


async def settings(request: Request) -> Response:
    me = await signed_in(request)
    body = AccountSettings.read(await read_body(request))
    await service(request).store.set_hidden(me.account.id, body.hidden)
    return _answer(messages.Account, {**_account(me), "hidden": body.hidden})


async def claim(request: Request) -> Response:
    me = await signed_in(request)
    body = ClaimSeats.read(await read_body(request))
    claimed = await service(request).claim(me, body.seats, request.app.state.ctx.lobby)
    return _answer(messages.Claimed, {"claimed": [{"table_id": t, "seat": s, "status": st} for t, s, st in claimed]})


async def my_tables(request: Request) -> Response:
    me = await signed_in(request)
    found = await service(request).store.seats_of_account(me.account.id, ("waiting", "playing"))
    return _answer(messages.AccountTables, {"tables": [{"table_id": t, "seat": s, "status": st}
                                                       for t, s, st in found]})


async def leave_mine(request: Request) -> Response:
    """Give up the account's seat at a table, from its session alone: the tables follow the account to a device
    that never held the seat's token. No token is handed out; another account's seat is never touched."""
    me = await signed_in(request)
    body = LeaveMine.read(await read_body(request))
    lobby = request.app.state.ctx.lobby
    table = await lobby.get(body.table_id) if inputs.is_table_id(body.table_id) else None
    if table is None:
        raise ProtocolError("no_such_table", "there is no such table")
    await table.handle(Leave(account=me.account.id), Origin())
    lobby.release(table)
    return _answer(messages.LeftTable, {"ok": True, "table": table.info()})


async def my_matches(request: Request) -> Response:
    """The account's finished matches, private ones too (they are its own), newest first."""
    me = await signed_in(request)
    limit = inputs.query_int(request.query_params, "limit", 50, 1, 500, clamp=True)
    rows = await service(request).store.account_matches(me.account.id, limit)
    return _answer(messages.MatchList, {"matches": [summary(r) for r, _seat in rows]})


async def profile(request: Request) -> Response:
    """A player's page: the account's totals and recent matches (its private ones only to itself)."""
    store = service(request).store
    name = request.path_params["name"]
    account = await service(request).by_name(name) if 0 < len(name) <= 100 else None
    if account is None or account.deleted:
        raise ProtocolError("no_such_player", "there is no such player")
    me = await current(request, store)
    own = me is not None and me.account.id == account.id
    rows = await store.account_matches(account.id, PROFILE_MATCHES, include_private=own)
    stats = await store.account_stats(account.id, account.name, include_private=own)
    return _answer(messages.Profile, {
        "name": account.name, "created_at": iso_time(account.created_at),
        "stats": stats.to_dict(), "matches": [{"seat": seat, "match": summary(r)} for r, seat in rows],
        **await profile_ratings(store, account.id)})
