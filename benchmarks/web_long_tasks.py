"""The felt's long-task gate (issue 23): during a capture animation on the desktop, no main-thread task of 50 ms
or more, from the Performance API's long-task entries in Chromium.

A timing gate has no place in the parallel unit suite, where the other workers' browsers starve this one, so this
runs the same Chromium test alone with the gate on; it writes test-artifacts/web-capture-long-tasks.json.

    python benchmarks/web_long_tasks.py [--gate-ms 50]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gate-ms", type=float, default=50.0, help="the longest task allowed (ms)")
    args = parser.parse_args()
    env = dict(os.environ, XERI_LONG_TASK_GATE_MS=str(args.gate_ms))
    return subprocess.call([sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider", "-s",
                            "tests/test_web_felt.py", "-k", "long_tasks"], cwd=ROOT, env=env)


if __name__ == "__main__":
    sys.exit(main())
