"""``xeri bench TARGET``: throughput figures (rounds per second and more)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

from ..errors import XeriError

BenchFn = Callable[[argparse.Namespace], dict[str, float]]


def _engine(args: argparse.Namespace) -> dict[str, float]:
    from ..bench import engine_rounds_per_second
    from ..rules import find_ruleset

    return engine_rounds_per_second(args.seconds, find_ruleset(args.ruleset, players=args.players), args.seed)


def _fast(args: argparse.Namespace) -> dict[str, float]:
    from ..bench import fast_rounds_per_second
    from ..rules import find_ruleset

    return fast_rounds_per_second(find_ruleset(args.ruleset, players=args.players), args.seconds, args.seed)


def _vec(args: argparse.Namespace) -> dict[str, float]:
    from ..bench import vec_steps_per_second

    return vec_steps_per_second(args.seconds, args.batch, args.ruleset, args.players, args.opponent, args.seed,
                                args.parallel)


def _ismcts(args: argparse.Namespace) -> dict[str, float]:
    from ..bench import search_iterations_per_second
    from ..rules import find_ruleset

    try:
        return search_iterations_per_second(
            args.seconds, find_ruleset(args.ruleset, players=args.players), args.seed, rollout=args.rollout
        )
    except ValueError as exc:
        raise XeriError(str(exc)) from None


TARGETS: dict[str, tuple[BenchFn, str]] = {
    "engine": (_engine, "random rounds through the public engine"),
    "ismcts": (_ismcts, "ISMCTS playouts per second on one core (1000 a move)"),
    "fast": (_fast, "random rounds through the compiled batch simulator (xeri.fast)"),
    "vec": (_vec, "env steps/s of the vectorised env, beside the Gym env and PettingZoo's texas_holdem_v4"),
}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", choices=sorted(TARGETS), help="what to measure")
    parser.add_argument("--seconds", type=float, default=3.0, help="how long to measure (default 3)")
    parser.add_argument("--ruleset", default="classic", help="rule preset (default classic)")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rollout", default="smart", choices=("smart", "fast", "compiled"),
                        help="ismcts playouts: the Python policy (smart, fast) or the numba simulator (compiled)")
    parser.add_argument("--batch", type=int, default=1024, help="vec: games stepped together (default 1024)")
    parser.add_argument("--opponent", default="random", choices=("random", "greedy", "expert"),
                        help="vec: the other seats (default random)")
    parser.add_argument("--parallel", action="store_true",
                        help="vec: step the games on numba's threads (NUMBA_NUM_THREADS); the same games")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    if args.seconds <= 0:
        raise XeriError("--seconds must be positive")
    if args.batch < 1:
        raise XeriError("--batch must be at least 1")
    fn, label = TARGETS[args.target]
    result = fn(args)
    if args.json:
        print(json.dumps({"target": args.target, **result}))
    else:
        print(f"{args.target}: {label}")
        for key, value in result.items():
            print(f"  {key:<14} {value:,.1f}" if isinstance(value, float) else f"  {key:<14} {value}")
    return 0
