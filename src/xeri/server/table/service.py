"""One table in play, as a service: its lock, its writes to the store, its messages, its connections and bots.

The state and its checks are plain (server.table.state); this module does
what waits around them. The table applies one move at a time under its lock,
stores the move before anyone hears of it, and publishes one message per seat,
each built from that seat's own view and redacted log (server.table.views).
Its next automatic move is planned by ``autoplay``.

Every change is written first and applied in memory after; a write that
fails leaves the table as it was (a move already applied to the match is
undone by replaying the stored moves).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import msgspec

from ...bots.hint import HintReason
from ...events import RoundScored
from ...match import Match
from .. import metrics
from ..broker.envelope import Envelope, Kind, to_json
from ..broker.pubsub import Broker, channel
from ..rated.policy import check_hint, check_join
from ..store import Finish, MoveRow, SeatRow, StaleMove, Start, Store, StoreError, StoreUnavailable, TableRow
from ..wire import messages
from ..wire.protocol import Hint, Move, Ping, Ready, Rematch, Say, Sync, Takeback
from ..wire.refusals import ProtocolError
from . import views
from .autoplay import Autoplay
from .commands import NOTHING, Bind, Command, Join, Leave, Origin, Outcome
from .seats import Seat, hash_token, new_token
from .state import Applied, TableState
from .talk import Talk

log = logging.getLogger("xeri.server")

#: what a table does once its lock is given back: a hint's search, a rematch's new table (``Table.handle``)
Later = Callable[[], Awaitable[Outcome]]
#: the commands a spectator may not give, and why (refused before the table is asked anything)
_SEATED = {Hint: "spectators cannot ask for hints", Ready: "spectators do not hold up the table",
           Rematch: "spectators cannot ask for a rematch", Say: "spectators watch without talking"}


def moved() -> ProtocolError:
    """The refusal of a table this process no longer owns (server.cluster): the same request works at its new owner."""
    return ProtocolError("unavailable", "this table moved to another server: reconnect and try again", retry=True)


def unavailable(exc: StoreError, what: str) -> ProtocolError:
    """The refusal a client gets when the database did not take a write (HTTP 503)."""
    detail = str(exc) if isinstance(exc, StoreUnavailable) else "the database refused it"
    return ProtocolError("unavailable", f"{what} could not be stored ({detail}); nothing changed, try again",
                         retry=True)


class Table:
    """A table this process holds: the authority over its match while it owns it (a ``TableHandle``)."""

    def __init__(self, row: TableRow, seats: Sequence[SeatRow], *, store: Store, broker: Broker,
                 bot_delay: float, hint_level: str | None = None, rated: str | None = None) -> None:
        self.state = TableState(row, seats, bot_delay, rated)
        self.lock = asyncio.Lock()
        self.store = store
        self.broker = broker
        #: this process's connections to the table, its own and other processes' (a finished one nobody watches
        #: is forgotten)
        self.clients = 0
        self.autoplay = Autoplay(hint_level)
        #: called when the table is finished or closed and nobody is connected (the lobby forgets it)
        self.on_idle: Callable[[Table], None] | None = None
        #: per seat, how to close each of its connections (a player who leaves keeps no window on the seat)
        self._closers: dict[int, set[Callable[[], None]]] = {}
        #: False once another process owns the table (server.cluster): it then applies nothing more
        self.owned = True
        #: makes the new table of a rematch once every player asked for one, counted against the address of
        #: the player who completed the offer (the lobby's; None: refused)
        self.on_rematch: Callable[[Table, str | None], Awaitable[Any]] | None = None
        #: per seat (None: spectators), its last sync: (match, version, epoch, parts, envelope)
        self._syncs: dict[int | None, tuple[Match | None, int, int, dict[str, Any], Envelope]] = {}
        #: how many times a sync's costly parts were built (one per version and seat)
        self.sync_builds = 0
        #: the fairness report of a finished match, which never changes
        self._fairness: messages.Fairness | None = None
        #: the seats' table talk (its rate; nothing of it is kept)
        self.talk = Talk()

    # --- what every handle shows ---------------------------------------------------

    @property
    def id(self) -> str:
        return self.state.id

    @property
    def status(self) -> str:
        return self.state.status

    @property
    def version(self) -> int:
        return self.state.version

    @property
    def seats(self) -> list[Seat]:
        return self.state.seats

    def replay(self, moves: Sequence[MoveRow]) -> None:
        """Rebuild the match from the stored moves (after a restart or to show a finished table)."""
        self.state.replay(moves)

    def info(self) -> messages.Table:
        """The protocol's TABLE object: public, the same for everyone."""
        return views.table_info(self.state)

    def sync_envelope_now(self, seat: int | None, info: messages.Table | None = None) -> Envelope:
        """``seat``'s sync, enveloped: built once per version and seat, and served as is while the table
        does not change, so a flood of ``sync`` requests (or of connections) costs no rebuild each.

        Out of play (waiting, finished, closed) nothing in a sync depends on the clock, and whatever changes the
        table's description is published (``epoch``): the whole envelope is reused until then. In play the
        timer counts down, so the envelope is rebuilt around the parts, which change only with the version.
        ``info``: the TABLE, when the caller built it already (one for every seat's sync).
        """
        s = self.state
        m = s.match
        cached = self._syncs.get(seat)
        same = cached is not None and cached[0] is m and cached[1] == s.version
        if same and cached is not None and cached[2] == s.epoch and s.status != "playing" and not s.pause.waiting:
            return cached[4]
        if same and cached is not None:
            parts = cached[3]
        else:
            parts = views.sync_parts(s, seat)
            self.sync_builds += 1
        envelope = Envelope.sync(s.version, views.sync_from(s, seat, parts, info or self.info(), s.timer(),
                                                          s.pause_state()))
        self._syncs[seat] = (m, s.version, s.epoch, parts, envelope)
        return envelope

    def timer(self) -> messages.Timer | None:
        return self.state.timer()

    def fairness_report(self) -> messages.Fairness:
        if self._fairness is not None:
            return self._fairness
        s = self.state
        report = views.fairness_report(s)
        if s.status == "finished":
            self._fairness = report  # every round is revealed and checked: built once
        return report

    def seat_for_token(self, token: str) -> int | None:
        return self.state.seat_for_token(token)

    def seat_account(self, seat: int) -> str | None:
        return self.seats[seat].account if 0 <= seat < len(self.seats) else None

    def seat_of_account(self, account: str) -> int | None:
        return self.state.seat_of_account(account)

    # --- sending --------------------------------------------------------------

    async def publish(self, build: Callable[[int | None], messages.Message], kind: Kind = "plain") -> None:
        """Publish ``build(seat)`` to each seat's channel (and the spectators'), built and encoded once per seat.

        Each text goes out in an ``Envelope`` of ``kind`` at the table's version, which lets a
        connection drop an update it already has (a broker between processes may deliver one after a sync).
        """
        version = None if kind == "plain" else self.state.version
        await self._send(lambda seat: Envelope(kind, version, to_json(build(seat))))

    async def publish_all(self, message: messages.Message) -> None:
        """Publish one message that is the same for every seat and the spectators: encoded once, for all of them."""
        envelope = Envelope.message(message)
        await self._send(lambda _seat: envelope)

    async def _send(self, envelope_for: Callable[[int | None], Envelope]) -> None:
        """Hand each seat's channel (and the spectators') its envelope, made only for a channel someone hears."""
        s = self.state
        s.epoch += 1
        for seat in (None, *range(s.ruleset.players)):
            ch = channel(s.id, seat)
            if self.broker.interested(ch):
                await self.broker.publish(ch, envelope_for(seat))

    async def publish_notice(self, notice: messages.Notice) -> None:
        """A word to everyone at the table (messages.NoticeMessage; the page words it)."""
        await self.publish_all(messages.NoticeMessage(notice=notice))

    async def publish_table(self) -> None:
        await self.publish_all(views.table_message(self.state))

    async def publish_sync(self) -> None:
        """Every seat's own sync (a start, a takeback, a forfeit), each kept to answer its next ``sync`` request; the
        TABLE in them is built once for all."""
        info = self.info()
        await self._send(lambda seat: self.sync_envelope_now(seat, info))

    # --- commands: every table action, one at a time ---------------------------------------------

    async def handle(self, command: Command, origin: Origin) -> Outcome:
        """Serve one table action (server.table.commands) from ``origin``, under the table's one lock: checked,
        stored before anyone hears of it, then published; a refusal (``ProtocolError``) changes nothing.

        What needs no lock comes after it is given back (a hint's search, a rematch's new table): the table
        serves the other seats meanwhile."""
        seated = _SEATED.get(type(command))
        if seated is not None and origin.seat is None:
            raise ProtocolError("spectator", seated)
        async with self.lock:
            if not self.owned:
                raise moved()
            done = await self._serve(command, origin)
        return done if isinstance(done, Outcome) else await done()

    async def _serve(self, command: Command, origin: Origin) -> Outcome | Later:
        """``command``'s case, the lock held: the table's rules (server.table.state) say whether it may."""
        seat = origin.seat
        match command:
            case Move(card=card, version=version):
                await self._move(seat, card, version, origin.auto)
            case Takeback(version=version):
                await self._take_back(seat, version)
            case Sync():
                return Outcome(reply=self.sync_envelope_now(seat))
            case Hint(ref=ref):
                assert seat is not None  # _SEATED refused a spectator
                return await self._hint(seat, ref)
            case Ready():
                assert seat is not None
                if self.state.ready(seat):
                    await self.publish_table()
                    self.reschedule()
            case Rematch():
                assert seat is not None
                return await self._rematch(seat, origin.address)
            case Join(name=name, seat=wanted, account=account):
                return await self._join(name, wanted, account)
            case Leave(token=token, account=account):
                left = self.state.leaving_account(account) if account is not None else self.state.leaving(token)
                return Outcome(seat=await self._leave(left), reseated=True)
            case Bind(token=token, account=account):
                return Outcome(seat=await self._bind(token, account), reseated=True)
            case Say():
                assert seat is not None
                said = self.talk.said(seat, command, self.state.private)
                await self.publish_all(said)  # to everyone, stored nowhere
            case Ping(ref=ref):  # a socket answers its pings itself; a table asked answers the same
                return Outcome(reply=Envelope.message(messages.PongMessage(ref=ref)))
        return NOTHING

    # --- seats ---------------------------------------------------------------

    async def _join(self, name: str, seat: int | None, account: str | None) -> Outcome:
        """Take a free seat (bound to ``account`` when signed in); the table starts once full. A failed write leaves
        the seat free and nothing changed."""
        chosen = self.state.free_seat(seat)
        check_join(self.state.rated, account, [s.account for s in self.seats])
        token = new_token()
        digest = hash_token(token)
        start = self.state.start_row(name_of={chosen.seat: name}) if self.state.fills(chosen) else None
        try:
            await self.store.take_seat(self.id, chosen.seat, name, digest, start, account, time.time())
        except StoreError as exc:
            raise unavailable(exc, "the join") from None
        chosen.name, chosen.token_hash, chosen.account = name, digest, account
        chosen.away_since = time.monotonic()
        if start is not None:
            await self._started(start)
        else:
            await self.publish_table()
        return Outcome(seat=chosen.seat, token=token, reseated=True)

    async def start_if_full(self) -> None:
        async with self.lock:
            if self.status == "waiting" and all(s.taken for s in self.seats):
                start = self.state.start_row()
                try:
                    await self.store.start(self.id, start)
                except StoreError:
                    log.exception("cannot start table %s", self.id)
                    return
                await self._started(start)

    async def open_started(self, start: Start) -> None:
        """Deal a table that was created full (its start stored with it)."""
        async with self.lock:
            await self._started(start)

    async def _started(self, start: Start) -> None:
        """The start, once stored: deal the first round and tell everyone."""
        self.state.started(start)
        await self.publish_sync()
        self.reschedule()

    async def _bind(self, token: str, account: str) -> int | None:
        """Make the guest seat ``token`` holds ``account``'s (a claim at sign-in, server.accounts.service): from now on
        the token answers to that account's session only, and the seat follows the account to any device. None if the
        token holds no seat here still in play, the seat is an account's already, or the account has one here."""
        seat = self.state.seat_for_token(token)
        if seat is None or self.status not in ("waiting", "playing"):
            return None
        s = self.seats[seat]
        if s.account is not None or s.left or any(x.account == account for x in self.seats):
            return None
        try:
            bound = await self.store.claim_seats([(self.id, seat)], account, time.time())
        except StoreError as exc:
            raise unavailable(exc, "the claim") from None
        if not bound:
            return None
        s.account = account
        return seat

    async def _leave(self, seat: int) -> int:
        """``seat`` given up (the lock held): before the start it is freed, after it a bot plays it."""
        s = self.seats[seat]
        try:
            if self.status == "waiting":
                close = self.state.last_human(seat)
                await self.store.free_seat(self.id, seat, close)
                s.name, s.token_hash, s.account = None, None, None
                if close:
                    self.state.status = "closed"
                    self._idle()
            else:
                await self.store.leave_seat(self.id, seat)
                s.left, s.token_hash = True, None
                self.reschedule()
                if self.state.forfeits("left") and self.status == "playing":
                    try:
                        await self._forfeit(seat, "left")  # a rated seat is never the computer's: the match ends
                    except StoreError:
                        log.warning("cannot store the forfeit of table %s yet: its plan tries again", self.id)
        except StoreError as exc:
            raise unavailable(exc, "leaving") from None
        # The seat's open connections end: before the start the seat may go to someone else.
        for close_connection in list(self._closers.pop(seat, ())):
            close_connection()
        await self.publish_table()
        return seat

    async def expire(self) -> bool:
        """Close the table if it is still waiting for players (it waited too long); False if it started."""
        async with self.lock:
            if self.status != "waiting" or not self.owned:
                return False
            try:
                await self.store.close_table(self.id)
            except StoreError as exc:
                raise unavailable(exc, "closing the table") from None
            self.state.status = "closed"
            await self.publish_table()
            return True

    # --- connections ------------------------------------------------------------

    def _connected(self, seat: int, summary: bool) -> bool:
        """Count one more connection of ``seat``; True if it is the seat's only one (the player came back)."""
        s = self.seats[seat]
        s.connections += 1
        self.state.count_summary(seat, summary, +1)
        self.state.epoch += 1  # the seat's connected/away state, which its sync shows
        return s.connections == 1

    def _disconnected(self, seat: int, summary: bool) -> bool:
        """Give back a connection of ``seat``; True if it was the seat's last one (the player is away now)."""
        s = self.seats[seat]
        s.connections -= 1
        self.state.count_summary(seat, summary, -1)
        self.state.epoch += 1
        if s.connections == 0:
            s.away_since = time.monotonic()
            return True
        return False

    async def _seated_changed(self) -> None:
        """A seat's player came or went: its bot's plan changes, and everyone sees who is here."""
        self.reschedule()
        await self.publish_table()

    async def attach(self, seat: int | None, ch: str, deliver: Callable[[Envelope], None],
                     close: Callable[[], None] | None = None, summary: bool = False) -> None:
        """Subscribe a connection and hand it its sync, under the lock, so no update is missed or doubled.

        ``close`` ends the connection; it is called if the seat's player leaves the table. Every count is
        taken before anything that may fail, so ``detach`` always gives back exactly what was taken.
        """
        async with self.lock:
            self.clients += 1
            self.broker.subscribe(ch, deliver)
            first = False
            if seat is not None:
                first = self._connected(seat, summary)
                if close is not None:
                    self._closers.setdefault(seat, set()).add(close)
            if not self.owned:
                # The table moved to another process meanwhile (server.cluster): the client reconnects to it.
                if close is not None:
                    close()
                return
            deliver(self.sync_envelope_now(seat))
            if self.autoplay.warming is not None:  # the computer still warms up: a page that came after is told too
                deliver(Envelope.message(messages.NoticeMessage(notice=self.autoplay.warming)))
            if first:
                await self._seated_changed()

    async def detach(self, seat: int | None, ch: str, deliver: Callable[[Envelope], None],
                     close: Callable[[], None] | None = None, summary: bool = False) -> None:
        async with self.lock:
            self.clients -= 1
            self.broker.unsubscribe(ch, deliver)
            self._idle()
            if seat is None:
                return
            if close is not None:
                self._closers.get(seat, set()).discard(close)
            if self._disconnected(seat, summary):
                await self._seated_changed()

    async def attach_remote(self, seat: int | None, summary: bool = False) -> Envelope:
        """A connection on another process (a replica) joins: count it, and return its sync."""
        async with self.lock:
            if not self.owned:
                raise moved()
            self.clients += 1
            text = self.sync_envelope_now(seat)
            if seat is not None and self._connected(seat, summary):
                await self._seated_changed()
            return text

    async def detach_remote(self, seat: int | None, summary: bool = False) -> None:
        async with self.lock:
            self.clients = max(self.clients - 1, 0)
            if seat is not None and self.seats[seat].connections > 0 and self._disconnected(seat, summary):
                await self._seated_changed()
            self._idle()

    def disown(self) -> None:
        """Another process took this table over: stop its bots and close its seats' connections (they reconnect)."""
        self.owned = False
        self.autoplay.stop()
        for closers in list(self._closers.values()):
            for close_connection in list(closers):
                close_connection()
        self._closers.clear()

    def _idle(self) -> None:
        if self.status in ("finished", "closed") and self.clients == 0 and self.on_idle is not None:
            self.on_idle(self)

    # --- moves ------------------------------------------------------------------

    @metrics.timed_move
    async def _move(self, seat: int | None, card_text: str, version: int, auto: str | None = None) -> None:
        """Apply one move (the lock held); raise ProtocolError (and change nothing) if it is refused."""
        card = self.state.verify_move(seat, card_text, version, auto)
        assert seat is not None  # verify_move refuses a spectator
        # The move is applied, then stored with the match's end if it ends it (one transaction);
        # a failed write undoes it, so nobody ever hears of a move that is not stored.
        applied = self.state.apply(seat, card, auto)
        await self._store_move(applied.row, applied.finish, "move")
        self.state.commit(applied)
        if applied.finish is not None:
            await self.rate_finished()  # before the end is told, so the players' new ratings are there
        await self._announce(applied)
        self._idle()

    async def _take_back(self, seat: int | None, version: int) -> None:
        """``seat`` takes back its last card and the computer's cards after it (docs/play.md#takebacks).

        Like a move: checked, applied, stored (the takeback's row, at its version) before anyone hears of it, and
        undone if the write fails. The match is rebuilt from the stored moves with the retracted ones taken back;
        every connection then gets a fresh sync of its own seat's view, and the bots' plan starts again.
        """
        count = self.state.verify_takeback(seat, version)
        assert seat is not None  # verify_takeback refuses a spectator
        done = self.state.apply_takeback(seat, count)
        await self._store_move(done.row, None, "takeback")
        self.state.commit_takeback(done)
        await self.publish_sync()
        self.reschedule()

    async def _store_move(self, row: MoveRow, finish: Finish | None, what: str) -> None:
        """Store a ``what`` (a move, a takeback) applied on the match, with the match's end if it ended it (one
        transaction); a failed write undoes it and refuses, so nobody ever hears of one that is not stored."""
        try:
            await self.store.add_move(row, finish)
        except StoreError as exc:
            self.state.undo()
            if isinstance(exc, StaleMove):
                # Another process stored this version's move first: ours is stale.
                raise ProtocolError("stale", "another move was stored first", version=self.version) from None
            log.error("cannot store a %s of table %s: %s", what, self.id, exc)
            raise unavailable(exc, f"the {what}") from None

    async def rate_finished(self) -> None:
        """A finished rated match moves its accounts' ratings (once: server.store.ratings). A database that
        refuses leaves it to the lobby's sweep (``pending_ratings``), which tries again."""
        if self.state.rated is None:
            return
        try:
            await self.store.rate_match(self.id)
        except StoreError as exc:
            log.warning("cannot rate table %s yet: %s", self.id, exc)

    async def _announce(self, applied: Applied) -> None:
        s = self.state
        m = s.match
        assert m is not None
        finished_round = any(isinstance(e, RoundScored) for e in applied.events)
        history = views.rounds(s) if finished_round else None
        timer = s.timer()
        auto = (applied.seat, applied.auto) if applied.auto is not None else None
        await self.publish(lambda for_seat: views.update_message(s, for_seat, applied.events, applied.number,
                                                                 auto=auto, timer=timer, history=history),
                           "update")
        if m.is_over:
            await self.publish_table()
        self.reschedule()

    async def _hint(self, seat: int, ref: str | int | None) -> Later:
        """Count a hint for ``seat`` (the lock held); the search, which changes nothing, comes after the lock."""
        self.state.verify_hint(seat)
        check_hint(self.state.rated)
        await self.autoplay.take_hint(self.id, seat)
        m = self.state.match
        assert m is not None  # verify_hint refuses a table not started
        view, history = m.view(seat), m.round.log_for(seat)

        async def search() -> Outcome:
            card, reason = await self.autoplay.hint(view, history)
            # The reason's code and parameters let a client say it in its own language.
            coded = reason.to_json() if isinstance(reason, HintReason) else {}
            hint = messages.HintMessage(card=card.code, reason=str(reason), code=coded.get("code", msgspec.UNSET),
                                        params=coded.get("params", msgspec.UNSET), ref=ref)
            return Outcome(reply=Envelope.message(hint))

        return search

    async def finish_stored(self) -> bool:
        """Finish a table whose stored moves already end the match (a crash before its end was written)."""
        async with self.lock:
            s = self.state
            m = s.match
            if s.status != "playing" or m is None or not m.is_over:
                return False
            finish = s.finish_row(time.time())
            await self.store.finish(self.id, finish)
            s.status, s.finished_at = "finished", finish.finished_at
            s.epoch += 1
            self.autoplay.stop()
            await self.rate_finished()
            return True

    # --- who plays when no person does -------------------------------------------------

    def reschedule(self) -> None:
        """Plan the next bot move (a bot seat, a timed-out or away player) after any change."""
        plan = self.state.next_auto()
        if plan is None:
            self.autoplay.schedule(None)
            return
        delay, reason, level = plan
        version = self.version
        if self.state.forfeits(reason):
            assert reason is not None
            self.autoplay.schedule(delay, lambda: self._forfeit_at(version, reason))
            return
        self.autoplay.schedule(delay, lambda: self._auto_move(version, reason, level))

    async def _forfeit_at(self, version: int, reason: str) -> None:
        """A rated seat's away time or turn timer ran out at ``version``: it forfeits, if nothing changed since."""
        async with self.lock:
            s = self.state
            m = s.match
            if not self.owned or m is None or s.version != version or m.turn is None or s.status != "playing":
                return
            plan = s.next_auto()
            if plan is None or not s.forfeits(plan[1]) or plan[0] > 0:
                self.reschedule()  # the player came back or moved meanwhile: the plan is new
                return
            try:
                await self._forfeit(m.turn, reason)
            except StoreError as exc:
                log.warning("cannot store the forfeit of table %s yet: %s", self.id, exc)
                self.autoplay.retry(lambda: self._forfeit_at(version, reason))

    async def _forfeit(self, seat: int, reason: str) -> None:
        """End a rated match at once by ``seat``'s forfeit (the lock held; server.rated.policy): its side loses,
        the other wins, stored with the seat counted as left (the pairing's leave penalty), then rated once and
        told. A failed write (``StoreError``) changes nothing."""
        s = self.state
        finish = s.forfeit_row(seat, reason, time.time())
        await self.store.forfeit(self.id, seat, finish)
        forfeit = msgspec.json.decode(finish.result)["forfeit"]
        s.forfeited(finish, forfeit)
        self.autoplay.schedule(None)
        log.info("table %s: seat %s forfeits the rated match (%s)", self.id, seat, reason)
        await self.rate_finished()  # before the end is told, so the players' new ratings are there
        await self.publish_sync()
        self._idle()

    async def _auto_move(self, version: int, reason: str | None, level: str) -> None:
        """The move a bot makes for the seat to move at ``version`` (if the table is still there)."""
        s = self.state
        async with self.lock:
            m = s.match
            if m is None or s.version != version or m.turn is None or s.status != "playing":
                return
            seat = m.turn
            view, history = m.view(seat), m.round.log_for(seat)
        card, status = await self.autoplay.choose_noted(level, seat, version, view, history, s.match_seed, self.id)
        try:
            await self.handle(Move(card=card.code, version=version), Origin(seat=seat, auto=reason))
            notice = self.autoplay.strength_notice(status)
            if notice is not None:
                await self.publish_notice(notice)
        except ProtocolError as exc:
            if exc.code == "unavailable" and self.owned:
                # The database did not take the move: nothing changed, so try again after a pause.
                self.autoplay.retry(lambda: self._auto_move(version, reason, level))
            # otherwise the player moved first, the table changed or moved to another process (server.cluster):
            # the newer state wins

    # --- between rounds and after the match -------------------------------------------

    async def _rematch(self, seat: int, address: str | None) -> Outcome | Later:
        """``seat`` (at ``address``) offers or accepts a rematch (the lock held); once every player of the finished
        match has, the lobby makes the new table, counted against ``address``, after the lock."""
        ready = self.state.offer_rematch(seat)
        await self.publish_table()
        if not ready:
            return NOTHING
        if self.on_rematch is None:
            self.state.rematching = False  # refused: nothing makes it
            return NOTHING
        make = self.on_rematch

        async def new_table() -> Outcome:
            await make(self, address)
            return NOTHING

        return new_table

    def stop(self) -> None:
        self.autoplay.stop()
