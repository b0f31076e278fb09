"""Ratings for rated matches, on one scale with the computer levels (docs/ratings.md).

    fmt = format_of(ruleset, rated_seats)          # "classic-2p", "classic-4p", or None for a casual table
    [[me], [_]] = rate(fmt, [[initial()], ["hard"]], winner=0)
    me.display, me.deviation                       # 1500-like rating and its ±

The model is OpenSkill's Plackett–Luce (team-aware: partnerships are teams); the levels' ratings are fixed
anchors fitted to the arena's measured match win rates (``anchors.json``, ``benchmarks/level_ratings.py``).
"""

from __future__ import annotations

from .anchors import level_rating
from .formats import FORMATS, format_of, team_size
from .model import Rating, RatingError, initial
from .rate import Member, predict, rate

__all__ = ["FORMATS", "Member", "Rating", "RatingError", "format_of", "initial", "level_rating", "predict", "rate",
           "team_size"]
