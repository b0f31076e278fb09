"""Commit-and-reveal of shuffles (xeri.fairness) and the ``xeri verify`` command."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from support.records import served_record
from xeri import fairness
from xeri.cli import main
from xeri.errors import RecordError
from xeri.match import Match
from xeri.record import from_record, to_record
from xeri.rules import find_ruleset
from xeri.views import Commitments


def test_commitment_binds_seed_and_salt() -> None:
    c = fairness.commitment(123, "ab")
    assert len(c) == 64 and c == fairness.commitment(123, "ab")
    assert c != fairness.commitment(124, "ab") and c != fairness.commitment(123, "ac")
    key = fairness.new_key()
    assert fairness.salt_for(key, "round:1") != fairness.salt_for(key, "round:2")
    assert fairness.salt_for(key, "round:1") == fairness.salt_for(key, "round:1")


def test_verify_round_recomputes_the_deal() -> None:
    ruleset = find_ruleset("pisti", players=4)
    deal = fairness.deal_for(ruleset, 2, 555)
    ok = fairness.verify_round(ruleset, 2, 555, "s", fairness.commitment(555, "s"), deal)
    assert ok.ok and ok.deal == deal
    assert not fairness.verify_round(ruleset, 2, 555, "t", fairness.commitment(555, "s")).ok
    other = fairness.deal_for(ruleset, 2, 556)
    assert not fairness.verify_round(ruleset, 2, 555, "s", fairness.commitment(555, "s"), other).ok


def test_verify_record_accepts_honest_and_rejects_tampered() -> None:
    data = served_record()
    checks = fairness.verify_record(data)
    assert checks and all(c.ok for c in checks)
    swapped = json.loads(json.dumps(data))
    # Swap two hands' first cards: the deal no longer follows from the seed.
    hands = swapped["rounds"][0]["deal"]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    assert not all(c.ok for c in fairness.verify_record(swapped))
    wrong_salt = json.loads(json.dumps(data))
    wrong_salt["fairness"]["rounds"][1]["salt"] = "00"
    bad = [c for c in fairness.verify_record(wrong_salt) if not c.ok]
    assert [c.round for c in bad] == [2]
    with pytest.raises(fairness.FairnessError):
        fairness.verify_record({k: v for k, v in data.items() if k != "fairness"})


def test_verify_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(served_record()), encoding="utf-8")
    assert main(["verify", str(path)]) == 0
    assert "verified" in capsys.readouterr().out
    data = served_record()
    data["fairness"]["match"]["salt"] = "ff"  # type: ignore[index]
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["verify", str(path)]) == 1
    assert "NOT verified" in capsys.readouterr().out
    c = fairness.commitment(42, "aa")
    assert main(["verify", "--seed", "42", "--salt", "aa", "--commitment", c, "--dealer", "1"]) == 0
    assert "seat 0 hand" in capsys.readouterr().out
    assert main(["verify"]) == 2
    assert main(["verify", str(tmp_path / "missing.json")]) == 2
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    assert main(["verify", str(tmp_path / "bad.json")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 3


def _strip(data: dict[str, object], path: str) -> dict[str, object]:
    """A copy of ``data`` with the value at the dotted ``path`` set to null (or removed: ``-path``)."""
    out = json.loads(json.dumps(data))
    remove = path.startswith("-")
    *parents, last = path.lstrip("-").split(".")
    node = out
    for part in parents:
        node = node[int(part)] if part.isdigit() else node[part]
    key = int(last) if last.isdigit() else last
    if remove:
        del node[key]
    else:
        node[key] = None
    return out


@pytest.mark.parametrize(
    ("path", "where", "missing"),
    [
        ("rounds.1.seed", 2, "its seed"),
        ("fairness.rounds.0.salt", 1, "its salt"),
        ("fairness.rounds.1.commitment", 2, "its commitment"),
        ("-fairness.rounds.1", 2, "its entry in fairness.rounds"),
        ("seed", None, "the match seed"),
        ("fairness.match.salt", None, "the match salt"),
        ("fairness.match.commitment", None, "the match commitment"),
        ("-fairness.match", None, "fairness.match"),
    ],
)
def test_a_finished_record_must_carry_everything(path: str, where: int | None, missing: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    data = _strip(served_record(), path)
    bad = [c for c in fairness.verify_record(data) if not c.ok]
    assert [c.round for c in bad] == [where]
    assert "is over, but the record lacks" in bad[0].detail and missing in bad[0].detail
    file = tmp_path / "match.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    assert main(["verify", str(file)]) == 1
    out = capsys.readouterr().out
    assert "NOT verified" in out and missing in out


def test_verify_against_the_commitment_seen_at_the_table(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    data = served_record()
    seen = data["fairness"]["match"]["commitment"]  # type: ignore[index]
    file = tmp_path / "match.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    assert main(["verify", str(file), "--commitment", seen.upper()]) == 0
    assert "the one you saw before the first deal" in capsys.readouterr().out
    # Another match's commitment (a server that swapped the record after the fact) fails.
    other = served_record(seed=100)["fairness"]["match"]["commitment"]  # type: ignore[index]
    assert main(["verify", str(file), "--commitment", other]) == 1
    out = capsys.readouterr().out
    assert f"is not the one you saw before the first deal, {other}" in out and "NOT verified" in out
    checks = fairness.verify_record(data, other)
    assert [c.ok for c in checks] == [True, True, False]
    # A record re-made with a new match seed and salt fails against the commitment the player saw.
    remade = served_record(seed=100)
    assert not fairness.verify_record(remade, seen)[-1].ok
    assert main(["verify", str(file), "--commitment", "abc"]) == 2
    assert "64 hex digits" in capsys.readouterr().err
    assert main(["verify", str(file), "--seed", "1", "--salt", "aa"]) == 2


def forfeited_record(reason: str = "away", moves: int = 9) -> dict[str, Any]:
    """A record as a server writes it when a rated seat forfeits (server.table.state.forfeit_row): the moves stop
    in round 2, every seed and salt is revealed, and ``end`` says who forfeited and who won."""
    ruleset = find_ruleset("classic", rounds=2)
    match = Match(ruleset, seed=7)
    rng = random.Random(7)
    while len(match.rounds) < 2 or len(match.round.moves) < moves:
        match.play(rng.choice(match.legal_moves))
    data = to_record(match, reveal_seeds=True)
    data["fairness"] = Commitments(7, fairness.new_key()).record_section(match)
    data["table"] = {"id": "t1", "title": "x", "bots": {}}
    seat = match.turn if reason != "left" else 1 - (match.turn or 0)
    assert seat is not None
    data["end"] = {"by": "forfeit", "seat": seat, "side": seat, "reason": reason, "winner": 1 - seat}
    return data


@pytest.mark.parametrize("reason", ["away", "timer", "left"])
def test_a_match_ended_by_a_forfeit_is_verified_and_says_so(reason: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 42: a rated seat forfeits (server.rated.policy.forfeits) and its record stops there; verify called it
    unfinished though its rounds and commitments check out. It ends the match: verified, saying by whose forfeit."""
    data = forfeited_record(reason)
    verdict = fairness.verify_match(data)
    assert verdict.ok and verdict.finished and verdict.forfeit is not None, verdict.checks
    assert verdict.forfeit.to_dict() == data["end"]
    assert [c.round for c in verdict.checks] == [1, 2, None, None]  # the round in play is checked, revealed
    file = tmp_path / "match.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    assert main(["verify", str(file)]) == 0
    out = capsys.readouterr().out
    seat = data["end"]["seat"]
    assert f"ended by forfeit: seat {seat} ({reason}), side {1 - seat} wins" in out and "NOT" not in out


