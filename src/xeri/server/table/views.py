"""The protocol's messages (docs/protocol.md): views, events, and each table message as one seat may see it,
built as the schema's models (server.messages).

Every message is built from a ``SeatView`` or from events redacted for the
receiving seat (``redact`` here, before ``event_json``), so nothing hidden can
reach the output. A table's messages are built from its state alone
(server.table.state): nothing here calls back into the service or the scheduler.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

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
from .. import messages as m
from .commitments import breakdown
from .state import TableState


def codes(cards: Iterable[Card | None]) -> list[str | None]:
    return [None if c is None else c.code for c in cards]


def view_json(view: SeatView, *, winner: int | None = None, match_over: bool = False,
              hands: list[list[str]] | msgspec.UnsetType = msgspec.UNSET) -> m.View:
    """A seat's view as the protocol's VIEW object."""
    return m.View(
        seat=view.seat,
        players=view.ruleset.players,
        sides=view.ruleset.sides,
        dealer=view.dealer,
        turn=view.turn,
        hand=[c.code for c in view.hand],
        legal_moves=[c.code for c in view.legal_moves],
        pile=codes(view.pile),
        top=view.top.code if view.top else None,
        hand_counts=list(view.hand_counts),
        talon_count=view.talon_count,
        captured_counts=list(view.captured_counts),
        xeris=[[(c.code, jack) for c, jack in side] for side in view.xeris],
        points=list(view.points),
        exposed=view.exposed.code if view.exposed else None,
        exposed_holder=view.exposed_holder,
        last_capturer=view.last_capturer,
        played=[(s, c.code) for s, c in view.played],
        gone=sorted(c.code for c in view.gone),
        over=view.over,
        match_over=match_over,
        winner=winner,
        match_scores=list(view.match_scores),
        round_wins=list(view.round_wins),
        round_number=view.round_number,
        target=view.target,
        names=list(view.names),
        hands=hands,
    )


def _captured(e: Captured) -> m.GameEvent:
    # ``hidden`` is never sent: a redacted Captured holds none, and this drops it regardless.
    return m.CapturedEvent(seat=e.seat, cards=[c.code for c in e.cards], hidden_count=e.hidden_count,
                           leftover=e.leftover)


def _dealt(e: Dealt) -> m.GameEvent:
    return m.DealtEvent(dealer=e.dealer, hands=[None if h is None else [c.code for c in h] for h in e.hands],
                        sizes=list(e.sizes),
                   pile=codes(e.pile), talon=e.talon, first=e.first, face_down=list(e.face_down))


#: each event type's EVENT object (docs/protocol.md)
WIRE_FORM: Aspect[[], m.GameEvent] = Aspect("wire form", {
    Played: lambda e: m.PlayedEvent(seat=e.seat, card=e.card.code),
    Captured: _captured,
    Xeri: lambda e: m.XeriEvent(seat=e.seat, card=e.card.code, jack=e.jack, points=e.points),
    Dealt: _dealt,
    RoundStarted: lambda e: m.RoundStartedEvent(number=e.number, dealer=e.dealer),
    RoundScored: lambda e: m.RoundScoredEvent(scores=[breakdown(s) for s in e.scores]),
    MatchOver: lambda e: m.MatchOverEvent(winner=e.winner, scores=list(e.scores), round_wins=list(e.round_wins)),
    PileRedealt: lambda e: m.PileRedealtEvent(cards=[c.code for c in e.cards], reason=e.reason),
    JackSlipped: lambda e: m.JackSlippedEvent(card=e.card.code),
    BottomExposed: lambda e: m.BottomExposedEvent(card=e.card.code),
    PileUnclaimed: lambda e: m.PileUnclaimedEvent(cards=[c.code for c in e.cards]),
    ThresholdRaised: lambda e: m.ThresholdRaisedEvent(target=e.target),
})


def event_json(event: Event) -> m.GameEvent:
    """One (already redacted) engine event as the protocol's EVENT object."""
    return WIRE_FORM(event)


def full_state_json(view: SeatView, hands: Sequence[Sequence[Card]], pile: Sequence[Card], *, winner: int | None,
                    match_over: bool) -> m.View:
    """A replay step of a finished match: a spectator's view plus every hand and the whole pile."""
    shown = view_json(view, winner=winner, match_over=match_over, hands=[[c.code for c in h] for h in hands])
    return msgspec.structs.replace(shown, pile=codes(pile), top=pile[-1].code if pile else None)


# --- messages of a table ------------------------------------------------------------


def iso(ts: float | None) -> str | None:
    if ts is None:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def ruleset_of(table: TableState) -> m.Ruleset:
    """The table's ruleset as the protocol's (built once: a table's rules never change)."""
    if table.ruleset_shown is None:
        table.ruleset_shown = msgspec.convert(table.ruleset.to_dict(), m.Ruleset)
    return table.ruleset_shown


