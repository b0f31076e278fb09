"""Cards, ranks and suits: the value types every other module builds on.

Cards are interned: there are exactly 52 ``Card`` objects, so identity,
equality and hashing are all cheap, and ``Card.parse`` never allocates.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import ClassVar

from .errors import CardError


class Suit(enum.IntEnum):
    """The four suits; only the two special cards (10♦, 2♣/2♠) care about them."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def letter(self) -> str:
        return _SUIT_LETTERS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


class Rank(enum.IntEnum):
    """Ranks; only rank matters for capturing."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def label(self) -> str:
        """The printed form: ``10``, ``J``, ``A``."""
        return _RANK_LABELS[self]

    @property
    def letter(self) -> str:
        """The one-character ASCII form used in records: ``T`` for ten."""
        return _RANK_LETTERS[self]


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_LETTERS = {Suit.CLUBS: "C", Suit.DIAMONDS: "D", Suit.HEARTS: "H", Suit.SPADES: "S"}
_RANK_LETTERS = {r: (str(r.value) if r.value < 10 else "TJQKA"[r.value - 10]) for r in Rank}
_RANK_LABELS = {r: ("10" if r is Rank.TEN else _RANK_LETTERS[r]) for r in Rank}


class Card:
    """One of the 52 cards. Construct with ``Card(rank, suit)`` or ``Card.parse``."""

    __slots__ = ("_order", "_text", "code", "index", "rank", "suit")
    _interned: ClassVar[dict[tuple[Rank, Suit], Card]] = {}

    rank: Rank
    suit: Suit
    index: int
    code: str
    _text: str
    _order: int

    def __new__(cls, rank: Rank | int, suit: Suit | int) -> Card:
        try:
            return cls._interned[(Rank(rank), Suit(suit))]
        except (KeyError, ValueError):
            raise CardError(f"no such card: rank {rank!r}, suit {suit!r}") from None

    @classmethod
    def _make(cls, rank: Rank, suit: Suit) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        # index orders cards by suit then rank: 0 is 2♣, 51 is A♠.
        object.__setattr__(card, "index", suit.value * 13 + rank.value - 2)
        object.__setattr__(card, "code", rank.letter + suit.letter)
        object.__setattr__(card, "_text", rank.label + suit.symbol)
        object.__setattr__(card, "_order", rank.value * 4 + suit.value)
        cls._interned[(rank, suit)] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[int, int]]:
        return (Card, (self.rank.value, self.suit.value))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        """Cards sort by rank, then suit."""
        return self._order < other._order

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    @property
    def is_jack(self) -> bool:
        return self.rank is Rank.JACK

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``10♦``, ``10d``, ``TD``, ``td``, ``J♣``, ``Jc``; raise CardError otherwise."""
        card = _PARSE_TABLE.get(text.strip().upper())
        if card is None:
            raise CardError(
                f"cannot read {text!r} as a card: write a rank (2-10, T, J, Q, K, A) "
                "then a suit (C, D, H, S or ♣ ♦ ♥ ♠), e.g. 10d, TD or J♣"
            )
        return card

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with this index (0..51), as used in tensors and action ids."""
        if not 0 <= index < 52:
            raise CardError(f"card index {index} is outside 0..51")
        return DECK[index]


for _suit in Suit:
    for _rank in Rank:
        Card._make(_rank, _suit)

#: The 52 cards in index order.
DECK: tuple[Card, ...] = tuple(sorted(Card._interned.values(), key=lambda c: c.index))

_SUIT_INPUTS = {
    Suit.CLUBS: ("C", "♣", "♧"),
    Suit.DIAMONDS: ("D", "♦", "♢"),
    Suit.HEARTS: ("H", "♥", "♡"),
    Suit.SPADES: ("S", "♠", "♤"),
}
_RANK_INPUTS = {r: {r.letter, r.label} for r in Rank}
_PARSE_TABLE: dict[str, Card] = {
    rank_text + suit_text: Card(rank, suit)
    for rank, rank_texts in _RANK_INPUTS.items()
    for rank_text in rank_texts
    for suit, suit_texts in _SUIT_INPUTS.items()
    for suit_text in suit_texts
}


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse space- or comma-separated cards (``"TD 2c J♠"``) or an iterable of card strings."""
    if isinstance(text, str):
        parts: Iterable[str] = text.replace(",", " ").split()
    else:
        parts = text
    return tuple(Card.parse(part) for part in parts)


def format_cards(cards: Iterable[Card], ascii_only: bool = False) -> str:
    """Cards joined by spaces, with suit symbols or as ASCII codes."""
    return " ".join(card.code if ascii_only else str(card) for card in cards)


TEN_OF_DIAMONDS = Card(Rank.TEN, Suit.DIAMONDS)
TWO_OF_CLUBS = Card(Rank.TWO, Suit.CLUBS)
TWO_OF_SPADES = Card(Rank.TWO, Suit.SPADES)
