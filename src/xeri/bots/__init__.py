"""Computer opponents. Each bot sees only its seat's view and the redacted log."""

from .base import Bot, bot_card
from .registry import BOTS, CHEATERS, LEVELS, BotSpecError, is_cheater, make_bot, make_cheater, parse_spec

__all__ = [
    "BOTS", "CHEATERS", "LEVELS", "Bot", "BotSpecError", "bot_card", "is_cheater", "make_bot", "make_cheater",
    "parse_spec",
]
