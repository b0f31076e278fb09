"""Distil the master into a small NumPy network: the ``distilled`` bot's weights (``xeri/data/distilled.npz``).

    python -m xeri.distill collect --out runs/distill --cpu-seconds 1800 --seed 0   # the master's moves
    python -m xeri.distill fit --out runs/distill --weights src/xeri/data/distilled.npz --seed 0

``collect`` plays 2-player classic rounds, the master at seat 0 or 1 by turns against an opponent drawn in turn from
``OPPONENTS`` (the master itself first), and records each of the master's own moves with a choice: the seat's
observation (``xeri.bots.encoding``), its legal cards and the card the master played. It stops after
``--cpu-seconds`` of this process's CPU time, and writes one ``chunk-NNNN.npz`` per ``--chunk`` rounds, so a run cut
short keeps what it made; ``--resume`` goes on after the chunks there (the seeds of round ``k`` are fixed by
``--seed`` and ``k`` alone). ``fit`` trains the MLP of ``xeri.bots.learned.NumpyPolicy`` (tanh layers, masked
cross-entropy over the legal cards) with torch and saves it as float16: the ``train`` extra. The master is slow (tens
of milliseconds a move), so the data is what the CPU budget buys; the network plays in well under a millisecond.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from .bots import encoding, make_bot
from .bots.learned import NumpyPolicy, default_policy, scale_vector
from .engine import Round
from .errors import XeriError
from .rules import find_ruleset
from .seeds import bot_seed

#: the master's opponents, in turn, a pair of rounds each: itself once (its moves cost twice there), then other styles
OPPONENTS = ("master", "expert", "learned", "greedy", "expert", "random")
#: the domain tag of the collection's bot seeds (xeri.seeds)
SEED_DOMAIN = "distill"
HIDDEN = (256, 256)


def round_seed(seed: int, k: int) -> int:
    """Round ``k``'s deal seed: a pure function of the run's seed."""
    return random.Random(f"xeri-distill/{seed}/{k}").getrandbits(63)


def play_round(seed: int, k: int, master: str = "master") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One round of the master against ``OPPONENTS[k % len]``: (observations, masks, choices) of the master's moves
    where it had a choice."""
    rs = find_ruleset("classic", players=2)
    deal = round_seed(seed, k)
    me = k % 2
    other = OPPONENTS[(k // 2) % len(OPPONENTS)]
    bots = [make_bot(master if s == me else other, bot_seed(deal, s, domain=SEED_DOMAIN)) for s in range(2)]
    rnd = Round.new(rs, (k // 2) % 2, deal)
    xs: list[np.ndarray] = []
    ms: list[np.ndarray] = []
    ys: list[int] = []
    while not rnd.is_over:
        seat = rnd.turn
        assert seat is not None
        view = rnd.view(seat)
        card = bots[seat].choose(view, rnd.log_for(seat))
        if seat == me and len(view.legal_moves) > 1:
            xs.append(encoding.vector(view, ()))
            ms.append(encoding.action_mask(view))
            ys.append(card.index)
        rnd.play(card, seat)
    size = encoding.size(rs, False)
    return (np.array(xs, np.float32).reshape(-1, size), np.array(ms, np.int8).reshape(-1, 52),
            np.array(ys, np.int64))


def collect(out: Path, cpu_seconds: float, seed: int, chunk: int, resume: bool,
            master: str = "master") -> dict[str, Any]:
    """Play rounds until ``cpu_seconds`` of CPU time are spent; returns the run's counts and speed."""
    out.mkdir(parents=True, exist_ok=True)
    done = sorted(out.glob("chunk-*.npz"))
    if done and not resume:
        raise XeriError(f"{out} already holds chunks: give --resume to go on, or another --out")
    k = sum(int(np.load(p)["rounds"]) for p in done)
    start = time.process_time()
    moves = 0
    index = len(done)
    while time.process_time() - start < cpu_seconds:
        parts = [play_round(seed, k + i, master) for i in range(chunk)]
        xs, ms, ys = (np.concatenate([p[j] for p in parts]) for j in range(3))
        np.savez_compressed(out / f"chunk-{index:04d}.npz", x=xs, mask=ms, y=ys, rounds=np.array(chunk),
                            first=np.array(k))
        k += chunk
        index += 1
        moves += len(ys)
        spent = time.process_time() - start
        print(f"{k} rounds, {moves} master moves this run, {spent:.0f} CPU-s ({60 * moves / spent:.0f} a CPU-minute)",
              flush=True)
    spent = time.process_time() - start
    info = {"rounds": k, "moves_this_run": moves, "cpu_seconds": spent, "master": master, "seed": seed,
            "moves_per_cpu_minute": 60 * moves / spent if spent else 0.0}
    (out / f"collect-{index:04d}.json").write_text(json.dumps(info, indent=2) + "\n")
    return info


def load(out: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every chunk of a collection: observations, masks, the master's cards."""
    files = sorted(out.glob("chunk-*.npz"))
    if not files:
        raise XeriError(f"no chunk-*.npz in {out}: run 'python -m xeri.distill collect' first")
    data = [np.load(p) for p in files]
    return (np.concatenate([d["x"] for d in data]), np.concatenate([d["mask"] for d in data]),
            np.concatenate([d["y"] for d in data]))


def fit(x: np.ndarray, masks: np.ndarray, y: np.ndarray, seed: int, epochs: int = 30,
        init: NumpyPolicy | None = None, holdout: float = 0.1) -> tuple[NumpyPolicy, dict[str, float]]:
    """A NumPy policy fitted to the master's choices (masked cross-entropy), starting from ``init``'s weights
    (the learned bot's: it already picks the master's card more often than a network fitted to a few thousand
    moves from scratch) or from scratch (``HIDDEN``); the epoch kept is the one best on the held-out moves.
    Returns it and its agreement with the master, on the moves fitted and on the held-out ones."""
    try:
        import torch
    except ImportError:
        raise XeriError("fitting needs the 'train' extra: pip install 'xeri[train]'") from None
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    scale = scale_vector(2, 2)
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(y))
    cut = int(len(y) * (1 - holdout))
    tr, te = order[:cut], order[cut:]
    xt = torch.tensor(x * scale)
    mt = torch.tensor(masks.astype(bool))
    yt = torch.tensor(y)
    hidden = HIDDEN if init is None else tuple(w.shape[1] for w, _ in init.layers[:-1])
    sizes = [x.shape[1], *hidden, 52]
    mods: list[Any] = []
    for i in range(len(sizes) - 1):
        mods.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            mods.append(torch.nn.Tanh())
    net = torch.nn.Sequential(*mods)
    if init is not None:
        with torch.no_grad():
            for m, (w, b) in zip([m for m in mods if isinstance(m, torch.nn.Linear)], init.layers, strict=True):
                m.weight.copy_(torch.tensor(np.asarray(w, np.float32).T.copy()))
                m.bias.copy_(torch.tensor(np.asarray(b, np.float32)))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=1e-5)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, epochs)

    def masked(idx: Any) -> Any:
        return net(xt[idx]).masked_fill(~mt[idx], -1e9)

    def agree(idx: np.ndarray) -> float:
        with torch.no_grad():
            t = torch.tensor(idx)
            return float((masked(t).argmax(dim=1) == yt[t]).float().mean()) if len(idx) else float("nan")

    gen = torch.Generator().manual_seed(seed)
    trt = torch.tensor(tr)
    best = (agree(te), 0, {k: v.clone() for k, v in net.state_dict().items()})
    for epoch in range(1, epochs + 1):
        perm = trt[torch.randperm(len(trt), generator=gen)]
        for s in range(0, len(perm), 256):
            idx = perm[s : s + 256]
            loss = torch.nn.functional.cross_entropy(masked(idx), yt[idx])
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
        sched.step()
        score = agree(te)
        if score > best[0]:
            best = (score, epoch, {k: v.clone() for k, v in net.state_dict().items()})
    start_agreement = agree(te) if init is None else float(np.mean(init.act(x[te], masks[te]) == y[te]))
    net.load_state_dict(best[2])
    stats = {"train_agreement": agree(tr), "holdout_agreement": agree(te), "best_epoch": float(best[1]),
             "init_holdout_agreement": start_agreement, "samples": float(len(y)), "holdout": float(len(te))}
    layers = [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy())
              for m in net if isinstance(m, torch.nn.Linear)]
    return NumpyPolicy(layers, scale), stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m xeri.distill", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="step", required=True)
    c = sub.add_parser("collect", help="record the master's moves")
    c.add_argument("--out", type=Path, default=Path("runs/distill"))
    c.add_argument("--cpu-seconds", type=float, default=1800.0, help="CPU budget of this run (default 1800)")
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--chunk", type=int, default=20, help="rounds a chunk file (default 20)")
    c.add_argument("--master", default="master", help="the bot spec to imitate (default master)")
    c.add_argument("--resume", action="store_true")
    f = sub.add_parser("fit", help="fit the network to the recorded moves and save its weights")
    f.add_argument("--out", type=Path, default=Path("runs/distill"))
    f.add_argument("--weights", type=Path, default=None, help="where to save (default OUT/distilled.npz)")
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--epochs", type=int, default=30)
    f.add_argument("--scratch", action="store_true", help="start from random weights, not the learned bot's")
    args = parser.parse_args(argv)
    try:
        if args.step == "collect":
            print(json.dumps(collect(args.out, args.cpu_seconds, args.seed, args.chunk, args.resume, args.master)))
        else:
            x, m, y = load(args.out)
            policy, stats = fit(x, m, y, args.seed, args.epochs, None if args.scratch else default_policy())
            target = args.weights or args.out / "distilled.npz"
            policy.save(target)
            (args.out / "fit.json").write_text(json.dumps(stats, indent=2) + "\n")
            print(json.dumps({**stats, "weights": str(target)}))
    except XeriError as exc:
        print(f"xeri.distill: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
