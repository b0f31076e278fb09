"""The master level's table (issue 10): its margin over every bot, the oracle gap, and its time per move.

    nice -n 19 python benchmarks/bots_master.py pairs NAME... [--deals 1000] [--jobs 2] [--seed 2026]
        [--master SPEC --tag .candidate]
    nice -n 19 python benchmarks/bots_master.py timing [--rounds 40] [--preset P --players N --target T --tag .x]
    nice -n 19 python benchmarks/bots_master.py openspiel --seconds 0.1 [--deals 100] [--jobs 2]
    python benchmarks/bots_master.py table [--tag .candidate]

``pairs`` plays duplicate deals (each deal twice, seats swapped) and writes
``benchmarks/results/<name>.json``, the name saying what it measures and at which table
(``master_vs_expert.classic.2p.json``; the ``xeri arena --json`` object
plus seed, ruleset, deals and wall time); ``timing`` plays whole rounds of the
master level in interactive mode (``make_bot(..., interactive=True)``) against
the expert, on whatever else the machine is doing (the compiled rollouts loaded first,
their load time reported apart), and writes
``master_timing.<preset>.<players>p.json`` (or ``master_timing<tag>.json``): wall-clock p50/p95/p99/max and mean
CPU per decision. Its rounds are
the first rounds of matches (the master sees the match: with ``match_end=rounds`` it plays for the
round won), or with ``--target`` whole matches to that score; ``--preset``/``--players`` pick the table
(with 4 players the master plays with a master partner).
Bots use iteration budgets only in ``pairs`` (reproducible: the same figures
on any machine, for any ``--jobs``). ``openspiel`` plays the master against
OpenSpiel's ``ISMCTSBot`` (random rollouts, UCT c = 14, as in
``research_ismcts.py``) on ``python_xeri`` at equal time per move: OpenSpiel's
iterations are calibrated to ``--seconds`` a move on this machine, and the
master's wall-clock cap at each move is the mean time OpenSpiel's bot has
needed so far in that round; writes ``master_vs_openspiel.classic.2p.<seconds>s.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from run_meta import run_meta

from xeri import find_ruleset
from xeri.arena import run_deals, summarize
from xeri.bots import make_bot
from xeri.bots.registry import partnered
from xeri.commands.arena import summary_dict
from xeri.match import Match

#: name (the result file's, without ``.json``: what it measures, at which table) -> (bot A, bot B, preset, players)
PAIRS: dict[str, tuple[str, str, str, int]] = {
    "master_vs_expert.classic.2p": ("master", "expert", "classic", 2),
    "master_vs_greedy.classic.2p": ("master", "greedy", "classic", 2),
    "master_vs_random.classic.2p": ("master", "random", "classic", 2),
    "master_vs_playout.classic.2p": ("master", "playout", "classic", 2),
    "master_vs_pimc.classic.2p": ("master", "pimc:iterations=500", "classic", 2),
    "master_vs_ismcts.classic.2p": ("master", "ismcts:iterations=500", "classic", 2),
    "master_vs_learned.classic.2p": ("master", "learned", "classic", 2),
    "master_vs_pimcmaster.classic.2p": ("master", "master:early=pimc,iterations=400", "classic", 2),
    "oracle_vs_master.classic.2p": ("oracle-cheater:iterations=500", "master", "classic", 2),
    "master_vs_expert.classic.4p": ("master", "expert", "classic", 4),
    "master_vs_greedy.classic.4p": ("master", "greedy", "classic", 4),
    "master_vs_expert.pisti.2p": ("master", "expert", "pisti", 2),
    "master_vs_greedy.pisti.2p": ("master", "greedy", "pisti", 2),
}

OUT = Path(__file__).parent / "results"


def run_pairs(names: list[str], deals: int, jobs: int, seed: int, out: Path, master: str = "master",
              tag: str = "") -> None:
    """Each pair over ``deals`` duplicate deals; ``master`` replaces the plain ``master`` spec (a candidate),
    and ``tag`` goes into the JSON file's name (``<name><tag>.json``) so a candidate keeps the level's files."""
    for name in names:
        a, b, preset, players = PAIRS[name]
        a, b = (master if x == "master" else x for x in (a, b))
        ruleset = find_ruleset(preset, players=players)
        start = time.perf_counter()
        results = run_deals(a, b, ruleset, deals, seed, jobs)
        data = {**summary_dict(a, b, summarize(results)), "seed": seed, "deals": deals, "preset": preset,
                "players": players, "ruleset": ruleset.to_dict(), "jobs": jobs,
                "wall_seconds": time.perf_counter() - start, **run_meta(seed)}
        (out / f"{name}{tag}.json").write_text(json.dumps(data, indent=2) + "\n")
        m = data["margin"]
        print(f"{name}: {m['mean']:+.2f} [{m['ci95'][0]:+.2f}, {m['ci95'][1]:+.2f}] over {deals} deals "
              f"({data['wall_seconds']:.0f}s)", flush=True)


def run_timing(rounds: int, seed: int, out: Path, preset: str = "classic", players: int = 2,
               target: int | None = None, tag: str = "", master: str = "master") -> None:
    """Time the master level's moves in interactive mode against the expert (with 4 players a master team;
    with ``target`` whole matches to it, so that the master plays for the match once it is at stake)."""
    options: dict[str, Any] = {"players": players}
    if target is not None:
        options.update(match_end="target", target=target)
    ruleset = find_ruleset(preset, **options)
    rng = random.Random(seed)
    load_before = os.getloadavg()[0]
    # Load the compiled rollouts first (numba: seconds, once a process), else the first moves measure the
    # counting rules that play while a background thread loads them; the load is reported on its own.
    start = time.perf_counter()
    ready = bool(getattr(make_bot("master", 0), "rollouts_ready", False))
    load_s = time.perf_counter() - start
    walls: list[float] = []
    cpus: list[float] = []
    played = 0
    k = 0
    while played < rounds:
        match = Match(ruleset, seed=rng.getrandbits(64), first_dealer=k % players)
        mine = k % 2  # the master's side
        spec = partnered(master, master) if players == 4 else master
        bots = [make_bot(spec if ruleset.side_of(s) == mine else "expert", rng.getrandbits(32), interactive=True)
                for s in range(players)]
        k += 1
        while not match.is_over and played < rounds:
            seat = match.turn
            assert seat is not None
            bot = bots[seat]
            view, history = match.view(seat), match.round.log_for(seat)
            w, c = time.perf_counter(), time.process_time()
            card = bot.choose(view, history)
            if ruleset.side_of(seat) == mine and len(view.legal_moves) > 1:  # the timed bot's, not the expert's
                walls.append(time.perf_counter() - w)
                cpus.append(time.process_time() - c)
            before = len(match.rounds)
            match.play(card, seat)
            played += len(match.rounds) != before or match.is_over
            if target is None and (len(match.rounds) != before or match.is_over):
                break  # one round a match: a lone round's moves, as before
    walls.sort()

    def pct(p: float) -> float:
        return walls[min(len(walls) - 1, int(p * len(walls)))]

    data = {"spec": f"{master} (interactive)", "preset": preset, "players": players, "target": target,
            "rollouts_ready": ready, "rollouts_load_s": load_s, "rounds": rounds, "decisions": len(walls),
            "wall_p50_s": pct(0.5), "wall_p95_s": pct(0.95), "wall_p99_s": pct(0.99), "wall_max_s": walls[-1],
            "cpu_mean_s": statistics.fmean(cpus), "cpu_max_s": max(cpus), "wall_mean_s": statistics.fmean(walls),
            "load_average_1min": [load_before, os.getloadavg()[0]], "cpus": os.cpu_count(), "nice": os.nice(0),
            **run_meta(seed)}
    tag = tag or f".{preset}.{players}p" + (f".to{target}" if target else "")
    (out / f"master_timing{tag}.json").write_text(json.dumps(data, indent=2) + "\n")
    print(json.dumps(data, indent=2))


def openspiel_round(deal_seed: int, master_seat: int, iterations: int, seconds: float) -> dict[str, Any]:
    """One round of the master against OpenSpiel's ISMCTSBot (``iterations`` a move); the master's cap: equal time."""
    import numpy as np
    import pyspiel  # type: ignore[import-not-found]
    from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-not-found]

    from xeri.engine import shuffle_and_deal
    from xeri.integrations.openspiel import deal_actions

    rs = find_ruleset("classic")
    game = pyspiel.load_game("python_xeri")
    deal = shuffle_and_deal(rs, rs.players - 1, random.Random(deal_seed))
    state = game.new_initial_state()
    for a in deal_actions(rs, rs.players - 1, deal):
        state.apply_action(a)
    master = make_bot(f"master:seconds={seconds}", seed=deal_seed % 2**32)
    theirs = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(deal_seed % 2**32)), 14.0,
                              iterations, random_state=np.random.RandomState((deal_seed + 1) % 2**32))
    spent = {"master": 0.0, "openspiel": 0.0}
    cpu = {"master": 0.0, "openspiel": 0.0}
    moves = {"master": 0, "openspiel": 0}
    while not state.is_terminal():
        seat = state.current_player()
        who = "master" if seat == master_seat else "openspiel"
        start, cpu_start = time.perf_counter(), time.process_time()
        if who == "master":
            if moves["openspiel"]:
                master.seconds = spent["openspiel"] / moves["openspiel"]  # type: ignore[attr-defined]
            rnd = state._round
            action = master.choose(rnd.view(seat), rnd.log_for(seat)).index
        else:
            action = theirs.step(state)
        spent[who] += time.perf_counter() - start
        cpu[who] += time.process_time() - cpu_start
        moves[who] += 1
        state.apply_action(action)
    totals = [s.total for s in state._round.scores]
    return {"margin": totals[master_seat] - totals[1 - master_seat], "spent": spent, "cpu": cpu, "moves": moves}


def _openspiel_task(args: tuple[int, int, int, float]) -> dict[str, Any]:
    return openspiel_round(*args)


def calibrate_openspiel(seconds: float, probes: int = 2) -> int:
    """OpenSpiel ISMCTSBot iterations that take about ``seconds`` of CPU a move, over a round's positions.

    CPU time, not wall time: on a shared machine the wall time of a niced process mostly measures the others.
    """
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    import xeri.integrations.openspiel  # noqa: F401

    game = pyspiel.load_game("python_xeri")
    rng = np.random.RandomState(0)
    per_iteration = []
    for k in range(probes):
        state = game.new_initial_state()
        ply = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randint(len(outcomes))][0])
                continue
            if ply % 8 == 0:  # positions early, mid-round and late
                bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(k)), 14.0, 20,
                                       random_state=np.random.RandomState(k + 1))
                start = time.process_time()
                bot.step(state.clone())
                per_iteration.append((time.process_time() - start) / 20)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randint(len(legal))])
            ply += 1
    return max(1, round(seconds / statistics.fmean(per_iteration)))


def run_openspiel(seconds: float, deals: int, jobs: int, seed: int, out: Path) -> None:
    iterations = calibrate_openspiel(seconds)
    seeds = [random.Random(seed * 1_000_003 + i).getrandbits(63) for i in range(deals)]
    tasks = [(s, seat, iterations, seconds) for s in seeds for seat in (0, 1)]
    start = time.perf_counter()
    with ProcessPoolExecutor(jobs) as pool:
        games = list(pool.map(_openspiel_task, tasks))
    margins = [g["margin"] for g in games]
    per_deal = [(margins[2 * i] + margins[2 * i + 1]) / 2 for i in range(deals)]
    mean = statistics.fmean(per_deal)
    half = 1.96 * statistics.stdev(per_deal) / len(per_deal) ** 0.5 if deals > 1 else 0.0

    def per_move(who: str, what: str = "spent") -> float:
        return sum(g[what][who] for g in games) / sum(g["moves"][who] for g in games)

    data = {"a": "master (equal time)", "b": f"openspiel-ismcts:iterations={iterations}", "target_seconds": seconds,
            "openspiel_iterations": iterations, "deals": deals, "rounds": len(games), "seed": seed,
            "margin": {"mean": mean, "ci95": [mean - half, mean + half]},
            "win_rate": {"mean": sum(m > 0 for m in margins) / len(margins)},
            "master_seconds_per_move": per_move("master"), "openspiel_seconds_per_move": per_move("openspiel"),
            "master_cpu_per_move": per_move("master", "cpu"), "openspiel_cpu_per_move": per_move("openspiel", "cpu"),
            "jobs": jobs, "wall_seconds": time.perf_counter() - start, **run_meta(seed)}
    (out / f"master_vs_openspiel.classic.2p.{seconds:g}s.json").write_text(json.dumps(data, indent=2) + "\n")
    print(json.dumps(data, indent=2))


def print_table(out: Path, tag: str = "") -> None:
    """The markdown table of every pair measured so far (docs/reference/bots-measurements.md), each row tagged for
    ``benchmarks/figures.py``; ``tag``: the runs saved with that tag."""
    print("| pair | table | deals | margin a round | 95% CI | rounds won |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, (a, b, preset, players) in PAIRS.items():
        path = out / f"{name}{tag}.json"
        if not path.exists():
            continue
        d = json.loads(path.read_text())
        m, w = d["margin"], d["win_rate"]
        fig = f"<!-- fig: {path.name}: deals, margin.mean, margin.ci95[0], margin.ci95[1], win_rate.mean * 100 -->"
        print(f"| {a} vs {b} | {preset}, {players}p | {d['deals']:,} | {m['mean']:+.2f} | "
              f"[{m['ci95'][0]:+.2f}, {m['ci95'][1]:+.2f}] | {100 * w['mean']:.1f}%{fig} |")
    for path in sorted(out.glob("master_vs_openspiel.classic.2p.*s.json")):  # the latest runs, whatever the tag
        d = json.loads(path.read_text())
        m, w = d["margin"], d["win_rate"]
        fig = (f"<!-- fig: {path.name}: target_seconds, deals, margin.mean, margin.ci95[0], margin.ci95[1], "
               "win_rate.mean * 100 -->")
        print(f"| master vs OpenSpiel ISMCTSBot, {d['target_seconds']:g} s a move | classic, 2p | {d['deals']:,} | "
              f"{m['mean']:+.2f} | [{m['ci95'][0]:+.2f}, {m['ci95'][1]:+.2f}] | {100 * w['mean']:.1f}%{fig} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    pairs = sub.add_parser("pairs")
    pairs.add_argument("names", nargs="+", choices=sorted(PAIRS))
    pairs.add_argument("--deals", type=int, default=1000)
    pairs.add_argument("--jobs", type=int, default=2)
    pairs.add_argument("--seed", type=int, default=2026)
    pairs.add_argument("--master", default="master", help="the spec played where a pair names the master level")
    pairs.add_argument("--tag", default="", help="added to the JSON file names (candidates: .candidate)")
    timing = sub.add_parser("timing")
    timing.add_argument("--rounds", type=int, default=40)
    timing.add_argument("--seed", type=int, default=5)
    timing.add_argument("--preset", default="classic")
    timing.add_argument("--players", type=int, default=2)
    timing.add_argument("--target", type=int, default=None, help="whole matches to this score")
    timing.add_argument("--tag", default="", help="the file is master_timing<tag>.json (default: .PRESET.Np)")
    timing.add_argument("--master", default="master", help="the master's spec (today's: see bots_variants.TODAY)")
    spiel = sub.add_parser("openspiel")
    spiel.add_argument("--seconds", type=float, default=0.1)
    spiel.add_argument("--deals", type=int, default=100)
    spiel.add_argument("--jobs", type=int, default=2)
    spiel.add_argument("--seed", type=int, default=2026)
    table = sub.add_parser("table")
    table.add_argument("--tag", default="", help="the runs saved with this tag (e.g. .candidate)")
    for p in (pairs, timing, spiel, table):
        p.add_argument("--out", default=str(OUT))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.what == "pairs":
        run_pairs(args.names, args.deals, args.jobs, args.seed, out, args.master, args.tag)
    elif args.what == "table":
        print_table(out, args.tag)
    elif args.what == "openspiel":
        run_openspiel(args.seconds, args.deals, args.jobs, args.seed, out)
    else:
        run_timing(args.rounds, args.seed, out, args.preset, args.players, args.target, args.tag, args.master)


if __name__ == "__main__":
    main()
