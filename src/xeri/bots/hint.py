"""A suggested move with a short reason, for the ``hint`` command of the games.

The strongest level's bot picks the card; the reason is read off the position.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card, Rank
from ..engine import SeatView
from ..events import Event
from .registry import LEVELS, make_bot


def reason_for(view: SeatView, card: Card) -> str:
    """Why ``card`` is a sensible play here, in a few words."""
    top = view.top
    size = len(view.pile)
    if top is not None and card.rank is top.rank:
        if size == 1:
            return f"{card} takes the lone {top}: a xeri"
        return f"{card} matches the {top} and takes {size} cards"
    if card.rank is Rank.JACK and size:
        return f"the Jack takes the whole pile of {size} cards"
    if size == 0:
        return f"the pile is empty; {card} is a card the others are unlikely to match"
    return f"no capture is worth it; {card} gives away the least"


#: The strongest level's bot with a smaller budget, so a hint comes back at once.
HINT_SPEC = "pimc:iterations=500,seconds=0.25"


def suggest(view: SeatView, history: Sequence[Event], level: str | None = None) -> tuple[Card, str]:
    """The move the strongest offered bot would make (on a quick budget), with a reason."""
    chosen = LEVELS.get(level, level) if level else HINT_SPEC
    card = make_bot(chosen, seed=0).choose(view, history)
    return card, reason_for(view, card)
