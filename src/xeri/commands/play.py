"""``xeri play``: a match against the computer (or a friend) in the terminal."""

from __future__ import annotations

import argparse
import secrets
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from .. import saves
from ..bots import LEVELS, make_bot
from ..bots.registry import LEVEL_MARGINS
from ..errors import UsageError
from ..match import Match
from ..paths import matches_dir
from ..rules import PRESETS, Ruleset, find_ruleset, parse_option_value
from ..tui.frontends import PlainFrontend, RichFrontend
from ..tui.game import Frontend, Game, play_bot_seed

#: pause before each computer move, in seconds (--fast: none)
MOVE_DELAY = 0.8

# Options that shape a new match; --resume takes the saved match's instead.
_NEW_MATCH_ONLY = ("players", "level", "ruleset", "option", "target", "seed", "name", "hotseat")


def default_level() -> str:
    """A level that plays well, answers at once and needs no extra: hard (the rule-based expert), else the last."""
    return "hard" if "hard" in LEVELS else list(LEVELS)[-1]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, choices=(2, 3, 4), help="players at the table (4: partners opposite)")
    margins = "; ".join(f"{k} {v}" for k, v in LEVEL_MARGINS.items())
    parser.add_argument("--level", help=f"the computer's level: {', '.join(LEVELS)} (default {default_level()}), "
                        f"or a bot spec such as random. Measured points a round over the level below: {margins} "
                        "(see xeri rules)")
    parser.add_argument("--ruleset", help=f"rule preset: {', '.join(PRESETS)} (default classic; see xeri rules)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="override a rule option, e.g. --option rounds=3 (repeatable; see xeri rules)")
    parser.add_argument("--target", type=int, help="play to this score (sets match_end=target)")
    parser.add_argument("--seed", type=int, help="seed for the shuffles and the computer's choices")
    parser.add_argument("--name", action="append", default=[], help="your name (with --hotseat: give it twice)")
    parser.add_argument("--fast", action="store_true", help="no pauses between the computer's moves")
    parser.add_argument("--hotseat", action="store_true", help="two people share this terminal")
    parser.add_argument("--resume", nargs="?", const="", metavar="FILE",
                        help="continue the newest unfinished match (or the saved match FILE)")
    parser.add_argument("--data-dir", help="where matches are saved (default: the user data folder, or $XERI_DATA_DIR)")
    parser.add_argument("--no-seen", action="store_true", help="switch off the 'seen' counting aid")


def build_ruleset(args: argparse.Namespace) -> Ruleset:
    options: dict[str, Any] = {}
    for item in args.option:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise UsageError(f"xeri play: --option takes NAME=VALUE, not {item!r}")
        options[name.strip()] = parse_option_value(name.strip(), value)
    if args.players is not None:
        options["players"] = args.players
    if args.target is not None:
        options["target"] = args.target
        options["match_end"] = "target"
    return find_ruleset(args.ruleset or "classic", **options)


def seat_names(ruleset: Ruleset, humans: tuple[int, ...], given: list[str]) -> list[str]:
    if len(given) > len(humans):
        raise UsageError(f"xeri play: --name given {len(given)} times for {len(humans)} player(s) at the keyboard")
    names = [""] * ruleset.players
    for i, seat in enumerate(humans):
        default = "You" if len(humans) == 1 else f"Player {i + 1}"
        names[seat] = given[i].strip() if i < len(given) and given[i].strip() else default
    bots = [s for s in range(ruleset.players) if s not in humans]
    for k, seat in enumerate(bots, 1):
        if len(humans) == 1 and ruleset.players == 4 and seat == 2:
            names[seat] = "Partner"
        elif len(bots) == 1:
            names[seat] = "Computer"
        else:
            names[seat] = f"Computer {k}" if len(humans) > 1 else f"Rival {1 if seat == 1 else 2}"
    return names


def make_frontend(args: argparse.Namespace) -> Frontend:
    """Plain lines when input is not a terminal (scripts, pipes); the drawn table otherwise."""
    if not sys.stdin.isatty():
        return PlainFrontend(sys.stdin, sys.stdout)
    # No readline: it swallows the newline of an empty answer after a prompt it did not
    # print, and the terminal's own line editing (backspace, Ctrl-U) is enough for "10d".
    console = Console(highlight=False, markup=False, emoji=False)
    return RichFrontend(console, delay=0.0 if args.fast else MOVE_DELAY)


def run(args: argparse.Namespace) -> int:
    try:
        folder = matches_dir(args.data_dir)
    except OSError as exc:
        raise saves.SaveError(f"cannot use the data folder {args.data_dir or ''}: {exc}") from None
    if args.resume is not None:
        given = [f"--{k.replace('_', '-')}" for k in _NEW_MATCH_ONLY if getattr(args, k) not in (None, False, [])]
        if given:
            raise UsageError(f"xeri play: --resume continues a saved match with its own settings; drop {given[0]}")
        path = Path(args.resume) if args.resume else saves.newest_unfinished(folder)
        match, setup = saves.load(path)
        if match.is_over:
            raise saves.SaveError(f"the match in {path} is finished; xeri replay {path} shows it")
        return Game(match, setup, make_frontend(args), path, seen_enabled=not args.no_seen).run(resumed=True)

    ruleset = build_ruleset(args)
    level = args.level or default_level()
    make_bot(level, 0)  # reject an unknown level before the match starts
    humans = (0, 1) if args.hotseat else (0,)
    names = seat_names(ruleset, humans, args.name)
    seed = args.seed if args.seed is not None else secrets.randbits(63)
    bots = [s for s in range(ruleset.players) if s not in humans]
    setup = saves.PlaySetup(
        humans=humans,
        levels={s: level for s in bots},
        bot_seeds={s: play_bot_seed(seed, s) for s in bots},  # one-way: no bot can recover the deal
    )
    match = Match(ruleset, seed=seed, names=names)
    game = Game(match, setup, make_frontend(args), saves.new_save_path(folder), seen_enabled=not args.no_seen)
    return game.run()
