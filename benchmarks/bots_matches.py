"""Whole matches between two bots (issue 28): duplicate matches, the match win rate with its 95% interval.

    nice -n 10 python benchmarks/bots_matches.py NAME... [--matches 1000] [--jobs 2] [--seed 2026]
    nice -n 10 python benchmarks/bots_matches.py NAME --seed 2027 --tag .seed2027 --checkpoint 5 [--resume]
    python benchmarks/bots_matches.py pool NAME FILE...      # runs on other seeds pooled: NAME.pooled.json

Each pair plays ``--matches`` duplicate matches (the same deal sequence, seats swapped: ``xeri arena A B
--matches N``) and writes ``benchmarks/results/<name>.json``: the ``xeri arena --matches --json`` object, each
duplicate match's games (A won, rounds, points) so that runs can be pooled, and the run's command, commit,
date, machine load and seed. ``master`` plays for the match when the round can change who wins it;
``master:match=0`` is the master as it was (points of the round, always).

``--checkpoint K`` writes the file every K duplicate matches, each game's every figure in it (``match_games``),
and ``--resume`` goes on from it: match ``i``'s seed is the ``i``-th drawn from the arena seed, so a stopped and
resumed run plays the matches of one run. ``pool`` pools the duplicate matches of runs of one pair on other
seeds (independent deal sequences) into one estimate.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from run_meta import resumed, run_meta

from xeri import find_ruleset
from xeri.arena import mean_ci
from xeri.arena.matches import MatchGame, MatchResult, MatchTask, play_duplicate_match, summarize_matches
from xeri.arena.play import check_run, deal_seeds, map_work
from xeri.commands.arena import match_summary_dict

#: name -> (bot A, bot B, preset, rule options)
PAIRS: dict[str, tuple[str, str, str, dict[str, Any]]] = {
    "master_match_vs_points.classic51": ("master", "master:match=0", "classic",
                                         {"match_end": "target", "target": 51}),
    "master_match_vs_points.classic101": ("master", "master:match=0", "classic",
                                          {"match_end": "target", "target": 101}),
    "master_match_vs_points.classic_rounds": ("master", "master:match=0", "classic", {}),
    # A match of one round won (a tied round is played again): the round won is all that counts, as in every
    # round of a match decided by rounds won.
    "master_match_vs_points.classic_one_round": ("master", "master:match=0", "classic",
                                                 {"match_end": "rounds", "rounds": 1}),
    "master_match_vs_points.classic51_another_hand": ("master", "master:match=0", "classic",
                                                      {"match_end": "target", "target": 51,
                                                       "tie_rule": "another_hand"}),
}

OUT = Path(__file__).parent / "results"


def encode(r: MatchResult) -> list[list[float]]:
    """A duplicate match's games as plain numbers (``MatchGame``'s fields in order)."""
    return [[float(getattr(g, f)) for f in MatchGame.__dataclass_fields__] for g in r.games]


def decode(index: int, games: list[list[float]]) -> MatchResult:
    return MatchResult(index, tuple(
        MatchGame(bool(won), int(pa), pb, int(rounds), int(rw), sa, int(ma), sb, int(mb))
        for won, pa, pb, rounds, rw, sa, ma, sb, mb in games))


def play(name: str, matches: int, jobs: int, seed: int, out: Path, tag: str, checkpoint: int, resume: bool) -> None:
    """One pair's ``matches`` duplicate matches, written to ``<name><tag>.json`` (every ``checkpoint`` matches)."""
    a, b, preset, options = PAIRS[name]
    ruleset = find_ruleset(preset, **options)
    check_run(a, b, ruleset, ("matches", matches), jobs, "local")
    path = out / f"{name}{tag}.json"
    games, spent, earlier = (resumed(path, a, b, ruleset.to_dict(), seed, "match_games", "matches") if resume
                             else ([], 0.0, []))
    results = [decode(i, g) for i, g in enumerate(games[:matches])]
    seeds = deal_seeds(seed, matches)
    step = checkpoint if checkpoint > 0 else matches
    while len(results) < matches:
        start = time.perf_counter()
        first = len(results)
        tasks = [MatchTask(a, b, ruleset.to_dict(), i, seeds[i]) for i in range(first, min(first + step, matches))]
        results += map_work(play_duplicate_match, tasks, jobs, "local", None, None)
        spent += time.perf_counter() - start
        s = summarize_matches(results)
        data = {**match_summary_dict(a, b, s), "ruleset": ruleset.to_dict(), "jobs": jobs, "wall_seconds": spent,
                "duplicates": [[[int(g.won), g.rounds, g.points_a, g.points_b] for g in r.games] for r in results],
                **run_meta(seed)}
        if checkpoint > 0:
            data["match_games"] = [encode(r) for r in results]
        if earlier:
            data["earlier_runs"] = earlier
        path.write_text(json.dumps(data, indent=1) + "\n")
        w = s.win_rate
        print(f"{name}{tag}: A wins {100 * w.mean:.1f}% [{100 * w.lo:.1f}, {100 * w.hi:.1f}] of {s.games} matches "
              f"({s.rounds.mean:.2f} rounds a match, {spent:.0f}s)", flush=True)


