"""``xeri replay FILE``: replay a record through the engine and print it."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .. import record
from ..engine import Round
from ..errors import RecordError
from ..match import Match
from ..notation import Position


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a match record (JSON), as saved by xeri play or xeri serve")
    parser.add_argument("--json", action="store_true", help="print the replayed record as JSON")
    parser.add_argument("--position", metavar="N", type=int,
                        help="print the position (XPN, docs/notation.md) after the match's first N moves")
    parser.add_argument("--seat", type=int, help="with --position: only what this seat knew (default: everything)")


def run(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    match = record.loads(text)
    if args.position is not None:
        print(record.printable(str(position_after(match, args.position, args.seat))))
        return 0
    if args.seat is not None:
        raise RecordError("xeri replay: --seat goes with --position N")
    if args.json:
        print(record.printable_json(json.dumps(record.to_record(match), ensure_ascii=False, indent=1)))
    else:
        # Names and the ruleset's name come from the file: each line is escaped (record.printable).
        print("\n".join(record.printable(line) for line in record.summary_lines(match)))
    return 0


def position_after(match: Match, moves: int, seat: int | None = None) -> Position:
    """The position after the match's first ``moves`` moves, in full or as ``seat`` knew it."""
    if seat is not None and not 0 <= seat < match.ruleset.players:
        raise RecordError(f"xeri replay: seat {seat} is not a seat of a {match.ruleset.players}-player game")
    total = sum(len(r.moves) for r in match.rounds)
    if not 0 <= moves <= total:
        raise RecordError(f"xeri replay: --position is a move count from 0 to {total}, not {moves}")
    for played in match.rounds:
        if moves <= len(played.moves) or played is match.rounds[-1]:
            rnd = Round(match.ruleset, played.dealer, played.deal, check=False)
            for card in played.moves[:moves]:
                rnd.play(card)
            return Position.from_round(rnd) if seat is None else Position.from_view(rnd.view(seat))
        moves -= len(played.moves)
    raise AssertionError("unreachable: the count was checked above")
