"""Strength measurements for docs/reference/bots-measurements.md: arena pairs over duplicate deals, saved as JSON.

    python benchmarks/bots_strength.py PAIR_NAME... [--deals 1000] [--jobs 2] [--seed 2026]

Each pair is written to ``benchmarks/results/<name>.classic.2p[SUFFIX].json`` (``greedy_vs_random.classic.2p.json``:
what it measures, at which table; the same object ``xeri arena --json`` prints, plus the wall time it took).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from run_meta import run_meta

from xeri import find_ruleset
from xeri.arena import run_deals, summarize
from xeri.commands.arena import summary_dict

#: The search budget of the strength chain: fixed playouts, so results do not depend on machine load.
SEARCH = "pimc:iterations=500"

PAIRS: dict[str, tuple[str, str]] = {
    "greedy_vs_random": ("greedy", "random"),
    "expert_vs_greedy": ("expert", "greedy"),
    "pimc_vs_expert": (SEARCH, "expert"),
    "ismcts_vs_expert": ("ismcts:iterations=500", "expert"),
    "pimc_vs_ismcts": (SEARCH, "ismcts:iterations=500"),
    "pimc_vs_greedy": (SEARCH, "greedy"),
    "oracle_vs_greedy": ("oracle-cheater:iterations=500", "greedy"),
    "oracle_vs_pimc": ("oracle-cheater:iterations=500", SEARCH),
    "playout_vs_expert": ("playout", "expert"),
    "pimc3000_vs_pimc": ("pimc:iterations=3000", SEARCH),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("pairs", nargs="+", choices=sorted(PAIRS))
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", default=str(Path(__file__).parent / "results"))
    parser.add_argument("--suffix", default="", help="appended to the file names (a repeat: .seed2027)")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    ruleset = find_ruleset("classic")
    for name in args.pairs:
        a, b = PAIRS[name]
        start = time.perf_counter()
        results = run_deals(a, b, ruleset, args.deals, args.seed, args.jobs)
        data = {**summary_dict(a, b, summarize(results)), "seed": args.seed, "ruleset": ruleset.to_dict(),
                "jobs": args.jobs, "wall_seconds": time.perf_counter() - start, **run_meta(args.seed)}
        (out / f"{name}.classic.2p{args.suffix}.json").write_text(json.dumps(data, indent=2) + "\n")
        m = data["margin"]
        print(f"{name}: margin {m['mean']:+.2f} [{m['ci95'][0]:+.2f}, {m['ci95'][1]:+.2f}] "
              f"win {data['win_rate']['mean']:.3f} ({data['wall_seconds']:.0f}s)", flush=True)


if __name__ == "__main__":
    main()
