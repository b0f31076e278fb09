"""Frozen event values. Every engine transition returns them; their list is the log.

Events that carry hidden cards (a deal, a capture of face-down pile cards)
have ``redacted(seat)``, which keeps only what that seat may know; a
spectator is seat ``None``. ``redact(events, seat)`` filters a whole log.

``EVENT_TYPES`` lists every event type, and an ``Aspect`` is one way of
turning events into something (the redaction here; the wire form, the
narration and the encoding above the core): one handler per type, given in
one table that must cover them all, so a new event cannot lack one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar

from .cards import Card
from .scoring import ScoreBreakdown


@dataclass(frozen=True, slots=True)
class Dealt:
    """Cards dealt: each hand, and for the first deal of a round the initial pile.

    ``face_down`` lists the pile positions dealt face down. Redacted, ``hands``
    holds ``None`` for each hand the seat may not see and ``pile`` holds ``None``
    for each face-down card; ``sizes`` always holds every hand's size.
    """

    dealer: int
    hands: tuple[tuple[Card, ...] | None, ...]
    sizes: tuple[int, ...]
    pile: tuple[Card | None, ...]
    talon: int
    first: bool
    face_down: tuple[int, ...] = ()

    def redacted(self, seat: int | None) -> Dealt:
        hands = tuple(h if s == seat else None for s, h in enumerate(self.hands))
        pile = tuple(None if i in self.face_down else c for i, c in enumerate(self.pile))
        return replace(self, hands=hands, pile=pile)


@dataclass(frozen=True, slots=True)
class PileRedealt:
    """The initial pile broke the pile rule, went back into the deck, and was reshuffled."""

    cards: tuple[Card, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class JackSlipped:
    """A Jack on top of the initial pile was slipped under it (jack_under)."""

    card: Card


@dataclass(frozen=True, slots=True)
class BottomExposed:
    """The cut card, shown to all; it is the last card of the talon (exposed_bottom)."""

    card: Card


@dataclass(frozen=True, slots=True)
class Played:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Captured:
    """A seat took the pile. ``hidden`` holds face-down cards, empty when redacted.

    ``leftover`` marks the last capturer taking what remains at the end.
    """

    seat: int
    cards: tuple[Card, ...]
    hidden_count: int = 0
    hidden: tuple[Card, ...] = ()
    leftover: bool = False

    def redacted(self, seat: int | None) -> Captured:
        return replace(self, hidden=()) if self.hidden else self


@dataclass(frozen=True, slots=True)
class Xeri:
    """A capture of a lone card by one of the same rank (or by a Jack where that counts)."""

    seat: int
    card: Card
    jack: bool
    points: int


@dataclass(frozen=True, slots=True)
class PileUnclaimed:
    """Nobody captured all round, so the last pile scores for nobody."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class RoundScored:
    scores: tuple[ScoreBreakdown, ...]


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """A match began a round. The seed stays on the server until the round is over."""

    number: int
    dealer: int


@dataclass(frozen=True, slots=True)
class MatchOver:
    winner: int
    scores: tuple[int, ...]
    round_wins: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ThresholdRaised:
    """Several sides reached the target in one round: play on to a higher one (000)."""

    target: int


Event = (
    Dealt | PileRedealt | JackSlipped | BottomExposed | Played | Captured | Xeri | PileUnclaimed
    | RoundScored | RoundStarted | MatchOver | ThresholdRaised
)

#: every event type, in the order of ``Event``
EVENT_TYPES: tuple[type[Event], ...] = (
    Dealt, PileRedealt, JackSlipped, BottomExposed, Played, Captured, Xeri, PileUnclaimed,
    RoundScored, RoundStarted, MatchOver, ThresholdRaised,
)

P = ParamSpec("P")
R = TypeVar("R")


class Aspect(Generic[P, R]):
    """One way of turning an event into something (``name``): a handler for each event type, called as
    ``aspect(event, *args)``.

    The table must hold exactly the types of ``EVENT_TYPES``, or building the aspect raises ``TypeError``:
    adding an event type means giving it every aspect, in one place each.
    """

    def __init__(self, name: str, handlers: Mapping[type[Event], Callable[Concatenate[Any, P], R]]) -> None:
        missing = [t.__name__ for t in EVENT_TYPES if t not in handlers]
        stray = [getattr(t, "__name__", repr(t)) for t in handlers if t not in EVENT_TYPES]
        if missing or stray:
            raise TypeError(f"the {name} aspect must have one handler per event type: "
                            f"missing {', '.join(missing) or 'none'}; not event types: {', '.join(stray) or 'none'}")
        self.name = name
        self.handlers: dict[type[Event], Callable[Concatenate[Any, P], R]] = dict(handlers)

    def __call__(self, event: Event, *args: P.args, **kwargs: P.kwargs) -> R:
        return self.handlers[type(event)](event, *args, **kwargs)


_new = object.__new__
_set_seat = vars(Played)["seat"].__set__
_set_card = vars(Played)["card"].__set__


def played(seat: int, card: Card) -> Played:
    """``Played(seat, card)``, built without the frozen-dataclass ``__init__``: it is on the hot path."""
    event = _new(Played)
    _set_seat(event, seat)
    _set_card(event, card)
    return event


def public(event: R, seat: int | None) -> R:
    """The redaction of an event that holds nothing hidden: the event itself."""
    return event


#: each event as one seat (``None``: a spectator) may see it
REDACTION: Aspect[[int | None], Event] = Aspect("redaction", {
    Dealt: Dealt.redacted, Captured: Captured.redacted, PileRedealt: public, JackSlipped: public,
    BottomExposed: public, Played: public, Xeri: public, PileUnclaimed: public, RoundScored: public,
    RoundStarted: public, MatchOver: public, ThresholdRaised: public,
})
#: the redactions that hide something (redact skips the others: it runs on every bot decision)
_HIDING = {t: h for t, h in REDACTION.handlers.items() if h is not public}


def redact(events: Iterable[Event], seat: int | None) -> tuple[Event, ...]:
    """The log as ``seat`` may see it (``None``: a spectator)."""
    hiding = _HIDING
    return tuple(e if (h := hiding.get(type(e))) is None else h(e, seat) for e in events)
