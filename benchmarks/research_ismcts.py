"""Our ``ismcts`` bot against OpenSpiel's ``ISMCTSBot`` on ``python_xeri``: duplicate deals.

Each deal is played twice with the seats swapped, so the cards even out.
``--mode iterations``: both bots get N iterations per move. ``--mode time``:
at each move ours gets the mean wall time OpenSpiel's bot has needed so far
this round for its N iterations (measured in the same process, so under the
same machine load; one extra OpenSpiel search calibrates the first move). OpenSpiel's bot
uses random rollouts and UCT c = 14, i.e. our c = 0.7 in the raw point margins
its returns use (ours divides margins by 20).

    python benchmarks/research_ismcts.py --mode iterations --iterations 100 --deals 100
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any


def play_round(deal_seed: int, ours_seat: int, iterations: int, equal_time: bool) -> dict[str, Any]:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from xeri.bots import make_bot
    from xeri.engine import shuffle_and_deal
    from xeri.integrations.openspiel import deal_actions
    from xeri.rules import find_ruleset

    rs = find_ruleset("classic")
    game = pyspiel.load_game("python_xeri")
    deal = shuffle_and_deal(rs, rs.players - 1, random.Random(deal_seed))
    state = game.new_initial_state()
    for a in deal_actions(rs, rs.players - 1, deal):
        state.apply_action(a)
    assert state._round.deal.hands == deal.hands and state._round.deal.pile == deal.pile
    ours = make_bot(f"ismcts:iterations={iterations}", seed=deal_seed)
    theirs = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(deal_seed % 2**32)), 14.0,
                              iterations, random_state=np.random.RandomState((deal_seed + 1) % 2**32))
    spent = {"ours": 0.0, "theirs": 0.0}
    moves = {"ours": 0, "theirs": 0}
    ours_iterations = 0
    if equal_time:
        ours.iterations = None  # type: ignore[attr-defined]
        start = time.perf_counter()
        theirs.step(state.clone())  # calibration: the first move's budget
        calibration = time.perf_counter() - start
    while not state.is_terminal():
        seat = state.current_player()
        who = "ours" if seat == ours_seat else "theirs"
        start = time.perf_counter()
        if who == "ours":
            if equal_time:
                ours.seconds = spent["theirs"] / moves["theirs"] if moves["theirs"] else calibration  # type: ignore[attr-defined]
            rnd = state._round
            action = ours.choose(rnd.view(seat), rnd.log_for(seat)).index
            if len(rnd.legal_moves) > 1:  # a forced move runs no search
                ours_iterations += ours.stats.iterations  # type: ignore[attr-defined]
        else:
            action = theirs.step(state)
        spent[who] += time.perf_counter() - start
        moves[who] += 1
        state.apply_action(action)
    totals = [s.total for s in state._round.scores]
    return {"margin": totals[ours_seat] - totals[1 - ours_seat], "spent": spent, "moves": moves,
            "ours_iterations": ours_iterations,
            "won": totals[ours_seat] > totals[1 - ours_seat], "lost": totals[ours_seat] < totals[1 - ours_seat]}


def _task(args: tuple[int, int, int, bool]) -> dict[str, Any]:
    return play_round(*args)


def _per_move(games: list[dict[str, Any]], who: str) -> float:
    return sum(g["spent"][who] for g in games) / sum(g["moves"][who] for g in games)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--mode", choices=("iterations", "time"), default="iterations")
    p.add_argument("--iterations", type=int, default=100)
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--out", default=None)
    a = p.parse_args()
    seeds = [random.Random(a.seed * 1_000_003 + i).getrandbits(63) for i in range(a.deals)]
    tasks = [(s, seat, a.iterations, a.mode == "time") for s in seeds for seat in (0, 1)]
    start = time.perf_counter()
    with ProcessPoolExecutor(a.jobs) as pool:
        games = list(pool.map(_task, tasks))
    margins = [g["margin"] for g in games]
    per_deal = [margins[2 * i] + margins[2 * i + 1] for i in range(a.deals)]
    sd = statistics.stdev(per_deal) / 2 if len(per_deal) > 1 else 0.0
    mean = statistics.fmean(margins)
    half = 1.96 * sd / len(per_deal) ** 0.5
    result = {
        "mode": a.mode, "openspiel_iterations": a.iterations, "deals": a.deals,
        "rounds": len(games), "margin_per_round": mean, "margin_ci95": [mean - half, mean + half],
        "ours_round_win_rate": sum(g["won"] for g in games) / len(games),
        "theirs_round_win_rate": sum(g["lost"] for g in games) / len(games),
        "ours_seconds_per_move_measured": _per_move(games, "ours"),
        "theirs_seconds_per_move": _per_move(games, "theirs"),
        "ours_iterations_per_move": sum(g["ours_iterations"] for g in games) / sum(g["moves"]["ours"] for g in games),
        "wall_seconds": time.perf_counter() - start,
    }
    text = json.dumps(result, indent=2)
    print(text)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
