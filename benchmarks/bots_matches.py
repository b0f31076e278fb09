"""Whole matches between two bots (issue 28): duplicate matches, the match win rate with its 95% interval.

    nice -n 10 python benchmarks/bots_matches.py NAME... [--matches 1000] [--jobs 2] [--seed 2026]

Each pair plays ``--matches`` duplicate matches (the same deal sequence, seats swapped: ``xeri arena A B
--matches N``) and writes ``benchmarks/results/<name>.json``: the ``xeri arena --matches --json`` object, each
duplicate match's games (A won, rounds, points) so that runs can be pooled, and the run's command, commit,
date, machine load and seed. ``master`` plays for the match when the round can change who wins it;
``master:match=0`` is the master as it was (points of the round, always).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from run_meta import run_meta

from xeri import find_ruleset
from xeri.arena.matches import run_matches, summarize_matches
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="+", choices=sorted(PAIRS))
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in args.names:
        a, b, preset, options = PAIRS[name]
        ruleset = find_ruleset(preset, **options)
        start = time.perf_counter()
        results = run_matches(a, b, ruleset, args.matches, args.seed, args.jobs)
        s = summarize_matches(results)
        data = {**match_summary_dict(a, b, s), "ruleset": ruleset.to_dict(), "jobs": args.jobs,
                "wall_seconds": time.perf_counter() - start,
                "duplicates": [[[int(g.won), g.rounds, g.points_a, g.points_b] for g in r.games] for r in results],
                **run_meta(args.seed)}
        (out / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")
        w = s.win_rate
        print(f"{name}: A wins {100 * w.mean:.1f}% [{100 * w.lo:.1f}, {100 * w.hi:.1f}] of {s.games} matches "
              f"({s.rounds.mean:.2f} rounds a match, {data['wall_seconds']:.0f}s)", flush=True)


if __name__ == "__main__":
    main()
