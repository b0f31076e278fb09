"""The stable-baselines3 side of training: the extra's imports, a VecEnv adapter, the learning curve, and the
export of a PPO actor to ``xeri.bots.learned.NumpyPolicy`` (NumPy, no torch)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from ..bots.learned import NumpyPolicy, scale_vector
from ..errors import XeriError
from ..rules import Ruleset

#: rewards are divided by this for PPO (points of a round margin are tens)
REWARD_SCALE = 20.0


class MissingExtraError(XeriError):
    """torch or sb3-contrib is not installed."""


class VectorGame(Protocol):
    """What the adapter needs of a vector env: ``fast.vecenv.XeriVectorEnv`` or ``training.bot_env.BotVectorEnv``."""

    num_envs: int
    ruleset: Ruleset
    single_observation_space: Any
    single_action_space: Any

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        ...

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        ...

    def action_masks(self) -> Any:
        ...


def deps() -> tuple[Any, Any, Any]:
    """torch, MaskablePPO and stable-baselines3's VecEnv, or one line saying which extra to install."""
    try:
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.vec_env import VecEnv
    except ImportError as exc:
        raise MissingExtraError(f"training needs the 'train' extra: pip install 'xeri[train]' ({exc})") from None
    return torch, MaskablePPO, VecEnv


def make_sb3_env(env: VectorGame) -> Any:
    """An adapter presenting a Xeri vector env to stable-baselines3 (its own VecEnv API); finished rounds' rewards
    (in points) gather in ``episode_rewards``."""
    _, _, VecEnv = deps()
    scale = scale_vector(env.ruleset.players, env.ruleset.sides)

    class XeriSB3VecEnv(VecEnv):  # type: ignore[misc, valid-type]
        def __init__(self) -> None:
            super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)
            self.env = env
            self.seed_value = 0
            self._actions: Any = None
            self.episode_rewards: list[float] = []

        def reset(self) -> Any:
            obs, _ = env.reset(seed=self.seed_value)
            return obs * scale

        def step_async(self, actions: Any) -> None:
            self._actions = actions

        def step_wait(self) -> Any:
            obs, rewards, dones, _trunc, _info = env.step(self._actions)
            if dones.any():
                self.episode_rewards.extend(rewards[dones].tolist())
            infos: list[dict[str, Any]] = [{} for _ in range(env.num_envs)]
            return obs * scale, rewards / REWARD_SCALE, dones, infos

        def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
            if method_name == "action_masks":
                return list(env.action_masks().astype(bool))
            raise AttributeError(method_name)

        def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
            return [getattr(env, attr_name)] * env.num_envs

        def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
            setattr(env, attr_name, value)

        def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
            return [False] * env.num_envs

        def seed(self, seed: int | None = None) -> list[Any]:
            self.seed_value = int(seed or 0)
            return [seed] * env.num_envs

        def close(self) -> None:
            pass

    return XeriSB3VecEnv()


def new_model(venv: Any, seed: int, n_steps: int = 64, batch_size: int = 4096) -> Any:
    """A MaskablePPO of the learned bot's shape and settings (actor and critic of two tanh layers of 128)."""
    _, MaskablePPO, _ = deps()
    return MaskablePPO(
        "MlpPolicy", venv, n_steps=n_steps, batch_size=batch_size, n_epochs=4, learning_rate=3e-4, gamma=0.995,
        gae_lambda=0.95, ent_coef=0.01, clip_range=0.2, seed=seed, device="cpu", verbose=0,
        policy_kwargs={"net_arch": {"pi": [128, 128], "vf": [128, 128]}},
    )


def export(model: Any, players: int, sides: int) -> NumpyPolicy:
    """The PPO actor as a NumPy policy (the scale folded in as the first step)."""
    net = model.policy
    layers = []
    for module in [*net.mlp_extractor.policy_net, net.action_net]:
        if hasattr(module, "weight"):
            layers.append((module.weight.detach().cpu().numpy().T.copy(), module.bias.detach().cpu().numpy().copy()))
    return NumpyPolicy(layers, scale_vector(players, sides))


def load_actor(model: Any, policy: NumpyPolicy) -> None:
    """Set the PPO actor's weights to a NumPy policy's of the same shape (a warm start: the reverse of ``export``)."""
    import torch

    linear = [m for m in [*model.policy.mlp_extractor.policy_net, model.policy.action_net] if hasattr(m, "weight")]
    if [tuple(m.weight.shape) for m in linear] != [tuple(w.T.shape) for w, _ in policy.layers]:
        raise XeriError("the warm-start policy's layers do not fit this network")
    with torch.no_grad():
        for m, (w, b) in zip(linear, policy.layers, strict=True):
            m.weight.copy_(torch.tensor(w.T.copy()))
            m.bias.copy_(torch.tensor(b.copy()))


def actor_trainable(model: Any, trainable: bool) -> None:
    """Let PPO's updates move the actor or not (the critic always learns): a warm-started actor waits while a cold
    critic learns the values of its play, so that the first updates do not follow noise."""
    for module in (model.policy.mlp_extractor.policy_net, model.policy.action_net):
        for param in module.parameters():
            param.requires_grad_(trainable)


def curve_callback(venv: Any, rows: list[tuple[int, float]], *, curve_path: Path | None = None,
                   checkpoint: Callable[[], None] | None = None, minutes: float | None = None,
                   on_rollout: Callable[[], None] | None = None) -> Any:
    """A callback that appends (steps, mean round reward in points) to ``rows`` at each rollout's end (and to
    ``curve_path``), then calls ``on_rollout``; calls ``checkpoint`` at most once a minute, and stops after
    ``minutes`` of wall time."""
    from stable_baselines3.common.callbacks import BaseCallback

    class Curve(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.last_save = time.monotonic()
            self.deadline = None if minutes is None else time.monotonic() + 60 * minutes

        def _on_step(self) -> bool:
            return self.deadline is None or time.monotonic() < self.deadline

        def _on_rollout_end(self) -> None:
            got = venv.episode_rewards
            if got:
                rows.append((int(self.num_timesteps), float(np.mean(got))))
                venv.episode_rewards = []
                if curve_path is not None:
                    with curve_path.open("a") as f:
                        f.write(f"{rows[-1][0]},{rows[-1][1]:.4f}\n")
            if on_rollout is not None:
                on_rollout()
            if checkpoint is not None and time.monotonic() - self.last_save > 60:
                checkpoint()
                self.last_save = time.monotonic()

    return Curve()
