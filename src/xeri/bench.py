"""Every throughput runner of the project in one place: ``xeri bench`` and the ``benchmarks/`` scripts call these.

Figures, not unit tests. The runners of the optional parts (``xeri.fast``, the
integrations, PettingZoo's ``texas_holdem_v4``) import them when called, so
this module loads with the core alone.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from .engine import Round
from .rules import Ruleset, find_ruleset


def rate(seconds: float, step: Callable[[], int]) -> tuple[int, int, float]:
    """Call ``step`` (one unit of work; it returns how many inner steps it made) until ``seconds`` pass.

    Returns (calls, inner steps, elapsed seconds).
    """
    calls = steps = 0
    start = time.perf_counter()
    while True:
        steps += step()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls, steps, elapsed


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


def fast_rounds_per_second(ruleset: Ruleset, seconds: float = 3.0, seed: int = 0, policy: str = "random",
                           batch: int = 200_000) -> dict[str, float]:
    """Rounds of ``xeri.fast.simulate`` in batches for about ``seconds``; compilation is not counted."""
    import numba

    from .fast import simulate

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


def search_iterations_per_second(
    seconds: float = 3.0, ruleset: Ruleset | None = None, seed: int = 0, bot: str = "ismcts", iterations: int = 1000,
    rollout: str = "smart",
) -> dict[str, float]:
    """Rounds where every seat searches ``iterations`` playouts a move; time spent searching only.

    ``first_move_per_s`` is the speed on the first move of a round, when playouts are longest.
    Speeds divide by this process's CPU time, so they are one core's speed even on a
    busy machine; ``wall_per_s`` divides by wall-clock time instead.
    """
    from .bots.ismcts import IsmctsBot
    from .bots.pimc import PimcBot

    ruleset = ruleset or find_ruleset("classic")
    rng = random.Random(seed)
    searcher: IsmctsBot | PimcBot = (
        IsmctsBot(seed=seed, iterations=iterations, rollout=rollout)
        if bot == "ismcts"
        else PimcBot(seed=seed, iterations=iterations, rollout=rollout)
    )
    total_its = 0
    total_s = 0.0
    wall_s = 0.0
    first_its = 0
    first_s = 0.0
    moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        rnd = Round.new(ruleset, rng.randrange(ruleset.players), rng)
        first = True
        while not rnd.is_over:
            seat = rnd.turn
            assert seat is not None
            card = searcher.choose(rnd.view(seat), rnd.log_for(seat))
            if len(rnd.legal_moves) > 1:
                total_its += searcher.stats.iterations
                total_s += searcher.stats.cpu_seconds
                wall_s += searcher.stats.seconds
                moves += 1
                if first:
                    first_its += searcher.stats.iterations
                    first_s += searcher.stats.cpu_seconds
                    first = False
            rnd.play(card, seat)
            if time.perf_counter() - start >= seconds:
                break
    return {
        "iterations_per_s": total_its / total_s if total_s else 0.0,
        "first_move_per_s": first_its / first_s if first_s else 0.0,
        "wall_per_s": total_its / wall_s if wall_s else 0.0,
        "moves": moves,
        "cpu_seconds_per_move": total_s / moves if moves else 0.0,
    }


def vec_steps_per_second(seconds: float = 3.0, batch: int = 1024, ruleset: str = "classic", players: int = 2,
                         opponent: str = "random", seed: int = 0, parallel: bool = False) -> dict[str, Any]:
    """Env steps/s of the vectorised env (observations and masks each step), the Gym env and PettingZoo's
    ``texas_holdem_v4``, measured one after the other in this process; the first legal card is played.

    ``parallel`` steps the vectorised env's games on numba's threads (``threads`` in the result).
    """
    import numba
    import numpy as np

    from .fast.vecenv import XeriVectorEnv
    from .integrations.gym import XeriEnv

    vec = XeriVectorEnv(num_envs=batch, opponent=opponent, players=players, ruleset=ruleset, parallel=parallel)
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

    threads = numba.get_num_threads() if parallel else 1
    out: dict[str, Any] = {"batch": batch, "opponent": opponent, "threads": threads,
                           "vec_steps_per_s": _per_second(seconds, vec_step),
                           "gym_steps_per_s": _per_second(seconds, gym_step)}
    out["texas_holdem_v4_steps_per_s"] = texas_holdem_steps_per_second(seconds)
    out["vec_over_gym"] = out["vec_steps_per_s"] / out["gym_steps_per_s"]
    return out


def _per_second(seconds: float, step: Callable[[], int]) -> float:
    _calls, steps, elapsed = rate(seconds, step)
    return steps / elapsed


def texas_holdem_steps_per_second(seconds: float) -> float | None:
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

    return _per_second(seconds, step)


def _rounds(seconds: float, one: Callable[[], int]) -> dict[str, float]:
    """Rounds and moves per second of ``one`` (one round; it returns its moves)."""
    rounds, moves, elapsed = rate(seconds, one)
    return {"rounds_per_s": rounds / elapsed, "moves_per_s": moves / elapsed, "rounds": rounds}


def pyspiel_rounds_per_second(seconds: float) -> dict[str, float]:
    """Random rounds of the pyspiel wrapper ``python_xeri``, chance nodes included; and its tensors per second."""
    import pyspiel  # type: ignore[import-not-found]

    from .integrations import openspiel  # noqa: F401 (registers python_xeri)

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

    out = _rounds(seconds, one)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    start = time.perf_counter()
    for _ in range(200):
        state.information_state_tensor(0)
    out["information_state_tensor_per_s"] = 200 / (time.perf_counter() - start)
    return out


def pettingzoo_rounds_per_second(seconds: float) -> dict[str, float]:
    """Random legal moves through the PettingZoo AEC env, an observation each step."""
    import numpy as np

    from .integrations.pettingzoo import env

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

    return _rounds(seconds, one)


def gym_rounds_per_second(seconds: float) -> dict[str, float]:
    """Random legal moves through the Gymnasium env ``xeri/Xeri-v0`` against ``random``."""
    import gymnasium
    import numpy as np

    from .integrations import gym  # noqa: F401 (registers xeri/Xeri-v0)

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

    return _rounds(seconds, one)
