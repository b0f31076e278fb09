"""The distilled master (issue 43): its speed per move in CPython, and its strength on duplicate deals.

    nice -n 15 python benchmarks/distilled.py speed [--moves 2000]
    nice -n 15 python benchmarks/distilled.py strength --deals 400 --master-deals 100 [--seed 2026]
    nice -n 15 python benchmarks/distilled.py epochs --run runs/distill --epochs 1 3 6 --deals 200 --seed 1

``speed`` times ``DistilledBot.choose`` (observation encoding and the network, NumPy) on the positions of rounds
against the expert, in CPU time, and writes ``benchmarks/results/distilled_speed.json``. ``strength`` plays
``distilled`` against ``expert`` (``--deals``) and ``master`` against ``distilled`` (``--master-deals``: the master
is slow) in 2-player classic on the arena's duplicate deals and writes ``benchmarks/results/distilled_strength.json``
with each pair's margin, its 95% interval and its CPU time. The weights come from ``python -m xeri.distill``
(its ``fit.json`` and ``collect-*.json`` say how many of the master's moves they were fitted to). ``epochs`` refits
the collected moves for a few epoch counts and plays each fit against the expert (``distilled_epochs.json``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from run_meta import run_meta

from xeri import find_ruleset
from xeri.arena import run_deals, summarize
from xeri.bots import make_bot
from xeri.engine import Round

RESULTS = Path(__file__).resolve().parent / "results"


def speed(moves: int, seed: int) -> dict[str, object]:
    rs = find_ruleset("classic", players=2)
    bot = make_bot("distilled", seed)
    expert = make_bot("expert", seed)
    times: list[float] = []
    k = 0
    while len(times) < moves:
        rnd = Round.new(rs, k % 2, seed * 100_003 + k)
        k += 1
        while not rnd.is_over:
            seat = rnd.turn
            assert seat is not None
            view, log = rnd.view(seat), rnd.log_for(seat)
            if seat == 0 and len(view.legal_moves) > 1:
                start = time.process_time()
                card = bot.choose(view, log)
                times.append(time.process_time() - start)
            else:
                card = (bot if seat == 0 else expert).choose(view, log)
            rnd.play(card, seat)
    times.sort()
    return {"moves": len(times), "rounds": k, "ms_per_move": {"mean": 1000 * statistics.fmean(times),
                                                               "median": 1000 * times[len(times) // 2],
                                                               "p99": 1000 * times[int(len(times) * 0.99)]},
            "clock": "process CPU time, CPython, NumPy"}


def strength(deals: int, master_deals: int, seed: int) -> dict[str, object]:
    rs = find_ruleset("classic", players=2)
    out: dict[str, object] = {"ruleset": "classic", "players": 2}
    pairs = (("distilled", "expert", deals), ("master", "distilled", master_deals), ("distilled", "learned", deals))
    for a, b, n in pairs:
        if n <= 0:
            continue
        start = time.process_time()
        s = summarize(run_deals(a, b, rs, n, seed))
        out[f"{a}_vs_{b}"] = {"deals": s.deals, "rounds": s.rounds, "margin": s.margin.to_dict(),
                              "win_rate": s.win_rate.to_dict(), "cpu_seconds": round(time.process_time() - start, 1),
                              "ms_per_move": {a: 1000 * s.seconds_per_move_a, b: 1000 * s.seconds_per_move_b}}
        print(a, b, out[f"{a}_vs_{b}"], flush=True)
    return out


def epochs(run: Path, counts: list[int], deals: int, seed: int) -> dict[str, object]:
    """Fits of the collected moves for a few epoch counts, each played against the expert (a selection run)."""
    from xeri.bots.learned import default_policy
    from xeri.distill import fit, load

    x, m, y = load(run)
    rs = find_ruleset("classic", players=2)
    out: dict[str, object] = {"deals": deals, "run": str(run), "fits": []}
    for count in counts:
        policy, stats = fit(x, m, y, 0, count, default_policy())
        path = RESULTS.parent / f".distilled-{count}.npz"
        policy.save(path)
        s = summarize(run_deals(f"distilled:weights={path}", "expert", rs, deals, seed))
        path.unlink()
        out["fits"].append({"epochs": count, "holdout_agreement": stats["holdout_agreement"],  # type: ignore[attr-defined]
                            "margin_vs_expert": s.margin.to_dict()})
        print(out["fits"][-1], flush=True)  # type: ignore[index]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("speed", "strength", "epochs"))
    parser.add_argument("--run", type=Path, default=Path("runs/distill"), help="epochs: the collection's folder")
    parser.add_argument("--epochs", type=int, nargs="+", default=[1, 3, 6])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--master-deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if args.what == "epochs":
        data = epochs(args.run, args.epochs, args.deals, args.seed)
    else:
        data = speed(args.moves, args.seed) if args.what == "speed" else strength(args.deals, args.master_deals,
                                                                                   args.seed)
    data.update(run_meta(args.seed))
    path = RESULTS / f"distilled_{args.what}.json"
    path.write_text(json.dumps(data, indent=2) + "\n")
    print(json.dumps(data, indent=2))


if __name__ == "__main__":
    main()
