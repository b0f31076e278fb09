"""``xeri admin``: act on the servers of a database without SQL (docs/operations.md).

    xeri admin tables                     the live tables: status, owner, players, moves
    xeri admin close TABLE [--reason R]   close a table; its players are told, its moves kept
    xeri admin bar ADDRESS [--for 1h]     refuse an address (or a network) on every process
    xeri admin unbar ADDRESS              lift a bar
    xeri admin bars                       the bars in force
    xeri admin export MATCH [-o FILE]     a match's record (finished, or closed), private ones too
    xeri admin stats                      counts: tables, moves, matches, players, processes
    xeri admin actions                    what the operator changed, when, and who

It works on the database the servers share (``--db``, as ``xeri serve`` takes it), never on a process: every
process reads the bars and requests every few seconds (``xeri serve --admin-poll``), and a close is carried out by
the table's owner. Every change is kept in ``xeri_actions`` (``xeri admin actions``) and logged by the process
that carries it out.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import getpass
import ipaddress
import json
import os
import re
import socket
import sys
import time
from pathlib import Path
from typing import Any

from ..errors import XeriError
from .db import add_database, database


class AdminError(XeriError):
    """An admin command that could not run, or was refused; nothing was changed."""


_DURATION = re.compile(r"(\d+(?:\.\d+)?)([smhdw]?)")
_UNIT = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
#: the longest a bar may be set for (longer: until unbarred)
MAX_BAR = 10 * 365 * 86400


def duration(text: str) -> float:
    """``90``, ``30s``, ``15m``, ``1h``, ``2d``, ``1w`` as seconds."""
    match = _DURATION.fullmatch(text.strip().lower())
    if match is None:
        raise AdminError(f"--for must be a duration such as 30m, 1h, 2d or 1w, not {text!r}")
    seconds = float(match[1]) * _UNIT[match[2]]
    if not 0 < seconds <= MAX_BAR:
        raise AdminError("--for must be more than 0 and at most ten years (leave it out: until unbarred)")
    return seconds


def network(text: str) -> str:
    """An address or a network as a bar keeps it: ``203.0.113.7`` -> ``203.0.113.7/32``."""
    try:
        return str(ipaddress.ip_network(text.strip(), strict=False))
    except ValueError:
        raise AdminError(f"ADDRESS must be an IP address or a network (203.0.113.7, 2001:db8::/48), not "
                         f"{text!r}") from None


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=type(parser), required=True)
    p = sub.add_parser("tables", help="the live tables (waiting or playing), with owner and players")
    p.add_argument("--json", action="store_true", help="as JSON")
    add_database(p)
    p = sub.add_parser("close", help="close a live table: its players are told, its record is kept")
    p.add_argument("table", help="the table's id")
    p.add_argument("--reason", help="what the players are told (a short line)")
    p.add_argument("--wait", type=float, default=15.0, metavar="SECONDS",
                   help="how long to wait for the table's owner to close it (default 15)")
    add_database(p)
    p = sub.add_parser("bar", help="refuse an address (or network) on every process, for a while or until unbarred")
    p.add_argument("address", help="an IP address or a network (203.0.113.0/24)")
    p.add_argument("--for", dest="for_", metavar="DURATION", help="30m, 1h, 2d, 1w... (default: until unbarred)")
    p.add_argument("--reason", help="why (kept with the bar)")
    add_database(p)
    p = sub.add_parser("unbar", help="lift the bar of an address or network")
    p.add_argument("address")
    add_database(p)
    p = sub.add_parser("bars", help="the bars in force")
    p.add_argument("--json", action="store_true", help="as JSON")
    add_database(p)
    p = sub.add_parser("export", help="a finished (or closed) match's record, private ones too")
    p.add_argument("match", help="the match's (table's) id")
    p.add_argument("-o", "--output", type=Path, help="write it to this file (default: print it)")
    add_database(p)
    p = sub.add_parser("stats", help="counts: tables by status, moves, matches, players, processes, bars")
    p.add_argument("--json", action="store_true", help="as JSON")
    add_database(p)
    p = sub.add_parser("actions", help="the operator's changes, the newest first")
    p.add_argument("--limit", type=int, default=30, help="how many (default 30)")
    p.add_argument("--json", action="store_true", help="as JSON")
    add_database(p)


def actor() -> str:
    """Who is acting: user@host."""
    try:
        user = getpass.getuser()
    except Exception:  # no user name in this environment
        user = f"uid{os.getuid()}" if hasattr(os, "getuid") else "someone"
    return f"{user}@{socket.gethostname()}"[:100]


def _when(at: float | None) -> str:
    if at is None:
        return "-"
    return dt.datetime.fromtimestamp(at, dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def _printable(text: str) -> str:
    from ..record import printable

    return printable(text)


def run(args: argparse.Namespace) -> int:
    try:
        from ..server import store as store_module
        from ..server.ops.operator_store import OperatorStore
        from ..server.store.migrations import SchemaError
    except ImportError as exc:
        raise AdminError(f"xeri admin needs the server extra: pip install 'xeri[server]' ({exc.name} is "
                         "missing)") from None
    db = database(args)
    url = store_module.normalize_url(db)
    path = store_module.sqlite_path(url)
    if url.startswith("sqlite") and (path is None or not os.path.isfile(path)):
        raise AdminError(f"there is no database at {path or db}")
    # Checked before the database is opened: bad input changes nothing, and costs no connection.
    if args.action == "bar":
        args.address = network(args.address)
        args.seconds = duration(args.for_) if args.for_ else None
    elif args.action == "unbar":
        args.address = network(args.address)
    elif args.action == "close" and not 0 <= args.wait <= 3600:
        raise AdminError("--wait must be 0..3600 seconds")
    elif args.action == "actions" and not 1 <= args.limit <= 10000:
        raise AdminError("--limit must be 1..10000")
    if args.action == "export" and args.output is not None and args.output.exists():
        raise AdminError(f"{args.output} exists already: give another file")

    async def act() -> int:
        store = store_module.Store(db)
        store.exclusive = False  # beside running servers: they hold the SQLite file's lock, not this
        try:
            await store.open()
        except store_module.StoreError as exc:
            await store.close()
            if isinstance(exc, SchemaError):
                raise AdminError(str(exc).splitlines()[0]) from None
            raise AdminError(f"cannot open the database: {str(exc).splitlines()[0]}") from None
        try:
            return await ACTIONS[args.action](args, OperatorStore(store), path)
        except store_module.StoreError as exc:
            raise AdminError(f"the database refused: {str(exc).splitlines()[0]}") from None
        finally:
            await store.close()

    return asyncio.run(act())


# --- the actions -------------------------------------------------------------------------


def _players(seats: list[Any]) -> str:
    out = []
    for s in seats:
        if not s.human:
            out.append(f"[{s.bot_level} bot]")
        elif s.left:
            out.append(f"{s.name or '?'} (left)")
        else:
            out.append(s.name or "(free)")
    return ", ".join(out)


async def _tables(args: argparse.Namespace, ops: Any, path: str | None) -> int:
    live = await ops.live_tables()
    owner_lock = _sqlite_holder(path)
    rows = []
    for t in live:
        owner = t.owner or owner_lock or "-"
        rows.append({"id": t.table.id, "status": t.table.status, "owner": owner, "moves": t.moves,
                     "private": bool(t.table.private), "title": t.table.title, "created": _when(t.table.created_at),
                     "players": [{"seat": s.seat, "name": s.name, "bot": s.bot_level, "left": s.left} for s in t.seats],
                     "shown": _players(t.seats)})
    if args.json:
        print(json.dumps([{k: v for k, v in r.items() if k != "shown"} for r in rows], ensure_ascii=False, indent=1))
        return 0
    if not rows:
        print("no live tables")
        return 0
    print(f"{'table':<14} {'status':<8} {'moves':>5}  {'owner':<22} players")
    for r in rows:
        flag = " (private)" if r["private"] else ""
        print(_printable(f"{r['id']:<14} {r['status']:<8} {r['moves']:>5}  {r['owner']:<22} {r['shown']}{flag}"))
    print(f"{len(rows)} live table(s)")
    return 0


def _sqlite_holder(path: str | None) -> str | None:
    """The pid of the server holding a SQLite file's lock ("pid N"), or None (no server, or not SQLite)."""
    if path is None:
        return None
    try:
        with open(path + ".lock") as f:
            pid = f.read(32).strip()
    except OSError:
        return None
    from ..server.store import DatabaseInUse, OwnerLock

    lock = OwnerLock(path)
    try:
        lock.acquire()
    except DatabaseInUse:
        return f"pid {pid}" if pid else "a server"
    lock.release()
    return None


