"""The vectorised env against the Gym env step for step, and its kernel opponents against the bots."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import xeri.integrations.gym as xgym
from xeri.bots import encoding
from xeri.bots.expert import ExpertBot
from xeri.bots.gain import captures, immediate_gain
from xeri.cards import DECK
from xeri.engine import Deal, Round
from xeri.fast import vec_kernels as vk
from xeri.fast.policies import policy_scores
from xeri.fast.vecenv import VecEnvError, XeriVectorEnv
from xeri.rules import Ruleset, find_ruleset
from xeri.scoring import card_values


def _pick(obs: np.ndarray, mask: np.ndarray) -> int:
    """A deterministic legal card that depends on the whole observation (so any encoding slip shows)."""
    legal = np.flatnonzero(mask)
    key = int(obs.sum() * 7 + obs @ np.arange(1, obs.shape[0] + 1, dtype=np.float32)) % 1009
    return int(legal[key % len(legal)])


def _picks(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    return np.array([_pick(o, m) for o, m in zip(obs, masks, strict=True)], dtype=np.int64)


def _deal(rs: Ruleset, row: np.ndarray) -> Deal:
    n, h, p = rs.players, rs.hand_size, rs.pile_size
    cards = [DECK[int(i)] for i in row]
    hands = tuple(tuple(cards[s * h : (s + 1) * h]) for s in range(n))
    return Deal(hands=hands, pile=tuple(cards[n * h : n * h + p]), talon=tuple(cards[n * h + p :]))


@pytest.mark.parametrize(("name", "players", "seat"), [("classic", 2, 0), ("cardgames", 4, 1), ("berman", 3, 2),
                                                       ("classic-points", 2, 1)])
def test_same_deals_and_actions_give_the_gym_envs_steps(
        name: str, players: int, seat: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Self-play seats in the vector env and callable opponents in the Gym env make the same choices."""
    rs = find_ruleset(name, players=players)
    games = 6
    vec = XeriVectorEnv(num_envs=games, opponent="self", players=players, ruleset=name, seat=seat,
                        self_policy=_picks)
    obs, _ = vec.reset(seed=players + seat)
    next_deal: dict[str, Any] = {}
    monkeypatch.setattr(xgym.Round, "new", classmethod(
        lambda cls, ruleset, dealer, seed: Round(ruleset, dealer, next_deal["deal"])))
    gyms = [xgym.XeriEnv(opponent=_pick, players=players, ruleset=name, seat=seat) for _ in range(games)]

    def gym_reset(g: int) -> tuple[np.ndarray, dict[str, Any]]:
        next_deal["deal"] = _deal(rs, vec.deals[g])
        return gyms[g].reset(seed=g)

    firsts = [gym_reset(g) for g in range(games)]
    for g in range(games):
        assert (firsts[g][0] == obs[g]).all() and (firsts[g][1]["action_mask"] == vec.action_masks()[g]).all()
    episodes = 0
    for step in range(80):
        masks = vec.action_masks()
        actions = _picks(obs, masks)
        if step == 5:
            actions[0] = int(np.flatnonzero(masks[0] == 0)[0])  # an illegal card ends game 0's episode
        obs, rewards, dones, _trunc, info = vec.step(actions)
        for g in range(games):
            g_obs, g_reward, g_done, _t, g_info = gyms[g].step(int(actions[g]))
            assert g_done == bool(dones[g]) and g_reward == pytest.approx(rewards[g]), (step, g)
            assert g_info.get("illegal", False) == bool(info.get("illegal", np.zeros(games))[g])
            if g_done:
                assert (info["final_obs"][g] == g_obs).all(), (step, g)
                episodes += 1
                g_obs, g_info = gym_reset(g)
            assert (g_obs == obs[g]).all(), (step, g, np.flatnonzero(g_obs != obs[g]))
            assert (g_info["action_mask"] == vec.action_masks()[g]).all()
    assert episodes >= games * 3


