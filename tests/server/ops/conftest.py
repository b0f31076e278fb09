"""Running xeri as a service: a browser plays on the cluster, with the Chromium fixtures of
tests/support/browser.py (registered here for the folder)."""

from support.browser import browser, console, contexts, playwright  # noqa: F401