async def _close(args: argparse.Namespace, ops: Any, path: str | None) -> int:
    table_id = args.table
    status = await ops.status(table_id)
    if status is None:
        raise AdminError(f"there is no table {table_id!r}")
    if status not in ("waiting", "playing"):
        raise AdminError(f"table {table_id} is {status} already: there is nothing to close")
    who = actor()
    reason = args.reason.strip()[:200] if args.reason else None
    request = await ops.request("close", table_id, {"reason": reason, "was": status}, who)
    # The table's owner (its one writer) closes it: a server holding it carries the request out.
    if path is not None:
        done = await _close_sqlite(ops, path, request, table_id, args.wait)
    else:
        done = await _wait(ops, request, args.wait)
        if done is None:
            done = await _close_unowned(ops, request, table_id)
    if done is None:
        raise AdminError(f"the process owning table {table_id} did not close it within {args.wait:g} s; the request "
                         f"(#{request}) stays, and it closes the table when it next reads it")
    found = await ops.action(request)
    outcome = json.loads(found.detail or "{}").get("outcome", "closed") if found else "closed"
    if outcome != "closed":
        raise AdminError(f"table {table_id} was not closed: {outcome}")
    dashes = "-- " if table_id.startswith("-") else ""  # an id may begin with "-": after "--" it is no option
    print(f"closed table {table_id} (it was {status}; carried out by {done}); its moves are kept: "
          f"xeri admin export {dashes}{table_id}")
    return 0


