"""Rounds per second of the batch simulator, behind ``xeri bench fast``."""

from __future__ import annotations

import time

import numba

from ..rules import Ruleset
from . import simulate


def rounds_per_second(ruleset: Ruleset, seconds: float = 3.0, seed: int = 0, policy: str = "random",
                      batch: int = 200_000) -> dict[str, float]:
    """Random (or ``policy``) rounds in batches for about ``seconds``; compilation is not counted."""
    simulate(64, ruleset, policies=policy, seed=seed)  # compile or load the cache first
    rounds = 0
    start = time.perf_counter()
    while True:
        simulate(batch, ruleset, policies=policy, seed=seed + rounds)
        rounds += batch
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    return {"rounds": rounds, "seconds": elapsed, "rounds_per_s": rounds / elapsed,
            "threads": numba.get_num_threads()}
