"""The browser's replay shows the master's review: progress, the per-round summary, each move's grade and better card.

Driven in Debian's Chromium through Playwright against a real ``xeri serve`` (support.browser's fixtures); the
match itself is played over the WebSocket API, which is quicker than clicking.
"""

from __future__ import annotations

import random

from playwright.sync_api import Browser, BrowserContext

from support.browser import ARTIFACTS, Console, Server, new_page
from support.server import Player, create, play_out

SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def label(code: str) -> str:
    """A card as the page writes it (lib/cards.js cardLabel): 10♦, J♣, 7♥."""
    return ("10" if code[0] == "T" else code[0]) + SUITS[code[1]]


def test_the_replay_shows_the_review(server: Server, browser: Browser, contexts: list[BrowserContext],
                                     console: Console) -> None:
    made = create(server.url, name="Zoe", seats=[None, {"bot": "easy"}], options={"rounds": 1})
    table_id = made["table_id"]
    play_out([Player(server.url.replace("http", "ws"), table_id, made["token"])], random.Random(8))
    page = new_page(browser, contexts, console)
    page.goto(f"{server.url}/#/replay/{table_id}")
    page.wait_for_selector(".replay-board .seat-box")
    assert page.input_value(".review-seat") == "0"  # the person's seat
    page.click(".review-start")
    page.wait_for_selector(".review-total", timeout=120_000)
    data = server.get(f"/api/matches/{table_id}/review?seat=0")  # built, so cached: the same review
    assert data["state"] == "done"
    review = data["review"]
    assert page.locator(".review-rounds tbody tr").count() == len(review["rounds"]) == 1
    assert abs(float(page.inner_text(".review-round-lost")) - review["rounds"][0]["lost"]) <= 0.051
    assert f"{review['moves_reviewed']} moves" in page.inner_text(".review-total")
    moves = {(m["round"], m["move"]): m for r in review["rounds"] for m in r["moves"]}
    costliest = [moves[(c["round"], c["move"])] for c in review["costliest"]]
    assert page.locator(".review-costliest li").count() == len(costliest) >= 1
    # A costliest move's link goes to its step: marked with its grade, the better card named.
    worst = costliest[0]
    page.locator(".review-jump").first.click()
    note = page.locator(".review-note")
    assert note.get_attribute("data-grade") == worst["grade"]
    assert label(worst["best"]) in note.inner_text() and label(worst["played"]) in page.inner_text(".step-what")
    assert "Expected points per card" in note.inner_text() and "null" not in note.inner_text()
    # A forced move (one card in hand) is marked so, with no values.
    forced = next(m for m in moves.values() if m["forced"])
    page.click(".replay-first")
    for _ in range(forced["move"]):
        page.click(".replay-next")
    assert note.get_attribute("data-grade") == "forced" and note.inner_text() == "The only card in hand"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-review.png"), full_page=True)
