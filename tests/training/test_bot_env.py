"""The engine-backed vector env an exploiter trains in against any bot, and the weights it plays with: no torch."""

from __future__ import annotations

import numpy as np
import pytest

from xeri.bots import make_bot
from xeri.bots.learned import LearnedPolicyError
from xeri.engine import Round
from xeri.rules import find_ruleset
from xeri.training.bot_env import BotVectorEnv
from xeri.training.exploit import ExploitConfig


def _play(env: BotVectorEnv, steps: int) -> tuple[list[float], np.ndarray]:
    obs, _ = env.reset(seed=4)
    rewards: list[float] = []
    for _ in range(steps):
        masks = env.action_masks()
        assert masks.any(axis=1).all()
        obs, r, done, _t, _i = env.step(masks.argmax(axis=1))
        rewards.extend(r[done].tolist())
    return rewards, obs


def test_bot_env_deals_again_and_reproduces() -> None:
    env = BotVectorEnv(2, "greedy", players=2)
    first, obs = _play(env, 60)
    assert len(first) >= 4 and obs.shape == (2, env.single_observation_space.shape[0])
    assert first == _play(BotVectorEnv(2, "greedy", players=2), 60)[0]


def test_four_players_partner_is_a_policy() -> None:
    env = BotVectorEnv(1, [None, "random", lambda obs, mask: int(np.flatnonzero(mask)[0]), "random"], players=4)
    rewards, _ = _play(env, 30)
    assert rewards and all(isinstance(r, float) for r in rewards)


def test_stand_in_and_network_everywhere() -> None:
    assert ExploitConfig("master").stand_in == "distilled"
    assert ExploitConfig("master", train_against="expert").stand_in == "expert"
    assert ExploitConfig("hard").stand_in == "expert"
    bot = make_bot("learned:fallback=none", 0)
    rnd = Round.new(find_ruleset("classic", players=4), 0, 1)
    seat = rnd.turn
    assert seat is not None
    with pytest.raises(LearnedPolicyError, match="inputs"):  # 2-player weights cannot play a 4-player table
        bot.choose(rnd.view(seat), rnd.log_for(seat))
    assert make_bot("distilled", 0).name == "distilled"
