"""The browser page in real Chromium (Debian's); the server, browser and console fixtures come from
tests/support/browser.py, a finished match from tests/support/web_tables.py.

The fixtures are registered here for the whole folder, so a test file takes them by name."""

from support.browser import browser, console, contexts, playwright, server  # noqa: F401
from support.web_tables import finished  # noqa: F401
