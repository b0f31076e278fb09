"""``xeri replay FILE``: replay a record through the engine and print it."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .. import record
from ..errors import RecordError


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a match record (JSON), as saved by xeri play or xeri serve")
    parser.add_argument("--json", action="store_true", help="print the replayed record as JSON")


def run(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    match = record.loads(text)
    if args.json:
        print(json.dumps(record.to_record(match), ensure_ascii=False, indent=1))
    else:
        print("\n".join(record.summary_lines(match)))
    return 0
