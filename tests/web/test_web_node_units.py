"""The table's reducer and draw queue have unit tests of their own, in JavaScript, run by node's test runner.

``node --test tests/web/js/`` runs tests/web/js/*.test.mjs (state.js's reducer and the frames of each step; queue.js's
order of draws, motions and hooks, over stand-ins for the board): a few hundred milliseconds, no browser. This
runs them as part of the suite and fails with node's own report when one fails.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "tests" / "web" / "js"


def node() -> str:
    found = shutil.which("node")
    assert found, "node is missing: scripts/test.sh installs it (the web checks need it too)"
    return found


def test_the_reducer_and_the_draw_queue_pass_their_node_unit_tests() -> None:
    tests = sorted(UNITS.glob("*.test.mjs"))
    assert {p.name for p in tests} >= {"state.test.mjs", "queue.test.mjs", "socket.test.mjs"}, tests
    done = subprocess.run([node(), "--test", *map(str, tests)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout and "# pass 0" not in done.stdout, done.stdout[-2000:]
