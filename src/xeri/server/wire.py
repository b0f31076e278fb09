"""JSON shapes of views and events (docs/protocol.md). Built only from redacted values.

Every function here takes a ``SeatView`` or events that were already
redacted for the receiving seat, so nothing hidden can reach the output.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..cards import Card
from ..engine import SeatView
from ..events import (
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
)


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


def event_json(event: Event) -> dict[str, Any]:
    """One (already redacted) engine event as the protocol's EVENT object."""
    if isinstance(event, Played):
        return {"kind": "played", "seat": event.seat, "card": event.card.code}
    if isinstance(event, Captured):
        # ``hidden`` is never sent: a redacted Captured holds none, and this drops it regardless.
        return {"kind": "captured", "seat": event.seat, "cards": codes(event.cards),
                "hidden_count": event.hidden_count, "leftover": event.leftover}
    if isinstance(event, Xeri):
        return {"kind": "xeri", "seat": event.seat, "card": event.card.code, "jack": event.jack,
                "points": event.points}
    if isinstance(event, Dealt):
        return {"kind": "dealt", "dealer": event.dealer,
                "hands": [None if h is None else codes(h) for h in event.hands],
                "sizes": list(event.sizes), "pile": codes(event.pile), "talon": event.talon,
                "first": event.first, "face_down": list(event.face_down)}
    if isinstance(event, RoundStarted):
        return {"kind": "round_started", "number": event.number, "dealer": event.dealer}
    if isinstance(event, RoundScored):
        return {"kind": "round_scored", "scores": [s.to_dict() for s in event.scores]}
    if isinstance(event, MatchOver):
        return {"kind": "match_over", "winner": event.winner, "scores": list(event.scores),
                "round_wins": list(event.round_wins)}
    if isinstance(event, PileRedealt):
        return {"kind": "pile_redealt", "cards": codes(event.cards), "reason": event.reason}
    if isinstance(event, JackSlipped):
        return {"kind": "jack_slipped", "card": event.card.code}
    if isinstance(event, BottomExposed):
        return {"kind": "bottom_exposed", "card": event.card.code}
    if isinstance(event, PileUnclaimed):
        return {"kind": "pile_unclaimed", "cards": codes(event.cards)}
    if isinstance(event, ThresholdRaised):
        return {"kind": "threshold_raised", "target": event.target}
    raise TypeError(f"no wire form for {type(event).__name__}")


def full_state_json(view: SeatView, hands: Sequence[Sequence[Card]], pile: Sequence[Card]) -> dict[str, Any]:
    """A replay step of a finished match: a spectator's view plus every hand and the whole pile."""
    out = view_json(view)
    out["hands"] = [codes(h) for h in hands]
    out["pile"] = codes(pile)
    out["top"] = pile[-1].code if pile else None
    return out