def _positions(rs: Ruleset, count: int, seed: int) -> list[Round]:
    """Rounds stopped at random points of random play."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        rnd = Round.new(rs, rng.randrange(rs.players), rng.getrandbits(64))
        for _ in range(rng.randrange(52 - rs.pile_size)):
            rnd.play(rng.choice(rnd.legal_moves))
        if not rnd.is_over and len(rnd.legal_moves) > 1:
            out.append(rnd)
    return out


def _kernel_ties(policy: int, rs: Ruleset, rnd: Round) -> set[int]:
    """The cards the kernel policy may choose (its best scores) in the seat to play's position."""
    seat = rnd.turn
    assert seat is not None
    view = rnd.view(seat)
    hand = np.array([c.index for c in view.hand], np.int64)
    pile = np.array([c.index for c in view.pile if c is not None] + [0], np.int64)
    gone = np.zeros(52, np.uint8)
    for c in view.gone:
        gone[c.index] = 1
    hand_len = np.array(view.hand_counts, np.int64)
    from xeri.fast import config_array

    cfg = config_array(rs)
    values = np.array(card_values(rs.scoring, rs.two_of_spades), np.int64)
    scores = np.zeros(16)
    policy_scores(policy, cfg, values, hand, len(hand), pile, len(view.pile), gone, hand_len, seat,
                     view.talon_count, scores, 0.0)
    best = scores[: len(hand)].max()
    return {int(hand[i]) for i in range(len(hand)) if scores[i] >= best - 1e-9}


@pytest.mark.parametrize(("name", "players"), [("classic", 2), ("cardgames", 4), ("berman", 2), ("classic", 3)])
def test_kernel_greedy_and_expert_choose_as_the_bots(name: str, players: int) -> None:
    """Over many positions the kernel's best cards are exactly the bots' best cards (their random ties)."""
    rs = find_ruleset(name, players=players)
    expert = ExpertBot()
    for rnd in _positions(rs, 400, seed=players):
        seat = rnd.turn
        assert seat is not None
        view = rnd.view(seat)
        legal = view.legal_moves
        greedy_keys = [(immediate_gain(view, c), len(view.pile) + 1 if captures(view, c) else 0) for c in legal]
        greedy = {c.index for c, k in zip(legal, greedy_keys, strict=True) if k == max(greedy_keys)}
        assert _kernel_ties(vk.V_GREEDY, rs, rnd) == greedy
        scores = [expert.score(view, c) for c in legal]
        best = {c.index for c, s in zip(legal, scores, strict=True) if s >= max(scores) - 1e-9}
        assert _kernel_ties(vk.V_EXPERT, rs, rnd) == best


@pytest.mark.parametrize(("name", "players"), [("pisti", 2), ("pisti", 4), ("classic", 2)])
def test_kernel_pisti_expert_chooses_as_the_tuned_expert_bot(name: str, players: int) -> None:
    """``expert-pisti`` (the master's own seat in Pişti's rollouts) is ``ExpertBot(jack_keep=3, xeri_weight=1)``,
    and it plays other cards than the expert somewhere (else the twin would prove nothing)."""
    from xeri.bots.expert import PISTI_JACK_KEEP, PISTI_XERI_WEIGHT
    from xeri.fast.policies import NAMES

    rs = find_ruleset(name, players=players)
    tuned = ExpertBot(jack_keep=PISTI_JACK_KEEP, xeri_weight=PISTI_XERI_WEIGHT)
    differ = checked = 0
    for rnd in _positions(rs, 400, seed=players + 7):
        seat = rnd.turn
        assert seat is not None
        view = rnd.view(seat)
        if any(c is None for c in view.pile):
            continue  # the twin's pile here has no face-down cards (their worth is ``hidden``, tested elsewhere)
        scores = [tuned.score(view, c) for c in view.legal_moves]
        best = {c.index for c, s in zip(view.legal_moves, scores, strict=True) if s >= max(scores) - 1e-9}
        assert _kernel_ties(NAMES["expert-pisti"], rs, rnd) == best
        differ += best != _kernel_ties(vk.V_EXPERT, rs, rnd)
        checked += 1
    assert checked > 200 and differ > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kernel_opponents_play_whole_rounds_with_expected_strength(players: int) -> None:
    """Against the expert a random learner loses on average; zero-sum rewards end every round."""
    vec = XeriVectorEnv(num_envs=256, opponent="expert", players=players, dealer="rotate", copy=False)
    obs, _ = vec.reset(seed=1)
    rng = np.random.default_rng(0)
    total, done = 0.0, 0
    for _ in range(60):
        m = vec.action_masks()
        _obs, r, d, _t, _info = vec.step((m * rng.random(m.shape)).argmax(axis=1))
        total += float(r.sum())
        done += int(d.sum())
    assert done >= 256 * 2
    assert total / done < -3
    assert obs.shape == (256, encoding.size(vec.ruleset, False))


