"""Commit-and-reveal for shuffles: a player can check that a round's deal was fixed in advance.

At the deal the server publishes ``commitment(seed, salt)``, the SHA-256 of the
round's seed and a secret salt. After the round it reveals both; anyone can
then recompute the commitment and the deal (``shuffle_and_deal`` with
``random.Random(seed)``) and compare it with what was played. See
docs/fairness.md. Stdlib only, so a checker needs nothing but this package.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .engine import Deal, shuffle_and_deal
from .errors import RecordError, XeriError
from .rules import Ruleset

SCHEME = "sha256(xeri-v1:{seed}:{salt})"


class FairnessError(XeriError):
    """Input to a fairness check that cannot be read (not a failed check: that is a result)."""


def commitment(seed: int, salt: str) -> str:
    """The published commitment to ``seed``: hex SHA-256 of ``xeri-v1:{seed}:{salt}``."""
    return hashlib.sha256(f"xeri-v1:{int(seed)}:{salt}".encode()).hexdigest()


def new_key() -> str:
    """A table's secret salt key (hex): every salt of the table is derived from it."""
    return secrets.token_hex(32)


def salt_for(key: str, label: str) -> str:
    """The salt of one commitment (``"match"`` or ``"round:3"``), derived so that none needs storing.

    Revealing one salt says nothing about the key or the other salts (HMAC-SHA256).
    """
    return hmac.new(bytes.fromhex(key), label.encode(), hashlib.sha256).hexdigest()


def deal_for(ruleset: Ruleset, dealer: int, seed: int) -> Deal:
    """The deal a round seed makes: the same call the engine uses."""
    return shuffle_and_deal(ruleset, dealer, random.Random(seed))


@dataclass(frozen=True)
class Check:
    """The outcome of one check: ``ok`` and a sentence saying why."""

    ok: bool
    detail: str
    round: int | None = None
    deal: Deal | None = field(default=None, compare=False)


def verify_round(
    ruleset: Ruleset, dealer: int, seed: int, salt: str, published: str, deal: Deal | None = None,
    number: int | None = None,
) -> Check:
    """Check a revealed round: the commitment matches, and (if given) the deal follows from the seed."""
    expected = commitment(seed, salt)
    if not hmac.compare_digest(expected, published.strip().lower()):
        return Check(False, f"the commitment does not match: sha256 of the seed and salt is {expected}", number)
    made = deal_for(ruleset, dealer, seed)
    if deal is not None and deal != made:
        return Check(False, "the commitment matches, but the deal played is not the one the seed makes",
                     number, made)
    what = "the deal played follows from the seed" if deal is not None else "the seed makes the deal returned"
    return Check(True, f"the commitment matches the seed and salt, and {what}", number, made)


def verify_record(data: Mapping[str, Any]) -> list[Check]:
    """Check every revealed round of a record that carries a ``fairness`` section.

    The record is first replayed (``record.from_record``), which checks the
    moves, the scores and that each deal follows from its round seed.
    """
    from .record import deal_from_dict, from_record

    fair = data.get("fairness")
    if not isinstance(fair, Mapping):
        raise FairnessError("the record has no 'fairness' section (download it from xeri serve)")
    try:
        match = from_record(data)
    except RecordError as exc:
        return [Check(False, f"the record does not replay: {exc}")]
    checks: list[Check] = []
    rounds = {r.get("round"): r for r in fair.get("rounds", []) if isinstance(r, Mapping)}
    for i, rdata in enumerate(data["rounds"]):
        number = i + 1
        seed, entry = rdata.get("seed"), rounds.get(number)
        if entry is None:
            checks.append(Check(False, "no commitment was recorded for this round", number))
            continue
        if seed is None or entry.get("salt") is None:
            checks.append(Check(True, "not revealed yet (the round is not over)", number))
            continue
        try:
            deal = deal_from_dict(rdata["deal"])
            checks.append(verify_round(match.ruleset, int(rdata["dealer"]), int(seed), str(entry["salt"]),
                                       str(entry.get("commitment", "")), deal, number))
        except (XeriError, KeyError, TypeError, ValueError) as exc:
            checks.append(Check(False, f"unreadable round: {exc}", number))
    whole = fair.get("match")
    if isinstance(whole, Mapping) and data.get("seed") is not None and whole.get("salt") is not None:
        ok = hmac.compare_digest(commitment(int(data["seed"]), str(whole["salt"])), str(whole.get("commitment")))
        checks.append(Check(ok, "the match seed matches the commitment published at the start, and every "
                            "round seed follows from it" if ok else "the match seed does not match its commitment"))
    return checks
