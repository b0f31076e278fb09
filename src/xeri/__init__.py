"""Xeri (Ξερή), the Greek card game: rules engine, bots, and ways to play.

The core (cards, rules, engine, scoring, match, record) uses only the
standard library; everything else imports it, never the reverse.
"""

from .cards import DECK, Card, Rank, Suit, parse_cards
from .engine import Deal, Round, SeatView
from .errors import (
    CardError,
    DealError,
    GameOverError,
    IllegalMoveError,
    OutOfTurnError,
    RecordError,
    RulesetError,
    UnknownOptionError,
    XeriError,
)
from .match import Match
from .rules import PRESETS, Ruleset, find_ruleset
from .scoring import ScoreBreakdown, ScoreLine

__version__ = "0.1.0"

__all__ = [
    "DECK",
    "PRESETS",
    "Card",
    "CardError",
    "Deal",
    "DealError",
    "GameOverError",
    "IllegalMoveError",
    "Match",
    "OutOfTurnError",
    "Rank",
    "RecordError",
    "Round",
    "Ruleset",
    "RulesetError",
    "ScoreBreakdown",
    "ScoreLine",
    "SeatView",
    "Suit",
    "UnknownOptionError",
    "XeriError",
    "find_ruleset",
    "parse_cards",
]
