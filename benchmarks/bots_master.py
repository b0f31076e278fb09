"""The master level's table (issue 10): its margin over every bot, the oracle gap, and its time per move.

    nice -n 19 python benchmarks/bots_master.py pairs NAME... [--deals 1000] [--jobs 2] [--seed 2026]
    nice -n 19 python benchmarks/bots_master.py timing [--rounds 40]
    python benchmarks/bots_master.py table

``pairs`` plays duplicate deals (each deal twice, seats swapped) and writes
``benchmarks/results/master_<name>.json`` (the ``xeri arena --json`` object
plus seed, ruleset, deals and wall time); ``timing`` plays whole rounds of the
master level in interactive mode (``make_bot(..., interactive=True)``) against
the expert, on whatever else the machine is doing, and writes
``master_timing.json``: wall-clock p50/p95/p99/max and mean CPU per decision.
Bots use iteration budgets only in ``pairs`` (reproducible: the same figures
on any machine, for any ``--jobs``).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from xeri import find_ruleset
from xeri.arena import run_deals, summarize
from xeri.bots import make_bot
from xeri.commands.arena import summary_dict
from xeri.engine import Round

#: name -> (bot A, bot B, preset, players)
PAIRS: dict[str, tuple[str, str, str, int]] = {
    "master-expert": ("master", "expert", "classic", 2),
    "master-greedy": ("master", "greedy", "classic", 2),
    "master-random": ("master", "random", "classic", 2),
    "master-playout": ("master", "playout", "classic", 2),
    "master-pimc": ("master", "pimc:iterations=500", "classic", 2),
    "master-ismcts": ("master", "ismcts:iterations=500", "classic", 2),
    "master-pimcmaster": ("master", "master:early=pimc,iterations=400", "classic", 2),
    "oracle-master": ("oracle-cheater:iterations=500", "master", "classic", 2),
    "master-expert-4p": ("master", "expert", "classic", 4),
    "master-greedy-4p": ("master", "greedy", "classic", 4),
    "master-expert-pisti": ("master", "expert", "pisti", 2),
    "master-greedy-pisti": ("master", "greedy", "pisti", 2),
    "expert-greedy-4p": ("expert", "greedy", "classic", 4),
    "expert-greedy-pisti": ("expert", "greedy", "pisti", 2),
}

OUT = Path(__file__).parent / "results"


def run_pairs(names: list[str], deals: int, jobs: int, seed: int, out: Path) -> None:
    for name in names:
        a, b, preset, players = PAIRS[name]
        ruleset = find_ruleset(preset, players=players)
        start = time.perf_counter()
        results = run_deals(a, b, ruleset, deals, seed, jobs)
        data = {**summary_dict(a, b, summarize(results)), "seed": seed, "deals": deals, "preset": preset,
                "players": players, "ruleset": ruleset.to_dict(), "jobs": jobs,
                "wall_seconds": time.perf_counter() - start}
        (out / f"master_{name}.json").write_text(json.dumps(data, indent=2) + "\n")
        m = data["margin"]
        print(f"{name}: {m['mean']:+.2f} [{m['ci95'][0]:+.2f}, {m['ci95'][1]:+.2f}] over {deals} deals "
              f"({data['wall_seconds']:.0f}s)", flush=True)


def run_timing(rounds: int, seed: int, out: Path) -> None:
    ruleset = find_ruleset("classic")
    rng = random.Random(seed)
    walls: list[float] = []
    cpus: list[float] = []
    for k in range(rounds):
        rnd = Round.new(ruleset, k % 2, rng.getrandbits(64))
        bots = [make_bot("master", rng.getrandbits(32), interactive=True), make_bot("expert", rng.getrandbits(32))]
        if k % 2:
            bots.reverse()
        while not rnd.is_over:
            seat = rnd.turn
            assert seat is not None
            bot = bots[seat]
            w, c = time.perf_counter(), time.process_time()
            card = bot.choose(rnd.view(seat), rnd.log_for(seat))
            if bot.name == "master" and len(rnd.legal_moves) > 1:
                walls.append(time.perf_counter() - w)
                cpus.append(time.process_time() - c)
            rnd.play(card, seat)
    walls.sort()

    def pct(p: float) -> float:
        return walls[min(len(walls) - 1, int(p * len(walls)))]

    data = {"spec": "master (interactive)", "rounds": rounds, "decisions": len(walls),
            "wall_p50_s": pct(0.5), "wall_p95_s": pct(0.95), "wall_p99_s": pct(0.99), "wall_max_s": walls[-1],
            "cpu_mean_s": statistics.fmean(cpus), "cpu_max_s": max(cpus), "wall_mean_s": statistics.fmean(walls)}
    (out / "master_timing.json").write_text(json.dumps(data, indent=2) + "\n")
    print(json.dumps(data, indent=2))


def print_table(out: Path) -> None:
    """The markdown table of every pair measured so far (docs/bots.md)."""
    print("| pair | table | deals | margin a round | 95% CI | rounds won |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, (a, b, preset, players) in PAIRS.items():
        path = out / f"master_{name}.json"
        if not path.exists():
            continue
        d = json.loads(path.read_text())
        m, w = d["margin"], d["win_rate"]
        print(f"| {a} vs {b} | {preset}, {players}p | {d['deals']} | {m['mean']:+.2f} | "
              f"[{m['ci95'][0]:+.2f}, {m['ci95'][1]:+.2f}] | {100 * w['mean']:.1f}% |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    pairs = sub.add_parser("pairs")
    pairs.add_argument("names", nargs="+", choices=sorted(PAIRS))
    pairs.add_argument("--deals", type=int, default=1000)
    pairs.add_argument("--jobs", type=int, default=2)
    pairs.add_argument("--seed", type=int, default=2026)
    timing = sub.add_parser("timing")
    timing.add_argument("--rounds", type=int, default=40)
    timing.add_argument("--seed", type=int, default=5)
    table = sub.add_parser("table")
    for p in (pairs, timing, table):
        p.add_argument("--out", default=str(OUT))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.what == "pairs":
        run_pairs(args.names, args.deals, args.jobs, args.seed, out)
    elif args.what == "table":
        print_table(out)
    else:
        run_timing(args.rounds, args.seed, out)


if __name__ == "__main__":
    main()
