"""Scoring a finished round: one line per item, so players can check every point."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import DECK, TEN_OF_DIAMONDS, TWO_OF_CLUBS, TWO_OF_SPADES, Card, Rank
from .rules import Ruleset, jack_xeri, makes_xeri


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One scored item: a label, the points and the cards that earned them."""

    label: str
    points: int
    cards: tuple[Card, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {"label": self.label, "points": self.points, "cards": [c.code for c in self.cards]}


@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    """A side's score for one round. ``captured`` is every card the side took (by rank, then suit), for the round's end
    screen (xeri.views sends it once the round is over); the record leaves it out (``to_dict``): its moves say it."""

    side: int
    cards: int
    xeris: int
    jack_xeris: int
    lines: tuple[ScoreLine, ...]
    captured: tuple[Card, ...] = ()

    @property
    def total(self) -> int:
        return sum(line.points for line in self.lines)

    def to_dict(self) -> dict[str, object]:
        return {
            "side": self.side,
            "cards": self.cards,
            "xeris": self.xeris,
            "jack_xeris": self.jack_xeris,
            "lines": [line.to_dict() for line in self.lines],
            "total": self.total,
        }


@dataclass(frozen=True, slots=True)
class PointItem:
    """A kind of point card: its label, the cards it covers and points per card."""

    label: str
    cards: frozenset[Card]
    points: int


@functools.cache
def point_items(scoring: str, two_of_spades: bool) -> tuple[PointItem, ...]:
    """The point-card items of a scoring scheme, in the order they are printed."""

    def rank(r: Rank) -> frozenset[Card]:
        return frozenset(c for c in DECK if c.rank is r)

    if scoring == "pisti":
        return (
            PointItem("Jacks", rank(Rank.JACK), 1),
            PointItem("Aces", rank(Rank.ACE), 1),
            PointItem("2♣", frozenset({TWO_OF_CLUBS}), 2),
            PointItem("10♦", frozenset({TEN_OF_DIAMONDS}), 3),
        )
    items = [
        PointItem("Aces", rank(Rank.ACE), 1),
        PointItem("Kings", rank(Rank.KING), 1),
        PointItem("Queens", rank(Rank.QUEEN), 1),
        PointItem("Jacks", rank(Rank.JACK), 1),
        PointItem("Tens", rank(Rank.TEN), 1),
        PointItem("good 10 (10♦)", frozenset({TEN_OF_DIAMONDS}), 1),
        PointItem("good 2 (2♣)", frozenset({TWO_OF_CLUBS}), 1),
    ]
    if two_of_spades:
        items.append(PointItem("2♠", frozenset({TWO_OF_SPADES}), 1))
    return tuple(items)


@functools.cache
def card_values(scoring: str, two_of_spades: bool) -> tuple[int, ...]:
    """Points of each card by index (0..51): the fast table bots and simulators use."""
    values = [0] * 52
    for item in point_items(scoring, two_of_spades):
        for card in item.cards:
            values[card.index] += item.points
    return tuple(values)


@functools.cache
def _items_by_card(scoring: str, two_of_spades: bool) -> tuple[tuple[int, ...], ...]:
    """For each card index, the positions of the point items it belongs to."""
    items = point_items(scoring, two_of_spades)
    return tuple(tuple(i for i, item in enumerate(items) if card in item.cards) for card in DECK)


def base_points_total(ruleset: Ruleset) -> int:
    """Points in play from cards and 'most cards', before xeris (25 in classic Xeri)."""
    return sum(card_values(ruleset.scoring, ruleset.two_of_spades)) + ruleset.most_cards_points


def xeri_value(ruleset: Ruleset, jack: bool) -> int:
    """Points of one xeri: ``jack_xeri_points`` for a Jack on a Jack, else ``xeri_points``."""
    return ruleset.jack_xeri_points if jack else ruleset.xeri_points


def xeri_bonus(ruleset: Ruleset, card: Card, top: Card | None, pile_size: int, cards_left: int) -> int:
    """The xeri points ``card`` scores on a pile of ``pile_size`` topped by ``top`` (0: no xeri; see makes_xeri)."""
    if top is None or not makes_xeri(ruleset, card, top, pile_size, cards_left):
        return 0
    return xeri_value(ruleset, jack_xeri(card, top))


def margin(points: Sequence[float], side: int) -> float:
    """A side's points minus the mean of the other sides' points: what the bots maximise."""
    mine = points[side]
    return mine - (sum(points) - mine) / (len(points) - 1)


def zero_sum(ruleset: Ruleset, totals: Sequence[int]) -> list[float]:
    """Each seat's side total minus the mean of the sides' totals: the reward of the RL integrations (sums to 0)."""
    mean = sum(totals) / len(totals)
    return [float(totals[seat % ruleset.sides] - mean) for seat in range(ruleset.players)]


def most_cards_side(counts: Sequence[int]) -> int | None:
    """The side with strictly the most cards, or None on a tie for the most."""
    best = max(counts)
    leaders = [side for side, n in enumerate(counts) if n == best]
    return leaders[0] if len(leaders) == 1 else None


def score_round(
    ruleset: Ruleset,
    captured: Sequence[Sequence[Card]],
    xeris: Sequence[Sequence[tuple[Card, bool]]],
) -> tuple[ScoreBreakdown, ...]:
    """Score each side from its captured cards and its xeris ``(card, is_jack_xeri)``."""
    items = point_items(ruleset.scoring, ruleset.two_of_spades)
    item_of = _items_by_card(ruleset.scoring, ruleset.two_of_spades)
    counts = [len(c) for c in captured]
    most = most_cards_side(counts)
    result = []
    for side, cards in enumerate(captured):
        lines: list[ScoreLine] = []
        if most == side and ruleset.most_cards_points:
            lines.append(ScoreLine(f"most cards ({counts[side]})", ruleset.most_cards_points))
        got: list[list[Card]] = [[] for _ in items]
        for card in cards:
            for i in item_of[card.index]:
                got[i].append(card)
        for item, won in zip(items, got, strict=False):
            if won:
                won.sort()
                lines.append(ScoreLine(item.label, item.points * len(won), tuple(won)))
        plain = tuple(card for card, jack in xeris[side] if not jack)
        jack = tuple(card for card, is_jack in xeris[side] if is_jack)
        if plain:
            lines.append(ScoreLine(f"xeri x{len(plain)}", ruleset.xeri_points * len(plain), plain))
        if jack:
            lines.append(ScoreLine(f"Jack xeri x{len(jack)}", ruleset.jack_xeri_points * len(jack), jack))
        result.append(ScoreBreakdown(side, counts[side], len(plain), len(jack), tuple(lines), tuple(sorted(cards))))
    return tuple(result)
