"""Every screen of the page under axe-core, in both languages, on a desktop and a phone; the Greek complete;
touch targets of at least 44 x 44 px on a phone.

axe-core is npm's package, installed by scripts/test.sh (``XERI_AXE_JS`` names its ``axe.min.js``) and
injected into the page by Playwright. Screens: lobby, how to play, a table waiting for friends, a table in
play (with the counting aid, and the move log's drawer on a phone), the round-over dialog of a round ended
mid-match (that round played against ``easy`` bots by clicking the first playable card), the end-of-match dialog,
history, replay and stats.
"""

# ruff: noqa: F811  (the fixtures imported from test_web are parameters by name)
from __future__ import annotations

import json
import os
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from test_web import (  # noqa: F401  (fixtures are used by name)
    DESKTOP,
    PHONE,
    Console,
    Server,
    browser,
    console,
    contexts,
    new_page,
    play_until,
    playwright,
    server,
)

ROOT = Path(__file__).resolve().parent.parent
AXE = Path(os.environ.get("XERI_AXE_JS", ROOT / ".cache/axe/node_modules/axe-core/axe.min.js"))
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]

# Latin words the Greek page may show: card ranks, key names, the language's own name, the
# command line that checks a commitment, and the server bots' stand-in name in a record.
ALLOWED_LATIN = {"J", "Q", "K", "A", "H", "S", "Ctrl", "C", "Enter", "Esc", "English", "xeri", "verify",
                 "commitment"}

# Every text a person (or a screen reader) gets: text nodes, labels, titles, placeholders, alt texts.
VISIBLE_TEXT = """() => {
  const out = [];
  const shown = (el) => el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (el.closest('script, style, noscript, .sr-only') && !el.closest('.sr-only')) continue;
    if (el.closest('.sr-only') || shown(el)) out.push(n.textContent);
  }
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
    if (!shown(el) && !el.closest('.sr-only')) continue;
    for (const a of ['aria-label', 'title', 'placeholder', 'alt']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
  }
  out.push(document.title);
  return out.join('\\n');
}"""


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


def axe(page: Page, screen: str) -> None:
    """Run axe-core on the page as it is; fail with every violation's rule and nodes."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags}, "
                           "resultTypes: ['violations']})", TAGS)
    found = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:4]) for v in result["violations"]]
    assert found == [], f"{screen}: {found}"


def latin(page: Page, allowed_ids: set[str]) -> set[str]:
    """Latin words on the page that are not on the allow-list (nor part of a table id or a player's name:
    data, not the page's words; other tests' tables show in the lobby's list)."""
    text = re.sub(r"[0-9a-f]{16,}", " ", page.evaluate(VISIBLE_TEXT))  # commitments, salts: hex digits
    words = set(re.findall(r"[A-Za-z]+", text))
    return {w for w in words if w not in ALLOWED_LATIN and not any(w in i for i in allowed_ids)}


def seat(page: Page, server: Server, table_id: str, seat_no: int, token: str) -> None:
    page.goto(server.url + "/#/help")
    page.evaluate("([id, s, token]) => localStorage.setItem('xeri.seats', JSON.stringify({[id]: {seat: s, token}}))",
                  [table_id, seat_no, token])
    page.goto(f"{server.url}/#/t/{table_id}")


def targets_too_small(page: Page) -> list[Any]:
    """Buttons, links, fields and switches that are visible and smaller than 44 x 44 px."""
    return page.evaluate("""() => [...document.querySelectorAll(
        'button, a[href], select, input:not([type=checkbox]), summary, label.pref')]
      .filter((el) => el.getClientRects().length && !el.closest('.sr-only, .skip-link, .fx'))
      .map((el) => [el.outerHTML.slice(0, 80), el.getBoundingClientRect()])
      .filter(([, r]) => r.width < 43.5 || r.height < 43.5)
      .map(([html, r]) => [html, Math.round(r.width), Math.round(r.height)])""")


@pytest.mark.parametrize("lang, phone", [("en", False), ("el", False), ("en", True), ("el", True)])
def test_every_screen_passes_axe(server: Server, browser: Browser, contexts: list[BrowserContext],
                                 console: Console, finished: str, lang: str, phone: bool) -> None:
    assert AXE.is_file(), f"axe-core is missing at {AXE}: scripts/test.sh installs it"
    options: dict[str, Any] = {"viewport": PHONE, "is_mobile": True, "has_touch": True} if phone else {
        "viewport": DESKTOP}
    page = new_page(browser, contexts, console, locale="el-GR" if lang == "el" else "en-GB", **options)
    name = "Ζωή" if lang == "el" else "Zoe"
    ids = {finished}
    strays: dict[str, set[str]] = {}
    small: dict[str, list[Any]] = {}

    def check(screen: str) -> None:
        axe(page, f"{lang}/{'phone' if phone else 'desktop'}/{screen}")
        if lang == "el":
            with urllib.request.urlopen(server.url + "/api/tables?status=all", timeout=5) as r:
                for table in json.load(r)["tables"]:
                    ids.add(table["id"])
                    ids.update(s["name"] for s in table["seats"] if s["name"] and s["human"])
            found = latin(page, ids)
            if found:
                strays[screen] = found
        if phone:
            tiny = targets_too_small(page)
            if tiny:
                small[screen] = tiny

    page.goto(server.url + "/")
    page.wait_for_selector(".start-vs")
    check("lobby")
    page.click("#nav-help")
    page.wait_for_selector(".help h1")
    check("how to play")

    waiting = post(server, "/api/tables", {"ruleset": "classic", "players": 2, "name": name, "seat": 0})
    ids.add(waiting["table_id"])
    seat(page, server, waiting["table_id"], 0, waiting["token"])
    page.wait_for_selector(".waiting-text")
    check("waiting table")

    # Two rounds: the first one's end opens the round-over dialog, not the end of the match.
    playing = post(server, "/api/tables", {"ruleset": "classic", "options": {"match_end": "rounds", "rounds": 2},
                                           "seats": [None, {"bot": "easy"}], "name": name, "seat": 0})
    ids.add(playing["table_id"])
    seat(page, server, playing["table_id"], 0, playing["token"])
    page.wait_for_selector(".hand .card-btn")
    page.wait_for_selector(".seen-panel")
    check("table")
    if phone:
        page.click(".log-btn")
        page.wait_for_selector(".move-log", state="visible")
        check("move log")
        page.click(".log-close")
    play_until(page, "#round-dialog")
    page.wait_for_selector("#round-dialog .fairness[data-ok]")
    check("round dialog")
    page.keyboard.press("Escape")

    page.goto(f"{server.url}/#/t/{finished}/watch")
    page.wait_for_selector("#match-dialog .fairness[data-ok]")
    check("match dialog")
    page.keyboard.press("Escape")

    page.goto(server.url + "/#/history")
    page.wait_for_selector(f"tr[data-match='{finished}']")
    check("history")
    page.goto(f"{server.url}/#/replay/{finished}")
    page.wait_for_selector(".replay-board .seat-box")
    page.click(".replay-next")
    check("replay")
    page.goto(server.url + "/#/stats")
    page.wait_for_selector(".stats-table")
    check("stats")

    assert strays == {}, f"English left on the Greek page: {strays}"
    assert small == {}, f"touch targets under 44 x 44 px: {small}"
