"""The tables a server holds: creating them from a request, finding them, and loading them after a restart.

What the lobby does not hold it asks its locator for (server.lobby.locator): the same
questions whether this process serves alone or in a cluster.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
import unicodedata
from collections import OrderedDict
from collections.abc import AsyncIterator, Collection, Sequence
from typing import Any

import msgspec

from ... import fairness
from ...bots import LEVELS
from ...bots.registry import bot_missing, parse_spec
from ...errors import XeriError
from ...rules import OPTIONS, find_ruleset
from ..broker.pubsub import Broker
from ..limits.caps import AddressBook, Connections, Limits, check_match_size, expired
from ..limits.shared import SharedCaps
from ..rated.policy import RATED_TARGETS, check_takeover, rated_format
from ..store import SeatRow, Start, Store, StoreError, TableRow, dumps
from ..table import Table, unavailable
from ..table.commands import Join, Origin
from ..table.handle import TableHandle
from ..table.seats import hash_token, new_token
from ..wire import inputs, messages
from ..wire.protocol import CreateTable
from ..wire.refusals import ProtocolError
from ..workers import Workers
from .locator import LocalLocator, Locator

log = logging.getLogger("xeri.server")

NAME_LENGTH = 32
#: a signed-in player: (account id, account name)
Holder = tuple[str, str]
#: finished tables kept built in memory, the most recently used: a finished match never changes
FINISHED_KEPT = 16


def check_name(value: Any) -> str:
    """A player's name: 1..32 printable characters."""
    if not isinstance(value, str):
        raise ProtocolError("bad_name", "the name must be a string")
    name = " ".join(value.split())
    if not 1 <= len(name) <= NAME_LENGTH:
        raise ProtocolError("bad_name", f"a name has 1 to {NAME_LENGTH} characters")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise ProtocolError("bad_name", "the name has control characters")
    return name


def _level(value: Any, what: str) -> str:
    if not isinstance(value, str) or value.strip().lower() not in LEVELS:
        raise ProtocolError("bad_level", f"{what} must be a bot level: {', '.join(LEVELS)}")
    level = value.strip().lower()
    missing = bot_missing(parse_spec(LEVELS[level])[0])
    if missing:
        raise ProtocolError("bad_level", f"{what}: this server does not offer the {level} level; {missing}")
    return level


