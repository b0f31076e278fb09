"""One table in play: its seats, its match, its bots and timers, and what each seat is told.

The table is the authority: it applies one move at a time under its lock,
stores the move before anyone hears of it, and publishes one message per
seat, each built from that seat's own view and redacted log.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from .. import fairness
from ..bots import Bot, make_bot
from ..bots.hint import suggest
from ..cards import Card
from ..errors import CardError
from ..events import Event, MatchOver, RoundScored, RoundStarted, Xeri, redact
from ..match import Match
from ..record import to_record
from ..rules import Ruleset
from .pubsub import Broker
from .store import Store, dumps
from .wire import event_json, view_json

log = logging.getLogger("xeri.server")


class ProtocolError(Exception):
    """A request that is refused; ``code`` is the protocol's error code, and nothing changed."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra


def hash_token(token: str) -> str:
    """Only this hash of a seat token is stored, so the database alone gives nobody a seat."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass
class Seat:
    """A seat: a bot, or a person's (free until joined; ``left`` once they gave it up to a bot)."""

    seat: int
    human: bool
    bot_level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    left: bool = False
    connections: int = 0
    away_since: float = 0.0

    @property
    def taken(self) -> bool:
        return not self.human or self.name is not None

    def display_name(self) -> str:
        return self.name if self.name else f"Bot ({self.bot_level})"


def envelope(head: str, message: dict[str, Any]) -> str:
    """A message as it travels through the broker: ``"{head} {json}"``.

    ``head`` is ``-`` (deliver as is), ``s{v}`` (a sync at version v) or ``{v}`` (the update to version v).
    """
    return f"{head} {json.dumps(message, ensure_ascii=False, separators=(',', ':'))}"


def channel(table_id: str, seat: int | None) -> str:
    """The pub/sub channel of one seat's messages (``spectator`` for seat None)."""
    return f"xeri:{table_id}:{'spectator' if seat is None else seat}"


