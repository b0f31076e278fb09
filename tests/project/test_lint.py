"""ruff is clean everywhere; mypy --strict is clean on the stdlib-only core, and on every layer but numba's kernels."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ["cards", "rules", "engine", "events", "scoring", "match", "record", "errors", "seeds", "notation", "saves",
        "fairness", "views", "table_rules"]


def test_ruff_is_clean() -> None:
    out = subprocess.run([sys.executable, "-m", "ruff", "check", "src", "tests", "benchmarks", "scripts"],
                         cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_strict_on_the_core() -> None:
    files = [f"src/xeri/{name}.py" for name in CORE]
    out = subprocess.run([sys.executable, "-m", "mypy", "--strict", *files], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


#: what mypy --strict cannot check: numba's kernels (its decorators are untyped) and the training script (its
#: base classes come from stable-baselines3, untyped)
NOT_STRICT = {"src/xeri/fast", "src/xeri/train.py"}


def test_mypy_strict_on_every_layer_but_the_kernels_and_training() -> None:
    src = ROOT / "src" / "xeri"
    paths = sorted(str(p.relative_to(ROOT)) for p in src.iterdir()
                   if (p.suffix == ".py" or (p.is_dir() and (p / "__init__.py").exists()))
                   and str(p.relative_to(ROOT)) not in NOT_STRICT)
    assert "src/xeri/server" in paths and "src/xeri/fast" not in paths
    out = subprocess.run([sys.executable, "-m", "mypy", "--strict", *paths], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
