"""One interface for a table wherever it is owned: mypy --strict checks that the local ``Table`` and the cluster's
``RemoteTable`` are both the ``TableHandle`` every route and socket uses (issue 25: a path only the cluster took
reached an attribute only the local table had)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SERVER = ROOT / "src" / "xeri" / "server"
#: the modules where a table is made, found, forwarded to or used
USERS = ["table/handle", "table/commands", "table/service", "table/state", "table/views", "table/autoplay",
         "cluster/node", "cluster/remote", "cluster/rpc", "lobby/locator", "lobby/lobby", "socket/connection", "app"]


def test_both_tables_are_table_handles_under_mypy_strict() -> None:
    files = [str(SERVER / f"{name}.py") for name in USERS]
    out = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", *files], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_no_type_ignore_hides_a_mismatch() -> None:
    for name in USERS:
        if name == "app":
            continue  # its one ignore is Starlette's untyped app.state, not a table
        text = (SERVER / f"{name}.py").read_text()
        assert "type: ignore" not in text, f"server/{name}.py silences mypy"
