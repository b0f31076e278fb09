"""Search iterations per second of ``ismcts`` with its Python playout and with ``xeri.fast.rollout.playout``.

The fast playout plays the expert-like policy of ``xeri.fast``, not the same
policy as the Python playout, so ``--strength`` also plays the two searches
against each other at equal iterations.

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


class FastPlayoutBot:
    """``ismcts`` whose search uses the compiled playout while it chooses."""

    name = "ismcts-fast-playout"

    def __init__(self, spec: str, seed: int) -> None:
        self.bot = make_bot(spec, seed=seed)

    def choose(self, view, history):  # type: ignore[no-untyped-def]
        original = ismcts.playout
        ismcts.playout = fast_playout
        try:
            return self.bot.choose(view, history)
        finally:
            ismcts.playout = original


def strength(deals: int, iterations: int, seed: int = 11) -> dict[str, float]:
    """Duplicate deals, fast-playout ismcts vs Python-playout ismcts at equal iterations: mean margin."""
    rs = find_ruleset("classic")
    margins = []
    rng = random.Random(seed)
    for d in range(deals):
        deal_seed = rng.getrandbits(64)
        for fast_seat in (0, 1):
            rnd = Round.new(rs, 1, deal_seed)
            spec = f"ismcts:iterations={iterations}"
            bots = {fast_seat: FastPlayoutBot(spec, d), 1 - fast_seat: make_bot(spec, seed=d)}
            while not rnd.is_over:
                seat = rnd.turn
                rnd.play(bots[seat].choose(rnd.view(seat), rnd.log_for(seat)))
            totals = [s.total for s in rnd.scores]
            margins.append(totals[fast_seat] - totals[1 - fast_seat])
    mean = sum(margins) / len(margins)
    per_deal = [margins[i] + margins[i + 1] for i in range(0, len(margins), 2)]
    m = sum(per_deal) / len(per_deal)
    sd = (sum((x - m) ** 2 for x in per_deal) / (len(per_deal) - 1)) ** 0.5 / 2
    half = 1.96 * sd / len(per_deal) ** 0.5
    return {"deals": deals, "iterations": iterations, "fast_minus_python_margin_per_round": mean,
            "ci95": [mean - half, mean + half]}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=int, default=20)
    p.add_argument("--iterations", type=int, default=2000)
    p.add_argument("--strength", type=int, default=0, metavar="DEALS",
                   help="also play DEALS duplicate deals, fast playout vs Python playout")
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
    out = {"positions": len(rounds), "iterations_per_move": a.iterations,
           "python_playout_iterations_per_s": python_rate, "fast_playout_iterations_per_s": fast_rate,
           "gain": fast_rate / python_rate, "warmup_rate": fast_playout_warm}
    if a.strength:
        out["strength"] = strength(a.strength, a.iterations)
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