def pool(name: str, files: list[str], out: Path) -> None:
    """Pool the duplicate matches of one pair's runs on distinct seeds into ``<name>.pooled.json``."""
    runs = [json.loads((out / f).read_text()) for f in files]
    first = runs[0]
    if any((r["a"], r["b"], r["ruleset"]) != (first["a"], first["b"], first["ruleset"]) for r in runs):
        raise SystemExit("not one pair under one set of rules: not pooled")
    if len({r["seed"] for r in runs}) != len(runs):
        raise SystemExit("two runs on one seed play the same matches: not pooled")
    dups = [d for r in runs for d in r["duplicates"]]

    def per_pair(k: int) -> list[float]:
        return [sum(g[k] for g in d) / len(d) for d in dups]

    win, rounds = mean_ci(per_pair(0)), mean_ci(per_pair(1))
    margin = mean_ci([sum(g[2] - g[3] for g in d) / len(d) for d in dups])
    data = {"a": first["a"], "b": first["b"], "matches": len(dups), "games": sum(len(d) for d in dups),
            "match_win_rate": win.to_dict(), "margin_per_match": margin.to_dict(), "rounds_per_match": rounds.to_dict(),
            "ruleset": first["ruleset"], "pooled": [{k: r.get(k) for k in ("seed", "matches", "commit", "command")}
                                                    for r in runs], **run_meta(first["seed"])}
    (out / f"{name}.pooled.json").write_text(json.dumps(data, indent=1) + "\n")
    print(f"{name} pooled: A wins {100 * win.mean:.1f}% [{100 * win.lo:.1f}, {100 * win.hi:.1f}] of "
          f"{data['games']} matches ({len(dups)} duplicates, {len(runs)} seeds)")


def main() -> None:
    if sys.argv[1:2] == ["pool"]:
        parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
        parser.add_argument("what")
        parser.add_argument("name", choices=sorted(PAIRS))
        parser.add_argument("files", nargs="+")
        parser.add_argument("--out", default=str(OUT))
        args = parser.parse_args()
        pool(args.name, args.files, Path(args.out))
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="+", choices=sorted(PAIRS))
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", default=str(OUT))
    parser.add_argument("--tag", default="", help="added to the file names (a run on another seed)")
    parser.add_argument("--checkpoint", type=int, default=0, help="write the file every so many duplicate matches")
    parser.add_argument("--resume", action="store_true", help="go on from the file a --checkpoint run wrote")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in args.names:
        play(name, args.matches, args.jobs, args.seed, out, args.tag, args.checkpoint, args.resume)


if __name__ == "__main__":
    main()
