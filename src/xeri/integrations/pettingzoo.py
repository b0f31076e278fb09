"""Xeri as a PettingZoo AEC environment: ``xeri.integrations.pettingzoo.env(players=2)``.

An episode is one round. Agents ``player_0`` .. ``player_{n-1}`` are the seats;
seat ``players - 1`` deals unless ``reset(options={"dealer": d})`` says
otherwise, so ``player_0`` starts. Each observation is a Dict of
``observation`` (the float32 tensor of ``xeri.bots.encoding``, built
from the seat's own view only) and ``action_mask`` (int8 over the 52 cards).
At the end each agent is rewarded its side's round score minus the mean of
all sides' scores. An illegal card raises ``xeri.errors.IllegalMoveError``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from ..bots import encoding
from ..cards import DECK
from ..engine import Round
from ..errors import IllegalMoveError
from ..rules import Ruleset, find_ruleset
from ..scoring import zero_sum


def seat_rewards(rnd: Round) -> list[float]:
    """Each seat's side score minus the mean of the sides' scores (``scoring.zero_sum``)."""
    assert rnd.scores is not None
    return zero_sum(rnd.ruleset, [s.total for s in rnd.scores])


class XeriAECEnv(AECEnv):  # type: ignore[misc]
    """One round of Xeri, seat by seat."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "xeri_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False,
    }

    def __init__(self, players: int = 2, ruleset: str | Ruleset = "classic", perfect_recall: bool = False,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.ruleset = find_ruleset(ruleset, players=players) if isinstance(ruleset, str) else ruleset
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.perfect_recall = perfect_recall
        self.possible_agents = [f"player_{i}" for i in range(self.ruleset.players)]
        size = encoding.size(self.ruleset, perfect_recall)
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, encoding.HIGH, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (52,), np.int8),
        })
        self._act_space = spaces.Discrete(52)
        self._rng = random.Random()
        self._round: Round | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self._round is not None
        seat = self._seat(agent)
        view = self._round.view(seat)
        log = self._round.log_for(seat) if self.perfect_recall else ()
        vector = encoding.vector(view, log, self.perfect_recall)
        return {"observation": vector, "action_mask": encoding.action_mask(view)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        dealer = int((options or {}).get("dealer", self.ruleset.players - 1))
        self._round = Round.new(self.ruleset, dealer, self._rng.getrandbits(64))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        turn = self._round.turn
        assert turn is not None
        self.agent_selection = self.possible_agents[turn]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        rnd = self._round
        assert rnd is not None
        if action is None or not 0 <= int(action) < 52:
            raise IllegalMoveError(f"action must be a card index 0..51, not {action!r}")
        self._cumulative_rewards[agent] = 0.0
        rnd.play(DECK[int(action)], seat=self._seat(agent))
        self._clear_rewards()
        if rnd.is_over:
            for agent_name, reward in zip(self.possible_agents, seat_rewards(rnd), strict=True):
                self.rewards[agent_name] = reward
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.possible_agents[(self._seat(agent) + 1) % len(self.possible_agents)]
        else:
            turn = rnd.turn
            assert turn is not None
            self.agent_selection = self.possible_agents[turn]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as a spectator sees it (no hidden card): returned ("ansi") or printed ("human")."""
        if self.render_mode is None or self._round is None:
            return None
        text = encoding.observation_string(self._round.view(None))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(**kwargs: Any) -> XeriAECEnv:
    return XeriAECEnv(**kwargs)


def env(players: int = 2, ruleset: str | Ruleset = "classic", **kwargs: Any) -> AECEnv:
    """The AEC env, wrapped in PettingZoo's order-enforcing checks."""
    return wrappers.OrderEnforcingWrapper(XeriAECEnv(players=players, ruleset=ruleset, **kwargs))
