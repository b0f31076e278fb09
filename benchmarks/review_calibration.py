"""How much ``xeri review`` says each kind of player loses, and how long a review takes.

    python benchmarks/review_calibration.py [--deals 8] [--iterations N] [--out benchmarks/results]

Seat 0 is played by each level's bot (the master with its own seed, not the
review's), seat 1 by the expert, one classic round per deal; the review weighs
seat 0's moves at the master's default budget (or ``--iterations``). A player
who plays like the master should lose about nothing; a careless one much.
Then one whole five-round match is reviewed three times, for the time a review
takes (wall-clock and this process's CPU time). Writes ``review_calibration.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from xeri import record, review
from xeri.bots import bot_card, make_bot
from xeri.match import Match
from xeri.rules import find_ruleset

PLAYERS = ("master", "expert", "greedy", "random")


def played(specs: list[str], seed: int, rounds: int) -> Match:
    bots = [make_bot(spec, seed=seed * 10 + i) for i, spec in enumerate(specs)]
    match = Match(find_ruleset("classic"), seed=seed)
    while not match.is_over and len(match.finished_round_scores()) < rounds:
        turn = match.turn
        assert turn is not None
        match.play(bot_card(match, bots[turn]))
    return match


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "results")
    args = parser.parse_args()
    out: dict[str, Any] = {"evaluator": review.evaluator_spec(args.iterations), "deals": args.deals, "players": {}}
    for name in PLAYERS:
        per_move = []
        for seed in range(args.seed, args.seed + args.deals):
            data = record.to_record(played([name, "expert"], seed, 1))
            result = review.review_record(data, 0, iterations=args.iterations)
            per_move.append(result.lost / len(result.moves))
        out["players"][name] = {"lost_per_move": round(statistics.mean(per_move), 3),
                                "per_deal": [round(x, 3) for x in per_move]}
        print(name, out["players"][name], flush=True)
    data = record.to_record(played(["expert", "greedy"], 2026, 99))
    times = []
    for _ in range(3):
        wall, cpu = time.perf_counter(), time.process_time()
        result = review.review_record(data, 0, iterations=args.iterations)
        times.append({"wall_s": round(time.perf_counter() - wall, 2), "cpu_s": round(time.process_time() - cpu, 2)})
    out["whole_match"] = {"rounds": len(result.rounds), "moves": len(result.moves), "runs": times}
    print("whole match", out["whole_match"], flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "review_calibration.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
