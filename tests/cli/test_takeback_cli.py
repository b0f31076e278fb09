"""``xeri replay`` and ``xeri verify`` on a record with a takeback (docs/record-format.md#takebacks): the replay shows
the move and its retraction, verify checks the game with the retracted cards taken back, and a forged retraction
is one readable line, exit status 2 for replay and NOT verified for verify."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from xeri import fairness, record
from xeri.cli import main
from xeri.errors import TakebackError
from xeri.match import Match
from xeri.rules import find_ruleset
from xeri.views import Commitments


def served_with_a_takeback(seed: int = 13) -> dict[str, Any]:
    """A finished 2-player match in which seat 0 took back twice, with the sections a server's record has."""
    match = Match(find_ruleset("classic", rounds=1, match_end="rounds"), seed=seed, names=["Ana", "Bot"])
    rng = random.Random(seed)
    while not match.is_over:
        if match.turn == 0 and len(match.takebacks) < 2 and rng.random() < 0.4:
            try:
                match.take_back(0)
                continue
            except TakebackError:
                pass
        match.play(rng.choice(match.legal_moves))
    assert len(match.takebacks) == 2
    data = record.to_record(match)
    data["fairness"] = Commitments(seed, fairness.new_key()).record_section(match)
    data["table"] = {"id": "t1", "title": "", "bots": {"1": "easy"}}
    return data


def write(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_replay_shows_the_move_and_its_retraction(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = served_with_a_takeback()
    path = write(tmp_path, data)
    assert main(["replay", path]) == 0
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if "took back" in line]
    assert len(lines) == 2 and all(line.strip().startswith("takeback (entry") and "Ana took back" in line
                                   for line in lines)
    assert main(["replay", path, "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["version"] == 2 and again["rounds"][0]["moves"] == data["rounds"][0]["moves"]


def test_verify_checks_the_game_with_its_takebacks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, served_with_a_takeback())
    assert main(["verify", path]) == 0
    out = capsys.readouterr().out
    assert "ok   match: 2 takeback(s), each by the one person at a table of bots" in out
    assert "verified:" in out and "NOT" not in out


def test_a_forged_retraction(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = served_with_a_takeback()
    entry = next(e for e in data["rounds"][0]["moves"] if isinstance(e, dict))
    entry["takeback"] = ["AS"] if entry["takeback"] != ["AS"] else ["KS"]
    path = write(tmp_path, data)
    assert main(["replay", path]) == 2
    err = capsys.readouterr().err
    assert "the takeback names" in err and err.count("\n") == 1 and "Traceback" not in err
    assert main(["verify", path]) == 1
    out = capsys.readouterr().out
    assert "the record does not replay" in out and "NOT verified" in out


def test_a_takeback_with_a_person_at_the_other_seat_is_not_verified(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    data = served_with_a_takeback()
    data["table"]["bots"] = {}
    assert main(["verify", write(tmp_path, data)]) == 1
    out = capsys.readouterr().out
    assert "FAIL match: a takeback in round 1 was not made against the computer only" in out
    assert "NOT verified" in out
