"""The table's rules, once for every runtime: what a move and a takeback may do, the pause between rounds, the TABLE.

A match (``xeri.match``) knows whose turn it is and which cards are legal; a table adds what the protocol
(docs/protocol.md) asks around it: its version (a move made at an older one is stale), its status, a seat its
player left, the pause while the players read a round's summary, and which tables allow takebacks. The server
(``xeri.server.table``) and the offline engine the browser runs (``xeri.offline``) both ask these rules, so they
refuse the same requests with the same codes and words, in the same order.

A refusal is data (``Refusal``: the protocol's code, its words, and the table's version where the error carries
it); each runtime turns it into its own error at its edge. Nothing here changes a table but the pause, and nothing
here waits, stores or sends. It imports only the core: the offline engine runs it under Pyodide.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from .cards import Card
from .errors import CardError, TakebackError
from .events import Event, RoundScored
from .match import Match
from .rules import Ruleset
from .views import iso_time

#: the longest wait, in seconds, for the players to close a round's summary before the next round goes on
ROUND_PAUSE = 30.0

T = TypeVar("T")


@dataclass(frozen=True)
class Refusal:
    """A request the table refuses, and nothing changed: the protocol's error ``code`` and ``message``, and the
    table's ``version`` where the error tells it (so a client that was behind can catch up)."""

    code: str
    message: str
    version: int | None = None

    def extra(self) -> dict[str, int]:
        """The error's fields beyond its code and words (the protocol's ``version``)."""
        return {} if self.version is None else {"version": self.version}


class Refused(Exception):
    """A refusal raised: the protocol's error ``code``, its ``message`` and its ``extra`` fields, and nothing changed.
    Each runtime's error is one: the server's ``ProtocolError``, the offline engine's ``OfflineError``."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra


def allowed(verdict: T | Refusal, error: type[Refused]) -> T:
    """The rules' verdict, or its refusal raised as the runtime's ``error``: the runtime's edge."""
    if isinstance(verdict, Refusal):
        raise error(verdict.code, verdict.message, **verdict.extra())
    return verdict


@dataclass
class RoundPause:
    """After a round, the seats still reading its summary, and until when (``time.monotonic``) the next round
    waits for them: at most ``limit`` seconds, so one player who walked away does not hold the table."""

    limit: float = ROUND_PAUSE
    waiting: set[int] = field(default_factory=set)
    until: float = 0.0

    def on(self, now: float | None = None) -> bool:
        """Whether the next round still waits for a player to close the last round's summary."""
        return bool(self.waiting) and (time.monotonic() if now is None else now) < self.until

    def left(self, now: float) -> float:
        """The seconds the next round still waits (0 when it does not)."""
        return self.until - now if self.on(now) else 0.0

    def after(self, match: Match, events: Sequence[Event], waiting: Iterable[int], now: float) -> None:
        """A move made ``events``: one that scored a round, but did not end the match, holds the next round for
        the seats ``waiting`` (those that show the summary). Nobody to wait for: no pause."""
        if match.is_over or not any(isinstance(e, RoundScored) for e in events):
            return
        self.waiting = set(waiting)
        self.until = now + self.limit if self.waiting else 0.0

    def ready(self, seat: int) -> bool:
        """``seat`` closed the round summary; True if that changed the pause (the last one ends it now)."""
        if seat not in self.waiting:
            return False
        self.waiting.discard(seat)
        if not self.waiting:
            self.until = time.monotonic()
        return True

    def shown(self) -> dict[str, Any] | None:
        """The protocol's PAUSE: the seats still reading the round summary and the seconds left, or None."""
        now = time.monotonic()
        if not self.on(now):
            return None
        return {"waiting": sorted(self.waiting), "remaining": round(self.until - now, 2)}


class Table(Protocol):
    """What the rules read of a table. The server's ``TableState`` and the offline ``OfflineTable`` are each one
    (mypy checks both against it), so a rule added here holds for both."""

    id: str
    title: str
    ruleset: Ruleset
    version: int
    pause: RoundPause
    created_at: float
    finished_at: float | None
    turn_timer: float | None
    takeover_after: float | None
    takeover_level: str
    private: bool

    # Read only: the offline table's match is never None, and its status follows its match.
    @property
    def match(self) -> Match | None: ...
    @property
    def status(self) -> str: ...

    def has_left(self, seat: int) -> bool:
        """Whether ``seat``'s player left the table (a bot plays it now)."""
        ...

    def takeback_allowed(self) -> bool:
        """Whether this table allows takebacks at all (docs/play.md#takebacks)."""
        ...


#: a seat whose player left: the computer plays it, and the player no longer may
LEFT = Refusal("left", "you left this table: a bot plays your seat now")