class Lobby:
    """Every table of this server: those unfinished stay in memory, finished ones load on demand."""

    def __init__(self, store: Store, broker: Broker, *, bot_delay: float = 0.4, hint_level: str | None = None,
                 limits: Limits | None = None, workers: Workers | None = None,
                 locator: Locator | None = None, rated_targets: Sequence[int] | None = RATED_TARGETS) -> None:
        self.store = store
        #: the scores a rated match may be played to (server.rated.policy; None: any end)
        self.rated_targets = rated_targets
        self.broker = broker
        self.bot_delay = bot_delay
        self.hint_level = hint_level
        self.limits = limits or Limits()
        #: who created which table, and the connections each address and seat holds (server.limits.caps)
        self.book = AddressBook(self.limits)
        #: where connections are counted: this book, or Redis across a cluster (the cluster's node sets it up)
        self.connections = Connections(self.book)
        #: the pool of search bots, hints and replays (None: a thread per job)
        self.workers = workers
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        #: where the tables this process does not hold are: the database alone, or a cluster's other processes
        self.locator: Locator = locator or LocalLocator(store)
        #: in a cluster, the per-address caps counted across every process (server.limits.shared); None: in ``book``
        self.caps: SharedCaps | None = None
        self._sweeper: asyncio.Task[None] | None = None
        #: finished tables, built once (off the event loop) and kept, least recently used first out
        self.finished: OrderedDict[str, Table] = OrderedDict()
        #: one finished match rebuilt at a time: its thread shares the interpreter with the event loop
        self._rebuilding = asyncio.Semaphore(1)
        #: how many finished matches were rebuilt (replayed from their moves)
        self.rebuilt = 0
        #: how many times ``forget`` dropped copies: a load that saw it change read names since rewritten
        self._forgets = 0

    async def start(self) -> None:
        """Load every unfinished table and let its bots and timers go on where they were.

        In a cluster, a process loads only the tables whose leases it takes (server.cluster adopts them).
        """
        await self.locator.start(self)
        await self.rate_pending()
        self._sweeper = asyncio.create_task(self._sweep())

    async def close(self) -> None:
        """Stop serving: the locator gives its tables up (a cluster's leases), then every table stops."""
        await self.locator.stop()
        self.stop()

    def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        for table in self.tables.values():
            table.stop()

    async def _sweep(self) -> None:
        """Close the tables that waited too long for players, checking a few times per ``waiting_ttl``."""
        every = min(max(self.limits.waiting_ttl / 4, 0.05), 60.0)
        while True:
            await asyncio.sleep(every)  # a periodic timer, not synchronisation
            try:
                await self.expire(time.time())
            except ProtocolError:
                pass  # the database refused: try again next time
            await self.rate_pending()

    async def rate_pending(self) -> int:
        """Rate the finished rated matches whose end has not moved the ratings yet (a crash, or a refused write,
        between the two; in a cluster any process may: each match is rated once). Returns how many."""
        try:
            done = 0
            for table_id in await self.store.pending_ratings():
                done += await self.store.rate_match(table_id)
            return done
        except StoreError as exc:
            log.warning("cannot rate the finished matches yet: %s", exc)
            return 0

    async def expire(self, now: float) -> list[str]:
        """Close every table still waiting ``waiting_ttl`` seconds after its creation; returns their ids."""
        closed = []
        for table in [t for t in self.tables.values() if t.status == "waiting"]:
            if expired(table.state.created_at, now, self.limits.waiting_ttl) and await table.expire():
                closed.append(table.id)
                self.release(table)
        return closed

    def _status(self, table_id: str) -> str | None:
        table = self.tables.get(table_id)
        return table.status if table is not None else None

    async def load_owned(self, table_id: str) -> Table | None:
        """Load an unfinished table this process now owns, and let its bots and timers go on."""
        table = await self.load(table_id)
        if table is not None:
            # A crash between the last move and the match's end leaves a finished match playing: end it.
            if await table.finish_stored():
                self.release(table)
                return table
            table.reschedule()
            # A crash between the last join and the start leaves a full table waiting: start it.
            await table.start_if_full()
        return table

    async def load(self, table_id: str) -> Table | None:
        """Load a table from the database; a finished one (read-only, so any process may) is kept while someone
        watches it."""
        forgets = self._forgets
        loaded = await self.store.load_table(table_id)
        if loaded is None:
            return None
        table = Table(loaded.table, loaded.seats, store=self.store, broker=self.broker, bot_delay=self.bot_delay,
                      hint_level=self.hint_level, rated=loaded.rated)
        if table.status == "finished":
            # A long match takes tens of milliseconds to replay: in a thread, not on the event loop (a worker
            # process would gain nothing, since sending the built match back costs as much as building it).
            # Nobody else holds the new table yet, so the thread has it to itself.
            async with self._rebuilding:
                await asyncio.to_thread(table.replay, loaded.moves)
            self.rebuilt += 1
        else:
            table.replay(loaded.moves)
        # A deletion's forget while this load read the database (another process's ``Forget`` comes at any time)
        # may have renamed this match after the read: the copy goes to whoever asked, and is not kept.
        self._keep(table, remember=self._forgets == forgets)
        return table

    def _keep(self, table: Table, remember: bool = True) -> None:
        """Hold an unfinished table in memory; a finished one only while someone is connected to it."""
        table.on_idle = self.release
        table.on_rematch = self.rematch
        table.autoplay.use(self.workers, self.limits.hint_cooldown,
                           self.caps.take_hint if self.caps is not None else None)
        if table.status in ("waiting", "playing"):
            self.tables[table.id] = table
        elif table.status == "finished" and remember:
            self._remember(table)

    def _remember(self, table: Table) -> None:
        """Keep a finished table built, for the next request or connection that wants it."""
        self.finished[table.id] = table
        self.finished.move_to_end(table.id)
        while len(self.finished) > FINISHED_KEPT:
            self.finished.popitem(last=False)

    async def get(self, table_id: str) -> TableHandle | None:
        """The table ``table_id``; in a cluster, one another process owns comes as a ``RemoteTable``."""
        table = self.tables.get(table_id) or self.finished.get(table_id)
        if table is not None:
            if table_id in self.finished:
                self.finished.move_to_end(table_id)
            return table
        if not inputs.is_table_id(table_id):
            return None
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            try:
                found: TableHandle | None = self.tables.get(table_id) or self.finished.get(table_id)
                if found is None:
                    found = await self.locator.open(table_id)
            finally:
                self._loading.pop(table_id, None)
        return found

    def release(self, table: TableHandle) -> None:
        """Forget a finished table nobody watches (it reloads from the database on demand)."""
        if table.status in ("finished", "closed") and table.clients == 0 and self.tables.get(table.id) is table:
            del self.tables[table.id]
            if table.status == "finished":
                self._remember(table)

    def forget(self, table_ids: Collection[str]) -> None:
        """Drop the built copies of these finished tables (their stored names changed: an account deleted), so the
        next request loads them again from the database. One somebody watches this instant is dropped too: its
        connections keep it until they leave, and everyone after gets the new one. A load under way is not kept
        (``load``)."""
        self._forgets += 1
        for table_id in table_ids:
            self.finished.pop(table_id, None)
            held = self.tables.get(table_id)
            if held is not None and held.status == "finished":
                del self.tables[table_id]

    def forget_all(self) -> None:
        """Drop every finished table built here (a deletion's word may have been lost: server.matches.forget)."""
        self.forget([*self.finished, *(i for i, t in self.tables.items() if t.status == "finished")])

    async def listing(self, status: str) -> list[messages.Table]:
        """The lobby's list: this process's tables, or in a cluster every process's (from the database)."""
        return await self.locator.listed(self._wanted(status))

    @staticmethod
    def _wanted(status: str) -> tuple[str, ...]:
        wanted = {"open": ("waiting",), "waiting": ("waiting",), "playing": ("playing",),
                  "all": ("waiting", "playing")}.get(status)
        if wanted is None:
            raise ProtocolError("bad_request", "status must be open, playing or all")
        return wanted

    def listed_here(self, statuses: tuple[str, ...]) -> list[messages.Table]:
        """This process's public tables in ``statuses``, newest first."""
        found = [t for t in self.tables.values() if t.status in statuses and not t.state.private]
        found.sort(key=lambda t: t.state.created_at, reverse=True)
        # A few tables per creating address, so one client cannot flood the others out of view.
        return [t.info() for t in self.book.listed(found, lambda t: t.id, 200)]

    async def create(self, body: Any, address: str | None = None,
                     account: Holder | None = None) -> tuple[Table, int | None, str | None]:
        """A new table from a create request (docs/protocol.md); joins its creator if a name is given.

        ``address`` is the creator's: it may hold only so many waiting and playing tables (server.limits.caps).
        ``account`` (id, name) is the creator's when signed in: the seat is bound to it, under its name.
        """
        if address is None:
            return await self._create(body, account=account)
        async with self._creating(address) as table_id:
            table, joined, token = await self._create(body, table_id, account)
            self.book.created(table.id, address)
            return table, joined, token

    @contextlib.asynccontextmanager
    async def _creating(self, address: str) -> AsyncIterator[str]:
        """A new table's id, with its place held among the tables ``address`` created (refused if over its share):
        counted across the cluster (``caps``) when one runs and Redis answers, else in this process's book."""
        table_id = secrets.token_urlsafe(9)
        if self.caps is None:
            with self.book.creating(address, self._status):
                yield table_id
            return
        async with self.caps.creating(address, table_id) as shared:
            if shared:
                yield table_id
            else:
                with self.book.creating(address, self._status):
                    yield table_id

    async def _create(self, body: Any, table_id: str | None = None,
                      account: Holder | None = None) -> tuple[Table, int | None, str | None]:
        req = CreateTable.read(body)  # the fields' types and bounds (server.wire.protocol); the rest is checked here
        options = dict(req.options or {})
        if req.players is not msgspec.UNSET:
            options["players"] = req.players
        if req.target is not None:
            options["match_end"] = "target"
            options["target"] = req.target
        try:
            ruleset = find_ruleset(req.ruleset, **options)
        except (XeriError, TypeError) as exc:
            raise ProtocolError("bad_ruleset", str(exc)) from None
        check_match_size(ruleset, self.limits)
        n = ruleset.players
        seats_in = req.seats if req.seats is not None else [None] * n
        if len(seats_in) != n:
            raise ProtocolError("bad_seats", f"seats must be a list of {n} entries (null or {{\"bot\": level}})")
        seat_rows: list[dict[str, Any]] = []
        for i, entry in enumerate(seats_in):
            if entry is None or entry.bot is None:
                seat_rows.append({"seat": i, "human": True, "bot_level": None})
            else:
                seat_rows.append({"seat": i, "human": False, "bot_level": _level(entry.bot, f"seat {i}'s bot")})
        turn_timer, takeover_after = req.turn_timer, req.takeover_after
        takeover_level = _level(req.takeover_level, "takeover_level")
        private, title = req.private, req.title
        name = check_name(req.name) if req.name is not None else None
        if name is not None and account is not None:
            name = account[1]  # signed in: the account's name, whatever was typed
        seat = req.seat
        if name is not None and not any(r["human"] for r in seat_rows):
            raise ProtocolError("bad_seats", "a name was given, but every seat is a bot")
        if seat is not None and (name is None or not 0 <= seat < n or not seat_rows[seat]["human"]):
            raise ProtocolError("bad_seat", "seat must be a human seat of the table, given with a name")
        rated = rated_format(req.rated, ruleset, account is not None, [r["human"] for r in seat_rows], private,
                             self.rated_targets)
        check_takeover(rated, takeover_after)

        table_id = table_id or secrets.token_urlsafe(9)
        match_seed = secrets.randbits(64)
        row = TableRow(id=table_id, title=title.strip(), status="waiting", ruleset=dumps(ruleset.to_dict()),
                       turn_timer=turn_timer, takeover_after=takeover_after, takeover_level=takeover_level,
                       private=private, match_seed=str(match_seed), salt_key=fairness.new_key(),
                       first_dealer=match_seed % n, created_at=time.time())
        seats = [SeatRow(table_id=table_id, seat=r["seat"], human=r["human"], bot_level=r["bot_level"])
                 for r in seat_rows]
        # The creator's seat and, if that fills the table, the start are written with the table:
        # one transaction, so a failed write leaves no table behind.
        joined, token = None, None
        if name is not None:
            joined = seat if seat is not None else next(r.seat for r in seats if r.human)
            token = new_token()
            seats[joined].name, seats[joined].token_hash = name, hash_token(token)
            seats[joined].account_id = account[0] if account is not None else None
        start = None
        if all(not r.human or r.name is not None for r in seats):
            names = [r.name or f"Bot ({r.bot_level})" for r in seats]
            start = Start(started_at=time.time(), names=dumps(names))
            row.status, row.started_at, row.names = "playing", start.started_at, start.names
        await self.locator.claim(table_id)  # in a cluster the lease first: nobody may adopt the new table
        try:
            await self.store.create_table(row, seats, rated)
        except StoreError as exc:
            raise unavailable(exc, "the table") from None
        table = Table(row, seats, store=self.store, broker=self.broker, bot_delay=self.bot_delay,
                      hint_level=self.hint_level, rated=rated)
        self._keep(table)
        if start is not None:
            await table.open_started(start)
        return table, joined, token

    async def rematch(self, old: Table, address: str | None = None) -> Table:
        """The same match again for the players of a finished table: the same rules, bots and seats.

        Each player gets the new table's id and a token for the same seat on their own channel. The new
        table counts as created by ``address`` (the player who completed the offer), within its caps.
        """
        try:
            if address is None:
                return await self._rematch(old)
            async with self._creating(address) as table_id:
                table = await self._rematch(old, table_id)
                self.book.created(table.id, address)
                return table
        finally:
            old.state.rematching = False  # made (rematch_table is set) or refused: a refused one may be offered again

    async def _rematch(self, table: Table, table_id: str | None = None) -> Table:
        old = table.state
        body: dict[str, Any] = {
            "ruleset": old.ruleset.name, "options": {k: v for k, v in old.ruleset.to_dict().items() if k != "name"},
            "seats": [None if s.human else {"bot": s.bot_level} for s in old.seats],
            "turn_timer": old.turn_timer, "takeover_after": old.takeover_after,
            "takeover_level": old.takeover_level, "private": old.private, "title": old.title,
            "rated": old.rated is not None,  # a rated table's rematch is rated
        }
        players = [s for s in old.seats if s.human and not s.left and s.name]
        holder: Holder | None = None
        if players:
            body["name"], body["seat"] = players[0].name, players[0].seat
            if players[0].account is not None:
                holder = (players[0].account, players[0].name or "")
        new, first, token = await self._create(body, table_id, holder)
        tokens = {first: token} if first is not None and token is not None else {}
        for s in players[1:]:  # each seat stays its account's
            seat, tok = (await new.handle(Join(name=s.name or "", seat=s.seat, account=s.account), Origin())).seated()
            tokens[seat] = tok
        old.rematch_table = new.id
        await table.publish(lambda seat: messages.RematchMessage(table_id=new.id, seat=seat,
                                                          token=tokens.get(seat) if seat is not None else None))
        await table.publish_table()
        return new


def options_help() -> dict[str, Any]:
    """Every rule option with its help and choices, for the lobby's form."""
    return {name: {"help": o.help, "choices": list(o.choices) if o.choices else None}
            for name, o in OPTIONS.items()}
