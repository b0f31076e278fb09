"""Tables and matches for the web tests through the server's HTTP API: made, finished, seated in a page, or their
answers stubbed in the page."""

from __future__ import annotations

import json
import re
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page

from support.browser import Server, open_with_storage


def stub_player_matches(page: Page, name: str) -> None:
    """One player's finished matches, answered at once: wins and losses against two levels and a person."""
    def match(i: int, winner: int, bot: str | None, scores: list[int]) -> dict[str, Any]:
        other = f"Computer {bot}" if bot else "Nikos"
        return {"id": f"m{i:015d}", "names": [name, other], "bots": [None, bot], "winner": winner, "scores": scores,
                "ruleset": {"name": "classic", "players": 2, "match_end": "target", "rounds": 5, "target": 151},
                "round_wins": None, "finished_at": "2026-11-30T20:00:00Z"}

    matches = [match(1, 0, "easy", [160, 90]), match(2, 1, "medium", [120, 155]), match(3, 0, "easy", [151, 40]),
               match(4, 0, None, [152, 150]), match(5, 1, "medium", [80, 151])]
    page.route(re.compile(r".*/api/matches\?.*player=.*"), lambda route: route.fulfill(json={"matches": matches}))


def post(server: Server, path: str, body: Any) -> Any:
    req = urllib.request.Request(server.url + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "Origin": server.url})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


@pytest.fixture(scope="module")
def finished(server: Server) -> Iterator[str]:
    """A finished one-round match of a person (who left, so the computer played it out) and a bot."""
    res = post(server, "/api/tables", {"ruleset": "classic", "options": {"match_end": "rounds", "rounds": 1},
                                       "seats": [None, {"bot": "easy"}], "name": "Ζωή", "seat": 0})
    post(server, f"/api/tables/{res['table_id']}/leave", {"token": res["token"]})
    yield res["table_id"]


def seat(page: Page, server: Server, table_id: str, seat_no: int, token: str) -> None:
    page.goto(server.url + "/#/help")
    page.evaluate("([id, s, token]) => localStorage.setItem('xeri.seats', JSON.stringify({[id]: {seat: s, token}}))",
                  [table_id, seat_no, token])
    page.goto(f"{server.url}/#/t/{table_id}")


def api(server: Server, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server.url + path, data=data, method=method,
                                 headers={"Content-Type": "application/json", "Origin": server.url})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def vs_computer(page: Page, server: Server, name: str, *, level: str = "easy", target: str = "r1",
                players: int = 2) -> str:
    page.goto(server.url + "/")
    page.fill(".vs-name", name)
    page.select_option(".vs-level", level)
    page.select_option(".vs-players", str(players))
    page.select_option(".vs-ruleset", "classic")
    page.select_option(".vs-target", target)
    page.click(".start-vs")
    page.wait_for_selector(".hand .card-btn")
    return page.url.split("#/t/")[1]


def friends_table(server: Server, players: int = 2, **extra: Any) -> tuple[str, str]:
    """A friends' table made through the API, its creator seated: (table id, the creator's token)."""
    res = api(server, "POST", "/api/tables", {"ruleset": "classic", "players": players, "name": "Alice", "seat": 0,
                                              **extra})
    return res["table_id"], res["token"]


def seat_page(page: Page, server: Server, table_id: str, seat: int, token: str) -> Page:
    open_with_storage(page, f"{server.url}/#/t/{table_id}", {"xeri.seats": {table_id: {"seat": seat, "token": token}}})
    return page
