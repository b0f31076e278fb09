"""Regenerate docs/img/terminal.svg: the real ``xeri play`` screen in an 80x24 terminal.

The program runs under tmux (so it draws exactly as in a person's terminal),
is played for a few moves, and the pane, colours included, is captured and
written as SVG by rich. Needs tmux. Usage:

    python scripts/screenshot.py [--seed 10] [--moves 12] [--out docs/img/terminal.svg]
"""

from __future__ import annotations

import argparse
import io
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.text import Text

ROOT = Path(__file__).resolve().parents[1]
SESSION = "xeri-screenshot"
# The prompt, waiting for an answer, on the last line of the screen.
WAITING = re.compile(r"(move \(.*\)|press Enter)[^\n]*: *$", re.IGNORECASE)


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], check=True, capture_output=True, text=True).stdout


def screen(colours: bool = False) -> str:
    return tmux("capture-pane", "-p", *(["-e"] if colours else []), "-t", SESSION)


def wait_for_prompt(seconds: float = 20) -> None:
    """Poll the pane until the program waits for input (a script may poll; tests use pexpect)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        lines = [ln for ln in screen().splitlines() if ln.strip()]
        if lines and WAITING.search(lines[-1]):
            return
        time.sleep(0.05)
    raise SystemExit("xeri play did not reach its prompt:\n" + screen())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--moves", type=int, default=12, help="cards to play first (the 12th makes a xeri)")
    parser.add_argument("--then", default="hint", help="what to type last (shown with its answer)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img" / "terminal.svg")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        command = " ".join(shlex.quote(a) for a in [
            "env", f"XERI_DATA_DIR={data}", f"PYTHONPATH={ROOT / 'src'}", "COLORTERM=truecolor",
            sys.executable, "-m", "xeri", "play", "--fast", "--seed", str(args.seed), "--level", "easy",
        ])
        tmux("kill-session", "-t", SESSION) if SESSION in _sessions() else None
        tmux("new-session", "-d", "-s", SESSION, "-x", "80", "-y", "24", command)
        try:
            wait_for_prompt()
            for _ in range(args.moves):
                tmux("send-keys", "-t", SESSION, "1", "Enter")
                time.sleep(0.2)  # let the pane show the answer before polling for the next prompt
                wait_for_prompt()
            if args.then:
                tmux("send-keys", "-t", SESSION, args.then, "Enter")
                time.sleep(0.2)
                wait_for_prompt()
            captured = screen(colours=True)
        finally:
            tmux("kill-session", "-t", SESSION)
    console = Console(record=True, width=80, height=24, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor")
    lines = captured.rstrip("\n").split("\n")[-24:]
    console.print(Text("\n").join(Text.from_ansi(line) for line in lines))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    # Keep spaces as laid out even in renderers that collapse them (rsvg); browsers do anyway.
    svg = console.export_svg(title="xeri play").replace("<svg ", '<svg xml:space="preserve" ', 1)
    args.out.write_text(svg, encoding="utf-8")
    print(f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")
    return 0


def _sessions() -> str:
    result = subprocess.run(["tmux", "list-sessions", "-F", "#S"], capture_output=True, text=True)
    return result.stdout if result.returncode == 0 else ""


if __name__ == "__main__":
    os.environ.pop("NO_COLOR", None)
    sys.exit(main())
