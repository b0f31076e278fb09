"""Train the ``learned`` bot: MaskablePPO (sb3-contrib, CPU torch) on the vectorised env.

    python -m xeri.train --out runs/learned --steps 3000000 --seed 0      # or --resume

Seeded (the env's deals and torch's initialisation flow from ``--seed``),
resumable (``--resume`` continues from ``OUT/checkpoint.zip`` and its curve),
with a progress bar. Every rollout the mean reward against the opponents is
appended to ``OUT/curve.csv``, and ``OUT/curve.png`` plots it; at the end the
actor is exported to ``OUT/learned.npz`` for ``xeri.bots.learned`` (NumPy, no torch).
Needs the ``train`` extra (sb3-contrib, torch); the plot needs ``plot``.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path
from typing import Any

import numpy as np

from .bots.learned import NumpyPolicy, scale_vector
from .errors import XeriError
from .fast.vecenv import XeriVectorEnv
from .training.sb3 import REWARD_SCALE, curve_callback, deps, export, make_sb3_env, new_model

_deps = deps  # the name this module used before the shared plumbing moved to xeri.training.sb3


def imitate(model: Any, env: XeriVectorEnv, samples: int, epochs: int, seed: int) -> float:
    """Warm start: fit the actor to the kernel expert's cards and the critic to the rounds' outcomes.

    The samples come from the vectorised env with the expert playing the learner's seat; returns the
    share of samples where the fitted actor's best legal card is one the expert played.
    """
    import torch

    scale = scale_vector(env.ruleset.players, env.ruleset.sides)
    obs, _ = env.reset(seed=seed + 1_000_003)
    xs: list[np.ndarray] = []
    ms: list[np.ndarray] = []
    acts: list[int] = []
    pending: list[list[int]] = [[] for _ in range(env.num_envs)]
    returns: list[float] = []
    while len(acts) < samples:
        a = env.policy_actions("expert")
        for g in range(env.num_envs):
            pending[g].append(len(acts) + g)
        xs.append(obs * scale)
        ms.append(env.action_masks())
        acts.extend(a.tolist())
        returns.extend([0.0] * env.num_envs)
        obs, rewards, dones, _t, _info = env.step(a)
        for g in np.flatnonzero(dones).tolist():
            for i in pending[g]:
                returns[i] = float(rewards[g]) / REWARD_SCALE
            pending[g] = []
    done = np.ones(len(acts), bool)
    for rows in pending:
        done[rows] = False  # unfinished rounds: no return to fit
    x = torch.tensor(np.concatenate(xs))
    m = torch.tensor(np.concatenate(ms).astype(bool))
    y = torch.tensor(acts)
    r = torch.tensor(returns, dtype=torch.float32)
    d = torch.tensor(done)
    policy = model.policy
    gen = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        order = torch.randperm(len(y), generator=gen)
        for start in range(0, len(y), 1024):
            idx = order[start : start + 1024]
            values, log_prob, _entropy = policy.evaluate_actions(x[idx], y[idx], action_masks=m[idx])
            keep = d[idx]
            loss = -log_prob.mean() + 0.5 * ((values.flatten() - r[idx]) ** 2 * keep).sum() / keep.sum().clamp(min=1)
            policy.optimizer.zero_grad()
            loss.backward()
            policy.optimizer.step()
    with torch.no_grad():
        dist = policy.get_distribution(x[:20_000], action_masks=m[:20_000])
        best = dist.distribution.probs.argmax(dim=1)
    return float((best == y[:20_000]).float().mean())


def plot_curve(rows: list[tuple[int, float]], path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    steps = np.array([r[0] for r in rows], float)
    means = np.array([r[1] for r in rows], float)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(steps / 1e6, means, lw=0.8, alpha=0.5, label="per rollout")
    if len(means) >= 10:
        k = max(5, len(means) // 20)
        smooth = np.convolve(means, np.ones(k) / k, mode="valid")
        ax.plot(steps[k - 1 :] / 1e6, smooth, lw=2, label=f"mean of {k}")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("env steps (millions)")
    ax.set_ylabel("reward: side score - mean of sides")
    ax.set_title("learned bot: MaskablePPO on xeri.fast.vecenv (sampled policy)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def train(out: Path, steps: int, seed: int, opponent: str, envs: int, resume: bool, progress: bool,
          minutes: float | None = None, imitation: int = 0) -> NumpyPolicy:
    torch, MaskablePPO, _ = _deps()

    torch.set_num_threads(1)
    out.mkdir(parents=True, exist_ok=True)
    env = XeriVectorEnv(num_envs=envs, opponent=opponent, players=2, ruleset="classic", dealer="rotate", copy=False)
    venv = make_sb3_env(env)
    venv.seed(seed)
    ckpt = out / "checkpoint.zip"
    curve_path = out / "curve.csv"
    rows: list[tuple[int, float]] = []
    if resume and ckpt.exists():
        model = MaskablePPO.load(ckpt, env=venv, device="cpu")
        if curve_path.exists():
            with curve_path.open() as f:
                rows = [(int(a), float(b)) for a, b in csv.reader(f)]
        venv.seed_value = seed + model.num_timesteps  # new deals, still from the seed
    else:
        model = new_model(venv, seed)
        if imitation:
            agree = imitate(model, env, imitation, 3, seed)
            print(f"imitation: {imitation:,} expert moves, the actor's best card agrees on {agree:.1%}")
            model.save(ckpt)

    def checkpoint() -> None:
        model.save(ckpt)

    left = max(0, steps - model.num_timesteps)
    if left:
        callback = curve_callback(venv, rows, curve_path=curve_path, checkpoint=checkpoint, minutes=minutes)
        model.learn(total_timesteps=left, callback=callback, progress_bar=progress, reset_num_timesteps=False)
    model.save(ckpt)
    policy = export(model, 2, 2)
    policy.save(out / "learned.npz")
    plot_curve(rows, out / "curve.png")
    return policy


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m xeri.train", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("runs/learned"), help="run folder (default runs/learned)")
    parser.add_argument("--steps", type=int, default=3_000_000, help="total env steps (default 3,000,000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opponent", default="expert", help="kernel opponent: random, greedy, expert")
    parser.add_argument("--envs", type=int, default=256, help="games stepped together (default 256)")
    parser.add_argument("--resume", action="store_true", help="continue from OUT/checkpoint.zip")
    parser.add_argument("--minutes", type=float, default=None, help="stop (and save) after this wall time")
    parser.add_argument("--imitation", type=int, default=0,
                        help="warm start on this many of the kernel expert's moves before PPO (default 0)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    try:
        train(args.out, args.steps, args.seed, args.opponent, args.envs, args.resume, not args.no_progress,
              args.minutes, args.imitation)
    except XeriError as exc:
        print(f"xeri.train: {exc}", file=sys.stderr)
        return 2
    print(f"weights: {args.out / 'learned.npz'}  curve: {args.out / 'curve.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
