"""One table's state, plain: its rows, its seats, its match and version, the round pause and the rematch.

Nothing here waits, locks, stores or sends: the service (server.table.service)
does those around it. The table's rules (a move's and a takeback's checks, the
pause between rounds) are the core's (``xeri.table_rules``), which the offline
engine asks too; here their refusals become the protocol's error
(``ProtocolError``), and nothing changes; ``apply`` plays a move on the match and
returns what it made (the events, the stored row, the end of the match if it
ended), which the service stores before ``commit`` makes it the table's, or
``undo`` takes it back. When the next automatic move is due (a bot, a turn
timer, an away player) is read off the state too (``plan``), so the views and
the scheduler need nothing else.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ... import table_rules as rules
from ...bots.registry import partnered
from ...cards import Card
from ...events import Event, Xeri
from ...match import Match, Takeback
from ...record import to_record
from ...rules import Ruleset
from ...table_rules import ROUND_PAUSE, RoundPause
from ...views import Commitments, match_record
from ..rated.policy import forfeits
from ..store import Finish, MoveRow, ResultRow, SeatRow, Start, TableRow, dumps
from ..store.tables import TAKEBACK
from ..wire import messages
from ..wire.refusals import ProtocolError
from .seats import Seat

#: a table's life: waiting for players, in play, then finished (or closed before it started)
Status = Literal["waiting", "playing", "finished", "closed"]
_STATUSES: dict[str, Status] = {"waiting": "waiting", "playing": "playing", "finished": "finished", "closed": "closed"}

def status_of(text: str) -> Status:
    """A stored status as the protocol's (a status no table has is the database's corruption: a KeyError)."""
    return _STATUSES[text]


@dataclass(frozen=True)
class Applied:
    """A move played on the match but not yet the table's: what ``commit`` (once stored) or ``undo`` needs."""

    seat: int
    card: Card
    auto: str | None
    #: the events it made, and the round (1-based) the first of them belongs to
    events: Sequence[Event]
    number: int
    #: the move's row, and the end of the match if it ended it (stored with it, in one transaction)
    row: MoveRow
    finish: Finish | None


@dataclass(frozen=True)
class TakenBack:
    """A takeback made on the match but not yet the table's: its stored row, and what it retracted."""

    seat: int
    row: MoveRow
    taken: Takeback


def takeback_allowed(seats: Sequence[Seat], rated: str | None) -> bool:
    """The one rule of which tables allow takebacks (docs/play.md#takebacks): a casual game of one person against
    the computer, every other seat a bot. Never with friends (a second person's seat rules it out), never rated."""
    return sum(1 for s in seats if s.human) == 1 and rated is None


