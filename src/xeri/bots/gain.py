"""What a card takes right now: the arithmetic the greedy and expert bots share."""

from __future__ import annotations

from ..cards import Card, Rank
from ..engine import SeatView
from ..scoring import card_values

_JACK = Rank.JACK


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
    top = view.top
    return top is not None and (card.rank is top.rank or card.rank is _JACK)


def xeri_points(view: SeatView, card: Card) -> int:
    """The xeri bonus playing ``card`` would score now (0 if it makes none)."""
    r = view.ruleset
    top = view.top
    if top is None or len(view.pile) != 1 or not captures(view, card):
        return 0
    if card.rank is not top.rank and not r.jack_xeri_any:
        return 0
    cards_left = sum(view.hand_counts) - 1 + view.talon_count
    if not r.last_card_xeri and cards_left == 0:
        return 0
    return r.jack_xeri_points if (card.rank is _JACK and top.rank is _JACK) else r.xeri_points


def immediate_gain(view: SeatView, card: Card) -> float:
    """Points ``card`` scores on this move: pile points, its own points and any xeri; 0 if it takes nothing."""
    if not captures(view, card):
        return 0.0
    return pile_points(view) + values_of(view)[card.index] + xeri_points(view, card)
