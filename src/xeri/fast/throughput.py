"""Rounds per second of the batch simulator and env steps per second of the vectorised env (``xeri bench``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

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


def _loop(step: Callable[[], int], seconds: float) -> float:
    """Env steps per second of ``step`` (which returns the steps it made), for about ``seconds``."""
    steps = 0
    start = time.perf_counter()
    while True:
        steps += step()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def vec_steps_per_second(seconds: float = 3.0, batch: int = 1024, ruleset: str = "classic", players: int = 2,
                         opponent: str = "random", seed: int = 0) -> dict[str, Any]:
    """Env steps/s of the vectorised env (observations and masks each step), the Gym env and PettingZoo's
    ``texas_holdem_v4``, measured one after the other in this process; the first legal card is played."""
    import numpy as np

    from ..integrations.gym import XeriEnv
    from .vecenv import XeriVectorEnv

    vec = XeriVectorEnv(num_envs=batch, opponent=opponent, players=players, ruleset=ruleset)
    vec.reset(seed=seed)
    vec.step(vec.action_masks().argmax(axis=1))  # compile or load the cache first

    def vec_step() -> int:
        vec.step(vec.action_masks().argmax(axis=1))
        return batch

    gym = XeriEnv(opponent=opponent, players=players, ruleset=ruleset)
    gym.reset(seed=seed)
    episodes = [0]

    def gym_step() -> int:
        done = gym.step(int(np.argmax(gym.action_masks())))[2]
        if done:
            episodes[0] += 1
            gym.reset(seed=seed + episodes[0])
        return 1

    # The vectorised env's kernels run on one thread (threads fought each other on the shared machine).
    out: dict[str, Any] = {"batch": batch, "opponent": opponent, "threads": 1,
                           "vec_steps_per_s": _loop(vec_step, seconds), "gym_steps_per_s": _loop(gym_step, seconds)}
    out["texas_holdem_v4_steps_per_s"] = _texas_holdem(seconds)
    out["vec_over_gym"] = out["vec_steps_per_s"] / out["gym_steps_per_s"]
    return out


def _texas_holdem(seconds: float) -> float | None:
    """PettingZoo's ``texas_holdem_v4`` (needs rlcard and pygame: the ``bench`` extra), first legal action."""
    try:
        import numpy as np
        from pettingzoo.classic import texas_holdem_v4  # type: ignore[import-untyped]
    except ImportError:
        return None
    env = texas_holdem_v4.env()
    env.reset(seed=0)
    count = {"episodes": 0}

    def step() -> int:
        obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            if not env.agents:
                count["episodes"] += 1
                env.reset(seed=count["episodes"])
        else:
            env.step(int(np.argmax(obs["action_mask"])))
        return 1

    return _loop(step, seconds)
