"""Every server log of the test suite is checked for tracebacks (a fixture of tests/conftest.py uses this).

In-process servers (uvicorn in a thread) log through ``logging``: while a test runs, every record any logger
hands to its handlers is looked at, whatever handlers uvicorn configured. Subprocess servers write to their
stderr, which their helper keeps and hands to :func:`check_output` when the server stops.

A traceback fails the test that produced it, unless the test names it: ``@pytest.mark.allow_traceback("X")``
allows a traceback whose text contains ``X`` (an exception's name, or a line of its message). Only a test that
provokes that failure on purpose names it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

TRACEBACK = "Traceback (most recent call last)"

_lock = threading.Lock()
#: the running test's allowed texts, and the tracebacks it produced that none of them names
_allowed: list[str] = []
_found: list[str] = []
#: whether a test is running (a module's server stops after its last test: what it logs then is ``late``)
_watching = False
#: tracebacks found outside any test (conftest's session end reports them and fails the run)
late: list[str] = []
_formatter = logging.Formatter("%(levelname)s %(name)s: %(message)s")


def _unallowed(text: str) -> bool:
    return not any(name in text for name in _allowed)


def check_output(text: str, where: str) -> None:
    """Note each traceback in a server's output (its stderr) that the running test did not name."""
    if TRACEBACK not in text:
        return
    blocks = text.split(TRACEBACK)[1:]
    with _lock:
        for block in blocks:
            shown = TRACEBACK + block[:4000]
            if not _watching:
                late.append(f"{where}:\n{shown}")
            elif _unallowed(shown):
                _found.append(f"{where}:\n{shown}")


def _look(record: logging.LogRecord) -> None:
    if record.exc_info is None and TRACEBACK not in str(record.msg):
        return
    try:
        text = _formatter.format(record)
    except Exception:  # a record that cannot be formatted is still a record with a traceback
        text = f"{record.name}: {record.msg!r} {record.exc_info!r}"
    if TRACEBACK not in text and record.exc_info is None:
        return
    with _lock:
        if _unallowed(text):
            _found.append(f"log {record.name}:\n{text[:4000]}")


def check_file(path: str, where: str, start: int = 0) -> int:
    """:func:`check_output` on a log file from byte ``start``; returns its size (where to start next time)."""
    with open(path, "rb") as f:
        f.seek(start)
        data = f.read()
    check_output(data.decode(errors="replace"), where)
    return start + len(data)


@contextmanager
def watching(allowed: Sequence[str]) -> Iterator[list[str]]:
    """Look at every log record handled while the block runs; yields the unallowed tracebacks found."""
    original = logging.Logger.callHandlers

    def call_handlers(self: logging.Logger, record: logging.LogRecord) -> None:
        _look(record)
        original(self, record)

    global _watching
    with _lock:
        _allowed[:] = list(allowed)
        _found.clear()
        _watching = True
    logging.Logger.callHandlers = call_handlers  # type: ignore[method-assign]
    try:
        yield _found
    finally:
        logging.Logger.callHandlers = original  # type: ignore[method-assign]
        with _lock:
            _watching = False
