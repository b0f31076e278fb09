"""Commit-and-reveal of shuffles (xeri.fairness) and the ``xeri verify`` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.records import served_record
from xeri import fairness
from xeri.cli import main
from xeri.rules import find_ruleset


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