def _forfeit_changed(path: str, value: Any) -> dict[str, Any]:
    data = forfeited_record()
    *parents, last = path.split(".")
    node: Any = data
    for part in parents:
        node = node[int(part)] if part.isdigit() else node[part]
    if value is _REMOVE:
        del node[last]
    elif value == "other":  # the other seat forfeits, not the one to move: an "away" forfeit is at the seat's turn
        end = node[last]
        end.update(seat=end["winner"], side=end["winner"], winner=end["side"])
    elif value == "loser":
        node[last] = node["side"]
    else:
        node[last] = value
    return data


_REMOVE = object()


@pytest.mark.parametrize(
    ("path", "value", "says"),
    [
        ("end", "forfeit", "a match ends by its score"),
        ("end.by", "resign", "a match ends by its score"),
        ("end.seat", "1", "seat must be whole numbers"),
        ("end.winner", True, "winner must be whole numbers"),
        ("end.reason", "bored", "its reason must be one of left, away, timer"),
        ("end.seat", 2, "but the match has seats 0 to 1"),
        ("end.winner", "loser", "so its forfeit is side"),
        ("end.side", 5, "so its forfeit is side"),
        ("end", "other", "at its turn, but the moves stop"),
        ("table.bots", {"0": "easy", "1": "easy"}, "which never forfeits"),
        ("table", _REMOVE, "no table.bots"),
        ("rounds.1.seed", None, "the match ended by forfeit, but the record lacks its seed"),
        ("fairness.rounds.1.salt", None, "the match ended by forfeit, but the record lacks its salt"),
        ("seed", None, "the match seed"),
        ("fairness.match.salt", None, "the match salt"),
    ],
)
def test_a_forfeit_that_is_malformed_or_contradicts_the_record_is_not_verified(
        path: str, value: Any, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _forfeit_changed(path, value)
    verdict = fairness.verify_match(data)
    assert not verdict.ok
    assert says in " ".join(c.detail for c in verdict.checks if not c.ok)
    file = tmp_path / "match.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    assert main(["verify", str(file)]) == 1
    assert "NOT verified" in capsys.readouterr().out


def test_a_forfeit_after_the_match_ended_by_its_score_is_refused() -> None:
    data = served_record()
    data["table"] = {"bots": {}}
    data["end"] = {"by": "forfeit", "seat": 0, "side": 0, "reason": "left", "winner": 1}
    with pytest.raises(RecordError, match="its moves end the match by its score"):
        from_record(data)
    assert not fairness.verify_match(data).ok
    four = find_ruleset("classic", players=4)
    match = Match(four, seed=3)
    data = to_record(match)
    data["end"] = {"by": "forfeit", "seat": 1, "side": 1, "reason": "left", "winner": 0}
    assert from_record(data).rounds  # 4 players in two teams: seat 1 plays for side 1
    data["end"]["side"] = 0
    with pytest.raises(RecordError, match="seat 1 plays for side 1"):
        from_record(data)
