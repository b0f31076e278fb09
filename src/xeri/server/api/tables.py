"""The tables: list and create, describe, join and leave one, and its fairness report (docs/protocol.md)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ..accounts import sessions
from ..context import client, ctx
from ..http.bodies import read_body
from ..lobby.lobby import check_name
from ..table.commands import Join, Leave, Origin
from ..wire import messages
from ..wire.protocol import JoinTable, LeaveTable
from ..wire.refusals import ProtocolError
from .access import seat_of, shown_table, table_of
from .guard import answer


async def tables(request: Request) -> Response:
    lobby = ctx(request).lobby
    if request.method == "POST":
        body = await read_body(request)
        me = await sessions.current(request, ctx(request).store)
        holder = (me.account.id, me.account.name) if me is not None else None
        table, seat, token = await lobby.create(body, client(request), holder)
        out: dict[str, Any] = {"table_id": table.id, "table": table.info(), "invite": f"/#/t/{table.id}"}
        if token is not None:
            out.update(seat=seat, token=token)
        return answer(messages.Created, out, status_code=201)
    return answer(messages.TableList, {"tables": await lobby.listing(request.query_params.get("status", "open"))})


async def table_info(request: Request) -> Response:
    return answer(messages.Table, (await shown_table(request)).info())


async def join(request: Request) -> Response:
    table = await table_of(request)
    body = JoinTable.read(await read_body(request))
    name = check_name(body.name)
    me = await sessions.current(request, ctx(request).store)
    if me is not None:  # signed in: the seat is the account's, under its name
        joined = await table.handle(Join(name=me.account.name, seat=body.seat, account=me.account.id), Origin())
    else:
        joined = await table.handle(Join(name=name, seat=body.seat), Origin())
    seat, token = joined.seated()
    return answer(messages.Seated, {"table_id": table.id, "seat": seat, "token": token, "table": table.info()})


async def leave(request: Request) -> Response:
    table = await table_of(request)
    token = LeaveTable.read(await read_body(request)).token
    if table.seat_for_token(token) is not None and await seat_of(table, token, request) is None:
        raise ProtocolError("bad_token", "that seat is another account's: sign in as it to leave")
    await table.handle(Leave(token=token), Origin())
    ctx(request).lobby.release(table)
    return answer(messages.LeftTable, {"ok": True, "table": table.info()})


async def table_fairness(request: Request) -> Response:
    return answer(messages.Fairness, (await shown_table(request)).fairness_report())
