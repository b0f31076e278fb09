"""One table in play: the authority over its match, its version and its seats.

The table applies one move at a time under its lock, stores the move before
anyone hears of it, and publishes one message per seat, each built from that
seat's own view and redacted log (``wire``). Its bots and timers are in
``autoplay``, its commitments and reveals in ``commitments``.

Every change is written first and applied in memory after; a write that
fails leaves the table as it was (a move already applied to the match is
undone by replaying the stored moves).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from ..cards import Card
from ..errors import CardError
from ..events import Event, MatchOver, RoundScored, Xeri
from ..match import Match
from ..record import to_record
from ..rules import Ruleset
from . import wire
from .autoplay import Autoplay
from .commitments import Commitments
from .envelope import Envelope, Kind, to_text
from .errors import ProtocolError
from .pubsub import Broker
from .seats import Seat, hash_token, new_token
from .store import (
    Finish,
    MoveRow,
    ResultRow,
    SeatRow,
    StaleMove,
    Start,
    Store,
    StoreError,
    StoreUnavailable,
    TableRow,
    dumps,
)
from .wire import channel

log = logging.getLogger("xeri.server")

__all__ = ["ProtocolError", "Seat", "Table", "channel", "hash_token", "moved", "new_token", "unavailable"]


#: the longest wait, in seconds, for the players to close a round's summary before the next round goes on
ROUND_PAUSE = 30.0


def moved() -> ProtocolError:
    """The refusal of a table this process no longer owns (server.cluster): the same request works at its new owner."""
    return ProtocolError("unavailable", "this table moved to another server: reconnect and try again", retry=True)


def unavailable(exc: StoreError, what: str) -> ProtocolError:
    """The refusal a client gets when the database did not take a write (HTTP 503)."""
    detail = str(exc) if isinstance(exc, StoreUnavailable) else "the database refused it"
    return ProtocolError("unavailable", f"{what} could not be stored ({detail}); nothing changed, try again",
                         retry=True)


class Table:
    """A table's runtime state; built from its database rows."""

    def __init__(self, row: TableRow, seats: Sequence[SeatRow], *, store: Store, broker: Broker,
                 bot_delay: float, hint_level: str | None = None) -> None:
        self.id: str = row.id
        self.title: str = row.title or ""
        self.status: str = row.status
        self.ruleset = Ruleset.from_dict(json.loads(row.ruleset))
        self.turn_timer: float | None = row.turn_timer
        self.takeover_after: float | None = row.takeover_after
        self.takeover_level: str = row.takeover_level
        self.private: bool = bool(row.private)
        self.match_seed = int(row.match_seed)
        self.first_dealer: int = row.first_dealer or 0
        self.created_at: float = row.created_at
        self.started_at: float | None = row.started_at
        self.finished_at: float | None = row.finished_at
        self.seats = [Seat.from_row(s) for s in seats]
        self.match: Match | None = None
        #: the moves applied so far, (seat, card code), to rebuild the match after a failed write
        self.moves: list[tuple[int, str]] = []
        self.version = 0
        self.turn_started = time.monotonic()
        self.lock = asyncio.Lock()
        self.store = store
        self.broker = broker
        self.clients = 0
        self.commitments = Commitments(self.match_seed, row.salt_key)
        self.autoplay = Autoplay(self, bot_delay, hint_level)
        #: called when the table is finished or closed and nobody is connected (the lobby forgets it)
        self.on_idle: Callable[[Table], None] | None = None
        #: per seat, how to close each of its connections (a player who leaves keeps no window on the seat)
        self._closers: dict[int, set[Callable[[], None]]] = {}
        #: False once another process owns the table (server.cluster): it then applies nothing more
        self.owned = True
        #: after a round, the human seats still reading its summary, and until when the next round waits for them
        self.pause: set[int] = set()
        self.pause_until = 0.0
        #: seconds the next round waits at most for every human to close the round summary
        self.round_pause = ROUND_PAUSE
        #: the seats that offered (or accepted) a rematch once the match is over
        self.rematch: set[int] = set()
        self.rematch_table: str | None = None
        #: True while the rematch's table is being made (by the one caller ``offer_rematch`` chose)
        self.rematching = False
        #: per seat, its connections that show a round summary (``?summary=1``): only those hold up the next round
        self.summary_clients: dict[int, int] = {}
        #: makes the new table of a rematch once every player asked for one, counted against the address of
        #: the player who completed the offer (the lobby's; None: refused)
        self.on_rematch: Callable[[Table, str | None], Awaitable[Any]] | None = None
        #: per seat (None: spectators), its last sync: (match, version, epoch, parts, envelope)
        self._syncs: dict[int | None, tuple[Match | None, int, int, dict[str, Any], Envelope]] = {}
        #: counts the table's publications: what a sync shows besides the match changes only with one
        self.epoch = 0
        #: how many times a sync's costly parts were built (one per version and seat)
        self.sync_builds = 0
        #: the fairness report of a finished match, which never changes
        self._fairness: dict[str, Any] | None = None

    # --- building ------------------------------------------------------------

    def replay(self, moves: Sequence[MoveRow]) -> None:
        """Rebuild the match from the stored moves (after a restart or to show a finished table)."""
        if self.status not in ("playing", "finished"):
            return
        self._rebuild([(m.seat, m.card) for m in moves])

    def _rebuild(self, moves: list[tuple[int, str]]) -> None:
        self.match = self._new_match()
        for seat, code in moves:
            self.match.play(Card.parse(code), seat)
        self.moves = list(moves)
        self.version = len(moves)
        self.turn_started = time.monotonic()

    def _new_match(self) -> Match:
        return Match(self.ruleset, seed=self.match_seed, names=[s.display_name() for s in self.seats],
                     first_dealer=self.first_dealer)

    # --- public descriptions (built in wire) -------------------------------------

    def info(self) -> dict[str, Any]:
        """The protocol's TABLE object: public, the same for everyone."""
        return wire.table_info(self)

    def sync_message(self, seat: int | None) -> dict[str, Any]:
        return wire.sync_message(self, seat)

    def sync_envelope_now(self, seat: int | None) -> Envelope:
        """``seat``'s sync, enveloped: built once per version and seat, and served as is while the table
        does not change, so a flood of ``sync`` requests (or of connections) costs no rebuild each.

        Out of play (waiting, finished, closed) nothing in a sync depends on the clock, and whatever changes the
        table's description is published (``epoch``): the whole envelope is reused until then. In play the
        timer counts down, so the envelope is rebuilt around the parts, which change only with the version.
        """
        m = self.match
        cached = self._syncs.get(seat)
        same = cached is not None and cached[0] is m and cached[1] == self.version
        if same and cached is not None and cached[2] == self.epoch and self.status != "playing" and not self.pause:
            return cached[4]
        if same and cached is not None:
            parts = cached[3]
        else:
            parts = wire.sync_parts(self, seat)
            self.sync_builds += 1
        envelope = Envelope.sync(self.version, wire.sync_from(self, seat, parts, self.info(), self.timer(),
                                                              self.pause_state()))
        self._syncs[seat] = (m, self.version, self.epoch, parts, envelope)
        return envelope

    def timer(self) -> dict[str, Any] | None:
        return self.autoplay.timer()

    def history(self) -> list[dict[str, Any]]:
        return self.commitments.history(self.match)

    def fairness_report(self) -> dict[str, Any]:
        if self._fairness is not None:
            return self._fairness
        report = self.commitments.report(self.ruleset, self.match)
        if self.status == "finished":
            self._fairness = report  # every round is revealed and checked: built once
        return report

    def match_commitment(self) -> str | None:
        return self.commitments.of_match(self.match)

    def record(self) -> dict[str, Any]:
        """The finished match's record, with the fairness section that ``xeri verify`` checks."""
        assert self.match is not None and self.match.is_over
        data = to_record(self.match, reveal_seeds=True)
        data["fairness"] = self.commitments.record_section(self.match)
        data["table"] = {"id": self.id, "title": self.title,
                         "bots": {str(s.seat): s.bot_level for s in self.seats if not s.human}}
        return data

    # --- sending --------------------------------------------------------------

    async def _publish(self, build: Callable[[int | None], dict[str, Any]], kind: Kind = "plain") -> None:
        """Publish ``build(seat)`` to each seat's channel (and the spectators'), built per seat.

        Each text goes out in an ``Envelope`` of ``kind`` at the table's version, which lets a
        connection drop an update it already has (a broker between processes may deliver one after a sync).
        """
        self.epoch += 1
        version = None if kind == "plain" else self.version
        for seat in (None, *range(self.ruleset.players)):
            ch = channel(self.id, seat)
            if self.broker.interested(ch):
                await self.broker.publish(ch, Envelope(kind, version, to_text(build(seat))))

    async def publish_notice(self, notice: str) -> None:
        """A word to everyone at the table (``{"type": "notice", "notice": NAME}``; the page words it)."""
        await self._publish(lambda _seat: {"type": "notice", "notice": notice})

    async def publish_table(self) -> None:
        text = wire.table_message(self)
        await self._publish(lambda _seat: text)

    async def publish_sync(self) -> None:
        await self._publish(self.sync_message, "sync")

    # --- seats ---------------------------------------------------------------

    def seat_for_token(self, token: str) -> int | None:
        for s in self.seats:
            if s.holds(token):
                return s.seat
        return None

    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """Take a free seat; the table starts once full. A failed write leaves the seat free and nothing changed."""
        async with self.lock:
            if not self.owned:
                raise moved()
            if self.status != "waiting":
                raise ProtocolError("not_waiting", "this table is no longer waiting for players")
            free = [s for s in self.seats if not s.taken]
            if not free:
                raise ProtocolError("table_full", "every seat at this table is taken")
            if seat is None:
                chosen = free[0]
            else:
                if not 0 <= seat < len(self.seats):
                    raise ProtocolError("bad_seat", f"seat {seat} is not a seat of this table")
                chosen = self.seats[seat]
                if chosen.taken:
                    raise ProtocolError("seat_taken", f"seat {seat} is taken")
            token = new_token()
            digest = hash_token(token)
            full = len(free) == 1
            start = self._start_row(name_of={chosen.seat: name}) if full else None
            try:
                await self.store.take_seat(self.id, chosen.seat, name, digest, start)
            except StoreError as exc:
                raise unavailable(exc, "the join") from None
            chosen.name, chosen.token_hash = name, digest
            chosen.away_since = time.monotonic()
            if start is not None:
                await self._started(start)
            else:
                await self.publish_table()
            return chosen.seat, token

    def _start_row(self, name_of: dict[int, str] | None = None) -> Start:
        names = [(name_of or {}).get(s.seat) or s.display_name() for s in self.seats]
        return Start(started_at=time.time(), names=dumps(names))

    async def start_if_full(self) -> None:
        async with self.lock:
            if self.status == "waiting" and all(s.taken for s in self.seats):
                start = self._start_row()
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
        self.match = self._new_match()
        self.moves = []
        self.status, self.started_at = "playing", start.started_at
        self.version = 0
        self.turn_started = time.monotonic()
        await self.publish_sync()
        self.autoplay.reschedule()

    async def leave(self, token: str) -> int:
        """Give up a seat; returns the seat. Before the start it is freed, after it a bot plays it."""
        async with self.lock:
            if not self.owned:
                raise moved()
            seat = self.seat_for_token(token)
            if seat is None:
                raise ProtocolError("bad_token", "no seat at this table has that token")
            if self.status in ("finished", "closed"):
                raise ProtocolError("game_over", f"this table is {self.status}: there is no game to leave")
            s = self.seats[seat]
            try:
                if self.status == "waiting":
                    close = not any(x.human and x.taken for x in self.seats if x is not s)
                    await self.store.free_seat(self.id, seat, close)
                    s.name, s.token_hash = None, None
                    if close:
                        self.status = "closed"
                        self._idle()
                else:
                    await self.store.leave_seat(self.id, seat)
                    s.left, s.token_hash = True, None
                    self.autoplay.reschedule()
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
            self.status = "closed"
            await self.publish_table()
            return True

    async def attach(self, seat: int | None, ch: str, deliver: Callable[[Envelope], None],
                     close: Callable[[], None] | None = None, summary: bool = False) -> None:
        """Subscribe a connection and hand it its sync, under the lock, so no update is missed or doubled.

        ``close`` ends the connection; it is called if the seat's player leaves the table. Every count is
        taken before anything that may fail, so ``detach`` always gives back exactly what was taken.
        """
        async with self.lock:
            self.clients += 1
            self.broker.subscribe(ch, deliver)
            if seat is not None:
                s = self.seats[seat]
                s.connections += 1
                self._count_summary(seat, summary, +1)
                self.epoch += 1  # the seat's connected/away state, which its sync shows
                if close is not None:
                    self._closers.setdefault(seat, set()).add(close)
            if not self.owned:
                # The table moved to another process meanwhile (server.cluster): the client reconnects to it.
                if close is not None:
                    close()
                return
            deliver(self.sync_envelope_now(seat))
            if seat is not None and self.seats[seat].connections == 1:
                self.autoplay.reschedule()
                await self.publish_table()

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
            s = self.seats[seat]
            s.connections -= 1
            self._count_summary(seat, summary, -1)
            self.epoch += 1
            if s.connections == 0:
                s.away_since = time.monotonic()
                self.autoplay.reschedule()
                await self.publish_table()

    async def sync_envelope(self, seat: int | None) -> Envelope:
        """A seat's sync message, enveloped (a client's ``sync`` request)."""
        async with self.lock:
            if not self.owned:
                raise moved()
            return self.sync_envelope_now(seat)

    def _count_summary(self, seat: int, summary: bool, change: int) -> None:
        """Count a connection that shows the round summary (``?summary=1``), or give the count back."""
        if summary:
            left = self.summary_clients.get(seat, 0) + change
            if left > 0:
                self.summary_clients[seat] = left
            else:
                self.summary_clients.pop(seat, None)

    async def attach_remote(self, seat: int | None, summary: bool = False) -> Envelope:
        """A connection on another process (a replica) joins: count it, and return its sync."""
        async with self.lock:
            if not self.owned:
                raise moved()
            self.clients += 1
            text = self.sync_envelope_now(seat)
            if seat is not None:
                s = self.seats[seat]
                s.connections += 1
                self._count_summary(seat, summary, +1)
                self.epoch += 1  # the seat's connected/away state, which its sync shows
                if s.connections == 1:
                    self.autoplay.reschedule()
                    await self.publish_table()
            return text

    async def detach_remote(self, seat: int | None, summary: bool = False) -> None:
        async with self.lock:
            self.clients = max(self.clients - 1, 0)
            if seat is not None and self.seats[seat].connections > 0:
                s = self.seats[seat]
                s.connections -= 1
                self._count_summary(seat, summary, -1)
                self.epoch += 1
                if s.connections == 0:
                    s.away_since = time.monotonic()
                    self.autoplay.reschedule()
                    await self.publish_table()
            self._idle()

    def disown(self) -> None:
        """Another process took this table over: stop its bots and close its seats' connections (they reconnect)."""
        self.owned = False
        self.autoplay.stop()
        for closers in list(self._closers.values()):
            for close_connection in list(closers):
                close_connection()
        self._closers.clear()

    # --- moves ------------------------------------------------------------------

    async def move(self, seat: int | None, card_text: str, version: int, auto: str | None = None) -> None:
        """Apply one move; raise ProtocolError (and change nothing) if it is refused."""
        async with self.lock:
            if not self.owned:
                raise moved()
            m = self.match
            if seat is None:
                raise ProtocolError("spectator", "spectators cannot play")
            if self.status == "waiting" or m is None:
                raise ProtocolError("not_started", "the game has not started: seats are still free")
            if self.status != "playing" or m.is_over:
                raise ProtocolError("game_over", "the match is over")
            if version != self.version:
                raise ProtocolError("stale", f"the move was made at version {version}, but the table is at "
                                    f"{self.version}", version=self.version)
            if auto is None and self.seats[seat].left:
                raise ProtocolError("left", "you left this table: a bot plays your seat now")
            if auto is None and self.paused():
                raise ProtocolError("round_pause", "the next round starts once everyone has closed the round summary",
                                    version=self.version)
            if m.turn != seat:
                raise ProtocolError("not_your_turn", f"it is {m.names[m.turn or 0]}'s turn", version=self.version)
            try:
                card = Card.parse(card_text)
            except CardError as exc:
                raise ProtocolError("bad_card", str(exc)) from None
            if card not in m.legal_moves:
                raise ProtocolError("illegal_move", f"{card} is not in your hand", version=self.version)
            number = len(m.rounds)
            # The move is applied, then stored with the match's end if it ends it (one transaction);
            # a failed write undoes it, so nobody ever hears of a move that is not stored.
            events = m.play(card, seat)
            finish = self._finish_row(time.time()) if m.is_over else None
            row = MoveRow(self.id, self.version, seat, card.code, auto, time.time())
            try:
                await self.store.add_move(row, finish)
            except StoreError as exc:
                started = self.turn_started
                self._rebuild(self.moves)
                self.turn_started = started
                if isinstance(exc, StaleMove):
                    # Another process stored this version's move first: ours is stale.
                    raise ProtocolError("stale", "another move was stored first", version=self.version) from None
                log.error("cannot store a move of table %s: %s", self.id, exc)
                raise unavailable(exc, "the move") from None
            self.moves.append((seat, card.code))
            self.version += 1
            self.turn_started = time.monotonic()
            if not m.is_over and any(isinstance(e, RoundScored) for e in events):
                # The next round waits until every connected player has closed the round's summary (or a timeout).
                self.pause = {s.seat for s in self.seats
                              if s.human and not s.left and self.summary_clients.get(s.seat, 0) > 0}
                self.pause_until = self.turn_started + self.round_pause if self.pause else 0.0
            if finish is not None:
                self.status, self.finished_at = "finished", finish.finished_at
            await self._announce(events, number, (seat, auto) if auto is not None else None)
            self._idle()

    def _idle(self) -> None:
        if self.status in ("finished", "closed") and self.clients == 0 and self.on_idle is not None:
            self.on_idle(self)

    async def _announce(self, events: Sequence[Event], number: int, auto: tuple[int, str] | None) -> None:
        m = self.match
        assert m is not None
        finished_round = any(isinstance(e, RoundScored) for e in events)
        history = self.history() if finished_round else None
        timer = self.timer()
        await self._publish(lambda for_seat: wire.update_message(self, for_seat, events, number, auto=auto,
                                                                 timer=timer, history=history),
                            "update")
        if m.is_over:
            await self.publish_table()
        self.autoplay.reschedule()

    async def hint(self, seat: int | None) -> tuple[str, str]:
        if seat is None:
            raise ProtocolError("spectator", "spectators cannot ask for hints")
        async with self.lock:
            if not self.owned:
                raise moved()
            m = self.match
            if m is None:
                raise ProtocolError("not_started", "the game has not started")
            if m.turn != seat:
                raise ProtocolError("not_your_turn", "hints are for your own turn")
            self.autoplay.take_hint(seat)
            view, history = m.view(seat), m.round.log_for(seat)
        card, reason = await self.autoplay.hint(view, history)
        return card.code, reason

    def _finish_row(self, now: float) -> Finish:
        """The stored end of the match that is over: its result, its record and each seat's result."""
        m = self.match
        assert m is not None and m.winner is not None
        xeris = [[0, 0] for _ in self.seats]
        for e in m.events:
            if isinstance(e, Xeri):
                xeris[e.seat][1 if e.jack else 0] += 1
        over = next(e for e in reversed(m.events) if isinstance(e, MatchOver))
        results = [
            ResultRow(table_id=self.id, seat=s.seat, name=s.display_name(), human=s.human,
                      side=self.ruleset.side_of(s.seat), won=self.ruleset.side_of(s.seat) == over.winner,
                      points=m.scores[self.ruleset.side_of(s.seat)], xeris=sum(xeris[s.seat]),
                      jack_xeris=xeris[s.seat][1], finished_at=now)
            for s in self.seats
        ]
        result = {"scores": list(m.scores), "round_wins": list(m.round_wins), "winner": m.winner,
                  "winners": [s.display_name() for s in self.seats if self.ruleset.side_of(s.seat) == m.winner],
                  "rounds": len(m.rounds), "bots": [None if s.human else s.bot_level for s in self.seats]}
        return Finish(finished_at=now, result=dumps(result), record=dumps(self.record()), results=results)

    async def finish_stored(self) -> bool:
        """Finish a table whose stored moves already end the match (a crash before its end was written)."""
        async with self.lock:
            m = self.match
            if self.status != "playing" or m is None or not m.is_over:
                return False
            finish = self._finish_row(time.time())
            await self.store.finish(self.id, finish)
            self.status, self.finished_at = "finished", finish.finished_at
            self.epoch += 1
            self.autoplay.stop()
            return True

    def reschedule(self) -> None:
        self.autoplay.reschedule()

    # --- between rounds and after the match -------------------------------------------

    def paused(self) -> bool:
        """Whether the next round still waits for a player to close the last round's summary."""
        return bool(self.pause) and time.monotonic() < self.pause_until

    def pause_state(self) -> dict[str, Any] | None:
        """The protocol's PAUSE: the seats still reading the round summary and the seconds left, or None."""
        if not self.paused():
            return None
        return {"waiting": sorted(self.pause), "remaining": round(self.pause_until - time.monotonic(), 2)}

    async def ready(self, seat: int | None) -> None:
        """``seat`` closed the round summary; the next round goes on once nobody is left reading it."""
        if seat is None:
            raise ProtocolError("spectator", "spectators do not hold up the table")
        async with self.lock:
            if not self.owned:
                raise moved()
            if seat not in self.pause:
                return
            self.pause.discard(seat)
            if not self.pause:
                self.pause_until = time.monotonic()
            await self.publish_table()
            self.autoplay.reschedule()

    async def offer_rematch(self, seat: int | None) -> bool:
        """``seat`` offers (or accepts) a rematch; True once every player of the finished match has."""
        if seat is None:
            raise ProtocolError("spectator", "spectators cannot ask for a rematch")
        async with self.lock:
            if not self.owned:
                raise moved()
            if self.status != "finished":
                raise ProtocolError("not_finished", "a rematch is offered once the match is over")
            if self.seats[seat].left:
                raise ProtocolError("left", "you left this table")
            self.rematch.add(seat)
            players = {s.seat for s in self.seats if s.human and not s.left}
            await self.publish_table()
            # Exactly one caller makes the new table, however many connections offer at once.
            ready = players <= self.rematch and self.rematch_table is None and not self.rematching
            self.rematching = self.rematching or ready
            return ready

    async def ask_rematch(self, seat: int | None, address: str | None = None) -> None:
        """``seat`` (at ``address``) offers or accepts a rematch; once every player has, the lobby makes the new
        table, counted against ``address``."""
        if await self.offer_rematch(seat):
            if self.on_rematch is None:
                self.rematching = False  # refused: nothing makes it
            else:
                await self.on_rematch(self, address)

    def stop(self) -> None:
        self.autoplay.stop()
