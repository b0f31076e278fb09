"""The record format: round trips, validation errors, and the replay command."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from xeri import record
from xeri.cli import main
from xeri.errors import RecordError
from xeri.match import Match
from xeri.rules import find_ruleset


def finished_match(preset: str = "cardgames", players: int = 2, seed: int = 5) -> Match:
    match = Match(find_ruleset(preset, players=players), seed=seed, names=[f"P{i}" for i in range(players)])
    rng = random.Random(seed)
    while not match.is_over:
        match.play(rng.choice(match.legal_moves))
    return match


def test_record_holds_everything() -> None:
    match = finished_match(players=4)
    data = record.to_record(match)
    assert data["format"] == "xeri-record" and data["version"] == 1
    assert data["ruleset"]["name"] == "cardgames" and data["ruleset"]["players"] == 4
    assert data["seats"][2] == {"seat": 2, "name": "P2", "side": 0}
    assert data["seed"] == 5
    first = data["rounds"][0]
    assert set(first) == {"number", "dealer", "seed", "deal", "moves", "scores"}
    assert len(first["deal"]["hands"]) == 4 and len(first["deal"]["pile"]) == 4
    assert len(first["moves"]) == 48
    assert data["result"]["winner"] == match.winner


def test_unrevealed_seeds() -> None:
    match = Match(find_ruleset("classic"), seed=5)
    match.play(match.legal_moves[0])
    data = record.to_record(match, reveal_seeds=False)
    assert data["seed"] is None and data["rounds"][0]["seed"] is None
    assert record.to_record(record.from_record(data))["rounds"][0]["moves"] == data["rounds"][0]["moves"]


@pytest.fixture
def data() -> dict:  # type: ignore[type-arg]
    return record.to_record(finished_match())


def test_card_twice(data: dict) -> None:  # type: ignore[type-arg]
    bad = copy.deepcopy(data)
    deal = bad["rounds"][0]["deal"]
    deal["talon"][0] = deal["hands"][0][0]
    with pytest.raises(RecordError, match="appears twice"):
        record.from_record(bad)


def test_illegal_move(data: dict) -> None:  # type: ignore[type-arg]
    bad = copy.deepcopy(data)
    moves = bad["rounds"][0]["moves"]
    moves[0], moves[1] = moves[1], moves[0]
    with pytest.raises(RecordError, match=r"round 1, move 1 .*not in seat"):
        record.from_record(bad)


def test_scores_that_do_not_match(data: dict) -> None:  # type: ignore[type-arg]
    bad = copy.deepcopy(data)
    bad["rounds"][0]["scores"][0]["total"] += 1
    with pytest.raises(RecordError, match="scores do not match"):
        record.from_record(bad)


def test_deal_not_from_seed(data: dict) -> None:  # type: ignore[type-arg]
    bad = copy.deepcopy(data)
    bad["rounds"][0]["seed"] += 1
    with pytest.raises(RecordError, match="does not follow from the round's seed"):
        record.from_record(bad)


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.update(format="chess"),
        lambda d: d.update(version=99),
        lambda d: d.update(rounds=[]),
        lambda d: d["ruleset"].update(colour="blue"),
        lambda d: d["rounds"][0]["deal"].update(hands="nope"),
        lambda d: d["rounds"][0]["moves"].append("zz"),
        lambda d: d.pop("seats"),
    ],
)
def test_malformed_records(data: dict, mutate) -> None:  # type: ignore[no-untyped-def, type-arg]
    bad = copy.deepcopy(data)
    mutate(bad)
    with pytest.raises(RecordError):
        record.from_record(bad)


def test_not_json() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        record.loads("{nope")


def test_replay_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.json"
    path.write_text(record.dumps(finished_match()), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Round 1 (dealer: P0)" in out and "Winner:" in out and "most cards" in out
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["format"] == "xeri-record"


def test_replay_bad_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot read" in err
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    assert main(["replay", str(bad)]) == 2
    assert "not a xeri record" in capsys.readouterr().err


def test_python_dash_m_works() -> None:
    out = subprocess.run([sys.executable, "-m", "xeri", "rules"], capture_output=True, text=True, check=True)
    assert "classic" in out.stdout and "pisti" in out.stdout


@pytest.mark.parametrize(
    ("key", "change"),
    [
        ("scores", lambda r: r["scores"].__setitem__(1, r["scores"][1] + 5)),
        ("winner", lambda r: r.update(winner=1 - r["winner"])),
        ("round_wins", lambda r: r["round_wins"].__setitem__(0, r["round_wins"][0] + 1)),
        ("over", lambda r: r.update(over=False)),
    ],
)
def test_changed_result_is_refused(data: dict, key: str, change, tmp_path: Path,  # type: ignore[no-untyped-def, type-arg]
                                   capsys: pytest.CaptureFixture[str]) -> None:
    bad = copy.deepcopy(data)
    change(bad["result"])
    last = len(bad["rounds"])
    moves = len(bad["rounds"][-1]["moves"])
    with pytest.raises(RecordError, match=rf"result: the recorded {key} .* after round {last}, move {moves}\b"):
        record.from_record(bad)
    path = tmp_path / "m.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"result: the recorded {key}" in err and "Traceback" not in err


def test_missing_result_is_refused(data: dict) -> None:  # type: ignore[type-arg]
    bad = copy.deepcopy(data)
    del bad["result"]
    with pytest.raises(RecordError, match="no 'result'"):
        record.from_record(bad)
    del data["result"]["target"]
    with pytest.raises(RecordError, match="result: the record has no 'target'"):
        record.from_record(data)


def test_move_shifted_between_rounds_is_refused(data: dict, tmp_path: Path,  # type: ignore[type-arg]
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert len(data["rounds"]) >= 2
    first = len(data["rounds"][0]["moves"])
    later = copy.deepcopy(data)
    later["rounds"][0]["moves"].append(later["rounds"][1]["moves"].pop(0))
    moved = later["rounds"][0]["moves"][-1]
    with pytest.raises(RecordError, match=rf"round 1, move {first + 1} \({moved}\): round 1 ended with move {first}"):
        record.from_record(later)
    path = tmp_path / "m.json"
    path.write_text(json.dumps(later), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    assert f"round 1, move {first + 1}" in capsys.readouterr().err
    earlier = copy.deepcopy(data)
    earlier["rounds"][1]["moves"].insert(0, earlier["rounds"][0]["moves"].pop())
    with pytest.raises(RecordError, match=f"round 1 has scores, but its moves do not finish it: it stops at move "
                       f"{first - 1},"):
        record.from_record(earlier)