async def _wait(ops: Any, request: int, seconds: float) -> str | None:
    """Who carried out the request, once done; None after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        found = await ops.action(request)
        if found is not None and found.done_at is not None:
            return str(found.done_by)
        if time.monotonic() >= deadline:
            return None
        await asyncio.sleep(0.2)  # a poll while the owner's next read comes (xeri serve --admin-poll)


async def _close_sqlite(ops: Any, path: str, request: int, table_id: str, wait: float) -> str | None:
    """On SQLite: the server holding the file closes it; with no server, this command does, holding its lock."""
    from ..server.store import DatabaseInUse, OwnerLock

    while True:
        lock = OwnerLock(path)
        try:
            lock.acquire()
        except DatabaseInUse:
            return await _wait(ops, request, wait)
        try:
            found = await ops.action(request)
            if found is not None and found.done_at is not None:
                return str(found.done_by)  # a server carried it out just before it stopped
            await ops.close_stored(table_id)
            await ops.done(request, "admin", "closed")
            return "xeri admin (no server was running)"
        finally:
            lock.release()


async def _close_unowned(ops: Any, request: int, table_id: str) -> str | None:
    """On PostgreSQL, no process carried the request out: if none holds the table's lease, close it here, under a
    lease of this command's own (so no process can adopt the table meanwhile)."""
    holder = f"admin-{os.getpid()}"
    if not await ops.store.take_lease(table_id, holder, 30.0):
        return None  # a live process owns it: it has not read the request yet
    try:
        found = await ops.action(request)
        if found is not None and found.done_at is not None:
            return str(found.done_by)
        await ops.close_stored(table_id)
        await ops.done(request, "admin", "closed")
        return "xeri admin (no process held the table)"
    finally:
        await ops.store.release_leases(holder)


async def _bar(args: argparse.Namespace, ops: Any, _path: str | None) -> int:
    bar = await ops.bar(args.address, args.seconds, args.reason, actor())
    until = f"until {_when(bar.until)}" if bar.until is not None else "until unbarred"
    print(f"barred {bar.network} {until}: every process refuses it within its next read (xeri serve --admin-poll)")
    return 0


