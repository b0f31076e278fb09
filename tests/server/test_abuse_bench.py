"""The abuse benchmark's availability table (benchmarks/abuse_server.py, issue 42): what it counts as the goal met,
its scenario set, its botnet's addresses and its refusals of bad options. No server runs here."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("abuse_server", ROOT / "benchmarks" / "abuse_server.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


A = _load()


def _row(**changes: Any) -> dict[str, Any]:
    row = {"processes": 3, "scenario": "signup_flood", "p50_ms": 4.2, "p99_ms": 42.0, "replies": 120,
           "bystander": {"http_200": 60}, "bystander_failed": 0, "victim_errors": {}, "load_average": [1.0, 0.5, 0.2],
           "server_cpu_s": 9.5, "failures": []}
    return {**row, **changes}


def test_the_table_meets_the_goal_only_with_p99_under_100_ms_and_nothing_failed() -> None:
    rows = [_row(), _row(p99_ms=100.0), _row(bystander={"http_200": 59, "failed": 1}, bystander_failed=1),
            _row(victim_errors={"ConnectError": 2}), _row(p50_ms=None, p99_ms=None, replies=0)]
    lines = A.markdown(rows).splitlines()
    assert lines[0].startswith("| processes | abuse | victim p50 ms | victim p99 ms |")
    body = lines[2:]
    assert [line.rsplit("|", 2)[1].strip() for line in body] == ["yes", "**no**", "**no**", "**no**", "**no**"]
    assert "| 3 | signup_flood | 4.2 | 42.0 | 120 | 0 / 60 | 0 | 1.0 / 0.5 / 0.2 | 9.5 |" in body[0]
    assert "| 1 / 60 |" in body[2] and '2 {"ConnectError": 2}' in body[3] and "| – | – | 0 |" in body[4]


def test_issue_42_s_set_names_every_abuse_of_the_issue_and_the_botnet_s_addresses_are_apart() -> None:
    assert set(A.ISSUE42) <= set(A.SCENARIOS)
    assert {"none", "signin_flood", "password_flood", "signup_flood", "proxy_flood", "pack_download",
            "hint"} == set(A.ISSUE42)
    addresses = [A.spread_address(i) for i in range(0, 200_000, 97)]
    assert len(set(addresses)) == len(addresses)
    assert not any(a.startswith("127.0.0.") for a in addresses)
    assert all(0 <= int(part) < 256 for a in addresses for part in a.split(".")[1:])
    assert all(a.split(".")[3] not in ("0", "255") for a in addresses)  # no network or broadcast-looking host


def test_bad_options_exit_2_with_one_line_before_any_server_starts(monkeypatch: pytest.MonkeyPatch,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["--processes", "4"], ["--processes", "x"], ["--scenarios", "issue42,nope"], ["--seconds", "0"]):
        monkeypatch.setattr(sys, "argv", ["abuse_server.py", *args])
        with pytest.raises(SystemExit) as exited:
            A.main()
        assert exited.value.code == 2, args
        assert "error:" in capsys.readouterr().err.splitlines()[-1]
