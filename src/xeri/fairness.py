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


def verify_record(data: Mapping[str, Any], match_commitment: str | None = None) -> list[Check]:
    """Check every round of a record that carries a ``fairness`` section.

    The record is first replayed (``record.from_record``), which checks the
    moves, the scores and that each deal follows from its round seed. Every
    finished round must carry its seed, salt and commitment, and a finished
    match its seed and ``fairness.match``; anything missing fails, naming what.
    ``match_commitment`` is the match commitment a player saw before the first
    deal: the record's must be the same one.
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
    listed = fair.get("rounds")
    rounds = {r.get("round"): r for r in listed if isinstance(r, Mapping)} if isinstance(listed, list) else {}
    for i, rdata in enumerate(data["rounds"]):
        number = i + 1
        seed, entry = rdata.get("seed"), rounds.get(number)
        over = match.rounds[i].is_over
        missing = [] if isinstance(entry, Mapping) else ["its entry in fairness.rounds"]
        if isinstance(entry, Mapping) and not _text(entry.get("commitment")):
            missing.append("its commitment")
        if over and seed is None:
            missing.append("its seed")
        if over and isinstance(entry, Mapping) and not _text(entry.get("salt")):
            missing.append("its salt")
        if missing:
            what = "the round is over, but" if over else "the round is not over, and"
            checks.append(Check(False, f"{what} the record lacks {_join(missing)}", number))
            continue
        assert isinstance(entry, Mapping)
        if not over:
            checks.append(Check(True, "not revealed yet (the round is not over)", number))
            continue
        try:
            deal = deal_from_dict(rdata["deal"])
            checks.append(verify_round(match.ruleset, int(rdata["dealer"]), int(seed), str(entry["salt"]),
                                       str(entry["commitment"]), deal, number))
        except (XeriError, KeyError, TypeError, ValueError) as exc:
            checks.append(Check(False, f"unreadable round: {exc}", number))
    checks.append(_match_check(data, fair.get("match"), match.is_over, match_commitment))
    return checks


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _match_check(data: Mapping[str, Any], whole: Any, over: bool, seen: str | None) -> Check:
    """The match seed against the commitment published at the start (and the one a player saw)."""
    published = whole.get("commitment") if isinstance(whole, Mapping) else None
    if seen is not None:
        if not _text(published):
            return Check(False, "the record has no match commitment (fairness.match.commitment) to compare "
                         f"with the one you saw, {seen.strip().lower()}")
        if not hmac.compare_digest(str(published).strip().lower(), seen.strip().lower()):
            return Check(False, f"the record's match commitment {published} is not the one you saw before the "
                         f"first deal, {seen.strip().lower()}")
    missing = []
    if not isinstance(whole, Mapping):
        missing.append("fairness.match")
    else:
        if not _text(published):
            missing.append("the match commitment (fairness.match.commitment)")
        if over and not _text(whole.get("salt")):
            missing.append("the match salt (fairness.match.salt)")
    if over and data.get("seed") is None:
        missing.append("the match seed")
    if missing:
        what = "the match is over, but" if over else "the match is not over, and"
        return Check(False, f"{what} the record lacks {_join(missing)}")
    assert isinstance(whole, Mapping)
    if not over:
        return Check(True, "the match seed is not revealed yet (the match is not over)")
    try:
        ok = hmac.compare_digest(commitment(int(data["seed"]), str(whole["salt"])), str(published).strip().lower())
    except (TypeError, ValueError) as exc:
        return Check(False, f"unreadable match seed or salt: {exc}")
    if not ok:
        return Check(False, "the match seed does not match its commitment")
    saw = " (the one you saw before the first deal)" if seen is not None else ""
    return Check(True, f"the match seed matches the commitment published at the start{saw}, and every round "
                 "seed follows from it")
