"""Computer opponents. Each bot sees only its seat's view and the redacted log."""

from .base import Bot, bot_card
from .registry import BOTS, LEVELS, BotSpecError, make_bot, parse_spec

__all__ = ["BOTS", "LEVELS", "Bot", "BotSpecError", "bot_card", "make_bot", "parse_spec"]
