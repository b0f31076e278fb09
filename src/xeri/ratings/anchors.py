"""The computer levels' fixed ratings, one set per format, read from the packaged ``anchors.json``.

``benchmarks/level_ratings.py fit`` writes that file from the arena's measured match win rates
(``benchmarks/results/level_ratings.classic.{2p,4p}.json``); the ratings never move in play.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

from ..bots.registry import LEVELS
from .formats import FORMATS
from .model import Rating, RatingError


@functools.cache
def _anchors() -> dict[str, dict[str, Rating]]:
    data: dict[str, Any] = json.loads(resources.files(__package__).joinpath("anchors.json").read_text("utf-8"))
    return {fmt: {level: Rating(float(r["mu"]), float(r["sigma"])) for level, r in data["formats"][fmt].items()}
            for fmt in FORMATS if fmt in data["formats"]}


def level_rating(fmt: str, level: str) -> Rating:
    """The fixed rating of a computer level in a format."""
    if fmt not in FORMATS:
        raise RatingError(f"unknown format {fmt!r}; formats are: {', '.join(FORMATS)}")
    if level not in LEVELS:
        raise RatingError(f"unknown level {level!r}; levels are: {', '.join(LEVELS)}")
    anchors = _anchors().get(fmt)
    if anchors is None or level not in anchors:
        raise RatingError(f"no measured rating for {level} in {fmt}: run benchmarks/level_ratings.py fit")
    return anchors[level]
