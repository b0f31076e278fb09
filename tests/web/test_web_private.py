"""The page opens its own finished private match (issue 26): it sends the seat token it kept, in Chromium.

Another browser, without that token, is refused.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from support.server import Player, ThreadServer, create, db_url, play_out

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]


@pytest.fixture
def finished_private(tmp_path: Path) -> Iterator[tuple[ThreadServer, str, str]]:
    srv = ThreadServer(db_url(tmp_path)).start()
    try:
        made = create(srv.base, name="Kryfi", seats=[None, {"bot": "easy"}], options={"rounds": 1}, private=True,
                      takeover_after=None)
        p = Player(srv.ws_base, made["table_id"], made["token"])
        play_out([p], random.Random(8))
        p.close()
        yield srv, made["table_id"], made["token"]
    finally:
        srv.stop()


def test_the_page_opens_its_own_finished_private_match(finished_private: tuple[ThreadServer, str, str]) -> None:
    srv, tid, token = finished_private
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        try:
            mine = browser.new_context(accept_downloads=True)
            page = mine.new_page()
            page.goto(srv.base + "/")
            page.wait_for_selector(".brand")
            seats = json.dumps({tid: {"seat": 0, "token": token, "at": 0}})
            page.evaluate("(s) => localStorage.setItem('xeri.seats', s)", seats)  # as the page kept it at the join
            page.goto(f"{srv.base}/#/replay/{tid}")
            page.wait_for_selector(".replay-controls")
            with page.expect_download() as download:
                page.locator(".replay-controls a").click()
            record = json.loads(Path(download.value.path()).read_text())
            assert record["result"]["over"] is True and record["seats"][0]["name"] == "Kryfi"
            other = browser.new_context().new_page()
            other.goto(f"{srv.base}/#/replay/{tid}")
            other.wait_for_selector("text=This match is private: only its players see it.")
            assert other.locator(".replay-controls").count() == 0
        finally:
            browser.close()
