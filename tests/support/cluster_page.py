"""The cluster as a browser meets it (HAProxy's one address, as tests/support/browser.py's Server): moves seen
stored through it, and a match played out in every page."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from typing import Any

import httpx
from playwright.sync_api import Page

from support.browser import TURN
from support.cluster import Cluster, poll


class Balancer:
    """The cluster as a browser sees it: one address (HAProxy's), as support.browser's Server."""

    def __init__(self, cluster: Cluster, database: str) -> None:
        self.cluster = cluster
        self.database = database
        self.url = cluster.base

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=10) as r:
            return json.load(r)

    def post(self, path: str, body: Any) -> Any:
        return httpx.post(self.url + path, json=body, headers={"Origin": self.url}, timeout=10).json()

    def version(self, table_id: str, timeout: float = 15.0) -> int:
        """The table's version; while the table changes servers (a 503 "try again"), asked again."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                return int(self.get(f"/api/tables/{table_id}")["version"])
            except urllib.error.HTTPError as exc:
                if exc.code != 503 or time.monotonic() > deadline:
                    raise
            threading.Event().wait(0.1)  # a retry pause, as a client after a retryable refusal


def play_moves(page: Page, server: Balancer, table_id: str, moves: int, timeout: float = 20.0) -> None:
    """Make ``moves`` of this page's moves (closing round dialogs), each seen stored through the balancer."""
    deadline = time.monotonic() + timeout
    for _ in range(moves):
        page.wait_for_selector(f"{TURN}, #round-dialog, #match-dialog", timeout=(deadline - time.monotonic()) * 1000)
        if page.locator("#match-dialog").count():
            return
        if page.locator("#round-dialog").count():
            page.click("#round-dialog .actions button.primary")
            continue
        before = server.version(table_id)
        page.locator(TURN).first.click()
        poll("the move stored", lambda before=before: server.version(table_id) > before,
             timeout=deadline - time.monotonic())


def play_out(pages: list[Page], timeout: float = 90.0) -> None:
    """Play every page's turns (closing round dialogs) until each shows the match's end."""
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, "the match did not end"
        if all(p.locator("#match-dialog").count() for p in pages):
            return
        for p in pages:
            if p.locator("#round-dialog").count():
                p.click("#round-dialog .actions button.primary")
            elif p.locator(TURN).count():
                p.locator(TURN).first.click()
        pages[0].wait_for_timeout(50)  # a poll interval while the other side answers
