"""A suggested move with a short reason, for the ``hint`` command of the games.

The strongest level's bot picks the card; the reason is read off the position.
A reason is an English sentence that also carries a code and its parameters, so
the browser page can say it in the player's language without reading the English.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import Card
from ..engine import SeatView
from ..events import Event
from ..rules import makes_xeri, takes
from .gain import cards_left_after
from .registry import LEVELS, make_bot

#: Each reason code with its English template; the parameters fill the braces.
REASON_TEXT: dict[str, str] = {
    "xeri": "{card} takes the lone {top}: a xeri",
    "match": "{card} matches the {top} and takes {count} cards",
    "jack_sweep": "the Jack takes the whole pile of {count} cards",
    "empty_pile": "the pile is empty; {card} is a card the others are unlikely to match",
    "least_given": "no capture is worth it; {card} gives away the least",
}


class HintReason(str):
    """The English reason, with ``code`` (a key of REASON_TEXT) and ``params`` (card codes and counts)."""

    code: str
    params: dict[str, Any]

    def __new__(cls, code: str, **params: Any) -> HintReason:
        shown = {k: str(Card.parse(v)) if k in ("card", "top") else v for k, v in params.items()}
        reason = super().__new__(cls, REASON_TEXT[code].format(**shown))
        reason.code = code
        reason.params = params
        return reason

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}


def reason_for(view: SeatView, card: Card) -> HintReason:
    """Why ``card`` is a sensible play here, in a few words."""
    top = view.top
    size = len(view.pile)
    if top is not None and takes(card, top):
        if makes_xeri(view.ruleset, card, top, size, cards_left_after(view)):
            return HintReason("xeri", card=card.code, top=top.code)
        if card.rank is top.rank:
            return HintReason("match", card=card.code, top=top.code, count=size)
        return HintReason("jack_sweep", card=card.code, count=size)
    if size == 0:
        return HintReason("empty_pile", card=card.code)
    return HintReason("least_given", card=card.code)


#: The strongest level's bot: its evaluation (``MasterBot.evaluate``) picks the hint, in interactive mode
#: (its iteration budget with the wall-clock cap ``INTERACTIVE_SECONDS``); it answers in milliseconds.
HINT_SPEC = "master"


def suggest(view: SeatView, history: Sequence[Event], level: str | None = None) -> tuple[Card, HintReason]:
    """The move the strongest offered bot would make (on a quick budget), with a reason."""
    chosen = LEVELS.get(level, level) if level else HINT_SPEC
    card = make_bot(chosen, seed=0, interactive=True).choose(view, history)
    return card, reason_for(view, card)
