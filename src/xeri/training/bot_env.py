"""A vector env against any bot: ``num_envs`` Gym envs (``xeri.integrations.gym.XeriEnv``) stepped in turn.

The kernel env (``xeri.fast.vecenv``) plays only its compiled opponents (random, greedy, expert) and batched
policies; this one plays any bot spec (the master, ISMCTS, ...) through the engine, far slower but with the same
observations, masks and rewards, and the same ``reset``/``step``/``action_masks`` as the kernel env (finished rounds
are dealt again in the same step). The dealer rotates round by round in each game; game ``g``'s deals and bot seeds
flow from the reset seed and ``g``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from ..bots import encoding
from ..integrations.gym import Opponent, XeriEnv
from ..rules import Ruleset, find_ruleset


class BotVectorEnv:
    """``num_envs`` rounds against bots, the learner at ``seat``; ``opponent`` as for ``XeriEnv``."""

    def __init__(self, num_envs: int, opponent: Opponent | Sequence[Opponent | None], players: int = 2,
                 ruleset: str | Ruleset = "classic", seat: int = 0) -> None:
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        self.ruleset = find_ruleset(ruleset, players=players) if isinstance(ruleset, str) else ruleset
        self.num_envs = num_envs
        self.seat = seat
        self.envs = [XeriEnv(opponent, players=self.ruleset.players, ruleset=self.ruleset, seat=seat)
                     for _ in range(num_envs)]
        self.single_observation_space = self.envs[0].observation_space
        self.single_action_space = spaces.Discrete(52)
        self._rounds = np.zeros(num_envs, np.int64)
        self._obs = np.zeros((num_envs, encoding.size(self.ruleset, False)), np.float32)
        self._masks = np.ones((num_envs, 52), np.int8)

    def _deal(self, g: int, seed: int | None = None) -> None:
        """Game ``g``'s next round (its dealer rotates); a seed restarts its stream of deals."""
        dealer = int(self._rounds[g] % self.ruleset.players)
        obs, info = self.envs[g].reset(seed=seed, options={"dealer": dealer})
        self._rounds[g] += 1
        self._obs[g] = obs
        self._masks[g] = info["action_mask"]

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        base = np.random.SeedSequence(seed).generate_state(self.num_envs, np.uint32)
        self._rounds[:] = 0
        for g in range(self.num_envs):
            self._deal(g, int(base[g]))
        return self._obs.copy(), {}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        acts = np.asarray(actions, np.int64).reshape(-1)
        rewards = np.zeros(self.num_envs, np.float32)
        dones = np.zeros(self.num_envs, bool)
        for g, env in enumerate(self.envs):
            obs, reward, done, _trunc, info = env.step(int(acts[g]))
            rewards[g] = float(reward)
            if done:
                dones[g] = True
                self._deal(g)
            else:
                self._obs[g] = obs
                self._masks[g] = info["action_mask"]
        return self._obs.copy(), rewards, dones, np.zeros(self.num_envs, bool), {}

    def action_masks(self) -> np.ndarray:
        return self._masks.copy()
