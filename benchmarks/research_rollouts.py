"""Search iterations per second of ``ismcts`` with its Python playout and with ``xeri.fast.rollout.playout``.

The fast playout plays the expert-like policy of ``xeri.fast`` (not the same
policy as the Python playout), so only the speed is compared here.

    python benchmarks/research_rollouts.py --positions 20 --iterations 2000
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

import xeri.bots.ismcts as ismcts
from xeri.bots import make_bot
from xeri.engine import Round
from xeri.fast.rollout import playout as fast_playout
from xeri.rules import find_ruleset


def positions(count: int, seed: int) -> list[Round]:
    rng = random.Random(seed)
    out = []
    rs = find_ruleset("classic")
    for _ in range(count):
        rnd = Round.new(rs, 1, rng.getrandbits(64))
        for _ in range(rng.randrange(0, 30)):
            rnd.play(rng.choice(rnd.legal_moves))
        if len(rnd.legal_moves) > 1:
            out.append(rnd)
    return out


def rate(rounds: list[Round], iterations: int) -> float:
    done = spent = 0.0
    for i, rnd in enumerate(rounds):
        bot = make_bot(f"ismcts:iterations={iterations}", seed=i)
        seat = rnd.turn
        start = time.perf_counter()
        bot.choose(rnd.view(seat), rnd.log_for(seat))
        spent += time.perf_counter() - start
        done += bot.stats.iterations
    return done / spent


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=int, default=20)
    p.add_argument("--iterations", type=int, default=2000)
    a = p.parse_args()
    rounds = positions(a.positions, 7)
    original = ismcts.playout
    python_rate = rate(rounds, a.iterations)
    ismcts.playout = fast_playout
    try:
        fast_playout_warm = rate(rounds[:1], 10)  # compile or load the cache
        fast_rate = rate(rounds, a.iterations)
    finally:
        ismcts.playout = original
    print(json.dumps({"positions": len(rounds), "iterations_per_move": a.iterations,
                      "python_playout_iterations_per_s": python_rate, "fast_playout_iterations_per_s": fast_rate,
                      "gain": fast_rate / python_rate, "warmup_rate": fast_playout_warm}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
