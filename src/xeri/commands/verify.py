"""``xeri verify``: check a served match's fair shuffle, from its record or from one round's reveal."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..errors import XeriError


class VerifyError(XeriError):
    """Input to ``xeri verify`` that cannot be read."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", help="a match record downloaded from xeri serve (JSON)")
    one = parser.add_argument_group("one round (instead of a file)")
    one.add_argument("--seed", type=int, help="the revealed round seed")
    one.add_argument("--salt", help="the revealed salt (hex)")
    one.add_argument("--commitment", help="the commitment published at the deal (hex)")
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
        checks = fairness.verify_record(data)
        for c in checks:
            where = f"round {c.round}" if c.round else "match"
            print(f"{'ok  ' if c.ok else 'FAIL'} {where}: {c.detail}")
        ok = bool(checks) and all(c.ok for c in checks)
        print("verified: every revealed deal was fixed before it was played" if ok else "NOT verified")
        return 0 if ok else 1
    if args.seed is None or not args.salt or not args.commitment:
        raise VerifyError("give a record FILE, or --seed, --salt and --commitment (with --ruleset and --dealer)")
    from ..cards import format_cards
    from ..rules import find_ruleset

    options = {"players": args.players} if args.players else {}
    ruleset = find_ruleset(args.ruleset, **options)
    if not 0 <= args.dealer < ruleset.players:
        raise VerifyError(f"--dealer must be a seat 0..{ruleset.players - 1}")
    check = fairness.verify_round(ruleset, args.dealer, args.seed, args.salt, args.commitment)
    print(f"{'ok' if check.ok else 'FAIL'}: {check.detail}")
    if check.ok and check.deal is not None:
        for seat, hand in enumerate(check.deal.hands):
            print(f"  seat {seat} hand: {format_cards(hand)}")
        print(f"  initial pile:  {format_cards(check.deal.pile)}")
        print(f"  talon:         {format_cards(check.deal.talon)}")
    return 0 if check.ok else 1
