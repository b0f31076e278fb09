"""Commit-and-reveal for shuffles: a player can check that a round's deal was fixed in advance.

At the deal the server publishes ``commitment(seed, salt)``, the SHA-256 of the
round's seed and a secret salt. After the round it reveals both; anyone can
then recompute the commitment and the deal (``shuffle_and_deal`` with
``random.Random(seed)``) and compare it with what was played. See
docs/fairness.md. Stdlib only, so a checker needs nothing but this package.

Two schemes of the match commitment exist. ``xeri-v1`` (records before issue 26)
hashes the match seed alone, so a record's names, ruleset and length were not
bound; ``xeri-v2`` hashes the seed with the ruleset and every option, the first
dealer and each seat's name (``match_commitment``). ``xeri-v3`` (issue 42) binds the same, but each
seat's name as a salted hash (``name_hash``, its salt revealed with the record): a record whose name is
withheld (its account deleted) carries that seat's hash instead of its salt, and still verifies, saying so.
Either way a record that does not end the match is reported unfinished, never verified. A match ends by its score
or by a rated seat's forfeit (the record's ``end``, ``record.forfeit_of``): a forfeit's record stops in the round in
play, reveals its seed and salt, and is verified as ended by that forfeit.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .engine import Deal, shuffle_and_deal
from .errors import RecordError, XeriError
from .match import Match
from .record import Forfeit
from .rules import Ruleset

#: the scheme of records made before issue 26: the match commitment binds the match seed only
SCHEME_V1 = "sha256(xeri-v1:{seed}:{salt})"
#: the scheme written now: the match commitment binds the seed, ruleset, first dealer and seat names
SCHEME_V2 = "xeri-v2"
#: the scheme written from issue 42: as v2, each seat's name bound as a salted hash, so a name can be withheld
SCHEME_V3 = "xeri-v3"
SCHEME = SCHEME_V3
#: what each scheme's match commitment binds, as ``xeri verify`` says it
BINDS = {
    SCHEME_V1: "the match seed only (a v1 record: its seat names, ruleset and options are not bound)",
    SCHEME_V2: "the match seed, the ruleset and every option, the first dealer and every seat's name",
    SCHEME_V3: "the match seed, the ruleset and every option, the first dealer and every seat's name (each as a "
               "salted hash, so that a deleted account's name can be withheld)",
}


class FairnessError(XeriError):
    """Input to a fairness check that cannot be read (not a failed check: that is a result)."""


def commitment(seed: int, salt: str) -> str:
    """The published commitment to ``seed``: hex SHA-256 of ``xeri-v1:{seed}:{salt}``."""
    return hashlib.sha256(f"xeri-v1:{int(seed)}:{salt}".encode()).hexdigest()


def match_commitment(seed: int, salt: str, ruleset: Ruleset, names: Sequence[str], first_dealer: int) -> str:
    """The ``xeri-v2`` match commitment: SHA-256 of ``xeri-v2:match:`` and the canonical JSON of what it binds.

    The number of rounds follows from the ruleset: a record verifies only when its moves end the match.
    """
    bound = {"seed": str(int(seed)), "salt": salt, "ruleset": ruleset.to_dict(), "first_dealer": int(first_dealer),
             "seats": [str(n) for n in names]}
    text = json.dumps(bound, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(f"xeri-v2:match:{text}".encode()).hexdigest()


def name_hash(salt: str, name: str) -> str:
    """The ``xeri-v3`` hash of one seat's name: SHA-256 of ``xeri-v3:name:`` and the JSON ``[salt, name]``.

    The salt is secret until the record reveals it beside the name; a record that withholds the name keeps the
    salt back too, so nobody can try names against the hash.
    """
    text = json.dumps([str(salt), str(name)], separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(f"xeri-v3:name:{text}".encode()).hexdigest()


def match_commitment_v3(seed: int, salt: str, ruleset: Ruleset, name_hashes: Sequence[str], first_dealer: int) -> str:
    """The ``xeri-v3`` match commitment: as v2's, with each seat's ``name_hash`` in place of its name."""
    bound = {"seed": str(int(seed)), "salt": salt, "ruleset": ruleset.to_dict(), "first_dealer": int(first_dealer),
             "seats": [str(h) for h in name_hashes]}
    text = json.dumps(bound, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(f"xeri-v3:match:{text}".encode()).hexdigest()


def withheld(entry: Mapping[str, Any], name: str) -> dict[str, Any]:
    """A ``fairness.match.seats`` entry with its name withheld: the hash of the name in place of its salt."""
    if entry.get("withheld") is True:
        return dict(entry)
    return {"withheld": True, "hash": name_hash(str(entry["salt"]), name)}


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


@dataclass(frozen=True)
class Verdict:
    """A whole record's checks, the scheme of its commitments and what they bind, and whether it ends the match.

    ``ok`` only for a finished match whose every check passed: a cut record is never verified.
    """

    checks: tuple[Check, ...]
    scheme: str
    binds: str
    finished: bool
    #: whether the record replayed at all (if not, its one check says why)
    replayed: bool = True
    #: the seats whose names the record withholds (scheme v3: their accounts were deleted)
    withheld: tuple[int, ...] = ()
    #: how the match ended when not by its score: a rated seat's forfeit (``finished`` then too)
    forfeit: Forfeit | None = None

    @property
    def ok(self) -> bool:
        return self.finished and bool(self.checks) and all(c.ok for c in self.checks)


def verify_record(data: Mapping[str, Any], match_commitment: str | None = None) -> list[Check]:
    """The checks of ``verify_match``: one per round, the match's, and a failing one when the match is unfinished."""
    return list(verify_match(data, match_commitment).checks)


