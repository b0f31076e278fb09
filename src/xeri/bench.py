"""Throughput measurements behind ``xeri bench``: figures, not unit tests."""

from __future__ import annotations

import random
import time

from .engine import Round
from .rules import Ruleset, find_ruleset


def engine_rounds_per_second(seconds: float = 2.0, ruleset: Ruleset | None = None, seed: int = 0) -> dict[str, float]:
    """Random rounds played through the public engine (``Round.play``) for ``seconds``."""
    ruleset = ruleset or find_ruleset("classic")
    rng = random.Random(seed)
    rnd = rng.random
    rounds = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        game = Round.new(ruleset, rounds % ruleset.players, rng)
        while not game.is_over:
            legal = game.legal_moves
            game.play(legal[int(rnd() * len(legal))])
        moves += len(game.moves)
        rounds += 1
        if rounds % 64 == 0 and time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {"rounds": rounds, "seconds": elapsed, "rounds_per_s": rounds / elapsed, "moves_per_s": moves / elapsed}
