"""``xeri verify``: check a served match's fair shuffle, from its record or from one round's reveal."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ..errors import XeriError


class VerifyError(XeriError):
    """Input to ``xeri verify`` that cannot be read."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", help="a match record downloaded from xeri serve (JSON)")
    parser.add_argument("--commitment", metavar="HASH",
                        help="with FILE: the match commitment you saw at the table before the first deal; "
                        "for one round: the commitment published at its deal (hex)")
    one = parser.add_argument_group("one round (instead of a file)")
    one.add_argument("--seed", type=int, help="the revealed round seed")
    one.add_argument("--salt", help="the revealed salt (hex)")
    one.add_argument("--dealer", type=int, default=0, help="the round's dealer seat (default 0)")
    one.add_argument("--ruleset", default="classic", help="the preset (default classic)")
    one.add_argument("--players", type=int, default=None, help="number of players, if not the preset's")


def run(args: argparse.Namespace) -> int:
    from .. import fairness

    if args.file:
        path = Path(args.file)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise VerifyError(f"cannot read {path}: {exc.strerror}") from None
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise VerifyError(f"{path} is not a JSON record") from None
        if not isinstance(data, dict):
            raise VerifyError(f"{path} is not a match record")
        if args.seed is not None or args.salt:
            raise VerifyError("give a record FILE, or --seed and --salt for one round, not both")
        seen = args.commitment
        if seen is not None and not _is_hash(seen):
            raise VerifyError(f"--commitment must be the 64 hex digits shown at the table, not {seen!r}")
        verdict = fairness.verify_match(data, seen)
        # Everything printed comes from the file: each line is escaped (record.printable), so no control
        # character in a move, a name or a commitment can rewrite the terminal's lines.
        _say(f"scheme {verdict.scheme}: the match commitment binds {verdict.binds}")
        for c in verdict.checks:
            where = f"round {c.round}" if c.round else "match"
            _say(f"{'ok  ' if c.ok else 'FAIL'} {where}: {c.detail}")
        for seat in verdict.withheld:
            _say(f"seat {seat}: name withheld (the account was deleted); the record shows it as "
                 f"{_name_of(data, seat)}, which is not the name bound")
        if verdict.ok and seen is None:
            _say("(give --commitment HASH, the match commitment shown at the table, to tie the record to it)")
        if verdict.ok:
            bound = "" if verdict.scheme != fairness.SCHEME_V1 else " (scheme v1: its names and ruleset are not bound)"
            if verdict.forfeit is not None:
                f = verdict.forfeit
                _say(f"verified: every revealed deal was fixed before it was played, and the record ends the match: "
                     f"ended by forfeit: seat {f.seat} ({f.reason}), side {f.winner} wins{bound}")
            else:
                _say(f"verified: every revealed deal was fixed before it was played, and the record ends the "
                     f"match{bound}")
        elif verdict.replayed and not verdict.finished and all(c.ok for c in verdict.checks[:-1]):
            _say("NOT verified: the record is unfinished (it does not end the match)")
        else:
            _say("NOT verified")
        return 0 if verdict.ok else 1
    if args.seed is None or not args.salt or not args.commitment:
        raise VerifyError("give a record FILE, or --seed, --salt and --commitment (with --ruleset and --dealer)")
    from ..cards import format_cards
    from ..rules import find_ruleset

    options = {"players": args.players} if args.players else {}
    ruleset = find_ruleset(args.ruleset, **options)
    if not 0 <= args.dealer < ruleset.players:
        raise VerifyError(f"--dealer must be a seat 0..{ruleset.players - 1}")
    check = fairness.verify_round(ruleset, args.dealer, args.seed, args.salt, args.commitment)
    _say(f"{'ok' if check.ok else 'FAIL'}: {check.detail}")
    if check.ok and check.deal is not None:
        for seat, hand in enumerate(check.deal.hands):
            print(f"  seat {seat} hand: {format_cards(hand)}")
        print(f"  initial pile:  {format_cards(check.deal.pile)}")
        print(f"  talon:         {format_cards(check.deal.talon)}")
    return 0 if check.ok else 1


def _say(line: str) -> None:
    from ..record import printable

    print(printable(line))


def _name_of(data: dict[str, Any], seat: int) -> str:
    seats = data.get("seats")
    entry = seats[seat] if isinstance(seats, list) and seat < len(seats) else None
    return repr(str(entry.get("name"))) if isinstance(entry, dict) else "nothing"


def _is_hash(text: str) -> bool:
    value = text.strip().lower()
    return len(value) == 64 and all(c in "0123456789abcdef" for c in value)
