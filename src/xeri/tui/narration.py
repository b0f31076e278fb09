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
    s = seating
    if isinstance(event, Played):
        return Text.assemble(s.does(event.seat, "play") + " ", card_text(event.card))
    if isinstance(event, Captured):
        if event.leftover:
            return Text.assemble(
                f"{s.who(event.seat)} {'take' if event.seat == s.viewer else 'takes'} what is left on the pile: ",
                cards_text(event.cards),
            )
        n = len(event.cards) + event.hidden_count
        hidden = f" and {event.hidden_count} face down" if event.hidden_count else ""
        return Text.assemble(
            s.does(event.seat, "capture") + f" {n} cards: ", cards_text(event.cards), hidden,
        )
    if isinstance(event, Xeri):
        kind = "JACK XERI" if event.jack else "XERI"
        return Text.assemble(
            (f"{kind}! ", "bold yellow"), s.does(event.seat, "take") + " the lone ", card_text(event.card),
            f": {event.points} points",
        )
    if isinstance(event, RoundStarted):
        return Text(f"--- Round {event.number} --- dealer: {s.who(event.dealer)}", style="bold")
    if isinstance(event, Dealt):
        return _dealt(event, s)
    if isinstance(event, PileRedealt):
        return Text.assemble("The pile ", cards_text(event.cards), f" was shuffled back and redealt: {event.reason}")
    if isinstance(event, JackSlipped):
        return Text.assemble("The ", card_text(event.card), " on top of the pile was slipped under it")
    if isinstance(event, BottomExposed):
        return Text.assemble("The bottom card is ", card_text(event.card), ": shown to all, the dealer gets it last")
    if isinstance(event, PileUnclaimed):
        return Text.assemble("Nobody captured this round: the pile ", cards_text(event.cards), " scores for nobody")
    if isinstance(event, RoundScored):
        totals = ", ".join(f"{s.side(b.side)} {b.total}" for b in event.scores)
        return Text(f"Round scored: {totals}", style="bold")
    if isinstance(event, ThresholdRaised):
        return Text(f"More than one side reached the target: play on to {event.target}", style="bold")
    if isinstance(event, MatchOver):
        return Text(f"Match over: {s.side(event.winner)} {_win_verb(event.winner, s)} the match", style="bold")
    return None


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


def narrate_all(events: Sequence[Event], seating: Seating) -> list[Text]:
    return [line for e in events if (line := narrate(e, seating)) is not None]
