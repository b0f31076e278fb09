"""Playouts per second of ``ismcts`` with each rollout: ``smart`` and ``fast`` (Python) and ``compiled`` (numba).

``compiled`` plays the same policy as ``smart`` (``xeri.bots.ismcts.policy_move``;
``tests/fast/test_fast.py`` checks it card for card on a shared random stream), so
the speeds compare like with like. All three are measured in one process, one
after the other, as ``xeri bench ismcts --rollout R`` measures them (CPU time
of the search, so one core's speed even on a busy machine). ``--strength``
also plays compiled-rollout ismcts against smart-rollout ismcts at equal
iterations over duplicate deals (the same policy: no difference is expected).

    python benchmarks/research_rollouts.py --seconds 8 --strength 40 --out benchmarks/results/research_rollouts.json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys

from xeri.bench import search_iterations_per_second
from xeri.bots import make_bot
from xeri.engine import Round
from xeri.rules import find_ruleset

ROLLOUTS = ("smart", "fast", "compiled")


def speeds(seconds: float, seed: int) -> dict[str, float]:
    """Each rollout's playouts per second over whole 2-player ``classic`` rounds, and on first moves."""
    rs = find_ruleset("classic")
    search_iterations_per_second(0.5, rs, seed, rollout="compiled")  # compile or load the cache first
    out: dict[str, float] = {}
    for rollout in ROLLOUTS:
        r = search_iterations_per_second(seconds, rs, seed, rollout=rollout)
        out[f"{rollout}_playouts_per_s"] = r["iterations_per_s"]
        out[f"{rollout}_first_move_per_s"] = r["first_move_per_s"]
    out["compiled_over_smart"] = out["compiled_playouts_per_s"] / out["smart_playouts_per_s"]
    out["compiled_over_fast"] = out["compiled_playouts_per_s"] / out["fast_playouts_per_s"]
    return out


def strength(deals: int, iterations: int, seed: int = 11) -> dict[str, object]:
    """Duplicate deals, compiled-rollout ismcts vs smart-rollout ismcts at equal iterations: mean margin."""
    rs = find_ruleset("classic")
    margins = []
    rng = random.Random(seed)
    for d in range(deals):
        deal_seed = rng.getrandbits(64)
        for seat in (0, 1):
            rnd = Round.new(rs, 1, deal_seed)
            bots = {seat: make_bot(f"ismcts:iterations={iterations},rollout=compiled", seed=d),
                    1 - seat: make_bot(f"ismcts:iterations={iterations},rollout=smart", seed=d)}
            while not rnd.is_over:
                turn = rnd.turn
                assert turn is not None
                rnd.play(bots[turn].choose(rnd.view(turn), rnd.log_for(turn)))
            assert rnd.scores is not None
            totals = [s.total for s in rnd.scores]
            margins.append(totals[seat] - totals[1 - seat])
    mean = sum(margins) / len(margins)
    per_deal = [(margins[i] + margins[i + 1]) / 2 for i in range(0, len(margins), 2)]
    m = sum(per_deal) / len(per_deal)
    sd = (sum((x - m) ** 2 for x in per_deal) / (len(per_deal) - 1)) ** 0.5
    half = 1.96 * sd / len(per_deal) ** 0.5
    return {"deals": deals, "iterations": iterations, "compiled_minus_smart_margin_per_round": mean,
            "ci95": [mean - half, mean + half]}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=8.0, help="seconds per rollout (default 8)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--iterations", type=int, default=1000, help="playouts a move in the strength games")
    p.add_argument("--strength", type=int, default=0, metavar="DEALS",
                   help="also play DEALS duplicate deals, compiled vs smart rollout")
    p.add_argument("--out", default=None)
    a = p.parse_args()
    if a.strength == 1:
        p.error("--strength needs at least 2 deals (for an interval)")
    out: dict[str, object] = {"seconds": a.seconds, "load_average": os.getloadavg()[0], **speeds(a.seconds, a.seed)}
    if a.strength:
        out["strength"] = strength(a.strength, a.iterations)
    text = json.dumps(out, indent=2)
    print(text)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
