"""The protocol's messages (docs/protocol.md): views, events, and each table message as one seat may see it.

Every message is built from a ``SeatView`` or from events redacted for the
receiving seat (``redact`` here, before ``event_json``), so nothing hidden can
reach the output.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .. import views
from ..events import Event

# The VIEW and EVENT objects are built in the core (xeri.views), which the offline engine shares: the server and
# the browser's offline worker send the same messages.
from ..views import WIRE_FORM, codes, event_json, full_state_json, view_json

if TYPE_CHECKING:
    from .table import Table

__all__ = ["WIRE_FORM", "codes", "event_json", "full_state_json", "view_json"]


# --- messages of a table ------------------------------------------------------------


def channel(table_id: str, seat: int | None) -> str:
    """The pub/sub channel of one seat's messages (``spectator`` for seat None)."""
    return f"xeri:{table_id}:{'spectator' if seat is None else seat}"


def iso(ts: float | None) -> str | None:
    if ts is None:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def table_info(table: Table) -> dict[str, Any]:
    """The protocol's TABLE object: public, the same for everyone."""
    m = table.match
    seats = []
    for s in table.seats:
        seats.append({
            "seat": s.seat, "side": table.ruleset.side_of(s.seat), "name": s.display_name() if s.taken else None,
            "bot": table.autoplay.playing_level(s), "human": s.human, "taken": s.taken,
            "connected": (not s.human) or s.left or s.connections > 0,
            "away": s.human and not s.left and s.name is not None and s.connections == 0,
        })
    return {
        "id": table.id, "title": table.title, "status": table.status, "ruleset": table.ruleset.to_dict(),
        "players": table.ruleset.players, "seats": seats,
        "free_seats": [s.seat for s in table.seats if not s.taken],
        "turn_timer": table.turn_timer, "takeover_after": table.takeover_after,
        "takeover_level": table.takeover_level, "private": table.private, "version": table.version,
        "created_at": iso(table.created_at), "finished_at": iso(table.finished_at),
        "invite": f"/#/t/{table.id}",
        "scores": list(m.scores) if m else [0] * table.ruleset.sides,
        "winner": m.winner if m else None,
        "pause": table.pause_state(),
        "rematch": {"seats": sorted(table.rematch), "table_id": table.rematch_table} if table.rematch else None,
    }


def table_message(table: Table) -> dict[str, Any]:
    """The table changed: with the timer as it is now (a player who came back stops an away timer)."""
    return {"type": "table", "table": table_info(table), "timer": table.autoplay.timer()}


def wire_events(table: Table, events: Sequence[Event], seat: int | None, round_number: int) -> list[dict[str, Any]]:
    """Events as ``seat`` may see them, with the commitment after each round start and the reveal
    after each round's score. ``round_number`` is the round the first event belongs to."""
    m = table.match
    assert m is not None
    return views.wire_events(m, table.commitments, events, seat, round_number)


def seat_view(table: Table, seat: int | None) -> dict[str, Any] | None:
    return views.match_view(table.match, seat)


def sync_parts(table: Table, seat: int | None) -> dict[str, Any]:
    """The costly part of ``seat``'s sync, which changes only with the table's version (its match state):
    the view, the current round's events since its start (or since the last round's score) and the
    finished rounds. ``Table.sync_envelope_now`` builds it once per version and seat."""
    m = table.match
    events = views.sync_events(m, table.commitments, seat)
    return {"view": seat_view(table, seat), "events": events, "history": table.commitments.history(m),
            "fairness": {"match_commitment": table.commitments.of_match(m)}}


def sync_from(table: Table, seat: int | None, parts: dict[str, Any], info: dict[str, Any],
              timer: dict[str, Any] | None, pause: dict[str, Any] | None) -> dict[str, Any]:
    """A sync message from its costly ``parts`` and what changes without a move (the table, timer, pause)."""
    return {"type": "sync", "table": info, "seat": seat, "version": table.version, **parts, "timer": timer,
            "pause": pause}


def sync_message(table: Table, seat: int | None) -> dict[str, Any]:
    """Everything ``seat`` may know of the table now: the current round's events since its start (or since
    the last round's score), the finished rounds, the match commitment and the timer."""
    return sync_from(table, seat, sync_parts(table, seat), table_info(table), table.autoplay.timer(),
                     table.pause_state())


def update_message(table: Table, seat: int | None, events: Sequence[Event], round_number: int, *,
                   auto: tuple[int, str] | None, timer: dict[str, Any] | None,
                   history: list[dict[str, Any]] | None) -> dict[str, Any]:
    """The update after one move, as ``seat`` may see it (``auto``: the seat a bot played for, and why)."""
    evs = wire_events(table, events, seat, round_number)
    if auto is not None:
        evs.insert(0, {"kind": "auto_move", "seat": auto[0], "reason": auto[1]})
    msg = {"type": "update", "version": table.version, "events": evs, "view": seat_view(table, seat),
           "timer": timer, "pause": table.pause_state()}
    if history is not None:
        msg["history"] = history
    return msg
