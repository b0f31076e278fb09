"""The research extras stay optional: the core and the command line never import them."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("pyspiel", "numba", "gymnasium", "pettingzoo", "ray", "numpy")


@pytest.mark.parametrize("code", [
    "import xeri, xeri.cards, xeri.rules, xeri.engine, xeri.match, xeri.record, xeri.scoring, xeri.bots",
    "from xeri.cli import main; main(['rules'])",
])
def test_core_imports_no_extra(code: str) -> None:
    check = f"{code}\nimport sys\nloaded = [m for m in {HEAVY!r} if m in sys.modules]\nassert not loaded, loaded"
    subprocess.run([sys.executable, "-c", check], check=True, capture_output=True, timeout=60)


def test_extras_are_declared() -> None:
    import tomllib
    from pathlib import Path

    extras = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    assert any(d.startswith("open_spiel") for d in extras["openspiel"])
    assert {"gymnasium", "pettingzoo"} <= {d.split(">")[0] for d in extras["rl"]}
    assert any(d.startswith("numba") for d in extras["fast"])
    assert any(d.startswith("ray") for d in extras["ray"])
