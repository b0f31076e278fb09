import copy
import pickle

import pytest

from xeri.cards import DECK, Card, Rank, Suit, format_cards, parse_cards
from xeri.errors import CardError


class TestParse:
    @pytest.mark.parametrize("text", ["10♦", "10d", "TD", "td", "10D", " 10d ", "t♦", "10♢"])
    def test_ten_of_diamonds(self, text: str) -> None:
        assert Card.parse(text) is Card(Rank.TEN, Suit.DIAMONDS)

    @pytest.mark.parametrize("text", ["J♣", "Jc", "jc", "JC"])
    def test_jack_of_clubs(self, text: str) -> None:
        assert Card.parse(text) is Card(Rank.JACK, Suit.CLUBS)

    @pytest.mark.parametrize("text", ["", "1d", "11c", "Zx", "10", "d10", "JJ", "♦10"])
    def test_malformed(self, text: str) -> None:
        with pytest.raises(CardError, match="cannot read"):
            Card.parse(text)

    def test_error_is_value_error(self) -> None:
        assert issubclass(CardError, ValueError)

    def test_parse_many(self) -> None:
        assert parse_cards("TD, 2c J♠") == (Card.parse("TD"), Card.parse("2C"), Card.parse("JS"))
        assert parse_cards(["ah", "kh"]) == (Card.parse("AH"), Card.parse("KH"))


class TestValue:
    def test_deck_has_52_distinct_cards_in_index_order(self) -> None:
        assert len(DECK) == 52 == len(set(DECK))
        assert [c.index for c in DECK] == list(range(52))
        assert Card.from_index(0) is Card.parse("2C") and Card.from_index(51) is Card.parse("AS")

    def test_from_index_range(self) -> None:
        with pytest.raises(CardError):
            Card.from_index(52)

    def test_printing(self) -> None:
        card = Card.parse("td")
        assert str(card) == "10♦" and card.code == "TD"
        assert eval(repr(card)) is card
        assert format_cards(parse_cards("AS 10h")) == "A♠ 10♥"
        assert format_cards(parse_cards("AS 10h"), ascii_only=True) == "AS TH"

    def test_round_trip_every_card(self) -> None:
        for card in DECK:
            assert Card.parse(str(card)) is card
            assert Card.parse(card.code) is card
            assert Card.parse(card.code.lower()) is card

    def test_immutable_and_interned(self) -> None:
        card = Card.parse("QS")
        with pytest.raises(AttributeError):
            card.rank = Rank.KING  # type: ignore[misc]
        assert copy.deepcopy(card) is card
        assert pickle.loads(pickle.dumps(card)) is card
        assert Card(12, 3) is card

    def test_bad_constructor(self) -> None:
        with pytest.raises(CardError):
            Card(1, 0)

    def test_sorting_by_rank_then_suit(self) -> None:
        assert sorted(parse_cards("AS 2D 2C KH")) == list(parse_cards("2C 2D KH AS"))
