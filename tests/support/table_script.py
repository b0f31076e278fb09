"""The table's WebSocket scripted by the test (Playwright's ``route_web_socket``): the real page, served by a real
``xeri serve``, gets the server's messages as written here (a sync of a table mid-round, an update), so a
table is there in one message, the same every run."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, WebSocketRoute

from support.browser import Console, Server, new_page, open_with_storage

SIZES = {"1280x800": (1280, 800), "1920x1080": (1920, 1080), "390x844": (390, 844), "844x390": (844, 390)}
TABLE_ID = "felt0001"


def table(players: int, *, bots: str = "medium", names: tuple[str, ...] = ("Maria",)) -> dict[str, Any]:
    seats = []
    for s in range(players):
        human = s < len(names)
        seats.append({"seat": s, "side": s % (2 if players == 4 else players), "name": names[s] if human else None,
                      "bot": None if human else bots, "human": human, "taken": True, "connected": True,
                      "away": False})
    return {"id": TABLE_ID, "title": None, "status": "playing", "players": players, "seats": seats,
            "free_seats": [], "turn_timer": None, "private": False, "version": 10,
            "ruleset": {"name": "classic", "match_end": "rounds", "players": players, "rounds": 5, "target": None}}


def view(players: int, **kw: Any) -> dict[str, Any]:
    sides = 2 if players == 4 else players
    base: dict[str, Any] = {
        "seat": 0, "players": players, "sides": sides, "dealer": 1, "turn": 0,
        "hand": ["3D", "7S", "9H", "QC"], "legal_moves": ["3D", "7S", "9H", "QC"],
        "pile": ["2C", "8H", "KD", "5S", "TH"], "top": "TH", "hand_counts": [4] + [4] * (players - 1),
        "talon_count": 52 - 4 * players - 5 - 6 * sides - 2, "captured_counts": [8] + [4] * (sides - 1),
        "xeris": [[["6H", False]]] + [[] for _ in range(sides - 1)], "points": [11] + [1] * (sides - 1),
        "exposed": None, "gone": ["2C", "8H", "KD", "5S", "TH", "6H", "6S"], "over": False, "match_over": False,
        "winner": None, "match_scores": [0] * sides, "round_wins": [0] * sides, "round_number": 1, "target": None,
        "names": ["Maria"] + ["Bot"] * (players - 1),
    }
    base.update(kw)
    return base


def sync(players: int, tbl: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
    return {"type": "sync", "table": tbl or table(players), "seat": 0, "version": 10, "view": view(players, **kw),
            "events": [], "history": [], "fairness": {"match_commitment": "ab" * 32}, "timer": None, "pause": None}


class Scripted:
    """The table's socket, played by the test: it answers each connection with `first` and keeps what the page
    sends."""

    def __init__(self, page: Page, first: dict[str, Any] | None) -> None:
        self.sent: list[dict[str, Any]] = []
        self.routes: list[WebSocketRoute] = []
        self.first = first
        self.refuse = False
        page.route_web_socket(re.compile(r"/ws/tables/"), self.on_connect)
        # The fairness check of a scripted round: the server's verdict, without its seeds.
        page.route("**/api/verify", lambda route: route.fulfill(json={"ok": True}))

    def on_connect(self, ws: WebSocketRoute) -> None:
        if self.refuse:
            ws.close(code=1011)
            return
        self.routes.append(ws)
        ws.on_message(lambda m: self.sent.append(json.loads(m)))
        if self.first:
            ws.send(json.dumps(self.first))

    def send(self, msg: dict[str, Any]) -> None:
        self.routes[-1].send(json.dumps(msg))


def open_table(page: Page, server: Server, first: dict[str, Any] | None, *, prefs: dict[str, Any] | None = None
               ) -> Scripted:
    script = Scripted(page, first)
    items: dict[str, Any] = {"xeri.seats": {TABLE_ID: {"seat": 0, "token": "t"}}}
    if prefs:
        items["xeri.prefs"] = prefs  # read when the page loads
    open_with_storage(page, f"{server.url}/#/t/{TABLE_ID}", items)
    if first and first.get("view"):
        page.wait_for_selector(".board")
    return script


def felt_page(browser: Browser, contexts: list[BrowserContext], console: Console, size: str = "1280x800",
              **options: Any) -> Page:
    w, h = SIZES[size]
    phone = w < 600
    if phone:
        options.setdefault("is_mobile", True)
        options.setdefault("has_touch", True)
    return new_page(browser, contexts, console, viewport={"width": w, "height": h}, **options)


def box(page: Page, selector: str) -> dict[str, float]:
    b = page.locator(selector).first.bounding_box()
    assert b is not None, selector
    return b


def capture_update(version: int = 11) -> dict[str, Any]:
    """Seat 0 plays the 10♣ onto the 10♥ and takes the pile of five."""
    events = [{"kind": "played", "seat": 0, "card": "TC"},
              {"kind": "captured", "seat": 0, "cards": ["2C", "8H", "KD", "5S", "TH", "TC"], "hidden_count": 0,
               "leftover": False}]
    return {"type": "update", "version": version, "events": events,
            "view": view(2, hand=["3D", "7S", "9H"], legal_moves=[], turn=1, pile=[], top=None,
                         captured_counts=[14, 4], points=[13, 1])}


def opponent_update(version: int = 12) -> dict[str, Any]:
    events = [{"kind": "played", "seat": 1, "card": "4D"}]
    return {"type": "update", "version": version, "events": events,
            "view": view(2, hand=["3D", "7S", "9H"], pile=["4D"], top="4D", hand_counts=[3, 3],
                         captured_counts=[14, 4], points=[13, 1])}


def round_record(n: int = 1) -> dict[str, Any]:
    lines = [{"label": "most cards", "points": 3}, {"label": "Aces", "points": 2}, {"label": "xeri", "points": 10}]
    return {"round": n, "dealer": 1, "commitment": "cd" * 32, "seed": "12345", "salt": "ef" * 8,
            "totals": [15, 4],
            "scores": [{"side": 0, "cards": 28, "xeris": 1, "jack_xeris": 0, "lines": lines, "total": 15},
                       {"side": 1, "cards": 24, "xeris": 0, "jack_xeris": 0,
                        "lines": [{"label": "Kings", "points": 1}, {"label": "good 2 (2♣)", "points": 1}],
                        "total": 4}]}