def test_threaded_step_gives_the_games_of_the_single_thread_step() -> None:
    """``parallel=True`` spreads a step's games over numba's threads; each game keeps its own rows and stream, so
    the games are the same as on one thread, and as the parallel kernel's on one thread."""
    import numba

    most = numba.config.NUMBA_NUM_THREADS
    before = numba.get_num_threads()
    rng = np.random.default_rng(5)
    runs = [(False, 1), (True, most), (True, 1)]
    envs = [XeriVectorEnv(num_envs=64, opponent=("expert", "random", "greedy"), players=4, dealer="rotate",
                          parallel=parallel) for parallel, _ in runs]
    try:
        outs = []
        for env, (parallel, threads) in zip(envs, runs, strict=True):
            numba.set_num_threads(threads)
            assert env._step_kernel() is (vk.vec_step_parallel if parallel else vk.vec_step)
            outs.append([env.reset(seed=8)[0]])
        for _ in range(40):
            masks = envs[0].action_masks()
            acts = (masks * rng.random(masks.shape)).argmax(axis=1)
            for env, (_parallel, threads), out in zip(envs, runs, outs, strict=True):
                numba.set_num_threads(threads)
                obs, rewards, dones, _t, info = env.step(acts)
                out.append((obs, rewards, dones, info.get("final_obs", obs[:0]), env.action_masks()))
        for steps in zip(*outs, strict=True):
            for other in steps[1:]:
                assert all((x == y).all() for x, y in zip(steps[0], other, strict=True))
    finally:
        numba.set_num_threads(before)


def test_same_seed_same_games_and_bad_settings() -> None:
    a = XeriVectorEnv(num_envs=16, opponent="greedy")
    b = XeriVectorEnv(num_envs=16, opponent="greedy")
    oa, _ = a.reset(seed=3)
    ob, _ = b.reset(seed=3)
    assert (oa == ob).all() and (a.deals == b.deals).all()
    assert len({tuple(row) for row in a.deals}) == 16
    with pytest.raises(VecEnvError, match="unknown opponent 'smart'"):
        XeriVectorEnv(num_envs=4, opponent="smart")
    with pytest.raises(VecEnvError, match="face-down"):
        XeriVectorEnv(num_envs=4, ruleset="pisti")
    with pytest.raises(VecEnvError, match="self_policy"):
        XeriVectorEnv(num_envs=4, opponent="self", dealer=0).reset(seed=0)  # seat 1 leads
    with pytest.raises(VecEnvError, match="4 actions"):
        env = XeriVectorEnv(num_envs=4, opponent="random")
        env.reset(seed=0)
        env.step([0, 1])


def test_bench_vec_json_reports_all_three_envs() -> None:
    import json
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "xeri", "bench", "vec", "--json", "--seconds", "0.2", "--batch", "64"],
        capture_output=True, text=True, timeout=300, check=True,
    )
    data = json.loads(out.stdout)
    assert data["target"] == "vec" and data["batch"] == 64
    assert data["vec_steps_per_s"] > data["gym_steps_per_s"] > 0
    assert data["texas_holdem_v4_steps_per_s"] is None or data["texas_holdem_v4_steps_per_s"] > 0
    bad = subprocess.run([sys.executable, "-m", "xeri", "bench", "vec", "--batch", "0"], capture_output=True,
                         text=True, timeout=60)
    assert bad.returncode == 2 and "--batch must be at least 1" in bad.stderr


def test_gymnasiums_own_vector_wrappers_work_unchanged() -> None:
    """Gymnasium's RecordEpisodeStatistics reads the same-step autoreset: 2-player rounds of 24 agent moves."""
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    env = RecordEpisodeStatistics(XeriVectorEnv(8, opponent="greedy"))
    env.reset(seed=0)
    seen = []
    for step in range(30):
        _obs, rewards, _dones, _t, info = env.step(env.unwrapped.action_masks().argmax(axis=1))
        if "episode" in info:
            seen.append(step)
            assert (info["episode"]["l"] == 24).all() and (info["episode"]["r"] == rewards).all()
    assert seen == [23]
