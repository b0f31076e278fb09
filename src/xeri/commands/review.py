"""``xeri review FILE``: where the points went, move by move, for one seat (its own information only)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from ..errors import RecordError
from ..record import printable, printable_json
from ..review import MatchReview, MoveReview, ReviewError, load_record, review_record

GRADE_STYLE = {"forced": "dim", "best": "green", "good": "green", "inaccuracy": "yellow", "mistake": "dark_orange",
               "blunder": "bold red"}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a match record (JSON): saved by xeri play, or downloaded from xeri serve")
    parser.add_argument("--seat", type=int, default=None,
                        help="the seat to review (default: the person's seat in a saved match, else seat 0)")
    parser.add_argument("--iterations", type=int, default=None,
                        help="playouts per move for the master's evaluation (default: the master's own budget)")
    parser.add_argument("--json", action="store_true", help="print the review as JSON")


def run(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text file, so not a match record") from None
    if args.iterations is not None and args.iterations < 1:
        raise ReviewError("--iterations must be a positive number of playouts")
    data = load_record(text)
    err = Console(stderr=True, highlight=False)
    if err.is_terminal:
        with Progress(TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=err, transient=True) as bar:
            task = bar.add_task("review", total=None)
            result = review_record(data, args.seat, iterations=args.iterations,
                                   progress=lambda done, total: bar.update(task, completed=done, total=total))
    else:
        result = review_record(data, args.seat, iterations=args.iterations)
    if args.json:
        print(printable_json(json.dumps(result.to_dict(), ensure_ascii=False, indent=1)))
    else:
        show(result, Console(highlight=False, emoji=False, file=sys.stdout))
    return 0


def _values(move: MoveReview) -> str:
    return "  ".join(f"{card} {value:+.1f}" for card, value in move.values) if move.values else "(forced)"


def _where(move: MoveReview) -> str:
    return f"round {move.round}, move {move.move}"


def show(result: MatchReview, console: Console) -> None:
    # The seat's name and every move come from the file: escaped (record.printable) before Rich sees them.
    console.print(Text(printable(f"Review of {result.name} (seat {result.seat}), weighed by {result.evaluator}: "
                                 "the master's expected round margin for each card, from this seat's information "
                                 "only"), style="bold"))
    for rnd in result.rounds:
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, title=f"Round {rnd.number}",
                      title_justify="left")
        table.add_column("Move", justify="right", no_wrap=True)
        table.add_column("Played", no_wrap=True)
        table.add_column("Lost", justify="right", no_wrap=True)
        table.add_column("Each card's expected points", overflow="fold")
        table.add_column("Why", overflow="fold")
        for m in rnd.moves:
            style = GRADE_STYLE.get(m.grade, "")
            lost = "" if m.forced else f"{m.lost:.1f}"
            table.add_row(str(m.move), Text(printable(str(m.played)), style=style), Text(lost, style=style),
                          printable(_values(m)), Text(printable(m.reason), style=style))
        console.print(table)
        grades = ", ".join(f"{n} {g}{'s' if n > 1 else ''}" for g, n in rnd.to_dict()["grades"].items() if n)
        margin = "" if rnd.margin is None else f"; the round's margin {rnd.margin:+.1f}"
        console.print(f"Round {rnd.number}: {rnd.lost:.1f} points lost over {len(rnd.moves)} moves"
                      f"{f' ({grades})' if grades else ''}{margin}")
        console.print()
    per_round = ", ".join(f"round {r.number} {r.lost:.1f}" for r in result.rounds)
    console.print(Text(f"Match: {result.lost:.1f} points lost over {len(result.moves)} moves ({per_round})",
                       style="bold"))
    if result.costliest:
        console.print("The costliest moves:")
        for m in result.costliest:
            console.print(Text(printable(f"  {_where(m)}: lost {m.lost:.1f}. {m.reason}"),
                               style=GRADE_STYLE.get(m.grade, "")))
    else:
        console.print("No move lost points against the master's evaluation.")
