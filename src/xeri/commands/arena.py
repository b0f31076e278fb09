"""``xeri arena BOT_A BOT_B``, ``--matches N`` and ``xeri arena --ladder BOT...``: bots play duplicate deals or
whole duplicate matches."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any

from rich.console import Console
from rich.table import Table

from ..arena import BACKENDS, ArenaError, run_deals, run_ladder, summarize
from ..arena.ladder import LadderResult
from ..arena.matches import MatchSummary, run_matches, summarize_matches
from ..arena.stats import Summary
from ..rules import Ruleset, find_ruleset, parse_option_value


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("bots", nargs="*", metavar="BOT", help="two bot specs, e.g. expert ismcts:iterations=2000")
    parser.add_argument("--ladder", nargs="+", metavar="BOT", help="rate every bot against every other")
    parser.add_argument("--deals", type=int, default=None,
                        help="duplicate deals (each played once per side; default 200)")
    parser.add_argument("--matches", type=int, default=None,
                        help="play N duplicate whole matches instead of deals (the same deal sequence with the "
                             "seats swapped), to the ruleset's match end: -o match_end=target -o target=51, "
                             "-o tie_rule=..., or --target")
    parser.add_argument("--target", type=int, default=None, help="matches to this score (sets match_end=target)")
    parser.add_argument("--seed", type=int, default=0, help="arena seed: fixes every deal and bot (default 0)")
    parser.add_argument("--ruleset", default="classic", help="rule preset (default classic)")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                        help="override a rule option (repeatable), e.g. -o exposed_bottom=true")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4),
                        help="2; 3 (bot A at one seat, bot B at the other two, A at each seat in turn); "
                             "or 4 in two teams")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (default: all cores)")
    parser.add_argument("--backend", choices=BACKENDS, default="local", help="where deals run (default local)")
    parser.add_argument("--address", default=None, help="Ray cluster address for --backend ray")
    parser.add_argument("--plot", metavar="FILE", help="with --ladder: write the ratings as FILE (.svg or .png)")
    parser.add_argument("--json", action="store_true", help="print one JSON object and no progress bar")


def _ruleset(args: argparse.Namespace) -> Ruleset:
    options: dict[str, Any] = {"players": args.players}
    for item in args.option:
        key, eq, value = item.partition("=")
        if not eq:
            raise ArenaError(f"bad --option {item!r}: write KEY=VALUE")
        options[key.strip()] = parse_option_value(key.strip(), value)
    if args.target is not None:
        options["target"] = args.target
        options["match_end"] = "target"
    return find_ruleset(args.ruleset, **options)


@contextlib.contextmanager
def _progress(total: int, label: str, show: bool) -> Iterator[Callable[[int], None]]:
    if not show:
        yield lambda k: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=Console(stderr=True), transient=True,
    ) as bar:
        task = bar.add_task(label, total=total)
        yield lambda k: bar.advance(task, k)


def _ci(lo: float, hi: float, fmt: str) -> str:
    return f"[{lo:{fmt}}, {hi:{fmt}}]"


def summary_dict(a: str, b: str, s: Summary) -> dict[str, Any]:
    return {
        "a": a,
        "b": b,
        "deals": s.deals,
        "rounds": s.rounds,
        "margin": s.margin.to_dict(),
        "win_rate": s.win_rate.to_dict(),
        "tie_rate": s.tie_rate,
        "points_per_round": {"a": s.points_a, "b": s.points_b},
        "xeris_per_round": {"a": s.xeris_a, "b": s.xeris_b},
        "cards_per_round": {"a": s.cards_a, "b": s.cards_b},
        "seconds_per_move": {"a": s.seconds_per_move_a, "b": s.seconds_per_move_b},
    }


def _print_summary(a: str, b: str, s: Summary, ruleset: Ruleset, seed: int) -> None:
    console = Console()
    table = Table(title=f"{a} vs {b}: {s.deals} duplicate deals, {s.rounds} rounds ({ruleset.describe()}, seed {seed})")
    table.add_column("per round")
    table.add_column(a, justify="right")
    table.add_column(b, justify="right")
    table.add_column("95% CI (A)", justify="right")
    table.add_row("margin (A - B)", f"{s.margin.mean:+.2f}", "", _ci(s.margin.lo, s.margin.hi, "+.2f"))
    table.add_row("rounds won", f"{s.win_rate.mean:.1%}", f"{1 - s.win_rate.mean - s.tie_rate:.1%}",
                  _ci(s.win_rate.lo, s.win_rate.hi, ".1%"))
    table.add_row("points", f"{s.points_a:.2f}", f"{s.points_b:.2f}", "")
    table.add_row("xeris", f"{s.xeris_a:.3f}", f"{s.xeris_b:.3f}", "")
    table.add_row("cards captured", f"{s.cards_a:.2f}", f"{s.cards_b:.2f}", "")
    table.add_row("ms per move", f"{1000 * s.seconds_per_move_a:.2f}", f"{1000 * s.seconds_per_move_b:.2f}", "")
    console.print(table)
    if s.tie_rate:
        console.print(f"tied rounds: {s.tie_rate:.1%}")


def ladder_dict(result: LadderResult) -> dict[str, Any]:
    return {
        "bots": list(result.bots),
        "deals": result.deals,
        "ratings": [r.to_dict() for r in result.ranked()],
        "pairs": [summary_dict(a, b, s) for a, b, s in result.pairs],
    }


def _print_ladder(result: LadderResult) -> None:
    console = Console()
    table = Table(title=f"ladder: {result.deals} duplicate deals per pair; Bradley–Terry on rounds won, Elo scale")
    table.add_column("rank", justify="right")
    table.add_column("bot")
    table.add_column("rating", justify="right")
    table.add_column("95% CI", justify="right")
    for k, r in enumerate(result.ranked(), 1):
        table.add_row(str(k), r.bot, f"{r.elo:+.0f}", _ci(r.lo, r.hi, "+.0f"))
    console.print(table)
    pairs = Table(title="pairs (margin of the first bot, points per round)")
    for col in ("first", "second", "margin", "95% CI", "rounds won"):
        pairs.add_column(col, justify="right" if col not in ("first", "second") else "left")
    for a, b, s in result.pairs:
        pairs.add_row(a, b, f"{s.margin.mean:+.2f}", _ci(s.margin.lo, s.margin.hi, "+.2f"), f"{s.win_rate.mean:.1%}")
    console.print(pairs)


def match_summary_dict(a: str, b: str, s: MatchSummary) -> dict[str, Any]:
    return {"a": a, "b": b, **s.to_dict()}


def _match_end(ruleset: Ruleset) -> str:
    if ruleset.match_end == "rounds":
        return f"most of {ruleset.rounds} rounds won"
    return f"first to {ruleset.target}, tie rule {ruleset.tie_rule}"


def _print_matches(a: str, b: str, s: MatchSummary, ruleset: Ruleset, seed: int) -> None:
    console = Console()
    table = Table(title=f"{a} vs {b}: {s.matches} duplicate matches, {s.games} matches, {_match_end(ruleset)} "
                        f"({ruleset.describe()}, seed {seed})")
    table.add_column("per match")
    table.add_column(a, justify="right")
    table.add_column(b, justify="right")
    table.add_column("95% CI (A)", justify="right")
    table.add_row("matches won", f"{s.win_rate.mean:.1%}", f"{1 - s.win_rate.mean:.1%}",
                  _ci(s.win_rate.lo, s.win_rate.hi, ".1%"))
    table.add_row("points", f"{s.points_a:.1f}", f"{s.points_b:.1f}", "")
    table.add_row("margin (A - B)", f"{s.margin.mean:+.1f}", "", _ci(s.margin.lo, s.margin.hi, "+.1f"))
    table.add_row("rounds", f"{s.rounds.mean:.2f}", "", _ci(s.rounds.lo, s.rounds.hi, ".2f"))
    table.add_row("ms per move", f"{1000 * s.seconds_per_move_a:.2f}", f"{1000 * s.seconds_per_move_b:.2f}", "")
    console.print(table)


def _run_matches(args: argparse.Namespace, ruleset: Ruleset, show: bool) -> int:
    if args.ladder:
        raise ArenaError("--matches plays two bots: give them as two arguments, not --ladder")
    if args.deals is not None:
        raise ArenaError("give either --deals or --matches, not both")
    if len(args.bots) != 2:
        raise ArenaError("name two bots (xeri arena BOT_A BOT_B --matches N)")
    a, b = args.bots
    with _progress(args.matches, f"{a} vs {b}", show) as tick:
        results = run_matches(a, b, ruleset, args.matches, args.seed, args.jobs, args.backend, args.address, tick)
    s = summarize_matches(results)
    if args.json:
        print(json.dumps({**match_summary_dict(a, b, s), "ruleset": ruleset.to_dict(), "seed": args.seed}))
    else:
        _print_matches(a, b, s, ruleset, args.seed)
    return 0


def run(args: argparse.Namespace) -> int:
    ruleset = _ruleset(args)
    show = not args.json and sys.stderr.isatty()
    if args.address is not None and args.backend != "ray":
        raise ArenaError("--address is for --backend ray")
    if args.plot and not args.plot.lower().endswith((".svg", ".png")):
        raise ArenaError(f"--plot writes .svg or .png files, not {args.plot!r}")
    if args.matches is not None:
        if args.plot:
            raise ArenaError("--plot draws a ladder: use it with --ladder")
        return _run_matches(args, ruleset, show)
    deals = 200 if args.deals is None else args.deals
    if args.ladder:
        if args.bots:
            raise ArenaError("give the bots either as two arguments or after --ladder, not both")
        total = deals * len(args.ladder) * (len(args.ladder) - 1) // 2
        with _progress(total, "ladder", show) as tick:
            result = run_ladder(args.ladder, ruleset, deals, args.seed, args.jobs, args.backend, args.address,
                                tick)
        if args.plot:
            from ..arena.plot import plot_ladder

            plot_ladder(result, args.plot)
        if args.json:
            print(json.dumps({**ladder_dict(result), "ruleset": ruleset.to_dict(), "seed": args.seed}))
        else:
            _print_ladder(result)
            if args.plot:
                print(f"ladder picture written to {args.plot}")
        return 0
    if args.plot:
        raise ArenaError("--plot draws a ladder: use it with --ladder")
    if len(args.bots) != 2:
        raise ArenaError("name two bots (xeri arena BOT_A BOT_B), or use --ladder BOT...")
    a, b = args.bots
    with _progress(deals, f"{a} vs {b}", show) as tick:
        results = run_deals(a, b, ruleset, deals, args.seed, args.jobs, args.backend, args.address, tick)
    s = summarize(results)
    if args.json:
        print(json.dumps({**summary_dict(a, b, s), "ruleset": ruleset.to_dict(), "seed": args.seed}))
    else:
        _print_summary(a, b, s, ruleset, args.seed)
    return 0
