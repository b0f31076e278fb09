"""Xeri as a Gymnasium vector env on the compiled kernels: N rounds stepped together, one numba call a step.

>>> from xeri.fast.vecenv import XeriVectorEnv
>>> env = XeriVectorEnv(num_envs=1024, opponent="expert", players=2)
>>> obs, info = env.reset(seed=0)             # obs: (1024, 228) float32
>>> obs, rewards, terminated, truncated, info = env.step(env.action_masks().argmax(axis=1))

Each sub-env is the Gym env ``xeri/Xeri-v0`` (``xeri.integrations.gym``): one
round per episode, the learner at ``seat``, the same observation encoding,
mask, rewards and illegal-card rule, step for step (``tests/fast/test_fast_vec.py``
plays both side by side). The other seats are played inside the kernel by
``random``, ``greedy`` or ``expert`` (scored exactly as the bots of those names)
or, for ``"self"``, by ``self_policy(observations, masks) -> actions``: the
learner's own policy, called once per round of waiting games with those seats'
own observations (self-play). Finished games reset themselves in the same step
(Gymnasium's ``AutoresetMode.SAME_STEP``): the returned observation starts the
next round, and ``info["final_obs"]`` holds the last one of the rows where
``info["_final_obs"]`` is set (other rows are zero). ``parallel=True`` spreads
the games of a step over numba's threads, with the same results.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ..bots import encoding
from ..errors import XeriError
from ..rules import Ruleset
from ..scoring import card_values
from . import _ruleset, config_array
from . import vec_kernels as vk
from .layout import RESULT_COLUMNS
from .notice import compiling

#: opponent names of the vectorised env, and their kernel codes
OPPONENTS = {"random": vk.V_RANDOM, "greedy": vk.V_GREEDY, "expert": vk.V_EXPERT, "self": vk.V_SELF}
SelfPolicy = Callable[[np.ndarray, np.ndarray], Any]
_K: Any = vk  # the kernels, called with many array arguments


class VecEnvError(XeriError, ValueError):
    """A bad setting of the vectorised env, or a self-play policy's illegal card."""


class XeriVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` rounds of Xeri against kernel opponents, stepped together; masks by ``action_masks()``."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (as gymnasium)

    def __init__(self, num_envs: int = 1024, opponent: str | Sequence[str] = "expert", players: int = 2,
                 ruleset: str | Ruleset = "classic", seat: int = 0, dealer: int | str | None = None,
                 illegal_reward: float = -50.0, self_policy: SelfPolicy | None = None, copy: bool = True,
                 parallel: bool = False) -> None:
        try:
            rs = _ruleset(ruleset, players)
        except XeriError as exc:
            raise VecEnvError(str(exc)) from None
        n = rs.players
        if num_envs < 1:
            raise VecEnvError("num_envs must be at least 1")
        if not 0 <= seat < n:
            raise VecEnvError(f"seat {seat} is not a seat of a {n}-player game")
        names = [opponent] * n if isinstance(opponent, str) else list(opponent)
        if len(names) == n - 1:
            names.insert(seat, "learner")
        if len(names) != n:
            raise VecEnvError(f"give one opponent per other seat ({n - 1}), or {n} with the agent's seat included")
        codes = []
        for s, name in enumerate(names):
            if s == seat:
                codes.append(vk.V_LEARNER)
            elif name not in OPPONENTS:
                raise VecEnvError(f"unknown opponent {name!r} for seat {s}; opponents are: {', '.join(OPPONENTS)}")
            else:
                codes.append(OPPONENTS[name])
        self.rotate = dealer == "rotate"
        if dealer is None or self.rotate:
            first_dealer = n - 1
        elif isinstance(dealer, int) and 0 <= dealer < n:
            first_dealer = dealer
        else:
            raise VecEnvError(f"dealer must be a seat 0..{n - 1}, 'rotate' or None, not {dealer!r}")
        self.ruleset = rs
        self.num_envs = num_envs
        self.seat = seat
        self.opponents = tuple(names)
        self.illegal_reward = float(illegal_reward)
        self.self_policy = self_policy
        self.copy = copy
        self.parallel = parallel
        self._policies = np.array(codes, np.int64)
        self._self_play = vk.V_SELF in codes
        self._cfg = config_array(rs)
        self._values = np.array(card_values(rs.scoring, rs.two_of_spades), np.int64)
        size = encoding.size(rs, False)
        self.single_observation_space = spaces.Box(0.0, encoding.HIGH, (size,), np.float32)
        self.single_action_space = spaces.Discrete(52)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        N = num_envs
        self._rng = np.zeros(N, np.uint64)
        self._deck = np.zeros((N, 52), np.int64)
        self._hands = np.zeros((N, n, 16), np.int64)
        self._hand_len = np.zeros((N, n), np.int64)
        self._pile = np.zeros((N, 52), np.int64)
        self._talon = np.zeros((N, 52), np.int64)
        self._gone = np.zeros((N, 52), np.uint8)
        self._ints = np.zeros((N, 9), np.int64)
        self._ints[:, vk.I_DEALER] = first_dealer
        self._ints[:, vk.I_OVER] = 1
        self._side = np.zeros((N, rs.sides, RESULT_COLUMNS), np.int64)
        self._deals = np.zeros((N, 52), np.int64)
        self._obs = np.zeros((N, size), np.float32)
        self._masks = np.ones((N, 52), np.int8)
        self._rewards = np.zeros(N, np.float64)
        self._dones = np.zeros(N, np.uint8)
        self._illegal = np.zeros(N, np.uint8)
        self._final = np.zeros((N, size), np.float32)
        self._all = np.arange(N, dtype=np.int64)
        self._started = False

    def _state(self) -> Any:
        return (self._rng, self._deck, self._hands, self._hand_len, self._pile, self._talon, self._gone, self._ints,
                self._side, self._deals, self.rotate)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal every game afresh; game g's random stream comes from (seed, g)."""
        if seed is None:
            seed = int(np.random.SeedSequence().entropy) & (2**63 - 1)  # type: ignore[arg-type]
        self._ints[:, vk.I_OVER] = 0
        with compiling(vk.vec_reset, self._step_kernel()):
            self._warm_up()
        _K.vec_reset(self._cfg, self._values, self._policies, self.seat, int(seed) & (2**63 - 1), self._all,
                     *self._state(), self._obs, self._masks, self._rewards, self._dones, self._final)
        self._started = True
        self._serve_self_play()
        return self._out(self._obs), {}

    def _step_kernel(self) -> Any:
        """The step kernel: with ``parallel`` the games are spread over numba's threads.

        Each game reads and writes only its own rows and random stream, so both
        kernels give the same results whatever the number of threads
        (``tests/fast/test_fast_vec.py``). Threads pay off on an idle multi-core
        machine; on a busy one each step waits for the slowest thread, so the
        default is one thread (``docs/reference/research-figures.md`` has both measured).
        """
        return vk.vec_step_parallel if self.parallel else vk.vec_step

    def _warm_up(self) -> None:
        """Compile (or load) the step kernel on a copy, so that the first step() is not the slow one."""
        step = self._step_kernel()
        if step.signatures:
            return
        twin = XeriVectorEnv(1, ruleset=self.ruleset, players=self.ruleset.players, opponent="random")
        twin._ints[:, vk.I_OVER] = 0
        _K.vec_reset(twin._cfg, twin._values, twin._policies, 0, 0, twin._all, *twin._state(), twin._obs,
                     twin._masks, twin._rewards, twin._dones, twin._final)
        step(twin._cfg, twin._values, twin._policies, 0, twin._masks.argmax(axis=1), *twin._state(),
             twin._obs, twin._masks, twin._rewards, twin._dones, twin._illegal, twin._final, -50.0, True)

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play one card in every game; finished games are scored and dealt again."""
        if not self._started:
            raise VecEnvError("call reset() before step()")
        acts = np.asarray(actions, dtype=np.int64).reshape(-1)
        if acts.shape[0] != self.num_envs:
            raise VecEnvError(f"step() needs {self.num_envs} actions, not {acts.shape[0]}")
        self._step_kernel()(self._cfg, self._values, self._policies, self.seat, acts, *self._state(), self._obs,
                            self._masks, self._rewards, self._dones, self._illegal, self._final, self.illegal_reward,
                            True)
        self._serve_self_play()
        dones = self._dones.astype(bool)
        info: dict[str, Any] = {}
        if dones.any():
            info = {"final_obs": self._final, "_final_obs": dones}
            if self.copy:
                # Hand this buffer out and give the kernel a fresh one: zero pages cost nothing until written,
                # and the kernel writes only the rows of finished games, where no copy of the rest is needed.
                self._final = np.zeros(self._final.shape, self._final.dtype)
            if self._illegal.any():
                info["illegal"] = info["_illegal"] = self._illegal.astype(bool)
        rewards = self._rewards.astype(np.float32)
        return self._out(self._obs), rewards, dones, np.zeros(self.num_envs, bool), info

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def _serve_self_play(self) -> None:
        """Ask ``self_policy`` for the moves of the self-play seats, until every game waits for the learner."""
        while self._self_play:
            games = np.flatnonzero(self._ints[:, vk.I_WAIT] >= 0).astype(np.int64)
            if games.size == 0:
                return
            if self.self_policy is None:
                raise VecEnvError("a seat plays 'self': give self_policy(observations, masks) -> actions")
            obs = np.zeros((games.size, self._obs.shape[1]), np.float32)
            masks = np.zeros((games.size, 52), np.int8)
            _K.vec_waiting(self._cfg, games, self._hands, self._hand_len, self._pile, self._gone, self._ints,
                           self._side, obs, masks)
            acts = np.asarray(self.self_policy(obs, masks), dtype=np.int64).reshape(-1)
            if acts.shape[0] != games.size or not ((acts >= 0) & (acts < 52)).all() or not (
                    masks[np.arange(games.size), np.clip(acts, 0, 51)] == 1).all():
                raise VecEnvError("self_policy must return one legal card index (its mask) per observation")
            _K.vec_external(self._cfg, self._values, self._policies, self.seat, games, acts, *self._state(),
                            self._obs, self._masks, self._rewards, self._dones, self._final, True)

    def action_masks(self) -> np.ndarray:
        """(num_envs, 52) int8: the cards the learner may play in each game now."""
        return self._masks.copy()

    def policy_actions(self, policy: str = "expert") -> np.ndarray:
        """The card the kernel's ``random``, ``greedy`` or ``expert`` would play for the learner in each game.

        For imitation and baselines; its random ties draw on each game's own stream (so still one seed).
        """
        if policy not in OPPONENTS or policy == "self":
            raise VecEnvError(f"unknown policy {policy!r}; policies are: random, greedy, expert")
        out = np.empty(self.num_envs, np.int64)
        _K.vec_policy_actions(OPPONENTS[policy], self._cfg, self._values, self.seat, self._hands, self._hand_len,
                              self._pile, self._gone, self._ints, self._rng, out)
        return out

    @property
    def deals(self) -> np.ndarray:
        """The current round's deal in each game: hands in seat order, pile bottom first, talon in dealing order."""
        return self._deals.copy()

    @property
    def dealers(self) -> np.ndarray:
        return self._ints[:, vk.I_DEALER].copy()


__all__ = ["OPPONENTS", "VecEnvError", "XeriVectorEnv"]
