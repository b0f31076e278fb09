"""How near ``xeri.fast`` is to its limit: a minimal hand-written numba kernel for the same rounds, same run.

The minimal kernel plays random 2-player ``classic`` rounds and nothing else:
shuffle (the same xorshift64* stream), redeal a faulty pile, deal, play random
cards, score. ``xeri.fast.simulate`` does the same with every preset's rules,
policies and recording. Both run on the same number of threads, interleaved
(A, B, A, B, ...), and the script reports each one's median and best rounds/s
and their ratios (target: ``xeri.fast`` at least 0.8 of the minimal kernel).

    python benchmarks/fast_minimal_kernel.py --threads 1 --repeats 7

It writes the result, with the run's record (``benchmarks/run_meta.py``: command, commit, date, load, seed),
to ``benchmarks/results/fast_minimal_kernel[.Tthreads][.TAG].json`` (one thread: no ``.1threads``), or to
``--out PATH``; about 10 s at the defaults, plus numba's first compile.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numba
import numpy as np
from numba import njit, prange, uint64

from xeri.fast import simulate
from xeri.fast.layout import _below, _mix
from xeri.scoring import card_values

VALUES = np.array(card_values("xeri", False), np.int64)
RANK = np.array([i % 13 for i in range(52)], np.int64)


@njit(cache=True, parallel=True)
def minimal(rounds: int, seed: int, out: np.ndarray, chunks: int) -> None:
    """Random 2-player classic rounds: out[r] = (total seat-side 0, total side 1)."""
    per = (rounds + chunks - 1) // chunks
    base = _mix(uint64(seed))
    for ch in prange(chunks):
        st = np.empty(1, np.uint64)
        deck = np.empty(52, np.int64)
        hands = np.empty((2, 6), np.int64)
        hl = np.empty(2, np.int64)
        pile = np.empty(52, np.int64)
        for r in range(ch * per, min(rounds, (ch + 1) * per)):
            st[0] = _mix(base ^ _mix(uint64(r)))
            for i in range(52):
                deck[i] = i
            for i in range(51, 0, -1):
                j = _below(st, i + 1)
                deck[i], deck[j] = deck[j], deck[i]
            while RANK[deck[15]] == 9 or RANK[deck[15]] == RANK[deck[14]]:
                for i in range(39, 0, -1):
                    j = _below(st, i + 1)
                    deck[12 + i], deck[12 + j] = deck[12 + j], deck[12 + i]
            pl = 4
            for i in range(4):
                pile[i] = deck[12 + i]
            tpos = 16
            cnt0 = cnt1 = pts0 = pts1 = 0
            last = -1
            for deal in range(4):
                for s in range(2):
                    for c in range(6):
                        hands[s, c] = deck[tpos] if deal > 0 else deck[s * 6 + c]
                        if deal > 0:
                            tpos += 1
                    hl[s] = 6
                for _ in range(6):
                    for s in range(2):
                        i = _below(st, hl[s])
                        card = hands[s, i]
                        hl[s] -= 1
                        hands[s, i] = hands[s, hl[s]]
                        rank = RANK[card]
                        if pl > 0 and (rank == RANK[pile[pl - 1]] or rank == 9):
                            v = VALUES[card]
                            for k in range(pl):
                                v += VALUES[pile[k]]
                            if pl == 1 and rank == RANK[pile[0]]:
                                v += 20 if rank == 9 else 10
                            if s == 0:
                                cnt0 += pl + 1
                                pts0 += v
                            else:
                                cnt1 += pl + 1
                                pts1 += v
                            last = s
                            pl = 0
                        else:
                            pile[pl] = card
                            pl += 1
            if pl > 0 and last >= 0:
                v = 0
                for k in range(pl):
                    v += VALUES[pile[k]]
                if last == 0:
                    cnt0 += pl
                    pts0 += v
                else:
                    cnt1 += pl
                    pts1 += v
            out[r, 0] = pts0 + (3 if cnt0 > cnt1 else 0)
            out[r, 1] = pts1 + (3 if cnt1 > cnt0 else 0)


def run_meta(seed: int | None) -> dict[str, Any]:
    """The run's record (benchmarks/run_meta.py), found next to this script."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import run_meta as meta

    return meta.run_meta(seed)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=400_000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--threads", type=int, default=0, help="numba threads for both (default: numba's)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--out", help="write the result here (default: benchmarks/results/fast_minimal_kernel…json)")
    parser.add_argument("--tag", default="", help="what this run measures, in the default file name")
    args = parser.parse_args()
    if args.threads:
        numba.set_num_threads(args.threads)
    threads = numba.get_num_threads()
    chunks = max(1, threads * 8)
    out = np.zeros((args.rounds, 2), np.int64)
    minimal(1000, 0, out, chunks)
    simulate(1000, "classic", seed=0)
    times: dict[str, list[float]] = {"minimal": [], "xeri_fast": []}
    for k in range(args.repeats):
        t = time.perf_counter()
        minimal(args.rounds, k, out, chunks)
        times["minimal"].append(args.rounds / (time.perf_counter() - t))
        t = time.perf_counter()
        fr = simulate(args.rounds, "classic", seed=k)
        times["xeri_fast"].append(args.rounds / (time.perf_counter() - t))
    result = {
        "rounds": args.rounds, "repeats": args.repeats, "threads": threads, "load_average": os.getloadavg()[0],
        "minimal_rounds_per_s": statistics.median(times["minimal"]),
        "xeri_fast_rounds_per_s": statistics.median(times["xeri_fast"]),
        "minimal_mean_totals": out.mean(axis=0).round(2).tolist(),
        "xeri_fast_mean_totals": fr.totals.mean(axis=0).round(2).tolist(),
    }
    result["ratio"] = result["xeri_fast_rounds_per_s"] / result["minimal_rounds_per_s"]
    # On a shared machine the best run of each is the least disturbed one.
    result["minimal_best"] = max(times["minimal"])
    result["xeri_fast_best"] = max(times["xeri_fast"])
    result["ratio_best"] = result["xeri_fast_best"] / result["minimal_best"]
    result |= run_meta(0)  # repeat k plays seed k
    stem = "fast_minimal_kernel" + (f".{threads}threads" if threads != 1 else "") + (f".{args.tag}" if args.tag else "")
    out_path = Path(args.out) if args.out else Path(__file__).resolve().parent / "results" / f"{stem}.json"
    out_path.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(result) if args.json else "\n".join(f"{k:>24}: {v}" for k, v in result.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
