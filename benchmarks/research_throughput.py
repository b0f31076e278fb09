"""Throughput of each research interface, random play: engine, pyspiel wrapper, PettingZoo, Gymnasium, xeri.fast.

    python benchmarks/research_throughput.py --seconds 3 --out benchmarks/results/research_throughput.json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable

import numpy as np


def timed(seconds: float, one: Callable[[], int]) -> dict[str, float]:
    """Call ``one`` (one round; returns its moves) until ``seconds`` pass."""
    rounds = moves = 0
    start = time.perf_counter()
    while True:
        moves += one()
        rounds += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return {"rounds_per_s": rounds / elapsed, "moves_per_s": moves / elapsed, "rounds": rounds}


def engine(seconds: float) -> dict[str, float]:
    from xeri.bench import engine_rounds_per_second

    return engine_rounds_per_second(seconds)


def pyspiel_wrapper(seconds: float) -> dict[str, float]:
    import pyspiel

    import xeri.integrations.openspiel  # noqa: F401

    game = pyspiel.load_game("python_xeri")
    rng = random.Random(0)

    def one() -> int:
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
        return moves

    out = timed(seconds, one)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    start = time.perf_counter()
    for _ in range(200):
        state.information_state_tensor(0)
    out["information_state_tensor_per_s"] = 200 / (time.perf_counter() - start)
    return out


def pettingzoo_env(seconds: float) -> dict[str, float]:
    from xeri.integrations.pettingzoo import env

    e = env(players=2)
    rng = np.random.default_rng(0)
    e.reset(seed=0)

    def one() -> int:
        e.reset()
        moves = 0
        for _agent in e.agent_iter():
            obs, _reward, term, _trunc, _info = e.last()
            if term:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            moves += 1
        return moves

    return timed(seconds, one)


def gym_env(seconds: float) -> dict[str, float]:
    import gymnasium

    import xeri.integrations.gym  # noqa: F401

    e = gymnasium.make("xeri/Xeri-v0", opponent="random")
    rng = np.random.default_rng(0)
    e.reset(seed=0)

    def one() -> int:
        _obs, info = e.reset()
        done, moves = False, 0
        while not done:
            _obs, _r, done, _t, info = e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            moves += 1
        return moves

    return timed(seconds, one)


def fast(seconds: float) -> dict[str, float]:
    import numba

    from xeri.fast.throughput import rounds_per_second
    from xeri.rules import find_ruleset

    out: dict[str, float] = {"threads": numba.get_num_threads()}
    for name, players, policy in (("classic", 2, "random"), ("classic", 4, "random"), ("cardgames", 2, "random"),
                                  ("classic", 2, "expert")):
        r = rounds_per_second(find_ruleset(name, players=players), seconds, policy=policy)
        out[f"{name}_{players}p_{policy}_rounds_per_s"] = r["rounds_per_s"]
    numba.set_num_threads(1)
    r = rounds_per_second(find_ruleset("classic"), seconds)
    out["classic_2p_random_rounds_per_s_one_thread"] = r["rounds_per_s"]
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--out", default=None)
    a = p.parse_args()
    result = {"cpus": os.cpu_count()}
    for name, fn in (("engine", engine), ("pyspiel_wrapper", pyspiel_wrapper), ("pettingzoo_env", pettingzoo_env),
                     ("gymnasium_env_vs_random", gym_env), ("xeri_fast", fast)):
        result[name] = fn(a.seconds)
        print(name, json.dumps(result[name]), file=sys.stderr)
    text = json.dumps(result, indent=2)
    print(text)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
