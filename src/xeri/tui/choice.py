"""Reading what the player typed at the prompt: a card from the hand, or a command."""

from __future__ import annotations

import enum
from collections.abc import Sequence

from ..cards import Card, Rank
from ..errors import CardError, XeriError


class ChoiceError(XeriError):
    """Input at the prompt that names no card in hand and no command."""


class Command(enum.Enum):
    HELP = "help"
    HINT = "hint"
    SEEN = "seen"
    SEEN_ON = "seen on"
    SEEN_OFF = "seen off"
    PILE = "pile"
    UNDO = "undo"
    QUIT = "quit"


#: what the player may type for each command
COMMAND_WORDS: dict[str, Command] = {
    "help": Command.HELP, "?": Command.HELP, "h": Command.HELP,
    "hint": Command.HINT,
    "seen": Command.SEEN,
    "seen on": Command.SEEN_ON,
    "seen off": Command.SEEN_OFF,
    "pile": Command.PILE, "p": Command.PILE,
    "undo": Command.UNDO, "u": Command.UNDO, "takeback": Command.UNDO, "take back": Command.UNDO,
    "quit": Command.QUIT, "exit": Command.QUIT,
}

# One-letter ranks a player may type alone ("j" when only one Jack is in hand).
_RANK_WORDS = {r.letter: r for r in Rank if not r.letter.isdigit()}
_RANK_NAMES = {Rank.JACK: "Jack", Rank.QUEEN: "Queen", Rank.KING: "King", Rank.ACE: "Ace", Rank.TEN: "10"}


def parse_choice(text: str, hand: Sequence[Card]) -> Card | Command:
    """The card (by position 1.., name, or lone rank letter) or the command typed.

    ``hand`` is in the order shown to the player, so positions match the screen.
    Raises ChoiceError with a one-line reason for anything else.
    """
    word = text.strip()
    low = " ".join(word.lower().split())
    if not word:
        raise ChoiceError(f"type a card: its number 1-{len(hand)} or its name (e.g. 10d); help lists commands")
    if low in COMMAND_WORDS:
        return COMMAND_WORDS[low]
    if word.isdigit():
        n = int(word)
        if 1 <= n <= len(hand):
            return hand[n - 1]
        if n == 10:  # "10" past the end of the hand can only mean the rank
            return _by_rank(Rank.TEN, hand)
        raise ChoiceError(f"there is no card {n} in your hand: choose 1-{len(hand)}, or name a card like 10d")
    rank = _RANK_WORDS.get(word.upper())
    if rank is not None:
        return _by_rank(rank, hand)
    try:
        card = Card.parse(word)
    except CardError:
        raise ChoiceError(
            f"{word[:12]!r} is not a card or a command: type 1-{len(hand)}, a card such as 10d or J♣, or help"
        ) from None
    if card not in hand:
        raise ChoiceError(f"you do not hold {card}; your hand: {' '.join(map(str, hand))}")
    return card


def _by_rank(rank: Rank, hand: Sequence[Card]) -> Card:
    matching = [c for c in hand if c.rank is rank]
    name = _RANK_NAMES.get(rank, rank.label)
    if not matching:
        raise ChoiceError(f"you hold no {name}; your hand: {' '.join(map(str, hand))}")
    if len(matching) > 1:
        shown = ", ".join(str(c) for c in matching)
        example = matching[0].code.lower()
        raise ChoiceError(f"you hold {len(matching)} of rank {name} ({shown}): add the suit, e.g. {example}")
    return matching[0]