def verify_match(data: Mapping[str, Any], match_commitment: str | None = None) -> Verdict:
    """Check every round of a record that carries a ``fairness`` section.

    The record is first replayed (``record.from_record``), which checks the
    moves, the scores, that each deal follows from its round seed, and the
    forfeit that ended the match, if one did (``record.forfeit_of``). Every
    finished round must carry its seed, salt and commitment, and a finished
    match its seed and ``fairness.match``; anything missing fails, naming what.
    A match ended by a forfeit is finished, and so is the round it stopped in:
    its seed and salt must be revealed too. A seed the record carries is
    checked even where its round or match is not over, and a record whose
    moves do not end the match, and that no forfeit ended, is unfinished.
    ``match_commitment`` is the match commitment a player saw before the first
    deal: the record's must be the same one. A field of the wrong type is a
    ``FairnessError`` naming it.
    """
    from .record import deal_from_dict, forfeit_of, from_record

    fair = data.get("fairness")
    if not isinstance(fair, Mapping):
        raise FairnessError("the record has no 'fairness' section (download it from xeri serve)")
    scheme = _scheme(fair)
    entries = _round_entries(fair)
    try:
        match = from_record(data)
    except RecordError as exc:
        return Verdict((Check(False, f"the record does not replay: {exc}"),), scheme, BINDS[scheme], False, False)
    forfeit = forfeit_of(data, match)  # checked by the replay: a record with a bad one does not replay
    checks: list[Check] = []
    rounds = {e["round"]: e for e in entries}
    match_seed = data.get("seed")
    for i, rdata in enumerate(data["rounds"]):
        number = i + 1
        seed, entry = rdata.get("seed"), rounds.get(number)
        over = match.rounds[i].is_over or forfeit is not None  # the forfeit ended the round in play too
        if seed is None and match_seed is not None and not over:
            seed = match.round_seeds[i]  # the match seed in the file fixes the round's: it is revealed
        missing = [] if entry is not None else ["its entry in fairness.rounds"]
        if entry is not None and not _text(entry.get("commitment")):
            missing.append("its commitment")
        if over and seed is None:
            missing.append("its seed")
        if (over or seed is not None) and entry is not None and not _text(entry.get("salt")):
            missing.append("its salt")
        if missing:
            what = ("the round is over, but" if match.rounds[i].is_over else "the match ended by forfeit, but")\
                if over else "the round is not over, and"
            checks.append(Check(False, f"{what} the record lacks {_join(missing)}", number))
            continue
        assert entry is not None
        if seed is None:
            checks.append(Check(True, "not revealed yet (the round is not over)", number))
            continue
        try:
            deal = deal_from_dict(rdata["deal"])
            checks.append(verify_round(match.ruleset, int(rdata["dealer"]), int(seed), str(entry["salt"]),
                                       str(entry["commitment"]), deal, number))
        except (XeriError, KeyError, TypeError, ValueError) as exc:
            checks.append(Check(False, f"unreadable round: {exc}", number))
    ended = match.is_over or forfeit is not None
    checks.append(_match_check(data, fair.get("match"), match, match_commitment, scheme, ended))
    hidden = _withheld_seats(fair.get("match")) if scheme == SCHEME_V3 else ()
    if match.takebacks:
        checks.append(_takeback_check(data, match))
    if forfeit is not None:
        checks.append(_forfeit_check(data, match, forfeit))
    if not ended:
        last = data["rounds"][-1]
        checks.append(Check(False, f"unfinished: the record stops in round {len(data['rounds'])} after "
                            f"{len(last['moves'])} move(s), before the match is over, so it cannot be verified"))
    return Verdict(tuple(checks), scheme, BINDS[scheme], ended, withheld=hidden, forfeit=forfeit)


