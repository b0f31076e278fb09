"""PettingZoo and Gymnasium envs: the libraries' own checks, masks, seeding and information hiding."""

from __future__ import annotations

import subprocess
import sys

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import xeri.integrations.gym  # registers xeri/Xeri-v0
import xeri.integrations.openspiel  # registers python_xeri, for resampled states
from xeri.bots import BotSpecError, encoding
from xeri.engine import Round
from xeri.errors import IllegalMoveError
from xeri.integrations.pettingzoo import XeriAECEnv, env


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_and_seed_tests_pass(players: int) -> None:
    api_test(env(players=players), num_cycles=200)
    seed_test(lambda: env(players=players), num_cycles=200)


def test_pettingzoo_observation_and_mask() -> None:
    e = env(players=2, ruleset="cardgames")
    e.reset(seed=3)
    obs, _reward, _term, _trunc, _info = e.last()
    assert set(obs) == {"observation", "action_mask"}
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (52,)
    assert obs["action_mask"].sum() == 6
    assert obs["observation"].shape == (encoding.size(e.unwrapped.ruleset, False),)
    rnd = e.unwrapped._round
    assert sorted(np.flatnonzero(obs["action_mask"])) == sorted(c.index for c in rnd.hand(0))
    illegal = next(c.index for c in rnd.hand(1))
    with pytest.raises(IllegalMoveError):
        e.step(illegal)


def test_pettingzoo_plays_to_the_end_with_zero_sum_rewards() -> None:
    e = env(players=4)
    e.reset(seed=1)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, _trunc, _info = e.last()
        totals[agent] += reward
        e.step(None if term else int(np.flatnonzero(obs["action_mask"])[0]))
    assert sum(totals.values()) == pytest.approx(0.0)
    assert totals["player_0"] == totals["player_2"] and totals["player_1"] == totals["player_3"]


def test_observations_ignore_every_hidden_card() -> None:
    """A seat's env observation is identical in every state it cannot tell apart (OpenSpiel resampling)."""
    game = pyspiel.load_game("python_xeri", {"players": 2, "ruleset": "pisti"})
    rng = np.random.default_rng(0)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    aec = XeriAECEnv(players=2, ruleset="pisti", perfect_recall=True)
    aec.reset(seed=0)
    for moves in (0, 5, 14):
        state = game.new_initial_state()
        while state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        for _ in range(moves):
            state.apply_action(int(rng.choice(state.legal_actions())))
        for seat in range(2):
            aec._round = state._round
            mine = aec.observe(f"player_{seat}")
            for _ in range(3):
                aec._round = state.resample_from_infostate(seat, sampler)._round
                other = aec.observe(f"player_{seat}")
                assert (other["observation"] == mine["observation"]).all()
                assert (other["action_mask"] == mine["action_mask"]).all()


@pytest.mark.parametrize(("opponent", "players"), [("random", 2), ("random", 4), ("expert", 2)])
def test_gymnasium_check_env_passes(opponent: str, players: int) -> None:
    e = gymnasium.make("xeri/Xeri-v0", opponent=opponent, players=players)
    check_env(e.unwrapped)


def test_gymnasium_episode_mask_reward_and_seed() -> None:
    e = gymnasium.make("xeri/Xeri-v0", opponent="random", players=2, seat=1)
    obs, info = e.reset(seed=5)
    first = obs.copy()
    steps = 0
    done = False
    reward = 0.0
    while not done:
        mask = info["action_mask"]
        assert mask.dtype == np.int8 and mask.sum() >= 1
        obs, reward, done, _trunc, info = e.step(int(np.flatnonzero(mask)[-1]))
        steps += 1
    rnd = e.unwrapped._round
    assert steps == 24 and rnd.is_over
    totals = [sc.total for sc in rnd.scores]
    assert reward == totals[1] - sum(totals) / 2
    again, _ = e.reset(seed=5)
    assert (again == first).all()


def test_gymnasium_illegal_action_ends_the_episode() -> None:
    e = gymnasium.make("xeri/Xeri-v0", opponent="random")
    _obs, info = e.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _obs, reward, done, _trunc, info = e.step(illegal)
    assert done and info["illegal"] and reward == -50.0