def _in_play(table: Table, version: int, asked: str, over: str) -> Match | Refusal:
    """The match a request at ``version`` is made of, or the refusal: not started, no longer in play (closed, or
    its match ``over``), or ``asked`` at an older version than the table's (stale)."""
    m = table.match
    if table.status == "waiting" or m is None:
        return Refusal("not_started", "the game has not started: seats are still free")
    if table.status != "playing" or m.is_over:
        return Refusal("game_over", "this table was closed" if table.status == "closed" else over)
    if version != table.version:
        return Refusal("stale", f"{asked} at version {version}, but the table is at {table.version}", table.version)
    return m


def verify_move(table: Table, seat: int | None, card_text: str, version: int, *, auto: bool = False) -> Card | Refusal:
    """The card ``seat`` may play at ``version``, or the refusal, in the protocol's order of checks. ``auto``: the
    computer plays for the seat (a bot, a turn timer, an away player), which neither a left seat nor the pause
    holds back (the scheduler waits out the pause itself)."""
    if seat is None:
        return Refusal("spectator", "spectators cannot play")
    m = _in_play(table, version, "the move was made", "the match is over")
    if isinstance(m, Refusal):
        return m
    if not auto and table.has_left(seat):
        return LEFT
    if not auto and table.pause.on():
        return Refusal("round_pause", "the next round starts once everyone has closed the round summary",
                       table.version)
    if m.turn != seat:
        return Refusal("not_your_turn", f"it is {m.names[m.turn or 0]}'s turn", table.version)
    try:
        card = Card.parse(card_text)
    except CardError as exc:
        return Refusal("bad_card", str(exc))
    if card not in m.legal_moves:
        return Refusal("illegal_move", f"{card} is not in your hand", table.version)
    return card


def verify_takeback(table: Table, seat: int | None, version: int) -> int | Refusal:
    """The number of moves ``seat``'s takeback at ``version`` retracts (its last card and every card after it),
    or the refusal."""
    if seat is None:
        return Refusal("spectator", "only the player in the seat may take back a card: you watch this table")
    if not table.takeback_allowed():
        return Refusal("no_takebacks", "takebacks are for a casual game against the computer only: this table has "
                       "other players")
    m = _in_play(table, version, "the takeback was asked", "the match is over: there is nothing to take back")
    if isinstance(m, Refusal):
        return m
    if table.has_left(seat):
        return LEFT
    try:
        return m.takeback_run(seat)
    except TakebackError as exc:
        return Refusal(exc.code, str(exc), table.version)


def can_take_back(table: Table, seat: int | None) -> bool:
    """Whether ``seat`` may take back a card now (what the page's button shows)."""
    return not isinstance(verify_takeback(table, seat, table.version), Refusal)


def verify_hint(table: Table, seat: int | None) -> int | Refusal:
    """``seat``, which may ask for a hint now (its own turn in a match that is on), or the refusal."""
    m = table.match
    if seat is None:
        return Refusal("spectator", "spectators cannot ask for hints")
    if m is None:
        return Refusal("not_started", "the game has not started")
    if m.turn != seat:
        return Refusal("not_your_turn", "hints are for your own turn")
    return seat


def seat_info(ruleset: Ruleset, seat: int, *, name: str | None, bot: str | None, human: bool, taken: bool = True,
              connected: bool = True, away: bool = False) -> dict[str, Any]:
    """One seat of the protocol's TABLE: ``bot`` is the level playing it now (None: a person)."""
    return {"seat": seat, "side": ruleset.side_of(seat), "name": name, "bot": bot, "human": human, "taken": taken,
            "connected": connected, "away": away}


def table_info(table: Table, seats: Sequence[dict[str, Any]], *, ruleset: object = None,
               **extra: Any) -> dict[str, Any]:
    """The protocol's TABLE: public, the same for everyone. ``seats`` come from ``seat_info``; ``ruleset`` is the
    ruleset as shown where the runtime keeps it built (None: built here); ``extra`` adds a runtime's own fields
    (the server's ``rematch`` and ``rated``, the offline engine's ``offline``)."""
    m = table.match
    return {
        "id": table.id, "title": table.title, "status": table.status,
        "ruleset": table.ruleset.to_dict() if ruleset is None else ruleset, "players": table.ruleset.players,
        "seats": list(seats), "free_seats": [s["seat"] for s in seats if not s["taken"]],
        "turn_timer": table.turn_timer, "takeover_after": table.takeover_after,
        "takeover_level": table.takeover_level, "private": table.private, "version": table.version,
        "created_at": iso_time(table.created_at), "finished_at": iso_time(table.finished_at),
        "invite": f"/#/t/{table.id}",
        "scores": list(m.scores) if m is not None else [0] * table.ruleset.sides,
        "winner": m.winner if m is not None else None,
        "pause": table.pause.shown(), "rematch": None, "takebacks": table.takeback_allowed(), **extra,
    }
