"""The browser page in real Chromium (Debian's); the server, browser and console fixtures come from test_web.py.

The fixtures are registered here for the whole folder, so a test file takes them by name."""

from test_web import browser, console, contexts, playwright, server  # noqa: F401
