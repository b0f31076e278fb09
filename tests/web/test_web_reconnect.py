"""The page's socket as a flaky server meets it (issue 25): its reconnect pause grows with jitter and starts small
again only after a socket synced and lived a while; a move refused as "not stored" (retryable) is sent again once
the server answers, if it is still legal at that version.

Real Chromium against a real ``xeri serve`` (test_web's fixtures), with Playwright's WebSocket routing standing
between them to refuse or cut a socket, or to answer one move as the server does when its database is away.
"""

from __future__ import annotations

import itertools
import json
import time
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, WebSocketRoute

from support.browser import TURN, Console, Server, new_page, weakest_level
from support.web_tables import api, friends_table, seat_page


def wait_until(page: Page, what: str, check: Any, timeout: float = 20.0) -> None:
    """Let the page run until ``check()`` is true (it reads what the WebSocket route saw), or fail."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        page.wait_for_timeout(25)  # a poll interval: the route's handlers run while the page does


def test_the_reconnect_pause_grows_with_jitter_and_resets_only_after_a_good_socket(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    table_id, token = friends_table(server, seats=[None, {"bot": weakest_level(server)}])
    opens: list[float] = []
    routes: list[WebSocketRoute] = []
    mode = {"refuse": True}

    def route(ws: WebSocketRoute) -> None:
        opens.append(time.monotonic())
        routes.append(ws)
        if mode["refuse"]:
            ws.close(code=1013, reason="try again later")  # accepted, then closed at once: a seat refused
        else:
            ws.connect_to_server()

    page = new_page(browser, contexts, console)
    console.allowed = ("WebSocket",)
    page.route_web_socket("**/ws/tables/**", route)
    seat_page(page, server, table_id, 0, token)
    wait_until(page, "five refused tries", lambda: len(opens) >= 5)
    gaps = [b - a for a, b in itertools.pairwise(opens)]
    # Each pause is drawn in [c/2, c] for a ceiling c that doubles from 0.3 s (tests/web/js/socket.test.mjs checks
    # the draw exactly): try k waits at least 0.15 * 2**k s, so the fourth at least 1.2 s (the page used to try
    # again every 0.3 s, for ever, once the socket had opened). Only lower bounds: a loaded machine adds to a gap.
    assert all(gap >= 0.95 * 0.15 * 2**k for k, gap in enumerate(gaps)), gaps
    assert gaps[3] >= 1.1, gaps
    # A socket that syncs but is cut at once does not reset the pause ...
    mode["refuse"] = False
    wait_until(page, "a real connection", lambda: len(opens) >= 6)
    page.wait_for_selector(".hand .card-btn")
    tries = len(opens)
    cut = time.monotonic()
    routes[-1].close(code=1012, reason="restart")
    wait_until(page, "the next try", lambda: len(opens) > tries, timeout=30)
    assert opens[-1] - cut >= 2.0, "a socket cut right after its sync reset the pause"
    # ... one that lived a few seconds after its sync does.
    page.wait_for_selector(".hand .card-btn")
    lived = time.monotonic()
    wait_until(page, "a socket that lived 5.5 s", lambda: time.monotonic() - lived >= 5.5)
    tries = len(opens)
    cut = time.monotonic()
    routes[-1].close(code=1012, reason="restart")
    wait_until(page, "the next try", lambda: len(opens) > tries)
    assert opens[-1] - cut < 1.0, "the pause did not start small again after a good socket"
    page.wait_for_selector(".hand .card-btn")


def test_a_move_refused_as_not_stored_is_sent_again(server: Server, browser: Browser,
                                                    contexts: list[BrowserContext], console: Console) -> None:
    table_id, token = friends_table(server, seats=[None, {"bot": weakest_level(server)}])
    moves: list[dict[str, Any]] = []

    def route(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "move":
                moves.append(data)
                if len(moves) == 1:  # what the server says while its database is away: nothing changed
                    ws.send(json.dumps({"type": "error", "code": "unavailable", "retry": True, "ref": None,
                                        "message": "the move could not be stored (the database is not answering); "
                                                   "nothing changed, try again"}))
                    return
            upstream.send(message)

        ws.on_message(from_page)

    page = new_page(browser, contexts, console)
    page.route_web_socket("**/ws/tables/**", route)
    seat_page(page, server, table_id, 0, token)
    page.wait_for_selector(TURN)
    version = api(server, "GET", f"/api/tables/{table_id}")["version"]
    page.locator(TURN).first.click()
    wait_until(page, "the move sent again", lambda: len(moves) >= 2, timeout=30)
    assert moves[1]["card"] == moves[0]["card"] and moves[1]["version"] == moves[0]["version"] == version
    wait_until(page, "the move stored", lambda: api(server, "GET", f"/api/tables/{table_id}")["version"] > version)
    assert len(moves) == 2, "the move was sent more than once more"


def test_a_move_swallowed_by_a_socket_that_dies_is_sent_again_after_the_resync(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    """A process killed (kill -9) after the page sent a move and before it answered: the socket closes with the move
    unanswered. The page sends it again once the new socket's sync shows the table still at that move's version."""
    table_id, token = friends_table(server, seats=[None, {"bot": weakest_level(server)}])
    moves: list[dict[str, Any]] = []
    routes: list[WebSocketRoute] = []

    def route(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()
        routes.append(ws)

        def from_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "move":
                moves.append(data)
                if len(moves) == 1:  # swallowed, then the socket dies as its process would
                    ws.close(code=1006, reason="gone")
                    return
            upstream.send(message)

        ws.on_message(from_page)

    page = new_page(browser, contexts, console)
    console.allowed = ("WebSocket",)
    page.route_web_socket("**/ws/tables/**", route)
    seat_page(page, server, table_id, 0, token)
    page.wait_for_selector(TURN)
    version = api(server, "GET", f"/api/tables/{table_id}")["version"]
    page.locator(TURN).first.click()
    wait_until(page, "the move sent again", lambda: len(moves) >= 2, timeout=30)
    assert len(routes) == 2, "the move went again on the dead socket"
    assert moves[1]["card"] == moves[0]["card"] and moves[1]["version"] == moves[0]["version"] == version
    wait_until(page, "the move stored", lambda: api(server, "GET", f"/api/tables/{table_id}")["version"] > version)
    assert len(moves) == 2, "the move was sent more than once more"