def _forfeit_check(data: Mapping[str, Any], match: Match, forfeit: Forfeit) -> Check:
    """Only a person forfeits (a server's computer plays its own seats to the end): the forfeiting seat must not
    be among the record's ``table.bots``. The replay has checked the forfeit against the moves."""
    table = data.get("table")
    bots = table.get("bots") if isinstance(table, Mapping) else None
    if not isinstance(bots, Mapping):
        return Check(False, f"the record ends by seat {forfeit.seat}'s forfeit but has no table.bots to show that "
                     "the seat was a person's")
    if str(forfeit.seat) in bots:
        return Check(False, f"the record ends by seat {forfeit.seat}'s forfeit, but table.bots lists that seat as "
                     "the computer's, which never forfeits")
    return Check(True, f"the match ended by forfeit: seat {forfeit.seat} ({forfeit.reason}) forfeited in round "
                 f"{len(match.rounds)} after {len(match.round.moves)} move(s), so side {forfeit.winner} won, "
                 "whatever the score")


def _withheld_seats(whole: Any) -> tuple[int, ...]:
    seats = whole.get("seats") if isinstance(whole, Mapping) else None
    if not isinstance(seats, list):
        return ()
    return tuple(i for i, e in enumerate(seats) if isinstance(e, Mapping) and e.get("withheld") is True)


def _takeback_check(data: Mapping[str, Any], match: Match) -> Check:
    """A takeback is allowed only to the one person at a table of bots (docs/play.md#takebacks): every other seat
    must be listed among the record's ``table.bots``. The replay has checked what each one retracted."""
    table = data.get("table")
    bots = table.get("bots") if isinstance(table, Mapping) else None
    if not isinstance(bots, Mapping):
        return Check(False, f"the record has {len(match.takebacks)} takeback(s) but no table.bots to show that "
                     "they were made against the computer")
    for taken in match.takebacks:
        others = [s for s in range(match.ruleset.players) if s != taken.seat and str(s) not in bots]
        if str(taken.seat) in bots or others:
            who = f"seat {taken.seat} is a bot" if str(taken.seat) in bots else \
                f"seat(s) {', '.join(map(str, others))} were people"
            return Check(False, f"a takeback in round {taken.round} was not made against the computer only: {who}")
    count = len(match.takebacks)
    return Check(True, f"{count} takeback(s), each by the one person at a table of bots; the game was checked with "
                 "the retracted cards taken back, on the same deals")


def _scheme(fair: Mapping[str, Any]) -> str:
    scheme = fair.get("scheme", SCHEME_V1)  # the first records named no scheme
    if not isinstance(scheme, str) or scheme not in BINDS:
        raise FairnessError(f"fairness.scheme must be one of {', '.join(repr(k) for k in BINDS)}, not "
                            f"{_short(scheme)}")
    return str(scheme)


