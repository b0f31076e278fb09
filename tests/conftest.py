"""What every test folder shares: the check of every server log for tracebacks (tests/support/logs.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from support import logs as server_logs


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "allow_traceback(*names): the test provokes, on purpose, a logged traceback "
                            "whose text contains one of the names (tests/support/logs.py)")


@pytest.fixture(autouse=True)
def no_tracebacks(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail a test whose servers logged a traceback it did not name with ``@pytest.mark.allow_traceback``."""
    allowed = [name for mark in request.node.iter_markers("allow_traceback") for name in mark.args]
    with server_logs.watching(allowed) as found:
        yield
        unallowed = list(found)
    if unallowed:
        pytest.fail(f"{len(unallowed)} traceback(s) in the server logs (name one the test provokes with "
                    f"@pytest.mark.allow_traceback):\n" + "\n".join(unallowed)[:8000], pytrace=False)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A server stopped after its last test (a module's fixture) and logged a traceback: the run fails."""
    if server_logs.late:
        print("\ntraceback(s) in the logs of servers stopped after their tests:\n" + "\n".join(server_logs.late)[:8000])
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
