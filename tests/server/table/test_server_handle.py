"""One interface for a table wherever it is owned: mypy --strict checks that the local ``Table`` and the cluster's
``RemoteTable`` are both the ``TableHandle`` every route and socket uses (issue 25: a path only the cluster took
reached an attribute only the local table had).

The check itself is tests/project/test_lint.py's one strict run over every layer, server included (a run of its own
here took half a minute of the suite); this keeps the modules where a table is used inside it, and unsilenced."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SERVER = ROOT / "src" / "xeri" / "server"
#: the modules where a table is made, found, forwarded to or used
USERS = ["table/handle", "table/commands", "table/service", "table/state", "table/views", "table/autoplay",
         "cluster/node", "cluster/remote", "cluster/rpc", "lobby/locator", "lobby/lobby", "socket/connection", "app"]


def test_the_modules_using_a_table_are_in_the_strict_run() -> None:
    lint = (ROOT / "tests" / "project" / "test_lint.py").read_text()
    left_out = re.search(r"^NOT_STRICT = (\{.*\})$", lint, flags=re.M)
    assert left_out, "test_lint.py names no NOT_STRICT set"
    for name in USERS:
        module = f"src/xeri/server/{name}.py"
        assert (ROOT / module).is_file(), module
        assert not any(module.startswith(p) for p in ast.literal_eval(left_out[1])), f"{module} is not checked strictly"


def test_no_type_ignore_hides_a_mismatch() -> None:
    for name in USERS:
        if name == "app":
            continue  # its one ignore is Starlette's untyped app.state, not a table
        text = (SERVER / f"{name}.py").read_text()
        assert "type: ignore" not in text, f"server/{name}.py silences mypy"
