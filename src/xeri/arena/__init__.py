"""The arena: bots play duplicate deals, and the statistics say which is stronger and by how much."""

from .ladder import LadderResult, run_ladder
from .play import BACKENDS, ArenaError, DealResult, GameResult, run_deals
from .stats import Estimate, Rating, Summary, mean_ci, summarize

__all__ = [
    "BACKENDS", "ArenaError", "DealResult", "Estimate", "GameResult", "LadderResult", "Rating", "Summary",
    "mean_ci", "run_deals", "run_ladder", "summarize",
]