def _short(value: Any) -> str:
    """A bad value for an error line: its repr, cut short (``xeri verify`` escapes what it prints)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _round_entries(fair: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """``fairness.rounds``, each entry's fields of the right type (missing ones are reported by the checks)."""
    listed = fair.get("rounds", [])
    if not isinstance(listed, list):
        raise FairnessError(f"fairness.rounds must be a list, not {_short(listed)}")
    for i, entry in enumerate(listed):
        where = f"fairness.rounds[{i}]"
        if not isinstance(entry, Mapping):
            raise FairnessError(f"{where} must be an object, not {_short(entry)}")
        number = entry.get("round")
        if type(number) is not int:
            raise FairnessError(f"{where}.round must be a round number (1, 2, ...), not {_short(number)}")
        for key in ("commitment", "salt"):
            if entry.get(key) is not None and not isinstance(entry[key], str):
                raise FairnessError(f"{where}.{key} must be hex text, not {_short(entry[key])}")
    whole = fair.get("match")
    if whole is not None and not isinstance(whole, Mapping):
        raise FairnessError(f"fairness.match must be an object, not {_short(whole)}")
    for key in ("commitment", "salt"):
        if isinstance(whole, Mapping) and whole.get(key) is not None and not isinstance(whole[key], str):
            raise FairnessError(f"fairness.match.{key} must be hex text, not {_short(whole[key])}")
    seats = whole.get("seats") if isinstance(whole, Mapping) else None
    if seats is not None:
        if not isinstance(seats, list):
            raise FairnessError(f"fairness.match.seats must be a list, not {_short(seats)}")
        for i, entry in enumerate(seats):
            where = f"fairness.match.seats[{i}]"
            if not isinstance(entry, Mapping):
                raise FairnessError(f"{where} must be an object, not {_short(entry)}")
            if entry.get("withheld") not in (None, True, False):
                raise FairnessError(f"{where}.withheld must be true or false, not {_short(entry['withheld'])}")
            key = "hash" if entry.get("withheld") is True else "salt"
            if not isinstance(entry.get(key), str):
                raise FairnessError(f"{where}.{key} must be hex text, not {_short(entry.get(key))}")
    return listed


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _match_check(data: Mapping[str, Any], whole: Any, match: Match, seen: str | None, scheme: str,
                 over: bool) -> Check:
    """The match seed against the commitment published at the start (and the one a player saw).

    Under ``xeri-v2`` the commitment is recomputed from the record's own ruleset, first dealer and seat names
    too, so a record with any of them changed fails here. ``over``: the match ended, by its score or a forfeit.
    """
    published = whole.get("commitment") if isinstance(whole, Mapping) else None
    if seen is not None:
        if not _text(published):
            return Check(False, "the record has no match commitment (fairness.match.commitment) to compare "
                         f"with the one you saw, {seen.strip().lower()}")
        if not hmac.compare_digest(str(published).strip().lower(), seen.strip().lower()):
            return Check(False, f"the record's match commitment {published} is not the one you saw before the "
                         f"first deal, {seen.strip().lower()}")
    seed = data.get("seed")
    missing = []
    if not isinstance(whole, Mapping):
        missing.append("fairness.match")
    else:
        if not _text(published):
            missing.append("the match commitment (fairness.match.commitment)")
        if (over or seed is not None) and not _text(whole.get("salt")):
            missing.append("the match salt (fairness.match.salt)")
    if over and seed is None:
        missing.append("the match seed")
    if scheme == SCHEME_V3 and isinstance(whole, Mapping) and (over or seed is not None):
        seats = whole.get("seats")
        if not isinstance(seats, list) or len(seats) != len(match.names):
            missing.append(f"one entry per seat in fairness.match.seats ({len(match.names)})")
    if missing:
        what = "the match is over, but" if over else "the match is not over, and"
        return Check(False, f"{what} the record lacks {_join(missing)}")
    assert isinstance(whole, Mapping)
    if seed is None:
        return Check(True, "the match seed is not revealed yet (the match is not over)")
    try:
        salt = str(whole["salt"])
        if scheme == SCHEME_V3:
            hashes = [str(e["hash"]) if e.get("withheld") is True else name_hash(str(e["salt"]), name)
                      for e, name in zip(whole["seats"], match.names, strict=True)]
            expected = match_commitment_v3(int(seed), salt, match.ruleset, hashes, match.first_dealer)
        elif scheme == SCHEME_V2:
            expected = match_commitment(int(seed), salt, match.ruleset, match.names, match.first_dealer)
        else:
            expected = commitment(int(seed), salt)
    except (TypeError, ValueError) as exc:
        return Check(False, f"unreadable match seed or salt: {exc}")
    if not hmac.compare_digest(expected, str(published).strip().lower()):
        if scheme in (SCHEME_V2, SCHEME_V3):
            return Check(False, "the match commitment does not match the record's match seed, salt, ruleset, "
                         "first dealer and seat names: one of them is not what was committed to")
        return Check(False, "the match seed does not match its commitment")
    saw = " (the one you saw before the first deal)" if seen is not None else ""
    what = "the match seed, ruleset, first dealer and seat names match" if scheme in (SCHEME_V2, SCHEME_V3) \
        else "the match seed matches"
    hidden = _withheld_seats(whole) if scheme == SCHEME_V3 else ()
    if hidden:
        seats = ", ".join(str(i) for i in hidden)
        what += (f" (the name of seat(s) {seats} is withheld, its account deleted: the commitment binds the name "
                 "played under, which the record no longer shows)")
    return Check(True, f"{what} the commitment published at the start{saw}, and every round seed follows from it")
