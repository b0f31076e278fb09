"""Why ``xeri.fast`` is compiled with numba: the same random 2-player classic rounds, numpy vs numba.

The numpy version plays a whole batch in lockstep (every round has the same
turn order and 48 moves, so each move is a few array operations over the
batch); it covers only this case (random policy, 2 players, the redeal
rule). Both report rounds per second and the mean score per side, which must
agree within noise since they sample the same distribution of rounds.

    python benchmarks/research_fast_backends.py --rounds 400000
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from xeri.fast import simulate
from xeri.scoring import card_values

RANK = np.arange(52) % 13
JACK = 9
VALUES = np.array(card_values("xeri", False))


def numpy_rounds(batch: int, rng: np.random.Generator) -> np.ndarray:
    """Random 2-player classic rounds in lockstep; returns totals (batch, 2). Seat 0 plays first."""
    decks = rng.permuted(np.tile(np.arange(52), (batch, 1)), axis=1)
    # redeal: new pile while the top two match in rank or the top is a Jack (cards 12..15 are the pile)
    while True:
        bad = (RANK[decks[:, 15]] == RANK[decks[:, 14]]) | (RANK[decks[:, 15]] == JACK)
        if not bad.any():
            break
        rows = np.flatnonzero(bad)
        decks[rows, 12:] = rng.permuted(decks[rows, 12:], axis=1)
    rows = np.arange(batch)
    hands = np.empty((batch, 2, 6), dtype=np.int64)
    pile = np.zeros((batch, 52), dtype=np.int64)
    pile[:, :4] = decks[:, 12:16]
    pl = np.full(batch, 4)
    pile_val = VALUES[decks[:, 12:16]].sum(axis=1)
    cards = np.zeros((batch, 2), dtype=np.int64)
    points = np.zeros((batch, 2), dtype=np.int64)
    last = np.full(batch, -1)
    talon_pos = 16
    for deal in range(4):
        if deal == 0:
            hands[:, 0], hands[:, 1] = decks[:, 0:6], decks[:, 6:12]
        else:
            hands[:, 0] = decks[:, talon_pos : talon_pos + 6]
            hands[:, 1] = decks[:, talon_pos + 6 : talon_pos + 12]
            talon_pos += 12
        for k in range(12):
            seat, left = k % 2, 6 - k // 2
            pick = rng.integers(0, left, size=batch)
            card = hands[rows, seat, pick]
            hands[rows, seat, pick] = hands[:, seat, left - 1]
            rank = RANK[card]
            top = pile[rows, np.maximum(pl - 1, 0)]
            take = (pl > 0) & ((rank == RANK[top]) | (rank == JACK))
            xeri = take & (pl == 1) & (rank == RANK[top])
            gain = pile_val + VALUES[card] + np.where(xeri, np.where(rank == JACK, 20, 10), 0)
            points[:, seat] += np.where(take, gain, 0)
            cards[:, seat] += np.where(take, pl + 1, 0)
            last = np.where(take, seat, last)
            keep = ~take
            pile[rows[keep], pl[keep]] = card[keep]
            pile_val = np.where(take, 0, pile_val + VALUES[card])
            pl = np.where(take, 0, pl + 1)
    for seat in (0, 1):
        mine = last == seat
        points[:, seat] += np.where(mine, pile_val, 0)
        cards[:, seat] += np.where(mine, pl, 0)
    points[:, 0] += 3 * (cards[:, 0] > cards[:, 1])
    points[:, 1] += 3 * (cards[:, 1] > cards[:, 0])
    return points


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=400_000)
    p.add_argument("--batch", type=int, default=100_000)
    a = p.parse_args()
    rng = np.random.default_rng(0)
    numpy_rounds(1000, rng)
    start = time.perf_counter()
    totals = [numpy_rounds(a.batch, rng) for _ in range(a.rounds // a.batch)]
    np_time = time.perf_counter() - start
    np_mean = np.concatenate(totals).mean(axis=0)
    simulate(1000, "classic", first_dealer=1)  # compile or load the cache
    start = time.perf_counter()
    fast = [simulate(a.batch, "classic", seed=i, first_dealer=1).totals for i in range(a.rounds // a.batch)]
    nb_time = time.perf_counter() - start
    # first_dealer=1 and two players: every round is dealt by seat 1, so seat 0 plays first as above
    nb_mean = np.concatenate(fast)[::2].mean(axis=0)
    n = a.rounds // a.batch * a.batch
    out = {
        "rounds": n,
        "numpy_rounds_per_s": n / np_time, "numba_rounds_per_s": n / nb_time,
        "numpy_mean_totals": np_mean.tolist(), "numba_mean_totals_seat0_first": nb_mean.tolist(),
    }
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
