"""The bot interface: a bot sees one seat's view and the redacted log, nothing else.

``SeatView`` and the redacted events are built by the engine from what the
seat may know, and hold no reference to the round, so a bot cannot reach
hidden cards through them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from ..cards import Card
from ..engine import SeatView
from ..events import Event
from ..match import Match


@runtime_checkable
class Bot(Protocol):
    """A computer player."""

    name: str

    def choose(self, view: SeatView, history: Sequence[Event]) -> Card:
        """The card to play; ``view.legal_moves`` lists the choices."""
        ...


def bot_card(match: Match, bot: Bot) -> Card:
    """Ask ``bot`` for the move of the seat to play, giving it only that seat's knowledge."""
    seat = match.turn
    if seat is None:
        raise ValueError("the match is over")
    return bot.choose(match.view(seat), match.round.log_for(seat))