class Table:
    """A table's runtime state; built from its database rows (``from_rows``)."""

    def __init__(self, row: dict[str, Any], seats: Sequence[dict[str, Any]], *, store: Store, broker: Broker,
                 bot_delay: float, hint_level: str | None = None) -> None:
        self.id: str = row["id"]
        self.title: str = row.get("title") or ""
        self.status: str = row["status"]
        self.ruleset = Ruleset.from_dict(json.loads(row["ruleset"]))
        self.turn_timer: float | None = row.get("turn_timer")
        self.takeover_after: float | None = row.get("takeover_after")
        self.takeover_level: str = row["takeover_level"]
        self.private: bool = bool(row.get("private"))
        self.match_seed = int(row["match_seed"])
        self.salt_key: str = row["salt_key"]
        self.first_dealer: int = row.get("first_dealer") or 0
        self.created_at: float = row["created_at"]
        self.started_at: float | None = row.get("started_at")
        self.finished_at: float | None = row.get("finished_at")
        now = time.monotonic()
        self.seats = [
            Seat(s["seat"], bool(s["human"]), s.get("bot_level"), s.get("name"), s.get("token_hash"),
                 bool(s.get("left")), away_since=now)
            for s in seats
        ]
        self.match: Match | None = None
        self.version = 0
        self.turn_started = now
        self.lock = asyncio.Lock()
        self.store = store
        self.broker = broker
        self.bot_delay = bot_delay
        self.hint_level = hint_level
        self.clients = 0
        #: per seat, how to close each of its connections (a player who leaves keeps no window on the seat)
        self._closers: dict[int, set[Callable[[], None]]] = {}
        self._bots: dict[tuple[int, str], Bot] = {}
        self._driver: asyncio.Task[None] | None = None
        self._commitments: list[str] = []

    # --- building ------------------------------------------------------------

    def replay(self, moves: Sequence[dict[str, Any]]) -> None:
        """Rebuild the match from the stored moves (after a restart or to show a finished table)."""
        if self.status not in ("playing", "finished"):
            return
        self.match = self._new_match()
        for m in moves:
            self.match.play(Card.parse(m["card"]), m["seat"])
        self.version = len(moves)
        self.turn_started = time.monotonic()

    def _new_match(self) -> Match:
        return Match(self.ruleset, seed=self.match_seed, names=[s.display_name() for s in self.seats],
                     first_dealer=self.first_dealer)

    # --- public descriptions --------------------------------------------------

    def info(self) -> dict[str, Any]:
        """The protocol's TABLE object: public, the same for everyone."""
        m = self.match
        seats = []
        for s in self.seats:
            level = self._playing_level(s)
            seats.append({
                "seat": s.seat, "side": self.ruleset.side_of(s.seat), "name": s.display_name() if s.taken else None,
                "bot": level, "human": s.human, "taken": s.taken,
                "connected": (not s.human) or s.left or s.connections > 0,
                "away": s.human and not s.left and s.name is not None and s.connections == 0,
            })
        return {
            "id": self.id, "title": self.title, "status": self.status, "ruleset": self.ruleset.to_dict(),
            "players": self.ruleset.players, "seats": seats,
            "free_seats": [s.seat for s in self.seats if not s.taken],
            "turn_timer": self.turn_timer, "takeover_after": self.takeover_after,
            "takeover_level": self.takeover_level, "private": self.private, "version": self.version,
            "created_at": _iso(self.created_at), "finished_at": _iso(self.finished_at),
            "invite": f"/#/t/{self.id}",
            "scores": list(m.scores) if m else [0] * self.ruleset.sides,
            "winner": m.winner if m else None,
        }

    def _playing_level(self, s: Seat) -> str | None:
        """The bot level playing a seat now, or None when a person plays it."""
        if not s.human:
            return s.bot_level
        if s.left:
            return self.takeover_level
        if (s.name is not None and s.connections == 0 and self.takeover_after is not None
                and self.status == "playing" and time.monotonic() >= s.away_since + self.takeover_after):
            return self.takeover_level
        return None

    def commitment(self, number: int) -> str:
        """The published commitment of round ``number`` (1-based)."""
        assert self.match is not None
        while len(self._commitments) < number:
            i = len(self._commitments)
            salt = fairness.salt_for(self.salt_key, f"round:{i + 1}")
            self._commitments.append(fairness.commitment(self.match.round_seeds[i], salt))
        return self._commitments[number - 1]

    def match_commitment(self) -> str:
        return fairness.commitment(self.match_seed, fairness.salt_for(self.salt_key, "match"))

    def _reveal(self, number: int) -> dict[str, Any]:
        assert self.match is not None
        rnd = self.match.rounds[number - 1]
        assert rnd.is_over, "a round's seed is revealed only once the round is over"
        seed = self.match.round_seeds[number - 1]
        # seed_text: the same 64-bit number as a string, for JSON readers limited to 2**53.
        return {"kind": "reveal", "round": number, "dealer": rnd.dealer, "seed": seed, "seed_text": str(seed),
                "salt": fairness.salt_for(self.salt_key, f"round:{number}"), "commitment": self.commitment(number)}

    def wire_events(self, events: Sequence[Event], seat: int | None, round_number: int) -> list[dict[str, Any]]:
        """Events as ``seat`` may see them, with the commitment after each round start and the reveal
        after each round's score. ``round_number`` is the round the first event belongs to."""
        out: list[dict[str, Any]] = []
        for e in redact(events, seat):
            out.append(event_json(e))
            if isinstance(e, RoundStarted):
                round_number = e.number
                out.append({"kind": "commitment", "round": e.number, "commitment": self.commitment(e.number)})
            elif isinstance(e, RoundScored):
                out.append(self._reveal(round_number))
        return out

    def view(self, seat: int | None) -> dict[str, Any] | None:
        m = self.match
        if m is None:
            return None
        return view_json(m.view(seat), winner=m.winner, match_over=m.is_over)

    def history(self) -> list[dict[str, Any]]:
        """Every finished round: breakdown, totals, and the revealed seed and salt."""
        m = self.match
        if m is None:
            return []
        out = []
        for i, rnd in enumerate(m.rounds):
            if rnd.scores is None:
                continue
            reveal = self._reveal(i + 1)
            out.append({"round": i + 1, "dealer": rnd.dealer, "scores": [s.to_dict() for s in rnd.scores],
                        "totals": [s.total for s in rnd.scores], "commitment": reveal["commitment"],
                        "seed": reveal["seed"], "seed_text": reveal["seed_text"], "salt": reveal["salt"]})
        return out

    def timer(self) -> dict[str, Any] | None:
        """When a bot will play for a human seat to move (a turn timer or an away player), else None."""
        m = self.match
        if m is None or m.turn is None or self.status != "playing":
            return None
        s = self.seats[m.turn]
        if not s.human or s.left:
            return None
        plan = self._plan(s, time.monotonic())
        if plan is None:
            return None
        return {"seat": s.seat, "remaining": round(plan[0], 2), "reason": plan[1]}

    def sync_message(self, seat: int | None) -> dict[str, Any]:
        m = self.match
        events: list[dict[str, Any]] = []
        if m is not None:
            log = m.events
            starts = [i for i, e in enumerate(log) if isinstance(e, RoundStarted)]
            begin, number = starts[-1], len(starts)
            if len(starts) > 1:
                scored = [i for i in range(starts[-2], starts[-1]) if isinstance(log[i], RoundScored)]
                if scored:
                    begin, number = scored[-1], len(starts) - 1
            events = self.wire_events(log[begin:], seat, number)
        return {"type": "sync", "table": self.info(), "seat": seat, "version": self.version, "view": self.view(seat),
                "events": events, "history": self.history(),
                "fairness": {"match_commitment": self.match_commitment()}, "timer": self.timer()}

    def fairness_report(self) -> dict[str, Any]:
        m = self.match
        rounds = []
        if m is not None:
            for i, rnd in enumerate(m.rounds):
                entry: dict[str, Any] = {"round": i + 1, "dealer": rnd.dealer, "commitment": self.commitment(i + 1),
                                         "revealed": rnd.is_over, "seed": None, "seed_text": None, "salt": None,
                                         "ok": None,
                                         "detail": "revealed when the round is over"}
                if rnd.is_over:
                    r = self._reveal(i + 1)
                    check = fairness.verify_round(self.ruleset, rnd.dealer, r["seed"], r["salt"], r["commitment"],
                                                  rnd.deal, i + 1)
                    entry.update(seed=r["seed"], seed_text=r["seed_text"], salt=r["salt"], ok=check.ok,
                                 detail=check.detail)
                rounds.append(entry)
        over = m is not None and m.is_over
        return {"scheme": fairness.SCHEME, "match_commitment": self.match_commitment(),
                "match_seed": self.match_seed if over else None,
                "match_salt": fairness.salt_for(self.salt_key, "match") if over else None, "rounds": rounds}

    def record(self) -> dict[str, Any]:
        """The finished match's record, with the fairness section that ``xeri verify`` checks."""
        assert self.match is not None and self.match.is_over
        data = to_record(self.match, reveal_seeds=True)
        data["fairness"] = {
            "scheme": fairness.SCHEME,
            "match": {"commitment": self.match_commitment(), "salt": fairness.salt_for(self.salt_key, "match")},
            "rounds": [{"round": i + 1, "commitment": self.commitment(i + 1),
                        "salt": fairness.salt_for(self.salt_key, f"round:{i + 1}")}
                       for i in range(len(self.match.rounds))],
        }
        data["table"] = {"id": self.id, "title": self.title,
                         "bots": {str(s.seat): s.bot_level for s in self.seats if not s.human}}
        return data

    # --- sending --------------------------------------------------------------

    async def _publish(self, build: Any, head: str = "-") -> None:
        """Publish ``build(seat)`` to each seat's channel (and the spectators'), built per seat.

        Each text goes out as ``envelope(head, json)``; the head lets a connection drop an
        update it already has (a broker between processes may deliver one after a sync).
        """
        for seat in (None, *range(self.ruleset.players)):
            ch = channel(self.id, seat)
            if self.broker.interested(ch):
                await self.broker.publish(ch, envelope(head, build(seat)))

    async def publish_table(self) -> None:
        text = {"type": "table", "table": self.info()}
        await self._publish(lambda _seat: text)

    async def publish_sync(self) -> None:
        await self._publish(self.sync_message, f"s{self.version}")

    # --- seats ---------------------------------------------------------------

    def seat_for_token(self, token: str) -> int | None:
        digest = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
                return s.seat
        return None

    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        async with self.lock:
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
            await self.store.update_seat(self.id, chosen.seat, name=name, token_hash=hash_token(token))
            chosen.name, chosen.token_hash = name, hash_token(token)
            chosen.away_since = time.monotonic()
            if all(s.taken for s in self.seats):
                await self._start()
            else:
                await self.publish_table()
            return chosen.seat, token

    async def start_if_full(self) -> None:
        async with self.lock:
            if self.status == "waiting" and all(s.taken for s in self.seats):
                await self._start()

    async def _start(self) -> None:
        now = time.time()
        self.match = self._new_match()
        names = [s.display_name() for s in self.seats]
        await self.store.update_table(self.id, status="playing", started_at=now, names=dumps(names))
        self.status, self.started_at = "playing", now
        self.version = 0
        self.turn_started = time.monotonic()
        await self.publish_sync()
        self._reschedule()

    async def leave(self, token: str) -> int:
        """Give up a seat; returns the seat. Before the start it is freed, after it a bot plays it."""
        async with self.lock:
            seat = self.seat_for_token(token)
            if seat is None:
                raise ProtocolError("bad_token", "no seat at this table has that token")
            s = self.seats[seat]
            if self.status == "waiting":
                await self.store.update_seat(self.id, seat, name=None, token_hash=None)
                s.name, s.token_hash = None, None
                if not any(x.human and x.taken for x in self.seats):
                    await self.store.update_table(self.id, status="closed")
                    self.status = "closed"
            else:
                await self.store.update_seat(self.id, seat, left=True, token_hash=None)
                s.left, s.token_hash = True, None
                self._reschedule()
            # The seat's open connections end: before the start the seat may go to someone else.
            for close in list(self._closers.pop(seat, ())):
                close()
            await self.publish_table()
            return seat

    async def attach(self, seat: int | None, ch: str, deliver: Callable[[str], None],
                     close: Callable[[], None] | None = None) -> None:
        """Subscribe a connection and hand it its sync, under the lock, so no update is missed or doubled.

        ``close`` ends the connection; it is called if the seat's player leaves the table.
        """
        async with self.lock:
            self.clients += 1
            self.broker.subscribe(ch, deliver)
            if seat is not None:
                s = self.seats[seat]
                s.connections += 1
                if close is not None:
                    self._closers.setdefault(seat, set()).add(close)
            deliver(envelope(f"s{self.version}", self.sync_message(seat)))
            if seat is not None and self.seats[seat].connections == 1:
                self._reschedule()
                await self.publish_table()

    async def detach(self, seat: int | None, ch: str, deliver: Callable[[str], None],
                     close: Callable[[], None] | None = None) -> None:
        async with self.lock:
            self.clients -= 1
            self.broker.unsubscribe(ch, deliver)
            if seat is None:
                return
            if close is not None:
                self._closers.get(seat, set()).discard(close)
            s = self.seats[seat]
            s.connections -= 1
            if s.connections == 0:
                s.away_since = time.monotonic()
                self._reschedule()
                await self.publish_table()

    # --- moves ------------------------------------------------------------------

    async def move(self, seat: int | None, card_text: str, version: int, auto: str | None = None) -> None:
        """Apply one move; raise ProtocolError (and change nothing) if it is refused."""
        async with self.lock:
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
            if m.turn != seat:
                raise ProtocolError("not_your_turn", f"it is {m.names[m.turn or 0]}'s turn", version=self.version)
            try:
                card = Card.parse(card_text)
            except CardError as exc:
                raise ProtocolError("bad_card", str(exc)) from None
            if card not in m.legal_moves:
                raise ProtocolError("illegal_move", f"{card} is not in your hand", version=self.version)
            try:
                await self.store.add_move(self.id, self.version, seat, card.code, auto, time.time())
            except IntegrityError:
                # Another process stored this version's move first: ours is stale.
                raise ProtocolError("stale", "another move was stored first", version=self.version) from None
            except SQLAlchemyError:
                log.exception("cannot store a move of table %s", self.id)
                raise ProtocolError("unavailable", "the move could not be stored; nothing changed, try again") from None
            number = len(m.rounds)
            events = m.play(card, seat)
            self.version += 1
            self.turn_started = time.monotonic()
            if m.is_over:
                await self._finish()
            finished_round = any(isinstance(e, RoundScored) for e in events)
            history = self.history() if finished_round else None
            version, timer = self.version, self.timer()

            def build(for_seat: int | None) -> dict[str, Any]:
                evs = self.wire_events(events, for_seat, number)
                if auto is not None:
                    evs.insert(0, {"kind": "auto_move", "seat": seat, "reason": auto})
                msg = {"type": "update", "version": version, "events": evs, "view": self.view(for_seat),
                       "timer": timer}
                if history is not None:
                    msg["history"] = history
                return msg

            await self._publish(build, str(version))
            if m.is_over:
                await self.publish_table()
            self._reschedule()

    async def hint(self, seat: int | None) -> tuple[str, str]:
        if seat is None:
            raise ProtocolError("spectator", "spectators cannot ask for hints")
        async with self.lock:
            m = self.match
            if m is None:
                raise ProtocolError("not_started", "the game has not started")
            if m.turn != seat:
                raise ProtocolError("not_your_turn", "hints are for your own turn")
            view, history = m.view(seat), m.round.log_for(seat)
        card, reason = await asyncio.to_thread(suggest, view, history, self.hint_level)
        return card.code, reason

    async def _finish(self) -> None:
        m = self.match
        assert m is not None and m.winner is not None
        now = time.time()
        xeris = [[0, 0] for _ in self.seats]
        for e in m.events:
            if isinstance(e, Xeri):
                xeris[e.seat][1 if e.jack else 0] += 1
        over = next(e for e in reversed(m.events) if isinstance(e, MatchOver))
        results = [
            {"table_id": self.id, "seat": s.seat, "name": s.display_name(), "human": s.human, "side":
             self.ruleset.side_of(s.seat), "won": self.ruleset.side_of(s.seat) == over.winner,
             "points": m.scores[self.ruleset.side_of(s.seat)], "xeris": sum(xeris[s.seat]),
             "jack_xeris": xeris[s.seat][1], "finished_at": now}
            for s in self.seats
        ]
        result = {"scores": list(m.scores), "round_wins": list(m.round_wins), "winner": m.winner,
                  "winners": [s.display_name() for s in self.seats if self.ruleset.side_of(s.seat) == m.winner],
                  "rounds": len(m.rounds)}
        await self.store.finish(self.id, {"status": "finished", "finished_at": now, "result": dumps(result),
                                          "record": dumps(self.record())}, results)
        self.status, self.finished_at = "finished", now

    # --- bots and timers ------------------------------------------------------------

    def _plan(self, s: Seat, now: float) -> tuple[float, str | None, str] | None:
        """(delay, reason, level) of the next bot move for seat ``s`` to play, or None if a person plays."""
        if not s.human:
            return (self.bot_delay, None, s.bot_level or self.takeover_level)
        if s.left:
            return (self.bot_delay, "left", self.takeover_level)
        options: list[tuple[float, str]] = []
        if self.turn_timer is not None:
            options.append((self.turn_started + self.turn_timer - now, "timer"))
        if self.takeover_after is not None and s.connections == 0:
            options.append((max(s.away_since + self.takeover_after - now, self.bot_delay), "away"))
        if not options:
            return None
        delay, reason = min(options)
        return (max(delay, 0.0), reason, self.takeover_level)

    def _reschedule(self) -> None:
        """Plan the next bot move (a bot seat, a timed-out or away player) after any change."""
        current = asyncio.current_task()
        if self._driver is not None and self._driver is not current:
            self._driver.cancel()
        self._driver = None
        m = self.match
        if self.status != "playing" or m is None or m.turn is None:
            return
        plan = self._plan(self.seats[m.turn], time.monotonic())
        if plan is not None:
            self._driver = asyncio.create_task(self._drive(self.version, *plan))

    async def _drive(self, version: int, delay: float, reason: str | None, level: str) -> None:
        if delay > 0:
            await asyncio.sleep(delay)  # the timer itself, not synchronisation
        async with self.lock:
            m = self.match
            if m is None or self.version != version or m.turn is None or self.status != "playing":
                return
            seat = m.turn
            view, history = m.view(seat), m.round.log_for(seat)
            bot = self._bot(seat, level)
        try:
            card = await asyncio.to_thread(bot.choose, view, history)
        except Exception:
            # A faulty bot must not stall the table: play its seat's first legal card instead.
            log.exception("bot %s failed at table %s; playing the first legal card", level, self.id)
            card = view.legal_moves[0]
        try:
            await self.move(seat, card.code, version, auto=reason)
        except ProtocolError:
            pass  # the player moved first, or the table changed: the newer state wins

    def _bot(self, seat: int, level: str) -> Bot:
        key = (seat, level)
        if key not in self._bots:
            # Bot randomness flows from the match seed too.
            self._bots[key] = make_bot(level, seed=(self.match_seed + 7919 * (seat + 1)) % 2**63)
        return self._bots[key]

    def stop(self) -> None:
        if self._driver is not None:
            self._driver.cancel()
            self._driver = None


def _iso(ts: float | None) -> str | None:
    if ts is None:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))
