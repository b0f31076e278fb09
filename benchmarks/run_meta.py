"""What every result file records about its run: the command, the commit, the date, the machine's load, the seed.

    data = {**result, **run_meta(seed)}

The commit is ``git rev-parse HEAD`` (``+dirty`` when the tree had changes outside ``benchmarks/results``); the
load is the 1-minute load average at the start and at the end of the run, with the core count and the niceness.
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parent.parent
_START_LOAD = os.getloadavg()[0]


def _commit() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=_ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ".",
                                ":!benchmarks/results"], cwd=_ROOT, capture_output=True, text=True,
                               check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+dirty" if dirty else "")


def _script() -> str:
    """The script as run from the repository's root (``benchmarks/NAME.py``), wherever it was started from."""
    path = Path(sys.argv[0]).resolve()
    try:
        return str(path.relative_to(_ROOT))
    except ValueError:
        return sys.argv[0]


#: the commit when the run started (a file edited during the run does not make it dirty)
_COMMIT = _commit()
_DATE = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def run_meta(seed: int | None) -> dict[str, Any]:
    """The run's record: command line, commit and UTC date at its start, seed, machine load (start and end)."""
    return {
        "command": " ".join([*(["nice", "-n", str(os.nice(0))] if os.nice(0) else []), "python", _script(),
                             *sys.argv[1:]]),
        "commit": _COMMIT,
        "date": _DATE,
        "seed": seed,
        "machine": {"cpus": os.cpu_count(), "nice": os.nice(0),
                    "load_average_1min": [_START_LOAD, os.getloadavg()[0]]},
    }


def resumed(path: Path, a: str, b: str, ruleset: dict[str, Any], seed: int, games: str,
            count: str) -> tuple[list[Any], float, list[dict[str, Any]]]:
    """What a ``--checkpoint`` file at ``path`` holds to go on from (``--resume``): its per-game records under
    ``games``, the seconds spent, and the runs before it (``count`` names its size field). SystemExit if the file
    is another run, or has no records; nothing (empty) if there is no file."""
    if not path.exists():
        return [], 0.0, []
    old = json.loads(path.read_text())
    if (old["a"], old["b"], old["ruleset"], old["seed"]) != (a, b, ruleset, seed):
        raise SystemExit(f"{path} is another run (bots, rules or seed): not resumed")
    if games not in old:
        raise SystemExit(f"{path} holds no {games} (written without --checkpoint): not resumed")
    earlier = [*old.get("earlier_runs", []), {k: old.get(k) for k in ("command", "commit", "date", count)}]
    return old[games], float(old["wall_seconds"]), earlier
