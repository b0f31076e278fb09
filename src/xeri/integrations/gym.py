"""Xeri as a single-agent Gymnasium env; importing this module registers ``xeri/Xeri-v0``.

>>> import gymnasium, xeri.integrations.gym
>>> env = gymnasium.make("xeri/Xeri-v0", opponent="expert", players=2)

(or, without the import: ``gymnasium.make("xeri.integrations.gym:xeri/Xeri-v0")``).
An episode is one round. The agent plays ``seat`` (default 0); every other
seat, a partner in 4 players too, is a bot built by ``xeri.bots.make_bot``
from ``opponent`` (a level or a spec) and sees only its own seat's view. The
observation is the agent's float32 tensor (``xeri.integrations.encoding``);
``info["action_mask"]`` (int8, 52) marks the cards it may play. The reward,
at the end, is its side's round score minus the mean of the sides' scores.
An illegal card ends the episode with ``illegal_reward`` and
``info["illegal"] = True``.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import Bot, make_bot
from ..cards import DECK
from ..engine import Round
from ..rules import Ruleset, find_ruleset
from . import encoding
from .pettingzoo import seat_rewards

ENV_ID = "xeri/Xeri-v0"


class XeriEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One round against bots, the agent at ``seat``."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012 (as gymnasium.Env)

    def __init__(self, opponent: str = "expert", players: int = 2, ruleset: str | Ruleset = "classic",
                 seat: int = 0, perfect_recall: bool = False, illegal_reward: float = -50.0,
                 render_mode: str | None = None) -> None:
        self.ruleset = find_ruleset(ruleset, players=players) if isinstance(ruleset, str) else ruleset
        if not 0 <= seat < self.ruleset.players:
            raise ValueError(f"seat {seat} is not a seat of a {self.ruleset.players}-player game")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.opponent = opponent
        make_bot(opponent, seed=0)  # a bad spec fails here, not at the first reset
        self.seat = seat
        self.perfect_recall = perfect_recall
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, encoding.HIGH, (encoding.size(self.ruleset, perfect_recall),),
                                            np.float32)
        self.action_space = spaces.Discrete(52)
        self._round: Round | None = None
        self._bots: list[Bot | None] = []

    def _obs_info(self) -> tuple[np.ndarray, dict[str, Any]]:
        assert self._round is not None
        view = self._round.view(self.seat)
        log = self._round.log_for(self.seat) if self.perfect_recall else ()
        return encoding.vector(view, log, self.perfect_recall), {"action_mask": encoding.action_mask(view)}

    def _bots_play(self) -> None:
        rnd = self._round
        assert rnd is not None
        while not rnd.is_over and rnd.turn != self.seat:
            seat = rnd.turn
            assert seat is not None
            bot = self._bots[seat]
            assert bot is not None
            rnd.play(bot.choose(rnd.view(seat), rnd.log_for(seat)), seat=seat)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        n = self.ruleset.players
        dealer = int((options or {}).get("dealer", n - 1))
        seeds = [int(x) for x in self.np_random.integers(0, 2**63 - 1, size=n + 1)]
        self._bots = [None if s == self.seat else make_bot(self.opponent, seed=seeds[s]) for s in range(n)]
        self._round = Round.new(self.ruleset, dealer, seeds[n])
        self._bots_play()
        return self._obs_info()

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        rnd = self._round
        if rnd is None or rnd.is_over:
            raise RuntimeError("call reset() before step(): the round is over")
        index = int(action)
        card = DECK[index] if 0 <= index < 52 else None
        if card is None or card not in rnd.legal_moves:
            obs, info = self._obs_info()
            return obs, self.illegal_reward, True, False, {**info, "illegal": True}
        rnd.play(card, seat=self.seat)
        self._bots_play()
        obs, info = self._obs_info()
        if self.render_mode == "human":
            self.render()
        if rnd.is_over:
            return obs, seat_rewards(rnd)[self.seat], True, False, info
        return obs, 0.0, False, False, info

    def render(self) -> str | None:
        """The agent's own view of the table: returned ("ansi") or printed ("human")."""
        if self.render_mode is None or self._round is None:
            return None
        text = encoding.observation_string(self._round.view(self.seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="xeri.integrations.gym:XeriEnv")
