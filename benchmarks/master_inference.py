"""What the master reads from the others' plays (issue 10's inference): how often its opponent model names each
bot's style, and how much more of the other hand's real cards its weighted worlds hold than uniform ones.

    nice -n 10 python benchmarks/master_inference.py [--rounds 30] [--worlds 2048]

Classic rules, 2 players; seat 0 plays the expert, seat 1 the bot named. At each of seat 0's decisions with 4 or
fewer cards in hand, cards in seat 1's hand and cards left in the talon (rollout decisions after some plays of
the deal), the kernel deals ``--worlds`` worlds from seat 0's view and weighs them (``play_weights``, ε = the
master's ``weigh``, the bot's own policy where the kernel has it, else the expert's); the share of seat 1's
sampled hand that is its real hand is averaged uniformly and by weight. The model's fit is read at
seat 0's first decision of each deal after the first. Writes ``benchmarks/results/master_inference.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

import numpy as np

from xeri.bots.determinize import Determinizer
from xeri.bots.inference import lacked_indices
from xeri.bots.master_config import MasterConfig
from xeri.bots.opponent_model import OpponentModel, current_decisions, finished_decisions
from xeri.bots.registry import make_bot
from xeri.engine import Round, shuffle_and_deal
from xeri.fast.rollout_values import WorldValues
from xeri.rules import find_ruleset

OUT = Path(__file__).parent / "results"


def probe(other: str, rounds: int, worlds: int, eps: float) -> dict[str, object]:
    ruleset = find_ruleset("classic")
    uniform: list[float] = []
    weighted: list[float] = []
    ess: list[float] = []
    fits: dict[int, list[str]] = {}
    fit_ms: list[float] = []
    for g in range(rounds):
        rng = random.Random(g)
        rnd = Round(ruleset, 0, shuffle_and_deal(ruleset, 0, rng))
        bots = [make_bot("expert", 2 * g + 1), make_bot(other, 2 * g + 2)]
        model = OpponentModel()
        deal_seen = -1
        while rnd.turn is not None:
            seat = rnd.turn
            view, log = rnd.view(seat), rnd.log_for(seat)
            deal = (36 - view.talon_count) // 12
            if seat == 0 and deal != deal_seen:
                deal_seen = deal
                start = time.perf_counter()
                fit = model.policies(view, finished_decisions(log, 2))[1]
                if deal:
                    fit_ms.append((time.perf_counter() - start) * 1000)
                    fits.setdefault(deal + 1, []).append(fit)
            if seat == 0 and len(view.hand) <= 4 and view.talon_count and view.hand_counts[1]:
                observed = [d for d in current_decisions(log, 2) if d.seat == 1]
                policy = other if other in ("expert", "greedy", "random") else "expert"
                run = WorldValues(Determinizer(view, log), lacked_indices(log, 2), [c.index for c in view.hand], 0,
                                  [c.index for c in view.gone], ["expert", policy], 0, 0.15, observed=observed,
                                  eps=eps)
                hands, hand_len, *_ = run.deal(rng.getrandbits(62), worlds)
                w = run.weights(hands, hand_len)
                true = [c.index for c in rnd.hand(1)]
                share = np.array([np.isin(hands[i, 1, : hand_len[i, 1]], true).mean() for i in range(worlds)])
                uniform.append(float(share.mean()))
                weighted.append(float((w * share).sum() / w.sum()))
                ess.append(float(w.sum() ** 2 / (w * w).sum()))
            rnd.play(bots[seat].choose(view, log), seat)
    return {
        "positions": len(uniform),
        "true_share_uniform": statistics.fmean(uniform),
        "true_share_weighted": statistics.fmean(weighted),
        "ratio": statistics.fmean(weighted) / statistics.fmean(uniform),
        "effective_worlds_median": statistics.median(ess),
        "effective_worlds_min": min(ess),
        "fit_named_by_deal": {str(d): {m: names.count(m) / len(names) for m in sorted(set(names))}
                              for d, names in sorted(fits.items())},
        "fit_ms_median": statistics.median(fit_ms),
        "fit_ms_max": max(fit_ms),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--worlds", type=int, default=2048)
    args = parser.parse_args()
    eps = MasterConfig().off_style_weight
    # the last: a strong player who often plays other cards than the expert's
    others = {"expert": "expert", "greedy": "greedy", "random": "random", "master_without_model": "master:model=0"}
    data = {"rounds": args.rounds, "worlds": args.worlds, "eps": eps, "specs": others,
            "opponents": {name: probe(spec, args.rounds, args.worlds, eps) for name, spec in others.items()}}
    (OUT / "master_inference.json").write_text(json.dumps(data, indent=2) + "\n")
    print(json.dumps(data, indent=2))


if __name__ == "__main__":
    main()
