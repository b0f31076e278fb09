"""Reading the prompt: positions, card names, lone ranks, commands, and one-line reasons."""

import re

import pytest

from xeri.cards import Card, parse_cards
from xeri.tui.choice import ChoiceError, Command, parse_choice

HAND = parse_cards("3c 10d Jc Js Qh Ad")


@pytest.mark.parametrize("text, expected", [
    ("1", "3c"), ("6", "Ad"), (" 2 ", "10d"),
    ("10d", "10d"), ("TD", "10d"), ("td", "10d"), ("10♦", "10d"), ("J♣", "Jc"), ("js", "Js"),
    ("q", "Qh"), ("A", "Ad"), ("t", "10d"), ("10", "10d"),
])
def test_cards_by_number_name_or_lone_rank(text: str, expected: str) -> None:
    assert parse_choice(text, HAND) is Card.parse(expected)


@pytest.mark.parametrize("text, command", [
    ("help", Command.HELP), ("?", Command.HELP), ("HINT", Command.HINT), ("seen", Command.SEEN),
    ("pile", Command.PILE), ("quit", Command.QUIT), ("exit", Command.QUIT),
])
def test_commands(text: str, command: Command) -> None:
    assert parse_choice(text, HAND) is command


@pytest.mark.parametrize("text, reason", [
    ("", "type a card"),
    ("7", "no card 7 in your hand: choose 1-6"),
    ("0", "no card 0"),
    ("zz", "not a card or a command"),
    ("5h", "you do not hold 5♥"),
    ("j", "you hold 2 of rank Jack (J♣, J♠): add the suit"),
    ("k", "you hold no King"),
])
def test_bad_input_gets_a_one_line_reason(text: str, reason: str) -> None:
    with pytest.raises(ChoiceError, match=re.escape(reason)) as info:
        parse_choice(text, HAND)
    assert "\n" not in str(info.value)
    assert len(str(info.value)) <= 80


def test_a_number_is_a_position_when_the_hand_is_that_long() -> None:
    hand = parse_cards("2c 3c 4c 5c 6c 7c 8c 9c 10c Jc Qc")
    assert parse_choice("10", hand) is Card.parse("Jc")  # the tenth card, not the rank 10
    assert parse_choice("2", hand) is Card.parse("3c")
