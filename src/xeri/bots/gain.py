"""What a card takes right now: the arithmetic the greedy and expert bots share."""

from __future__ import annotations

from ..cards import Card
from ..engine import SeatView
from ..rules import takes
from ..scoring import card_values, xeri_bonus


def values_of(view: SeatView) -> tuple[int, ...]:
    return card_values(view.ruleset.scoring, view.ruleset.two_of_spades)


def hidden_mean(view: SeatView) -> float:
    """The mean points of a card this seat cannot see (what a face-down pile card is worth on average)."""
    unseen = view.unseen()
    if not unseen:
        return 0.0
    values = values_of(view)
    return sum(values[c.index] for c in unseen) / len(unseen)


def pile_points(view: SeatView) -> float:
    """Points on the pile, face-down cards counted at their expected value."""
    values = values_of(view)
    known = sum(values[c.index] for c in view.pile if c is not None)
    down = sum(1 for c in view.pile if c is None)
    return known + (down * hidden_mean(view) if down else 0.0)


def captures(view: SeatView, card: Card) -> bool:
    """Whether ``card`` takes the pile now (``rules.takes``)."""
    return takes(card, view.top)


def cards_left_after(view: SeatView, plays: int = 1) -> int:
    """Cards still to be played in the round after the next ``plays`` cards (hands and talon)."""
    return sum(view.hand_counts) - plays + view.talon_count


def xeri_points(view: SeatView, card: Card) -> int:
    """The xeri bonus playing ``card`` would score now (0 if it makes none)."""
    return xeri_bonus(view.ruleset, card, view.top, len(view.pile), cards_left_after(view))


def immediate_gain(view: SeatView, card: Card) -> float:
    """Points ``card`` scores on this move: pile points, its own points and any xeri; 0 if it takes nothing."""
    if not captures(view, card):
        return 0.0
    return pile_points(view) + values_of(view)[card.index] + xeri_points(view, card)