async def _unbar(args: argparse.Namespace, ops: Any, _path: str | None) -> int:
    if not await ops.unbar(args.address, actor()):
        raise AdminError(f"{args.address} is not barred")
    print(f"lifted the bar of {args.address}")
    return 0


async def _bars(args: argparse.Namespace, ops: Any, _path: str | None) -> int:
    bars = await ops.bars()
    if args.json:
        print(json.dumps([vars(b) for b in bars], ensure_ascii=False, indent=1))
        return 0
    if not bars:
        print("no bars")
        return 0
    for b in bars:
        until = _when(b.until) if b.until is not None else "until unbarred"
        reason = f" ({b.reason})" if b.reason else ""
        print(_printable(f"{b.network:<20} {until:<24} by {b.actor}{reason}"))
    return 0


async def _export(args: argparse.Namespace, ops: Any, _path: str | None) -> int:
    loaded = await ops.store.load_table(args.match)
    if loaded is None:
        raise AdminError(f"there is no match {args.match!r}")
    status = loaded.table.status
    if status in ("waiting", "playing"):
        raise AdminError(f"match {args.match} is still {status}: its record keeps hidden cards until it ends (close "
                         "it first: xeri admin close)")
    if status == "finished" and loaded.table.record:
        data = json.loads(loaded.table.record)
    else:
        data = _closed_record(loaded)
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text)
        print(f"wrote the record of {args.match} ({status}, {len(loaded.moves)} moves) to {args.output}",
              file=sys.stderr)
    return 0


def _closed_record(loaded: Any) -> dict[str, Any]:
    """A closed table's record, rebuilt from its stored moves (a match cut short: `xeri verify` says unfinished)."""
    import dataclasses

    from ..record import to_record
    from ..server.table import TableState

    if not loaded.moves:
        return {"table": {"id": loaded.table.id, "title": loaded.table.title, "status": loaded.table.status},
                "rounds": [], "closed": True}
    row = dataclasses.replace(loaded.table, status="playing")
    table = TableState(row, loaded.seats, bot_delay=0.0)  # the plain state: no store, no broker
    table.replay(loaded.moves)
    assert table.match is not None
    data = to_record(table.match, reveal_seeds=True)
    data["fairness"] = table.commitments.record_section(table.match)
    data["table"] = {"id": table.id, "title": table.title, "status": loaded.table.status,
                     "bots": {str(s.seat): s.bot_level for s in table.seats if not s.human}}
    data["closed"] = True
    return data


async def _stats(args: argparse.Namespace, ops: Any, _path: str | None) -> int:
    stats = await ops.stats()
    if args.json:
        print(json.dumps(stats, indent=1))
        return 0
    tables = stats["tables"]
    print("tables: " + (", ".join(f"{n} {s}" for s, n in sorted(tables.items())) or "none"))
    print(f"moves stored: {stats['moves']}")
    print(f"matches finished in the last 24 h: {stats['finished_last_24h']}")
    print(f"players (people with a finished match): {stats['players']}")
    print(f"processes in a cluster now: {stats['processes']}")
    print(f"bars in force: {stats['bars']}; requests waiting for a server: {stats['pending_requests']}")
    return 0


async def _actions(args: argparse.Namespace, ops: Any, _path: str | None) -> int:
    found = await ops.actions(args.limit)
    if args.json:
        print(json.dumps([vars(a) for a in found], ensure_ascii=False, indent=1))
        return 0
    if not found:
        print("no actions yet")
        return 0
    for a in found:
        done = f"done by {a.done_by}" if a.done_at is not None else "waiting for a server"
        detail = json.loads(a.detail) if a.detail else {}
        extra = "; ".join(f"{k}: {v}" for k, v in detail.items() if v not in (None, ""))
        print(_printable(f"#{a.id:<5} {_when(a.at)}  {a.action:<6} {a.target:<20} by {a.actor}, {done}"
                         + (f" ({extra})" if extra else "")))
    return 0


ACTIONS = {"tables": _tables, "close": _close, "bar": _bar, "unbar": _unbar, "bars": _bars, "export": _export,
           "stats": _stats, "actions": _actions}
