"""The ``xeri`` command. Each subcommand lives in its own module, imported only when used."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from .errors import UsageError, XeriError

#: subcommand -> (module with ``configure(parser)`` and ``run(args) -> int``, help line)
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("xeri.commands.play", "play a match in the terminal (the default command)"),
    "history": ("xeri.commands.history", "list saved matches"),
    "rules": ("xeri.commands.rules", "list the rule presets and every option"),
    "replay": ("xeri.commands.replay", "replay a saved match record round by round"),
    "review": ("xeri.commands.review", "weigh one seat's every move with the master: where the points went"),
    "bench": ("xeri.commands.bench", "measure throughput (engine, ...)"),
    "serve": ("xeri.commands.serve", "run the game server for browsers and other clients"),
    "db": ("xeri.commands.db", "the server database: schema upgrades (migrations), backups and restores"),
    "admin": ("xeri.commands.admin", "act on running servers: list or close tables, bar addresses, export, stats"),
    "verify": ("xeri.commands.verify", "check a match's fair shuffle: commitments, seeds and deals"),
    "arena": ("xeri.commands.arena", "pit bots against each other over duplicate deals, or rate a ladder"),
    "exploit": ("xeri.commands.exploit", "train a best response to a bot (MaskablePPO): how much can it be beaten by?"),
}
DEFAULT_COMMAND = "play"

#: top-level module -> the pyproject extra that installs it
_EXTRA_OF = {
    "starlette": "server", "uvicorn": "server", "sqlalchemy": "server", "aiosqlite": "server",
    "asyncpg": "server", "redis": "server", "websockets": "server", "httpx": "server",
    "alembic": "server", "prometheus_client": "server",
    "numba": "fast", "numpy": "fast", "pyspiel": "openspiel", "gymnasium": "rl", "pettingzoo": "rl",
    "ray": "ray", "matplotlib": "plot",
    "torch": "train", "sb3_contrib": "train", "stable_baselines3": "train",
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def build_parser(chosen: str | None) -> argparse.ArgumentParser:
    parser = _Parser(prog="xeri", description="Xeri (Ξερή), the Greek card game.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == chosen:
            importlib.import_module(module).configure(p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list or (args_list[0].startswith("-") and args_list[0] not in ("-h", "--help")):
        args_list.insert(0, DEFAULT_COMMAND)
    chosen = args_list[0] if args_list[0] in COMMANDS else None
    try:
        args = build_parser(chosen).parse_args(args_list)
        if args.command is None:
            build_parser(None).print_help()
            return 0
        module = importlib.import_module(COMMANDS[args.command][0])
        return int(module.run(args))
    except XeriError as exc:
        from .record import printable

        text = printable(str(exc))  # a message may quote a file's text: no control character reaches the terminal
        print(text if text.startswith("xeri") else f"xeri: error: {text}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.split(".")[0] == "xeri":
            raise
        extra = _EXTRA_OF.get((exc.name or "").split(".")[0], "the extra this command needs")
        print(f"xeri: error: {exc.name} is not installed: pip install 'xeri[{extra}]'", file=sys.stderr)
        return 2
    except Exception as exc:  # a bug: one readable line, the traceback on request
        if os.environ.get("XERI_DEBUG"):
            raise
        from .record import printable

        print(printable(f"xeri: internal error: {type(exc).__name__}: {exc} (set XERI_DEBUG=1 for the traceback)"),
              file=sys.stderr)
        return 1


def entry() -> None:
    sys.exit(main())