def test_gymnasium_module_prefix_and_bad_opponent() -> None:
    e = gymnasium.make("xeri.integrations.gym:xeri/Xeri-v0", opponent="random")
    assert isinstance(e.unwrapped, xeri.integrations.gym.XeriEnv)
    with pytest.raises(BotSpecError):
        gymnasium.make("xeri/Xeri-v0", opponent="nonsense-bot")


def _lowest(observation: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


class _Highest:
    def __init__(self) -> None:
        self.calls = 0

    def act(self, observation: np.ndarray, mask: np.ndarray) -> int:
        self.calls += 1
        assert observation.shape == (236,) and observation[:52].sum() == mask.sum()  # its own hand only
        return int(np.flatnonzero(mask)[-1])


def test_gymnasium_action_masks_terminal_mask_and_step_after_the_end() -> None:
    e = xeri.integrations.gym.XeriEnv(opponent="random", players=2)
    with pytest.raises(xeri.integrations.gym.EpisodeOverError):
        e.step(0)
    _obs, info = e.reset(seed=4)
    done = False
    while not done:
        assert (e.action_masks() == info["action_mask"]).all() and 1 <= e.action_masks().sum() <= 6
        _obs, _r, done, _t, info = e.step(int(np.flatnonzero(e.action_masks())[0]))
    assert (info["action_mask"] == 1).all() and (e.action_masks() == 1).all()  # safe for vector envs
    with pytest.raises(xeri.integrations.gym.EpisodeOverError, match="reset"):
        e.step(0)
    _obs, info = e.reset(seed=4)
    e.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))  # an illegal card ends the episode...
    with pytest.raises(xeri.integrations.gym.EpisodeOverError):
        e.step(int(np.flatnonzero(info["action_mask"])[0]))  # ... and nothing is played after it


def test_gymnasium_opponents_are_callables_policies_or_specs_per_seat() -> None:
    highest = _Highest()
    e = xeri.integrations.gym.XeriEnv(opponent=[_lowest, highest, "greedy"], players=4, seat=2)
    assert [type(b).__name__ if b else None for b in (e.reset(seed=1) and e._bots)] == [
        "_PolicySeat", "_PolicySeat", None, "GreedyBot"]
    rnd = e._round
    done = False
    info: dict[str, np.ndarray] = {"action_mask": e.action_masks()}
    while not done:
        _obs, _r, done, _t, info = e.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert highest.calls == 12
    # Replayed: seat 0 always played its lowest card index, seat 1 its highest.
    replay = Round(rnd.ruleset, rnd.dealer, rnd.deal)
    for seat, card in rnd.played:
        hand = [c.index for c in replay.hand(seat)]
        if seat < 2:
            assert card.index == (min(hand) if seat == 0 else max(hand))
        replay.play(card, seat=seat)
    check_env(xeri.integrations.gym.XeriEnv(opponent=_lowest, players=2))


def test_gymnasium_bad_opponents_are_refused_clearly() -> None:
    with pytest.raises(xeri.integrations.gym.OpponentError, match="bot spec, a callable"):
        xeri.integrations.gym.XeriEnv(opponent=42)  # type: ignore[arg-type]
    with pytest.raises(xeri.integrations.gym.OpponentError, match="one opponent per other seat"):
        xeri.integrations.gym.XeriEnv(opponent=["random", "random"], players=2)
    e = xeri.integrations.gym.XeriEnv(opponent=lambda obs, mask: 52, seat=1)
    with pytest.raises(xeri.integrations.gym.OpponentError, match="seat 0 chose 52"):
        e.reset(seed=0)


def test_gymnasium_env_plays_with_pettingzoo_unimportable() -> None:
    """The single-agent env needs gymnasium and numpy only (pettingzoo is made unimportable in a fresh process)."""
    code = (
        "import sys\n"
        "sys.modules['pettingzoo'] = None  # any import of pettingzoo now raises ImportError\n"
        "import gymnasium\n"
        "import xeri.integrations.gym\n"
        "env = gymnasium.make('xeri/Xeri-v0', opponent='greedy', players=3)\n"
        "obs, info = env.reset(seed=5)\n"
        "done = total = 0\n"
        "while not done:\n"
        "    obs, reward, done, truncated, info = env.step(int(info['action_mask'].argmax()))\n"
        "    total += reward\n"
        "print(f'ok {total:.1f}')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.startswith("ok "), out.stdout + out.stderr
