"""Typed errors. Each is a ValueError whose message tells the player what to do."""

from __future__ import annotations


class XeriError(ValueError):
    """Base of every error this package raises on bad input."""


class CardError(XeriError):
    """A card string or value that names no card."""


class RulesetError(XeriError):
    """An unknown ruleset, an unknown option, or a bad option value."""


class UnknownOptionError(RulesetError):
    """An option name that no ruleset has."""


class IllegalMoveError(XeriError):
    """A card that is not in the hand of the seat to play."""


class OutOfTurnError(XeriError):
    """A seat played when it was not its turn."""


class GameOverError(XeriError):
    """A move after the round or match has ended."""


class TakebackError(XeriError):
    """A takeback the rule does not allow now (``Match.take_back``); ``code`` is the protocol's refusal code
    (docs/play.md#takebacks)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class RecordError(XeriError):
    """A game record that is malformed or inconsistent with the rules."""


class DealError(XeriError):
    """An explicit deal that is not a valid arrangement of the 52 cards."""


class UsageError(XeriError):
    """Bad command-line input: reported as one line, exit status 2. Here, below ``cli``, so commands can raise it."""
