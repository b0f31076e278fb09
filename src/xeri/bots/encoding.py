"""Observation tensors and strings built from one seat's view and redacted log, never from the round.

Seats and sides are relative to the observer (index 0 is the observer, 1 the
next seat to play, ...), so one network can play every seat. The layout is in
``docs/reference/observation.md``; ``PIECES`` and ``INFO_PIECES`` name its parts in order.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from ..cards import Card, format_cards
from ..engine import SeatView
from ..events import (
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
)
from ..rules import Ruleset


def pieces(ruleset: Ruleset, perfect_recall: bool) -> list[tuple[str, tuple[int, ...]]]:
    """(name, shape) of each part of the flat tensor, in order."""
    return [(name, shape) for name, shape, _, _ in _layout(ruleset.players, ruleset.sides, perfect_recall)]


@functools.cache
def _layout(n: int, s: int, perfect_recall: bool) -> tuple[tuple[str, tuple[int, ...], int, int], ...]:
    """(name, shape, offset, size) of each part: computed once per table size."""
    parts: list[tuple[str, tuple[int, ...]]] = [
        ("hand", (52,)), ("pile", (52,)), ("top", (52,)), ("face_down", (1,)), ("gone", (52,)),
        ("hand_counts", (n,)), ("talon", (1,)), ("captured", (s,)), ("points", (s,)), ("xeris", (s,)),
        ("jack_xeris", (s,)), ("last_capturer", (n + 1,)), ("dealer", (n,)), ("turn", (n + 1,)),
    ]
    if perfect_recall:
        parts += [("plays", (52, 52)), ("dealt", (52,)), ("redealt", (52,))]
    out = []
    at = 0
    for name, shape in parts:
        k = int(np.prod(shape))
        out.append((name, shape, at, k))
        at += k
    return tuple(out)


def size(ruleset: Ruleset, perfect_recall: bool) -> int:
    _, _, at, k = _layout(ruleset.players, ruleset.sides, perfect_recall)[-1]
    return at + k


def _cards(out: np.ndarray, cards: Sequence[Card | None]) -> None:
    for c in cards:
        if c is not None:
            out[c.index] = 1.0


def encode(view: SeatView, log: Sequence[Event], parts: dict[str, np.ndarray]) -> None:
    """Fill ``parts`` (views into one zeroed tensor, see ``pieces``) from what the seat knows."""
    rs = view.ruleset
    n, s = rs.players, rs.sides
    me = view.seat if view.seat is not None else 0
    my_side = me % s

    def seat(x: int) -> int:
        return (x - me) % n

    def side_order(values: Sequence[int]) -> list[int]:
        return [values[(my_side + k) % s] for k in range(s)]

    _cards(parts["hand"], view.hand)
    _cards(parts["pile"], view.pile)
    if view.top is not None:
        parts["top"][view.top.index] = 1.0
    parts["face_down"][0] = sum(c is None for c in view.pile)
    _cards(parts["gone"], list(view.gone))
    parts["hand_counts"][:] = [view.hand_counts[(me + k) % n] for k in range(n)]
    parts["talon"][0] = view.talon_count
    parts["captured"][:] = side_order(view.captured_counts)
    parts["points"][:] = side_order(view.points)
    parts["xeris"][:] = side_order([sum(not j for _, j in xs) for xs in view.xeris])
    parts["jack_xeris"][:] = side_order([sum(j for _, j in xs) for xs in view.xeris])
    parts["last_capturer"][n if view.last_capturer is None else seat(view.last_capturer)] = 1.0
    parts["dealer"][seat(view.dealer)] = 1.0
    parts["turn"][n if view.turn is None else seat(view.turn)] = 1.0
    if "plays" in parts:
        for i, (_, card) in enumerate(view.played):
            parts["plays"][i, card.index] = 1.0
        for e in log:
            if type(e) is Dealt and view.seat is not None:
                _cards(parts["dealt"], e.hands[view.seat] or ())
            elif type(e) is PileRedealt:
                _cards(parts["redealt"], e.cards)


def observation_string(view: SeatView) -> str:
    """What the seat sees now, one fact per line."""
    rs = view.ruleset
    who = "spectator" if view.seat is None else f"seat {view.seat}"
    turn = "over" if view.turn is None else f"seat {view.turn}"
    pile = " ".join("??" if c is None else str(c) for c in view.pile) or "empty"
    sides = " | ".join(
        f"side {k}: {view.captured_counts[k]} cards, {view.points[k]} pts, {len(view.xeris[k])} xeris"
        for k in range(rs.sides)
    )
    last = "none" if view.last_capturer is None else f"seat {view.last_capturer}"
    return "\n".join([
        f"{who} | dealer seat {view.dealer} | to play: {turn}",
        f"hand: {format_cards(sorted(view.hand)) or '-'}",
        f"pile ({len(view.pile)}): {pile}",
        f"hands: {' '.join(map(str, view.hand_counts))} | talon: {view.talon_count}",
        sides,
        f"last capture: {last}",
    ])


def event_line(e: Event, seat: int | None) -> str:
    """One redacted event as a short line."""
    return EVENT_LINE(e, seat)


def _captured_line(e: Captured, seat: int | None) -> str:
    hidden = f" (+{e.hidden_count} face down)" if e.hidden_count else ""
    what = "takes the rest" if e.leftover else "takes"
    return f"s{e.seat} {what}: {format_cards(e.cards)}{hidden}"


def _dealt_line(e: Dealt, seat: int | None) -> str:
    mine = e.hands[seat] if seat is not None else None
    pile = f"; pile: {' '.join('??' if c is None else str(c) for c in e.pile)}" if e.first else ""
    cards = format_cards(mine) if mine is not None else f"{e.sizes[0]} each"
    return f"deal: {cards}{pile}; talon {e.talon}"


def _type_name(e: Event, seat: int | None) -> str:
    """The line of an event whose facts the observation already shows."""
    return type(e).__name__


#: each event type's line in the information string, as ``seat`` saw it
EVENT_LINE: Aspect[[int | None], str] = Aspect("encoding", {
    Played: lambda e, seat: f"s{e.seat} plays {e.card}",
    Captured: _captured_line,
    Xeri: lambda e, seat: f"s{e.seat} xeri on {e.card}" + (" (Jack)" if e.jack else ""),
    Dealt: _dealt_line,
    PileRedealt: lambda e, seat: f"pile redealt: {format_cards(e.cards)} ({e.reason})",
    JackSlipped: lambda e, seat: f"{e.card} slipped under the pile",
    PileUnclaimed: lambda e, seat: f"unclaimed: {format_cards(e.cards)}",
    RoundScored: lambda e, seat: "scores: " + " ".join(str(sc.total) for sc in e.scores),
    BottomExposed: _type_name,
    RoundStarted: _type_name,
    MatchOver: _type_name,
    ThresholdRaised: _type_name,
})


def information_string(view: SeatView, log: Sequence[Event]) -> str:
    """The observation and every event the seat saw: identical for all states it cannot tell apart."""
    return observation_string(view) + "\n" + "\n".join(event_line(e, view.seat) for e in log)


def vector(view: SeatView, log: Sequence[Event], perfect_recall: bool = False) -> np.ndarray:
    """The flat float32 tensor of ``pieces`` for one seat."""
    rs = view.ruleset
    layout = _layout(rs.players, rs.sides, perfect_recall)
    out = np.zeros(size(rs, perfect_recall), np.float32)
    encode(view, log, {name: out[at : at + k].reshape(shape) for name, shape, at, k in layout})
    return out


def action_mask(view: SeatView) -> np.ndarray:
    """int8 over the 52 card actions: 1 for each card the seat may play now."""
    mask = np.zeros(52, np.int8)
    for c in view.legal_moves:
        mask[c.index] = 1
    return mask


#: upper bound of any entry of the tensors (counts, points), for observation spaces
HIGH = 1000.0
