"""The computer levels' fixed ratings (issue 29): adjacent levels play duplicate matches, the anchors are fitted.

    nice -n 10 python benchmarks/level_ratings.py measure --players 2 --matches 1000 --master-matches 40
    nice -n 10 python benchmarks/level_ratings.py measure --players 4 --matches 300 --master-matches 10
    python benchmarks/level_ratings.py fit

``measure`` plays each pair of adjacent levels (``LEVELS`` in ``xeri.bots.registry``) over duplicate classic matches
to 51 (``xeri arena HIGHER LOWER --matches N --target 51``; with ``--players 4`` two partnerships, each of one
level), the pair with the master over ``--master-matches`` (the master is slow per move), and writes
``benchmarks/results/level_ratings.classic.{2p,4p}.json``: each pair's ``xeri arena --matches --json`` object and
its duplicate matches' games, with the run's command, commit, date, machine load and seed. The file is written
after every pair, so a run cut short keeps what it measured.

``fit`` reads those files and fits the anchors (``xeri.ratings.fit``): the ratings for which the model's
predicted match win probability of each pair is its measured rate (a maximum-likelihood fit over the matches,
easy held at its place), writes the fit into each result file and the packaged anchors
``src/xeri/ratings/anchors.json`` that ``xeri.ratings`` reads.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from run_meta import run_meta

from xeri import find_ruleset
from xeri.arena.matches import MatchResult, MatchTask, play_duplicate_match, summarize_matches
from xeri.arena.play import check_setup, deal_seeds
from xeri.arena.stats import Z95
from xeri.bots.registry import LEVELS
from xeri.commands.arena import match_summary_dict
from xeri.ratings import FORMATS, RatingError, predict, team_size
from xeri.ratings.fit import PINNED, PairRate
from xeri.ratings.fit import fit as fit_anchors
from xeri.ratings.model import BETA, START_MU, START_SIGMA, TAU

OUT = Path(__file__).parent / "results"
ANCHORS = Path(__file__).resolve().parent.parent / "src" / "xeri" / "ratings" / "anchors.json"
TARGET = 51


def result_path(out: Path, players: int) -> Path:
    return out / f"level_ratings.classic.{players}p.json"


def pairs() -> list[tuple[str, str]]:
    """Adjacent levels, (higher, lower), weakest pair first."""
    names = list(LEVELS)
    return [(names[i + 1], names[i]) for i in range(len(names) - 1)]


def measure(args: argparse.Namespace) -> None:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = result_path(out, args.players)
    ruleset = find_ruleset("classic", players=args.players, match_end="target", target=TARGET)
    data: dict[str, Any] = {"ruleset": ruleset.to_dict(), "levels": dict(LEVELS), "pairs": {}}
    if path.exists():  # a later run of some pairs keeps the others
        data["pairs"] = json.loads(path.read_text()).get("pairs", {})
    chosen = args.pairs or [f"{hi}-{lo}" for hi, lo in pairs()]
    for name in chosen:
        hi, lo = name.split("-")
        planned = args.master_matches if "master" in (hi, lo) else args.matches
        a, b = LEVELS[hi], LEVELS[lo]
        check_setup(a, b, ruleset)
        tasks = [MatchTask(a, b, ruleset.to_dict(), i, s) for i, s in enumerate(deal_seeds(args.seed, planned))]
        start = saved = time.perf_counter()
        results: list[MatchResult] = []
        for task in tasks:  # one at a time: the first n matches are `xeri arena A B --matches n`'s, whatever n
            results.append(play_duplicate_match(task))
            now = time.perf_counter()
            over = args.seconds is not None and now - start > args.seconds
            if over or now - saved > 60 or len(results) == len(tasks):
                save(path, data, name, hi, lo, results, planned, now - start, args)
                saved = now
            if over:
                break
        s = summarize_matches(results)
        w = s.win_rate
        print(f"{args.players}p {name}: {hi} wins {100 * w.mean:.1f}% [{100 * w.lo:.1f}, {100 * w.hi:.1f}] of "
              f"{s.games} matches ({s.rounds.mean:.2f} rounds, {time.perf_counter() - start:.0f}s)", flush=True)


def save(path: Path, data: dict[str, Any], name: str, hi: str, lo: str, results: list[MatchResult], planned: int,
         seconds: float, args: argparse.Namespace) -> None:
    """Write the file with this pair as measured so far (a run cut short keeps it)."""
    s = summarize_matches(results)
    a, b = LEVELS[hi], LEVELS[lo]
    data["pairs"][name] = {
        "higher": hi, "lower": lo, **match_summary_dict(a, b, s),
        "planned_matches": planned, "stopped_at_time_budget": len(results) < planned,
        "same_as": f"xeri arena {a} {b} --matches {len(results)} --target {TARGET} --seed {args.seed}"
                   + (f" --players {args.players}" if args.players != 2 else ""),
        "wall_seconds": seconds,
        "duplicates": [[[int(g.won), g.rounds, g.points_a, g.points_b] for g in r.games] for r in results],
        "run": run_meta(args.seed),
    }
    data.update(run_meta(args.seed))
    data["pairs"] = dict(sorted(data["pairs"].items(), key=lambda kv: list(LEVELS).index(kv[1]["lower"])))
    path.write_text(json.dumps(data, indent=1) + "\n")


def pair_rates(data: dict[str, Any]) -> list[PairRate]:
    """Each measured pair's rate for the fit: the share of matches won, its standard error from the interval
    over duplicate matches (the unit that is independent), and the match count."""
    out = []
    for p in data["pairs"].values():
        w = p["match_win_rate"]
        out.append(PairRate(p["higher"], p["lower"], w["mean"], (w["ci95"][1] - w["ci95"][0]) / (2 * Z95),
                            p["games"]))
    return out


def fit(args: argparse.Namespace) -> None:
    out = Path(args.out)
    anchors: dict[str, Any] = {
        "model": {"name": "PlackettLuce", "mu": START_MU, "sigma": START_SIGMA, "beta": BETA, "tau": TAU},
        "pinned": {"level": PINNED, "mu": START_MU}, "formats": {}, "sources": {},
    }
    for fmt in FORMATS:
        players = 2 * team_size(fmt)
        path = result_path(out, players)
        if not path.exists():
            print(f"{fmt}: no {path.name}: not fitted")
            continue
        data = json.loads(path.read_text())
        rates = pair_rates(data)
        try:
            ratings = fit_anchors(fmt, rates)
        except RatingError as exc:
            print(f"{fmt}: {exc}: not fitted")
            continue
        data["fit"] = {
            "format": fmt, "model": anchors["model"], "pinned": anchors["pinned"],
            "anchors": {level: {"mu": r.mu, "sigma": r.sigma, "display": r.display, "deviation": r.deviation}
                        for level, r in ratings.items()},
            # the check: the model's prediction between the fitted anchors is each measured rate
            "predicted": {f"{p.higher}-{p.lower}": predict(fmt, [[ratings[p.higher]] * team_size(fmt),
                                                                 [ratings[p.lower]] * team_size(fmt)])[0]
                          for p in rates},
        }
        path.write_text(json.dumps(data, indent=1) + "\n")
        anchors["formats"][fmt] = {level: {"mu": round(r.mu, 2), "sigma": round(r.sigma, 2)}
                                   for level, r in ratings.items()}
        anchors["sources"][fmt] = {"file": f"benchmarks/results/{path.name}", "commit": data["commit"],
                                   "date": data["date"]}
        print(fmt + ": " + ", ".join(f"{level} {r.display} ±{r.deviation}" for level, r in ratings.items()))
    Path(args.anchors).write_text(json.dumps(anchors, indent=1) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("measure", help="play the adjacent levels' duplicate matches")
    m.add_argument("--players", type=int, choices=(2, 4), default=2)
    m.add_argument("--matches", type=int, default=1000, help="duplicate matches per pair without the master")
    m.add_argument("--master-matches", type=int, default=40, help="duplicate matches for the pair with the master")
    m.add_argument("--pairs", nargs="*", default=None, help="HIGHER-LOWER names (default: every adjacent pair)")
    m.add_argument("--seconds", type=float, default=None,
                   help="stop a pair after this long (the matches played so far are kept and said so)")
    m.add_argument("--seed", type=int, default=2026)
    m.add_argument("--out", default=str(OUT))
    f = sub.add_parser("fit", help="fit the anchors from the result files, write them into the package")
    f.add_argument("--out", default=str(OUT))
    f.add_argument("--anchors", default=str(ANCHORS))
    args = parser.parse_args()
    if args.cmd == "measure":
        measure(args)
    else:
        fit(args)


if __name__ == "__main__":
    main()