def table_info(table: TableState) -> m.Table:
    """The protocol's TABLE object: public, the same for everyone."""
    match = table.match
    seats = [m.TableSeat(seat=s.seat, side=table.ruleset.side_of(s.seat), name=s.display_name() if s.taken else None,
                         bot=table.playing_level(s), human=s.human, taken=s.taken,
                         connected=(not s.human) or s.left or s.connections > 0,
                         away=s.human and not s.left and s.name is not None and s.connections == 0)
             for s in table.seats]
    return m.Table(
        id=table.id, title=table.title, status=table.status,
        ruleset=ruleset_of(table), players=table.ruleset.players, seats=seats,
        free_seats=[s.seat for s in table.seats if not s.taken],
        turn_timer=table.turn_timer, takeover_after=table.takeover_after,
        takeover_level=table.takeover_level, private=table.private, version=table.version,
        created_at=iso(table.created_at), finished_at=iso(table.finished_at), invite=f"/#/t/{table.id}",
        scores=list(match.scores) if match else [0] * table.ruleset.sides,
        winner=match.winner if match else None,
        pause=table.pause_state(),
        rematch=m.RematchState(seats=sorted(table.rematch), table_id=table.rematch_table) if table.rematch else None,
    )


def table_message(table: TableState) -> m.TableMessage:
    """The table changed: with the timer as it is now (a player who came back stops an away timer)."""
    return m.TableMessage(table=table_info(table), timer=table.timer())


def wire_events(table: TableState, events: Sequence[Event], seat: int | None,
                round_number: int) -> list[m.GameEvent]:
    """Events as ``seat`` may see them, with the commitment after each round start and the reveal
    after each round's score. ``round_number`` is the round the first event belongs to."""
    match = table.match
    assert match is not None
    out: list[m.GameEvent] = []
    for e in redact(events, seat):
        out.append(event_json(e))
        if isinstance(e, RoundStarted):
            round_number = e.number
            out.append(m.CommitmentEvent(round=e.number, commitment=table.commitments.of_round(match, e.number)))
        elif isinstance(e, RoundScored):
            out.append(table.commitments.reveal(match, round_number))
    return out


def seat_view(table: TableState, seat: int | None) -> m.View | None:
    match = table.match
    if match is None:
        return None
    return view_json(match.view(seat), winner=match.winner, match_over=match.is_over)


def sync_parts(table: TableState, seat: int | None) -> dict[str, Any]:
    """The costly part of ``seat``'s sync, which changes only with the table's version (its match state):
    the view, the current round's events since its start (or since the last round's score) and the
    finished rounds. ``Table.sync_envelope_now`` (server.table.service) builds it once per version and seat."""
    match = table.match
    events: list[m.GameEvent] = []
    if match is not None:
        log = match.events
        starts = [i for i, e in enumerate(log) if isinstance(e, RoundStarted)]
        begin, number = starts[-1], len(starts)
        if len(starts) > 1:
            scored = [i for i in range(starts[-2], starts[-1]) if isinstance(log[i], RoundScored)]
            if scored:
                begin, number = scored[-1], len(starts) - 1
        events = wire_events(table, log[begin:], seat, number)
    return {"view": seat_view(table, seat), "events": events, "history": table.commitments.history(match),
            "fairness": m.SyncFairness(match_commitment=table.commitments.of_match(match))}


def sync_from(table: TableState, seat: int | None, parts: dict[str, Any], info: m.Table,
              timer: m.Timer | None, pause: m.Pause | None) -> m.SyncMessage:
    """A sync message from its costly ``parts`` and what changes without a move (the table, timer, pause)."""
    return m.SyncMessage(table=info, seat=seat, version=table.version, **parts, timer=timer, pause=pause)


def sync_message(table: TableState, seat: int | None) -> m.SyncMessage:
    """Everything ``seat`` may know of the table now: the current round's events since its start (or since
    the last round's score), the finished rounds, the match commitment and the timer."""
    return sync_from(table, seat, sync_parts(table, seat), table_info(table), table.timer(), table.pause_state())


def update_message(table: TableState, seat: int | None, events: Sequence[Event], round_number: int, *,
                   auto: tuple[int, str] | None, timer: m.Timer | None,
                   history: list[m.Round] | None) -> m.UpdateMessage:
    """The update after one move, as ``seat`` may see it (``auto``: the seat a bot played for, and why)."""
    evs = wire_events(table, events, seat, round_number)
    if auto is not None:
        evs.insert(0, m.AutoMoveEvent(seat=auto[0], reason=auto[1]))
    view = seat_view(table, seat)
    assert view is not None  # a move was made: the match is on
    return m.UpdateMessage(version=table.version, events=evs, view=view, timer=timer,
                    pause=table.pause_state(), history=history if history is not None else msgspec.UNSET)
