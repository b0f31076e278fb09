"""Throughput of each research interface, random play: engine, pyspiel wrapper, PettingZoo, Gymnasium, xeri.fast.

The runners live in ``xeri.bench`` (as those of ``xeri bench``); this script runs them all and keeps the JSON.

    python benchmarks/research_throughput.py --seconds 3 --out benchmarks/results/research_throughput.json
    python benchmarks/research_throughput.py --only xeri_fast --out benchmarks/results/research_fast_policies.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from xeri.bench import (
    engine_rounds_per_second,
    fast_rounds_per_second,
    gym_rounds_per_second,
    pettingzoo_rounds_per_second,
    pyspiel_rounds_per_second,
)


def fast(seconds: float) -> dict[str, float]:
    import numba

    from xeri.rules import find_ruleset

    out: dict[str, float] = {"threads": numba.get_num_threads(), "load_average": os.getloadavg()[0]}
    for name, players, policy in (("classic", 2, "random"), ("classic", 4, "random"), ("cardgames", 2, "random"),
                                  ("classic", 2, "expert"), ("classic", 2, "playout")):
        r = fast_rounds_per_second(find_ruleset(name, players=players), seconds, policy=policy)
        out[f"{name}_{players}p_{policy}_rounds_per_s"] = r["rounds_per_s"]
    numba.set_num_threads(1)
    r = fast_rounds_per_second(find_ruleset("classic"), seconds)
    out["classic_2p_random_rounds_per_s_one_thread"] = r["rounds_per_s"]
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--out", default=None)
    p.add_argument("--only", default=None, help="run only this part (engine, pyspiel_wrapper, ..., xeri_fast)")
    a = p.parse_args()
    result = {"cpus": os.cpu_count()}
    runners = (("engine", engine_rounds_per_second), ("pyspiel_wrapper", pyspiel_rounds_per_second),
               ("pettingzoo_env", pettingzoo_rounds_per_second), ("gymnasium_env_vs_random", gym_rounds_per_second),
               ("xeri_fast", fast))
    for name, fn in runners:
        if a.only and name != a.only:
            continue
        result[name] = fn(a.seconds)
        print(name, json.dumps(result[name]), file=sys.stderr)
    text = json.dumps(result, indent=2)
    print(text)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
