"""The master and the levels beyond 2-player classic (issue 28): Pişti, 3 and 4 players, duplicate deals.

    nice -n 10 python benchmarks/bots_variants.py NAME... [--deals 1000] [--jobs 2] [--seed 2026]
    nice -n 10 python benchmarks/bots_variants.py NAME --master SPEC --tag _candidate
    nice -n 10 python benchmarks/bots_variants.py NAME --deals 1000 --checkpoint 10 [--resume]
    python benchmarks/bots_variants.py compare NEW TODAY     # paired: the same deals, new master - today's

Each NAME is ``<pair>.<preset>.<players>p`` (``master_vs_expert.pisti.4p``), or with ``.today`` the master as it
is on main before issue 28 (``TODAY``: points only, uniform endgame worlds, plays onto face-down cards
unweighed, a partner fitted like the others, paranoid minimax with 3 players, rollouts to the end of the next
deal only). It plays ``--deals`` duplicate deals (each deal once per side; with 3 players bot A at each seat in
turn, bot B at the other two; with 4 the sides are teams, a master told its partner is a master) and writes
``benchmarks/results/<NAME>.json``: the
``xeri arena --json`` object, each deal's margin (so that two runs on the same deals compare deal by deal), and
the run's command, commit, date, machine load and seed. ``compare`` prints and writes the paired difference of
two such files (``<NEW>-minus-<TODAY>.json``).

``--checkpoint K`` writes the file after every K deals, each deal's rounds in it (``deal_games``), and
``--resume`` goes on from such a file (the same bots, table and seed): deal ``i``'s seed is the ``i``-th drawn
from the arena seed, so a run stopped and resumed, at any ``--jobs``, plays the very deals of one run to the end.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

from run_meta import resumed, run_meta

from xeri import find_ruleset
from xeri.arena import DealResult, GameResult, summarize
from xeri.arena.play import DealTask, check_run, deal_seeds, map_tasks
from xeri.commands.arena import summary_dict

#: the master on main before issue 28, as a spec of today's code
TODAY = "master:match=0,endworlds=uniform,downplays=0,partner=model,maxn=0,rdeals=1,endgame=12"
#: the levels' bots (``LEVELS``); ``strong-before`` is the strong level as it was at 3 or 4 players and face-down
#: piles (the expert's rules); ``exact`` the master solving the last 12 cards exactly at every table (as before its
#: rollouts played to the last card with 4 players)
BOTS = {"master": "master", "today": TODAY, "expert": "expert", "greedy": "greedy", "random": "random",
        "strong": "learned", "strong-before": "learned:fallback=expert",
        "exact": "master:endgame=12"}
PAIRS = {"master_vs_expert": ("master", "expert"), "master_vs_strong": ("master", "strong"),
         "strong_vs_expert": ("strong", "expert"), "expert_vs_greedy": ("expert", "greedy"),
         "greedy_vs_random": ("greedy", "random"), "strong-before_vs_expert": ("strong-before", "expert"),
         "master_vs_exact": ("master", "exact")}
TABLES = {"pisti.2p": ("pisti", 2), "pisti.4p": ("pisti", 4), "classic.3p": ("classic", 3),
          "classic.4p": ("classic", 4), "classic.2p": ("classic", 2)}

OUT = Path(__file__).parent / "results"


def parse(name: str) -> tuple[str, str, str, int]:
    """``master_vs_expert.pisti.4p[.today]`` -> (bot A spec, bot B spec, preset, players)."""
    parts = name.split(".")
    today = parts[-1] == "today"
    if today:
        parts = parts[:-1]
    if len(parts) != 3 or parts[0] not in PAIRS or ".".join(parts[1:]) not in TABLES:
        raise SystemExit(f"unknown run {name!r}: PAIR.TABLE[.today], pairs {sorted(PAIRS)}, tables {sorted(TABLES)}")
    a, b = (BOTS[x] for x in PAIRS[parts[0]])
    if today:
        a, b = (TODAY if x == "master" else x for x in (a, b))
    preset, players = TABLES[".".join(parts[1:])]
    return a, b, preset, players


def encode(d: DealResult) -> list[list[float]]:
    """A deal's rounds as plain numbers (``GameResult``'s fields in order), so that a resumed run rebuilds them."""
    return [[getattr(g, f) for f in GAME_FIELDS] for g in d.games]


def decode(index: int, games: list[list[float]]) -> DealResult:
    return DealResult(index, tuple(
        GameResult(int(pa), pb, int(xa), xb, int(ca), cb, sa, int(ma), sb, int(mb))
        for pa, pb, xa, xb, ca, cb, sa, ma, sb, mb in games))


GAME_FIELDS = tuple(GameResult.__dataclass_fields__)


def run(names: list[str], deals: int, jobs: int, seed: int, out: Path, master: str | None = None,
        tag: str = "", checkpoint: int = 0, resume: bool = False) -> None:
    """Each run over ``deals`` duplicate deals; ``master`` replaces the master's spec (a candidate), whose file
    is then ``<NAME><tag>.json``. ``checkpoint``: write the file every so many deals; ``resume``: go on from it."""
    for name in names:
        a, b, preset, players = parse(name)
        if master is not None:
            a, b = (master if x == "master" else x for x in (a, b))
        ruleset = find_ruleset(preset, players=players)
        check_run(a, b, ruleset, ("deals", deals), jobs, "local")
        path = out / f"{name}{tag}.json"
        games, spent, earlier = (resumed(path, a, b, ruleset.to_dict(), seed, "deal_games", "deals") if resume
                                 else ([], 0.0, []))
        results = [decode(i, g) for i, g in enumerate(games[:deals])]
        seeds = deal_seeds(seed, deals)
        step = checkpoint if checkpoint > 0 else deals
        while len(results) < deals:
            start = time.perf_counter()
            first = len(results)
            tasks = [DealTask(a, b, ruleset.to_dict(), i, seeds[i]) for i in range(first, min(first + step, deals))]
            results += map_tasks(tasks, jobs, "local", None, None)
            spent += time.perf_counter() - start
            data = {**summary_dict(a, b, summarize(results)), "ruleset": ruleset.to_dict(), "players": players,
                    "jobs": jobs, "wall_seconds": spent,
                    "deal_margins": [statistics.fmean(g.margin for g in d.games) for d in results], **run_meta(seed)}
            if checkpoint > 0:
                data["deal_games"] = [encode(d) for d in results]
            if earlier:
                data["earlier_runs"] = earlier
            path.write_text(json.dumps(data, indent=1) + "\n")
            if checkpoint > 0:
                m = data["margin"]
                print(f"  {name}: {len(results)}/{deals} deals, {m['mean']:+.2f} [{m['ci95'][0]:+.2f}, "
                      f"{m['ci95'][1]:+.2f}] ({spent:.0f}s)", flush=True)
        data = json.loads(path.read_text())
        m = data["margin"]
        print(f"{name}: {a} - {b} {m['mean']:+.2f} [{m['ci95'][0]:+.2f}, {m['ci95'][1]:+.2f}] over {deals} deals "
              f"({data['wall_seconds']:.0f}s)", flush=True)


def compare(new: str, today: str, out: Path) -> None:
    """The paired difference, deal by deal, of two runs on the same deals (same seed and table)."""
    x = json.loads((out / f"{new}.json").read_text())
    y = json.loads((out / f"{today}.json").read_text())
    if x["seed"] != y["seed"] or x["ruleset"] != y["ruleset"]:
        raise SystemExit("the two runs did not play the same deals")
    k = min(len(x["deal_margins"]), len(y["deal_margins"]))
    diff = [a - b for a, b in zip(x["deal_margins"][:k], y["deal_margins"][:k], strict=True)]
    mean = statistics.fmean(diff)
    half = 1.96 * statistics.stdev(diff) / math.sqrt(k)
    data = {"new": new, "base": today, "deals": k, "difference": {"mean": mean, "ci95": [mean - half, mean + half]},
            "new_margin": x["margin"], "base_margin": y["margin"], "new_commit": x.get("commit"),
            "base_commit": y.get("commit"), **run_meta(x["seed"])}
    (out / f"{new}-minus-{today}.json").write_text(json.dumps(data, indent=1) + "\n")
    print(f"{new} - {today}: {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}] over {k} shared deals")


def main() -> None:
    if sys.argv[1:2] == ["compare"]:
        parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
        parser.add_argument("what")
        parser.add_argument("new")
        parser.add_argument("today")
        parser.add_argument("--out", default=str(OUT))
        args = parser.parse_args()
        compare(args.new, args.today, Path(args.out))
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="+")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", default=str(OUT))
    parser.add_argument("--master", default=None, help="the spec played where a run names the master (a candidate)")
    parser.add_argument("--tag", default="", help="added to the file names (a candidate's runs)")
    parser.add_argument("--checkpoint", type=int, default=0, help="write the file every so many deals")
    parser.add_argument("--resume", action="store_true", help="go on from the file a --checkpoint run wrote")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in args.names:
        parse(name)  # every name checked before the first run
    run(args.names, args.deals, args.jobs, args.seed, out, args.master, args.tag, args.checkpoint, args.resume)


if __name__ == "__main__":
    main()
