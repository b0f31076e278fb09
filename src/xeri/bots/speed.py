"""Search speed, for ``xeri bench ismcts`` and the benchmarks: playouts per second on one core."""

from __future__ import annotations

import random
import time

from ..engine import Round
from ..rules import Ruleset, find_ruleset
from .ismcts import IsmctsBot
from .pimc import PimcBot


def iterations_per_second(
    seconds: float = 3.0, ruleset: Ruleset | None = None, seed: int = 0, bot: str = "ismcts", iterations: int = 1000,
    rollout: str = "smart",
) -> dict[str, float]:
    """Rounds where every seat searches ``iterations`` playouts a move; time spent searching only.

    ``first_move_per_s`` is the speed on the first move of a round, when playouts are longest.
    Speeds divide by this process's CPU time, so they are one core's speed even on a
    busy machine; ``wall_per_s`` divides by wall-clock time instead.
    """
    ruleset = ruleset or find_ruleset("classic")
    rng = random.Random(seed)
    searcher: IsmctsBot | PimcBot = (
        IsmctsBot(seed=seed, iterations=iterations, rollout=rollout)
        if bot == "ismcts"
        else PimcBot(seed=seed, iterations=iterations, rollout=rollout)
    )
    total_its = 0
    total_s = 0.0
    wall_s = 0.0
    first_its = 0
    first_s = 0.0
    moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        rnd = Round.new(ruleset, rng.randrange(ruleset.players), rng)
        first = True
        while not rnd.is_over:
            seat = rnd.turn
            assert seat is not None
            card = searcher.choose(rnd.view(seat), rnd.log_for(seat))
            if len(rnd.legal_moves) > 1:
                total_its += searcher.stats.iterations
                total_s += searcher.stats.cpu_seconds
                wall_s += searcher.stats.seconds
                moves += 1
                if first:
                    first_its += searcher.stats.iterations
                    first_s += searcher.stats.cpu_seconds
                    first = False
            rnd.play(card, seat)
            if time.perf_counter() - start >= seconds:
                break
    return {
        "iterations_per_s": total_its / total_s if total_s else 0.0,
        "first_move_per_s": first_its / first_s if first_s else 0.0,
        "wall_per_s": total_its / wall_s if wall_s else 0.0,
        "moves": moves,
        "cpu_seconds_per_move": total_s / moves if moves else 0.0,
    }
