"""One line of text per event, as a seat at the table may see it.

Both front ends print these lines: rich keeps the styles (red suits), the
plain mode prints ``Text.plain``. Callers pass events already redacted for the
viewer, so nothing here can show a hidden card.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich.text import Text

from ..cards import Card
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
from ..record import printable
from ..rules import Ruleset

RED = "bold red"
BLACK = "bold"


def card_text(card: Card | None) -> Text:
    """A card with its suit coloured; ``None`` (face down) is ``??``."""
    if card is None:
        return Text("??", style="dim")
    return Text(str(card), style=RED if card.suit.is_red else BLACK)


def cards_text(cards: Iterable[Card | None], sep: str = " ") -> Text:
    return Text(sep).join(card_text(c) for c in cards)


@dataclass(frozen=True)
class Seating:
    """Who sits where, and whose eyes the text is written for (``viewer`` None: everyone's)."""

    ruleset: Ruleset
    names: tuple[str, ...]
    viewer: int | None

    def __post_init__(self) -> None:
        # A save's names are anyone's text: a control character in one must not drive the terminal.
        object.__setattr__(self, "names", tuple(printable(n) for n in self.names))

    def who(self, seat: int) -> str:
        return "You" if seat == self.viewer else self.names[seat]

    def does(self, seat: int, verb: str) -> str:
        """``You play`` / ``Anna plays``."""
        return f"You {verb}" if seat == self.viewer else f"{self.names[seat]} {verb}s"

    def side(self, side: int) -> str:
        seats = self.ruleset.side_seats(side)
        return " & ".join(self.who(s) for s in seats)


def narrate(event: Event, seating: Seating) -> Text | None:
    """The line for one event, or None for events that need no line of their own."""
    return NARRATION(event, seating)


def _captured(e: Captured, s: Seating) -> Text:
    if e.leftover:
        return Text.assemble(
            f"{s.who(e.seat)} {'take' if e.seat == s.viewer else 'takes'} what is left on the pile: ",
            cards_text(e.cards),
        )
    n = len(e.cards) + e.hidden_count
    hidden = f" and {e.hidden_count} face down" if e.hidden_count else ""
    return Text.assemble(s.does(e.seat, "capture") + f" {n} cards: ", cards_text(e.cards), hidden)


def _xeri(e: Xeri, s: Seating) -> Text:
    kind = "JACK XERI" if e.jack else "XERI"
    return Text.assemble(
        (f"{kind}! ", "bold yellow"), s.does(e.seat, "take") + " the lone ", card_text(e.card), f": {e.points} points",
    )


def _round_scored(e: RoundScored, s: Seating) -> Text:
    totals = ", ".join(f"{s.side(b.side)} {b.total}" for b in e.scores)
    return Text(f"Round scored: {totals}", style="bold")


def _win_verb(side: int, s: Seating) -> str:
    seats = s.ruleset.side_seats(side)
    return "win" if s.viewer in seats or len(seats) > 1 else "wins"


def _dealt(event: Dealt, s: Seating) -> Text:
    own = event.hands[s.viewer] if s.viewer is not None else None
    parts: list[Text | str] = []
    if event.first:
        parts += ["Pile: ", cards_text(event.pile) if event.pile else "empty", "; "]
        parts.append(f"{event.sizes[0]} cards each")
    else:
        parts.append(f"New deal: {event.sizes[0]} cards each")
    if own is not None:
        parts += ["; your hand: ", cards_text(sorted(own))]
    parts.append(f"; talon {event.talon}")
    return Text.assemble(*parts)


#: each event type's line, as ``seating.viewer`` reads it
NARRATION: Aspect[[Seating], Text | None] = Aspect("narration", {
    Played: lambda e, s: Text.assemble(s.does(e.seat, "play") + " ", card_text(e.card)),
    Captured: _captured,
    Xeri: _xeri,
    RoundStarted: lambda e, s: Text(f"--- Round {e.number} --- dealer: {s.who(e.dealer)}", style="bold"),
    Dealt: _dealt,
    PileRedealt: lambda e, s: Text.assemble(
        "The pile ", cards_text(e.cards), f" was shuffled back and redealt: {e.reason}"),
    JackSlipped: lambda e, s: Text.assemble("The ", card_text(e.card), " on top of the pile was slipped under it"),
    BottomExposed: lambda e, s: Text.assemble(
        "The bottom card is ", card_text(e.card), ": shown to all, the dealer gets it last"),
    PileUnclaimed: lambda e, s: Text.assemble(
        "Nobody captured this round: the pile ", cards_text(e.cards), " scores for nobody"),
    RoundScored: _round_scored,
    ThresholdRaised: lambda e, s: Text(
        f"More than one side reached the target: play on to {e.target}", style="bold"),
    MatchOver: lambda e, s: Text(
        f"Match over: {s.side(e.winner)} {_win_verb(e.winner, s)} the match", style="bold"),
})


def narrate_all(events: Sequence[Event], seating: Seating) -> list[Text]:
    return [line for e in events if (line := narrate(e, seating)) is not None]