class TableState:
    """A table's runtime state, built from its database rows."""

    def __init__(self, row: TableRow, seats: Sequence[SeatRow], bot_delay: float = 0.4,
                 rated: str | None = None) -> None:
        self.id: str = row.id
        self.title: str = row.title or ""
        self.status: Status = status_of(row.status)
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
        #: the format the table is rated in (server.rated.policy), None for a casual table
        self.rated: str | None = rated
        #: a rated match's forfeit, once it ended so (``{"seat", "side", "reason", "winner"}``), kept in the result
        self.forfeit: dict[str, Any] | None = json.loads(row.result).get("forfeit") if row.result else None
        self.match: Match | None = None
        #: the moves applied so far, (seat, card code, whether it is a takeback), to rebuild the match after a
        #: failed write; the table's version is their count
        self.moves: list[tuple[int, str, bool]] = []
        self.version = 0
        self.turn_started = time.monotonic()
        self.commitments = Commitments(self.match_seed, row.salt_key)
        #: seconds a bot waits before it moves (so a person can follow)
        self.bot_delay = bot_delay
        #: after a round, the human seats still reading its summary, and until when the next round waits for them
        self.pause = RoundPause(ROUND_PAUSE)
        #: per seat, its connections that show a round summary (``?summary=1``): only those hold up the next round
        self.summary_clients: dict[int, int] = {}
        #: the seats that offered (or accepted) a rematch once the match is over
        self.rematch: set[int] = set()
        self.rematch_table: str | None = None
        #: True while the rematch's table is being made (by the one caller ``offer_rematch`` chose)
        self.rematching = False
        #: counts the table's publications: what a sync shows besides the match changes only with one
        self.epoch = 0
        #: the ruleset as the protocol shows it, built once (server.table.views)
        self.ruleset_shown: messages.Ruleset | None = None

    # --- building ------------------------------------------------------------

    def replay(self, moves: Sequence[MoveRow]) -> None:
        """Rebuild the match from the stored moves (after a restart or to show a finished table)."""
        if self.status not in ("playing", "finished"):
            return
        self.rebuild([(m.seat, m.card, m.auto == TAKEBACK) for m in moves])

    def rebuild(self, moves: list[tuple[int, str, bool]]) -> None:
        """Replay the stored moves and takebacks (a takeback row names the card it took back first)."""
        self.match = self.new_match()
        for seat, code, back in moves:
            if back:
                taken = self.match.take_back(seat)
                if taken.cards[0].code != code:
                    raise ValueError(f"table {self.id}: a stored takeback names {code}, but the rules take back "
                                     f"{taken.cards[0].code}")
            else:
                self.match.play(Card.parse(code), seat)
        self.moves = list(moves)
        self.version = len(moves)
        self.turn_started = time.monotonic()

    def new_match(self) -> Match:
        return Match(self.ruleset, seed=self.match_seed, names=[s.display_name() for s in self.seats],
                     first_dealer=self.first_dealer)

    # --- seats ---------------------------------------------------------------

    def seat_for_token(self, token: str) -> int | None:
        for s in self.seats:
            if s.holds(token):
                return s.seat
        return None

    def free_seat(self, seat: int | None) -> Seat:
        """The seat a join takes (the first free one for None), or the refusal."""
        if self.status != "waiting":
            raise ProtocolError("not_waiting", "this table is no longer waiting for players")
        free = [s for s in self.seats if not s.taken]
        if not free:
            raise ProtocolError("table_full", "every seat at this table is taken")
        if seat is None:
            return free[0]
        if not 0 <= seat < len(self.seats):
            raise ProtocolError("bad_seat", f"seat {seat} is not a seat of this table")
        chosen = self.seats[seat]
        if chosen.taken:
            raise ProtocolError("seat_taken", f"seat {seat} is taken")
        return chosen

    def fills(self, seat: Seat) -> bool:
        """Whether taking ``seat`` fills the table (and so starts the match)."""
        return all(s.taken or s is seat for s in self.seats)

    def start_row(self, name_of: dict[int, str] | None = None) -> Start:
        names = [(name_of or {}).get(s.seat) or s.display_name() for s in self.seats]
        return Start(started_at=time.time(), names=dumps(names))

    def started(self, start: Start) -> None:
        """The start, once stored: deal the first round."""
        self.match = self.new_match()
        self.moves = []
        self.status, self.started_at = "playing", start.started_at
        self.version = 0
        self.turn_started = time.monotonic()

    def leaving(self, token: str) -> int:
        """The seat a player gives up with ``token``, or the refusal."""
        seat = self.seat_for_token(token)
        if seat is None:
            raise ProtocolError("bad_token", "no seat at this table has that token")
        if self.status in ("finished", "closed"):
            raise ProtocolError("game_over", f"this table is {self.status}: there is no game to leave")
        return seat

    def seat_of_account(self, account: str) -> int | None:
        """The seat ``account`` plays here: bound to it and not given up (a seat left after the start keeps its
        account, for the match's history, but no longer opens to it)."""
        return next((s.seat for s in self.seats if s.account == account and s.token_hash is not None), None)

    def leaving_account(self, account: str) -> int:
        """The seat ``account`` gives up (its session, without a token), or the refusal."""
        seat = self.seat_of_account(account)
        if seat is None:
            raise ProtocolError("bad_token", "your account holds no seat at this table")
        if self.status in ("finished", "closed"):
            raise ProtocolError("game_over", f"this table is {self.status}: there is no game to leave")
        return seat

    def has_left(self, seat: int) -> bool:
        """Whether ``seat``'s player left the table (a bot plays it now)."""
        return self.seats[seat].left

    def last_human(self, seat: int) -> bool:
        """Whether ``seat`` is the only person seated (before the start: the table closes when they leave)."""
        return not any(x.human and x.taken for x in self.seats if x.seat != seat)

    def count_summary(self, seat: int, summary: bool, change: int) -> None:
        """Count a connection that shows the round summary (``?summary=1``), or give the count back."""
        if summary:
            left = self.summary_clients.get(seat, 0) + change
            if left > 0:
                self.summary_clients[seat] = left
            else:
                self.summary_clients.pop(seat, None)

    # --- moves ---------------------------------------------------------------

    def verify_hint(self, seat: int | None) -> int:
        """``seat`` if it may ask for a hint now (its turn in a match that is on); else the refusal."""
        return rules.allowed(rules.verify_hint(self, seat), ProtocolError)

    def verify_move(self, seat: int | None, card_text: str, version: int, auto: str | None = None) -> Card:
        """The card ``seat`` may play at ``version``, or the refusal (xeri.table_rules, the protocol's order)."""
        return rules.allowed(rules.verify_move(self, seat, card_text, version, auto=auto is not None), ProtocolError)

    def apply(self, seat: int, card: Card, auto: str | None = None) -> Applied:
        """Play a move ``verify_move`` allowed on the match, trusted (the rules check a move once); the table's
        version moves only with ``commit``."""
        m = self.match
        assert m is not None
        number = len(m.rounds)
        events = m.play_allowed(card)
        finish = self.finish_row(time.time()) if m.is_over else None
        row = MoveRow(self.id, self.version, seat, card.code, auto, time.time())
        return Applied(seat, card, auto, events, number, row, finish)

    def undo(self) -> None:
        """Take back a move applied but not stored: replay the stored ones (the turn's clock goes on)."""
        started = self.turn_started
        self.rebuild(self.moves)
        self.turn_started = started

    def commit(self, applied: Applied) -> None:
        """The move is stored: it is the table's now, and a round it ended pauses for its summary."""
        m = self.match
        assert m is not None
        self.moves.append((applied.seat, applied.card.code, False))
        self.version += 1
        self.turn_started = time.monotonic()
        # A round it ended waits until every connected player has closed the round's summary (or a timeout).
        self.pause.after(m, applied.events, (s.seat for s in self.seats if s.human and not s.left
                                              and self.summary_clients.get(s.seat, 0) > 0), self.turn_started)
        if applied.finish is not None:
            self.status, self.finished_at = "finished", applied.finish.finished_at

    # --- takebacks ------------------------------------------------------------------

    def takeback_allowed(self) -> bool:
        """Whether this table allows takebacks at all (``takeback_allowed``)."""
        return takeback_allowed(self.seats, self.rated)

    def verify_takeback(self, seat: int | None, version: int) -> int:
        """The number of moves ``seat``'s takeback at ``version`` retracts, or the refusal (nothing changes)."""
        return rules.allowed(rules.verify_takeback(self, seat, version), ProtocolError)

    def can_take_back(self, seat: int | None) -> bool:
        """Whether ``seat`` may take back a card now (what the page's button shows); a predicate: never raises."""
        return rules.can_take_back(self, seat)

    def apply_takeback(self, seat: int, count: int) -> TakenBack:
        """Take back on the match the ``count`` moves ``verify_takeback`` allowed, trusted (not walked again); the
        table's version moves only with ``commit_takeback``."""
        m = self.match
        assert m is not None
        taken = m.retract(seat, count)
        row = MoveRow(self.id, self.version, seat, taken.cards[0].code, TAKEBACK, time.time())
        return TakenBack(seat, row, taken)

    def commit_takeback(self, done: TakenBack) -> None:
        """The takeback is stored: it is the table's now, and the seat's turn starts again."""
        self.moves.append((done.seat, done.row.card, True))
        self.version += 1
        self.turn_started = time.monotonic()

    def finish_row(self, now: float) -> Finish:
        """The stored end of the match that is over: its result, its record and each seat's result."""
        m = self.match
        assert m is not None and m.winner is not None
        return self._finish(m.winner, now, self.record())

    def forfeit_row(self, seat: int, reason: str, now: float) -> Finish:
        """The stored end of a rated match that ``seat`` forfeits (``reason``: "left", "away" or "timer"): its side
        loses at once, whatever the score (server.rated.policy), and the record stops at the forfeit."""
        m = self.match
        assert m is not None and self.ruleset.sides == 2
        side = self.ruleset.side_of(seat)
        forfeit = {"seat": seat, "side": side, "reason": reason, "winner": 1 - side}
        record = to_record(m, reveal_seeds=True)
        record["fairness"] = self.commitments.record_section(m)
        record["table"] = self._record_table()
        record["end"] = {"by": "forfeit", **forfeit}
        return self._finish(1 - side, now, record, forfeit)

    def _finish(self, winner: int, now: float, record: dict[str, Any],
                forfeit: dict[str, Any] | None = None) -> Finish:
        m = self.match
        assert m is not None
        xeris = [[0, 0] for _ in self.seats]
        for e in m.events:
            if isinstance(e, Xeri):
                xeris[e.seat][1 if e.jack else 0] += 1
        results = [
            ResultRow(table_id=self.id, seat=s.seat, name=s.display_name(), human=s.human,
                      side=self.ruleset.side_of(s.seat), won=self.ruleset.side_of(s.seat) == winner,
                      points=m.scores[self.ruleset.side_of(s.seat)], xeris=sum(xeris[s.seat]),
                      jack_xeris=xeris[s.seat][1], finished_at=now)
            for s in self.seats
        ]
        result: dict[str, Any] = {
            "scores": list(m.scores), "round_wins": list(m.round_wins), "winner": winner,
            "winners": [s.display_name() for s in self.seats if self.ruleset.side_of(s.seat) == winner],
            "rounds": len(m.rounds), "bots": [None if s.human else s.bot_level for s in self.seats]}
        if forfeit is not None:
            result["end"], result["forfeit"] = "forfeit", forfeit
        return Finish(finished_at=now, result=dumps(result), record=dumps(record), results=results)

    def forfeited(self, finish: Finish, forfeit: dict[str, Any]) -> None:
        """The forfeit is stored: the match is over, the forfeiting seat counted as left."""
        self.seats[int(forfeit["seat"])].left = True
        self.forfeit = forfeit
        self.status, self.finished_at = "finished", finish.finished_at
        self.epoch += 1

    def winner(self) -> int | None:
        """The winning side: the match's, or the other side's after a forfeit."""
        if self.forfeit is not None:
            return int(self.forfeit["winner"])
        return self.match.winner if self.match is not None else None

    def _record_table(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title,
                "bots": {str(s.seat): s.bot_level for s in self.seats if not s.human}}

    def record(self) -> dict[str, Any]:
        """The finished match's record, with the fairness section that ``xeri verify`` checks."""
        assert self.match is not None and self.match.is_over
        return match_record(self.match, self.commitments, self._record_table())

    # --- between rounds and after the match -------------------------------------------

    def pause_state(self) -> messages.Pause | None:
        """The protocol's PAUSE: the seats still reading the round summary and the seconds left, or None."""
        shown = self.pause.shown()
        return None if shown is None else messages.Pause(**shown)

    def ready(self, seat: int | None) -> bool:
        """``seat`` closed the round summary; True if that changed the pause."""
        if seat is None:
            raise ProtocolError("spectator", "spectators do not hold up the table")
        return self.pause.ready(seat)

    def offer_rematch(self, seat: int | None) -> bool:
        """``seat`` offers (or accepts) a rematch; True for the one caller that is to make the new table."""
        if seat is None:
            raise ProtocolError("spectator", "spectators cannot ask for a rematch")
        if self.status != "finished":
            raise ProtocolError("not_finished", "a rematch is offered once the match is over")
        if self.seats[seat].left:
            raise ProtocolError("left", "you left this table")
        if self.forfeit is not None:
            raise ProtocolError("forfeited", "this match ended by a forfeit: there is no rematch, make a new table")
        self.rematch.add(seat)
        players = {s.seat for s in self.seats if s.human and not s.left}
        # Exactly one caller makes the new table, however many connections offer at once.
        ready = players <= self.rematch and self.rematch_table is None and not self.rematching
        self.rematching = self.rematching or ready
        return ready

    # --- who plays when no person does -------------------------------------------------

    def playing_level(self, s: Seat) -> str | None:
        """The bot level playing a seat now, or None when a person plays it."""
        if not s.human:
            return s.bot_level
        if self.rated is not None:
            return None  # the computer never plays a rated seat: it forfeits instead (``forfeits``)
        if s.left:
            return self.takeover_level
        if (s.name is not None and s.connections == 0 and self.takeover_after is not None
                and self.status == "playing" and time.monotonic() >= s.away_since + self.takeover_after):
            return self.takeover_level
        return None

    def plan(self, s: Seat, now: float) -> tuple[float, str | None, str] | None:
        """(delay, reason, level) of the next bot move for seat ``s`` to play, or None if a person plays."""
        # Between rounds nobody moves until the players have closed the round summary (or it times out).
        wait = self.pause.left(now)
        if not s.human:
            level = partnered(s.bot_level or self.takeover_level, self.partner_level(s))
            return (max(self.bot_delay, wait), None, level)
        if s.left:
            return (max(self.bot_delay, wait), "left", self.takeover_level)
        options: list[tuple[float, str]] = []
        if self.turn_timer is not None:
            # A turn's time starts when the round's summary is closed, not while it is read.
            options.append((max(self.turn_started, self.pause.until) + self.turn_timer - now, "timer"))
        if self.takeover_after is not None and s.connections == 0:
            options.append((max(s.away_since + self.takeover_after - now, self.bot_delay, wait), "away"))
        if not options:
            return None
        delay, reason = min(options)
        return (max(delay, wait, 0.0), reason, self.takeover_level)

    def forfeits(self, reason: str | None) -> bool:
        """Whether a plan's move for a person (``reason``: "left", "away", "timer") is their forfeit instead: at a
        rated table the computer never plays a person's seat (server.rated.policy.forfeits)."""
        return forfeits(self.rated, reason)

    def partner_level(self, s: Seat) -> str | None:
        """The level of the bot at the partner's seat with 4 players (None: a person, or no partner)."""
        if len(self.seats) != 4:
            return None
        mate = self.seats[(s.seat + 2) % 4]
        return None if mate.human else mate.bot_level or self.takeover_level

    def next_auto(self) -> tuple[float, str | None, str] | None:
        """The plan of the seat to move now, if a bot is to play it (None: a person moves, or nobody)."""
        m = self.match
        if self.status != "playing" or m is None or m.turn is None:
            return None
        return self.plan(self.seats[m.turn], time.monotonic())

    def timer(self) -> messages.Timer | None:
        """When a bot will play for a human seat to move (a turn timer or an away player), else None."""
        m = self.match
        if m is None or m.turn is None or self.status != "playing":
            return None
        s = self.seats[m.turn]
        if not s.human or s.left:
            return None
        plan = self.plan(s, time.monotonic())
        if plan is None:
            return None
        return messages.Timer(seat=s.seat, remaining=round(plan[0], 2), reason=plan[1])
