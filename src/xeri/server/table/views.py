"""The protocol's messages (docs/protocol.md): views, events, and each table message as one seat may see it.

Every message is built from a ``SeatView`` or from events redacted for the
receiving seat (``redact`` here, before ``event_json``), so nothing hidden can
reach the output. A table's messages are built from its state alone
(server.table.state): nothing here calls back into the service or the scheduler.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

from ...cards import Card
from ...engine import SeatView
from ...events import (
    Aspect,
    BottomExposed,
    Captured,
    Dealt,
    Event,
    JackSlipped,
    MatchOver,
    PileRedealt,
    PileUnclaimed,
    Played,
    RoundScored,
    RoundStarted,
    ThresholdRaised,
    Xeri,
    redact,
)
from .state import TableState


def codes(cards: Iterable[Card | None]) -> list[str | None]:
    return [None if c is None else c.code for c in cards]


def view_json(view: SeatView, *, winner: int | None = None, match_over: bool = False) -> dict[str, Any]:
    """A seat's view as the protocol's VIEW object."""
    return {
        "seat": view.seat,
        "players": view.ruleset.players,
        "sides": view.ruleset.sides,
        "dealer": view.dealer,
        "turn": view.turn,
        "hand": codes(view.hand),
        "legal_moves": codes(view.legal_moves),
        "pile": codes(view.pile),
        "top": view.top.code if view.top else None,
        "hand_counts": list(view.hand_counts),
        "talon_count": view.talon_count,
        "captured_counts": list(view.captured_counts),
        "xeris": [[[c.code, jack] for c, jack in side] for side in view.xeris],
        "points": list(view.points),
        "exposed": view.exposed.code if view.exposed else None,
        "exposed_holder": view.exposed_holder,
        "last_capturer": view.last_capturer,
        "played": [[s, c.code] for s, c in view.played],
        "gone": sorted(c.code for c in view.gone),
        "over": view.over,
        "match_over": match_over,
        "winner": winner,
        "match_scores": list(view.match_scores),
        "round_wins": list(view.round_wins),
        "round_number": view.round_number,
        "target": view.target,
        "names": list(view.names),
    }


def _played(e: Played) -> dict[str, Any]:
    return {"kind": "played", "seat": e.seat, "card": e.card.code}


def _captured(e: Captured) -> dict[str, Any]:
    # ``hidden`` is never sent: a redacted Captured holds none, and this drops it regardless.
    return {"kind": "captured", "seat": e.seat, "cards": codes(e.cards), "hidden_count": e.hidden_count,
            "leftover": e.leftover}


def _xeri(e: Xeri) -> dict[str, Any]:
    return {"kind": "xeri", "seat": e.seat, "card": e.card.code, "jack": e.jack, "points": e.points}


def _dealt(e: Dealt) -> dict[str, Any]:
    return {"kind": "dealt", "dealer": e.dealer, "hands": [None if h is None else codes(h) for h in e.hands],
            "sizes": list(e.sizes), "pile": codes(e.pile), "talon": e.talon, "first": e.first,
            "face_down": list(e.face_down)}


#: each event type's EVENT object (docs/protocol.md)
WIRE_FORM: Aspect[[], dict[str, Any]] = Aspect("wire form", {
    Played: _played,
    Captured: _captured,
    Xeri: _xeri,
    Dealt: _dealt,
    RoundStarted: lambda e: {"kind": "round_started", "number": e.number, "dealer": e.dealer},
    RoundScored: lambda e: {"kind": "round_scored", "scores": [s.to_dict() for s in e.scores]},
    MatchOver: lambda e: {"kind": "match_over", "winner": e.winner, "scores": list(e.scores),
                          "round_wins": list(e.round_wins)},
    PileRedealt: lambda e: {"kind": "pile_redealt", "cards": codes(e.cards), "reason": e.reason},
    JackSlipped: lambda e: {"kind": "jack_slipped", "card": e.card.code},
    BottomExposed: lambda e: {"kind": "bottom_exposed", "card": e.card.code},
    PileUnclaimed: lambda e: {"kind": "pile_unclaimed", "cards": codes(e.cards)},
    ThresholdRaised: lambda e: {"kind": "threshold_raised", "target": e.target},
})


def event_json(event: Event) -> dict[str, Any]:
    """One (already redacted) engine event as the protocol's EVENT object."""
    return WIRE_FORM(event)


