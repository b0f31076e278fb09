"""The page's timing gates (issue 23), in Chromium, each test run alone with its gate on:

- first visit: the lobby usable (its Start button there) within 1.5 s of the navigation
  (tests/web/test_web_play.py, writes test-artifacts/web-first-visit.json);
- the felt: during a capture animation on the desktop, no main-thread task of 50 ms or more, from the Performance
  API's long-task entries (tests/web/test_web_felt.py, writes test-artifacts/web-capture-long-tasks.json).

A timing gate has no place in the parallel unit suite, where the other workers' browsers starve this one: there the
same tests record the figures and check only what does not depend on the machine's load (bytes, cards in flight).

    python benchmarks/web_gates.py [--interactive-ms 1500] [--long-task-ms 50]
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
    parser.add_argument("--interactive-ms", type=float, default=1500.0, help="first visit: usable within (ms)")
    parser.add_argument("--long-task-ms", type=float, default=50.0, help="capture animation: the longest task (ms)")
    args = parser.parse_args()
    env = dict(os.environ, XERI_INTERACTIVE_GATE_MS=str(args.interactive_ms),
               XERI_LONG_TASK_GATE_MS=str(args.long_task_ms))
    runs = [("tests/web/test_web_play.py", "static_files_are_cached"), ("tests/web/test_web_felt.py", "long_tasks")]
    failed = 0
    for path, name in runs:
        failed |= subprocess.call([sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider", "-s",
                                   path, "-k", name], cwd=ROOT, env=env)
    return failed


if __name__ == "__main__":
    sys.exit(main())
