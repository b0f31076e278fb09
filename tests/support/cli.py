"""``xeri``'s command line run in the test's own process, with what it printed."""

from __future__ import annotations

import pytest

from xeri.cli import main as xeri


def run_xeri(capsys: pytest.CaptureFixture[str] | None, *argv: str) -> tuple[int, str, str]:
    """``xeri ARGV`` in this process: (exit code, stdout, stderr; empty without ``capsys``)."""
    if capsys is None:
        return xeri(list(argv)), "", ""
    capsys.readouterr()
    code = xeri(list(argv))
    out, err = capsys.readouterr()
    return code, out, err
