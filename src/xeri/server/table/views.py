"""The protocol's messages (docs/protocol.md): views, events, and each table message as one seat may see it,
typed as the schema's models (server.wire.messages).

Their content is built in the core (``xeri.views``, ``xeri.table_rules``), which the offline engine in the browser
shares, so the server and the offline engine send the same messages. Here the core's dicts go into the models'
Structs as they are, in the schema's shape: a message is built once and encoded once per seat, never converted
into Structs first (``msgspec.convert`` would check again what the server itself just built; a test decodes whole
matches' messages into the models instead: tests/server/table/test_server_updates.py). Every event goes through
``redact`` for the receiving seat there, before its EVENT object is built, so nothing hidden can reach the output.
A table's messages are built from its state alone (server.table.state): nothing here calls back into the service
or the scheduler.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, cast

import msgspec

from ... import table_rules as rules
from ... import views as core
from ...events import Event
from ...rules import Ruleset
from ..store import SeatRow, TableRow
from ..wire import messages as m
from .seats import Seat
from .state import TableState, status_of, takeback_allowed

#: each event type's EVENT object (docs/protocol.md), as the core builds it
WIRE_FORM = core.WIRE_FORM

_EVENTS = list[m.GameEvent]
_ROUNDS = list[m.Round]


def rounds(table: TableState) -> list[m.Round]:
    """Every finished round (ROUND): breakdown, totals, and the revealed seed and salt (the core's, as they are)."""
    return cast(_ROUNDS, table.commitments.history(table.match))


def fairness_report(table: TableState) -> m.Fairness:
    """The table's fairness report: each round's commitment, and its check once revealed."""
    return msgspec.convert(table.commitments.report(table.ruleset, table.match), m.Fairness)


# --- messages of a table ------------------------------------------------------------


def ruleset_of(table: TableState) -> m.Ruleset:
    """The table's ruleset as the protocol's (built once: a table's rules never change)."""
    if table.ruleset_shown is None:
        table.ruleset_shown = msgspec.convert(table.ruleset.to_dict(), m.Ruleset)
    return table.ruleset_shown


def table_info(table: TableState) -> m.Table:
    """The protocol's TABLE object: public, the same for everyone (its fields are the core's, xeri.table_rules,
    which the offline engine's TABLE shares; the server adds who is away, the rematch and the rated format)."""
    seats = [rules.seat_info(table.ruleset, s.seat, name=s.display_name() if s.taken else None,
                             bot=table.playing_level(s), human=s.human, taken=s.taken,
                             connected=(not s.human) or s.left or s.connections > 0,
                             away=s.human and not s.left and s.name is not None and s.connections == 0)
             for s in table.seats]
    rematch = {"seats": sorted(table.rematch), "table_id": table.rematch_table} if table.rematch else None
    return m.Table(**rules.table_info(table, seats, ruleset=ruleset_of(table), rematch=rematch, rated=table.rated,
                                      winner=table.winner(), end="forfeit" if table.forfeit is not None else None))


def listed_info(row: TableRow, seats: list[SeatRow], rated: str | None = None) -> m.Table:
    """A lobby entry built from the database rows alone (a table another process owns, server.cluster).

    What only the owner knows (who is connected, the scores, the version) is as for a table just loaded: the
    lobby shows who sits where; the table's own page asks its owner for the rest.
    """
    ruleset = Ruleset.from_dict(json.loads(row.ruleset))
    places = [Seat.from_row(s) for s in seats]
    return m.Table(
        id=row.id, title=row.title or "", status=status_of(row.status),
        ruleset=msgspec.convert(ruleset.to_dict(), m.Ruleset), players=ruleset.players,
        seats=[m.TableSeat(seat=s.seat, side=ruleset.side_of(s.seat),
                           name=s.display_name() if s.taken else None,
                           bot=s.bot_level if not s.human else row.takeover_level if s.left else None,
                           human=s.human, taken=s.taken, connected=not s.human or s.left,
                           away=s.human and not s.left and s.name is not None) for s in places],
        free_seats=[s.seat for s in places if not s.taken],
        turn_timer=row.turn_timer, takeover_after=row.takeover_after, takeover_level=row.takeover_level,
        private=bool(row.private), version=0, created_at=core.iso_time(row.created_at),
        finished_at=core.iso_time(row.finished_at),
        invite=f"/#/t/{row.id}", scores=[0] * ruleset.sides, winner=None, pause=None, rematch=None, rated=rated,
        takebacks=takeback_allowed(places, rated),
    )


def table_message(table: TableState) -> m.TableMessage:
    """The table changed: with the timer as it is now (a player who came back stops an away timer)."""
    return m.TableMessage(table=table_info(table), timer=table.timer())


def sync_parts(table: TableState, seat: int | None) -> dict[str, Any]:
    """The costly part of ``seat``'s sync, which changes only with the table's version (its match state):
    the view, the current round's events since its start (or since the last round's score) and the
    finished rounds. ``Table.sync_envelope_now`` (server.table.service) builds it once per version and seat."""
    match = table.match
    events: list[Any] = []
    if match is not None:
        begin, number = core.sync_window(match)
        events = core.wire_events(match, table.commitments, match.events[begin:], seat, number)
    return {"view": cast(m.View | None, core.match_view(match, seat)), "events": cast(_EVENTS, events),
            "history": rounds(table), "fairness": m.SyncFairness(match_commitment=table.commitments.of_match(match))}


def sync_from(table: TableState, seat: int | None, parts: dict[str, Any], info: m.Table,
              timer: m.Timer | None, pause: m.Pause | None) -> m.SyncMessage:
    """A sync message from its costly ``parts`` and what changes without a move (the table, timer, pause)."""
    return m.SyncMessage(table=info, seat=seat, version=table.version, **parts, timer=timer, pause=pause,
                         takeback=table.can_take_back(seat))


def update_message(table: TableState, seat: int | None, events: Sequence[Event], round_number: int, *,
                   auto: tuple[int, str] | None, timer: m.Timer | None,
                   history: list[m.Round] | None) -> m.UpdateMessage:
    """The update after one move, as ``seat`` may see it (``auto``: the seat a bot played for, and why).

    Every move builds one per seat: the core's events and views go in as the dicts they are (see above).
    """
    match = table.match
    assert match is not None  # a move was made: the match is on
    evs: list[Any] = core.wire_events(match, table.commitments, events, seat, round_number)
    if auto is not None:
        evs.insert(0, m.AutoMoveEvent(seat=auto[0], reason=auto[1]))
    view = core.match_view(match, seat)
    assert view is not None
    end = core.round_end_view(match, seat, events, round_number)
    return m.UpdateMessage(version=table.version, events=cast(_EVENTS, evs), view=cast(m.View, view), timer=timer,
                           pause=table.pause_state(), history=history if history is not None else msgspec.UNSET,
                           takeback=table.can_take_back(seat),
                           round_end=msgspec.UNSET if end is None else cast(m.View, end))
