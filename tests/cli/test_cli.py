"""The core commands: rules, bench, and bad input giving one line and exit status 2."""

from __future__ import annotations

import json

import pytest

from xeri.cli import main
from xeri.rules import OPTIONS, PRESETS


def test_rules_lists_presets_and_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for name in PRESETS:
        assert name in out
    for name in OPTIONS:
        assert f"  {name} = " in out


def test_rules_of_one_preset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "pisti", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hand_size"] == 4 and data["scoring"] == "pisti"


def test_bench_engine_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--seconds", "0.2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rounds_per_s"] > 0 and data["rounds"] >= 64


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["rules", "chess"], "unknown ruleset"),
        (["bench", "nothing"], "invalid choice"),
        (["bench", "engine", "--seconds", "-1"], "must be positive"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1


def test_missing_extra_is_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import xeri.commands.rules as rules

    def missing(args: object) -> int:
        raise ModuleNotFoundError("No module named 'starlette'", name="starlette")

    monkeypatch.setattr(rules, "run", missing)
    assert main(["rules"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'xeri[server]'" in err and err.count("\n") == 1


def test_unexpected_error_is_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import xeri.commands.rules as rules

    def broken(args: object) -> int:
        raise RuntimeError("boom")

    monkeypatch.setattr(rules, "run", broken)
    monkeypatch.delenv("XERI_DEBUG", raising=False)
    assert main(["rules"]) == 1
    err = capsys.readouterr().err
    assert "internal error: RuntimeError: boom" in err and err.count("\n") == 1
