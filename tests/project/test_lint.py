"""ruff is clean everywhere, and mypy --strict is clean on the stdlib-only core."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ["cards", "rules", "engine", "events", "scoring", "match", "record", "errors", "seeds", "notation", "saves",
        "fairness"]


def test_ruff_is_clean() -> None:
    out = subprocess.run([sys.executable, "-m", "ruff", "check", "src", "tests", "benchmarks", "scripts"],
                         cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_strict_on_the_core() -> None:
    files = [f"src/xeri/{name}.py" for name in CORE]
    out = subprocess.run([sys.executable, "-m", "mypy", "--strict", *files], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
