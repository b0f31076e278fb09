"""Search speed and where it goes: playouts per second (one core), time per move per level, a profile.

    python benchmarks/bots_speed.py [--seconds 5] [--out benchmarks/results]

Writes ``bots_speed.json`` and ``bots_profile.txt``. Speeds divide by this
process's CPU time, so they are one core's speed even on a shared machine;
per-move times are given as wall-clock and CPU time.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import statistics
import time
from pathlib import Path

from run_meta import run_meta

from xeri import find_ruleset
from xeri.bench import search_iterations_per_second
from xeri.bots import LEVELS, make_bot
from xeri.bots.determinize import Determinizer
from xeri.bots.ismcts import search
from xeri.engine import Round


def per_move_times(level: str, rounds: int, seed: int) -> dict[str, float]:
    """Wall and CPU seconds per decision of a level's bot (moves with a real choice only)."""
    ruleset = find_ruleset("classic")
    rng = random.Random(seed)
    walls: list[float] = []
    cpus: list[float] = []
    for k in range(rounds):
        rnd = Round.new(ruleset, k % 2, rng.getrandbits(64))
        bot = make_bot(level, rng.getrandbits(32))
        while not rnd.is_over:
            seat = rnd.turn
            assert seat is not None
            w, c = time.perf_counter(), time.process_time()
            card = bot.choose(rnd.view(seat), rnd.log_for(seat))
            if len(rnd.legal_moves) > 1:
                walls.append(time.perf_counter() - w)
                cpus.append(time.process_time() - c)
            rnd.play(card, seat)
    return {
        "spec": LEVELS[level],
        "moves": len(walls),
        "wall_mean_s": statistics.fmean(walls),
        "wall_max_s": max(walls),
        "cpu_mean_s": statistics.fmean(cpus),
        "cpu_max_s": max(cpus),
    }


def profile_search(iterations: int = 20000) -> str:
    rnd = Round.new(find_ruleset("classic"), 0, 1)
    det = Determinizer(rnd.view(1), rnd.log_for(1))
    legal = [c.index for c in rnd.legal_moves]
    prof = cProfile.Profile()
    prof.enable()
    search(det.sample, legal, random.Random(0), iterations, None, 0.7)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(12)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=3, help="rounds per level for the per-move times")
    parser.add_argument("--out", default=str(Path(__file__).parent / "results"))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    speed = {}
    for bot in ("ismcts", "pimc"):
        for players in (2, 3, 4):
            speed[f"{bot}-{players}p"] = search_iterations_per_second(
                args.seconds, find_ruleset("classic", players=players), seed=players, bot=bot
            )
            print(bot, players, speed[f"{bot}-{players}p"], flush=True)
    levels = {level: per_move_times(level, args.rounds, seed=1) for level in LEVELS}
    for level, figures in levels.items():
        print(level, figures, flush=True)
    record = {"speed": speed, "levels": levels, **run_meta(None)}  # each measure seeds its own rounds
    (out / "bots_speed.json").write_text(json.dumps(record, indent=2) + "\n")
    (out / "bots_profile.txt").write_text(profile_search())
    print((out / "bots_profile.txt").read_text())


if __name__ == "__main__":
    main()