def full_state_json(view: SeatView, hands: Sequence[Sequence[Card]], pile: Sequence[Card]) -> dict[str, Any]:
    """A replay step of a finished match: a spectator's view plus every hand and the whole pile."""
    out = view_json(view)
    out["hands"] = [codes(h) for h in hands]
    out["pile"] = codes(pile)
    out["top"] = pile[-1].code if pile else None
    return out


# --- messages of a table ------------------------------------------------------------


def iso(ts: float | None) -> str | None:
    if ts is None:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def table_info(table: TableState) -> dict[str, Any]:
    """The protocol's TABLE object: public, the same for everyone."""
    m = table.match
    seats = []
    for s in table.seats:
        seats.append({
            "seat": s.seat, "side": table.ruleset.side_of(s.seat), "name": s.display_name() if s.taken else None,
            "bot": table.playing_level(s), "human": s.human, "taken": s.taken,
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


def table_message(table: TableState) -> dict[str, Any]:
    """The table changed: with the timer as it is now (a player who came back stops an away timer)."""
    return {"type": "table", "table": table_info(table), "timer": table.timer()}


def wire_events(table: TableState, events: Sequence[Event], seat: int | None,
                round_number: int) -> list[dict[str, Any]]:
    """Events as ``seat`` may see them, with the commitment after each round start and the reveal
    after each round's score. ``round_number`` is the round the first event belongs to."""
    m = table.match
    assert m is not None
    out: list[dict[str, Any]] = []
    for e in redact(events, seat):
        out.append(event_json(e))
        if isinstance(e, RoundStarted):
            round_number = e.number
            out.append({"kind": "commitment", "round": e.number,
                        "commitment": table.commitments.of_round(m, e.number)})
        elif isinstance(e, RoundScored):
            out.append(table.commitments.reveal(m, round_number))
    return out


def seat_view(table: TableState, seat: int | None) -> dict[str, Any] | None:
    m = table.match
    if m is None:
        return None
    return view_json(m.view(seat), winner=m.winner, match_over=m.is_over)


def sync_parts(table: TableState, seat: int | None) -> dict[str, Any]:
    """The costly part of ``seat``'s sync, which changes only with the table's version (its match state):
    the view, the current round's events since its start (or since the last round's score) and the
    finished rounds. ``Table.sync_envelope_now`` (server.table.service) builds it once per version and seat."""
    m = table.match
    events: list[dict[str, Any]] = []
    if m is not None:
        log = m.events
        starts = [i for i, e in enumerate(log) if isinstance(e, RoundStarted)]
        begin, number = starts[-1], len(starts)
        if len(starts) > 1:
            scored = [i for i in range(starts[-2], starts[-1]) if isinstance(log[i], RoundScored)]
            if scored:
                begin, number = scored[-1], len(starts) - 1
        events = wire_events(table, log[begin:], seat, number)
    return {"view": seat_view(table, seat), "events": events, "history": table.commitments.history(m),
            "fairness": {"match_commitment": table.commitments.of_match(m)}}


def sync_from(table: TableState, seat: int | None, parts: dict[str, Any], info: dict[str, Any],
              timer: dict[str, Any] | None, pause: dict[str, Any] | None) -> dict[str, Any]:
    """A sync message from its costly ``parts`` and what changes without a move (the table, timer, pause)."""
    return {"type": "sync", "table": info, "seat": seat, "version": table.version, **parts, "timer": timer,
            "pause": pause}


def sync_message(table: TableState, seat: int | None) -> dict[str, Any]:
    """Everything ``seat`` may know of the table now: the current round's events since its start (or since
    the last round's score), the finished rounds, the match commitment and the timer."""
    return sync_from(table, seat, sync_parts(table, seat), table_info(table), table.timer(),
                     table.pause_state())


def update_message(table: TableState, seat: int | None, events: Sequence[Event], round_number: int, *,
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
