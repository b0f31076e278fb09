"""The ladder: every pair of bots plays its duplicate deals, then one Bradley–Terry fit rates them all."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..rules import Ruleset
from .play import ArenaError, DealTask, check_setup, deal_seeds, map_tasks
from .stats import Rating, Summary, deal_scores, ladder_ratings, summarize


@dataclass(frozen=True, slots=True)
class LadderResult:
    bots: tuple[str, ...]
    deals: int
    pairs: tuple[tuple[str, str, Summary], ...]
    ratings: tuple[Rating, ...]

    def ranked(self) -> list[Rating]:
        return sorted(self.ratings, key=lambda r: -r.elo)


def run_ladder(
    bots: Sequence[str],
    ruleset: Ruleset,
    deals: int,
    seed: int,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> LadderResult:
    """Play ``deals`` duplicate deals for every pair; each pair's seed is drawn from ``seed``."""
    if len(bots) < 2:
        raise ArenaError("a ladder needs at least two bots")
    if len(set(bots)) != len(bots):
        raise ArenaError("each bot may appear only once in a ladder")
    if deals < 1:
        raise ArenaError("--deals must be at least 1")
    for a in bots:
        check_setup(a, bots[0], ruleset)
    pairs = list(itertools.combinations(range(len(bots)), 2))
    pair_seeds = random.Random(seed).getrandbits
    tasks: list[DealTask] = []
    for i, j in pairs:
        pseed = pair_seeds(64)
        tasks += [DealTask(bots[i], bots[j], ruleset.to_dict(), k, s) for k, s in enumerate(deal_seeds(pseed, deals))]
    results = map_tasks(tasks, jobs, backend, address, progress)
    scores: dict[tuple[int, int], list[float]] = {}
    summaries = []
    for n, (i, j) in enumerate(pairs):
        chunk = results[n * deals : (n + 1) * deals]
        scores[(i, j)] = deal_scores(chunk)
        summaries.append((bots[i], bots[j], summarize(chunk)))
    ratings = ladder_ratings(bots, scores, seed, games=ruleset.sides)
    return LadderResult(tuple(bots), deals, tuple(summaries), tuple(ratings))
