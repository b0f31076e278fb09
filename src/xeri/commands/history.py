"""``xeri history``: the saved matches, newest first, read from their headers (no replay)."""

from __future__ import annotations

import argparse
import datetime as dt
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from .. import saves
from ..paths import matches_dir
from ..record import printable
from ..rules import Ruleset


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", help="where matches are saved (default: the user data folder, or $XERI_DATA_DIR)")
    parser.add_argument("--limit", type=int, default=20, help="show at most this many (default 20; 0: all)")


def describe(path: Path) -> dict[str, str]:
    """One saved match as table cells; an unreadable file says why instead of failing the list."""
    try:
        data = saves.read(path)
        return _cells(path, data)
    except (saves.SaveError, KeyError, TypeError, ValueError) as exc:
        when = dt.datetime.fromtimestamp(path.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
        return {"date": when, "players": "?", "ruleset": "?", "score": f"unreadable: {exc}", "finished": "?",
                "file": path.name}


def _cells(path: Path, data: dict[str, Any]) -> dict[str, str]:
    play = data.get(saves.PLAY_KEY) or {}
    started = play.get("started")
    when = (dt.datetime.fromisoformat(started).astimezone() if started
            else dt.datetime.fromtimestamp(path.stat().st_mtime))
    ruleset = Ruleset.from_dict(data["ruleset"])
    names = [str(s["name"]) for s in data["seats"]]
    sides = [" & ".join(names[s] for s in ruleset.side_seats(side)) for side in range(ruleset.sides)]
    result = data["result"]
    score = "-".join(str(int(p)) for p in result["scores"])
    if ruleset.match_end == "rounds":
        score += " (rounds " + "-".join(str(int(w)) for w in result["round_wins"]) + ")"
    winner = result.get("winner")
    finished = f"{sides[int(winner)]} won" if result.get("over") and winner is not None else "unfinished"
    return {"date": when.strftime("%Y-%m-%d %H:%M"), "players": " vs ".join(sides), "ruleset": ruleset.describe(),
            "score": score, "finished": finished, "file": path.name}


def run(args: argparse.Namespace) -> int:
    try:
        folder = matches_dir(args.data_dir)
    except OSError as exc:
        raise saves.SaveError(f"cannot use the data folder {args.data_dir or ''}: {exc}") from None
    files = saves.record_files(folder)
    console = Console(highlight=False, markup=False, emoji=False)
    if not files:
        console.print(printable(f"No saved matches in {folder} yet; start one with: xeri play"))
        return 0
    shown = files if args.limit <= 0 else files[: args.limit]
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column("Date / file", no_wrap=True)
    for title in ("Players", "Ruleset", "Score", "Result"):
        table.add_column(title, overflow="fold")
    for path in shown:
        cells = {k: printable(v) for k, v in describe(path).items()}  # a saved file's text, escaped
        rest = (cells[k] for k in ("players", "ruleset", "score", "finished"))
        table.add_row(f"{cells['date']}\n{cells['file']}", *rest)
    console.print(printable(f"Saved matches in {folder}, newest first:"))
    console.print(table)
    console.print("xeri replay FOLDER/FILE shows one; xeri play --resume continues the last unfinished.")
    if len(shown) < len(files):
        console.print(f"... and {len(files) - len(shown)} older (--limit 0 shows all)")
    return 0
