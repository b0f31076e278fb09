"""Every screen of the page under axe-core, in every language, on a desktop and a phone; the Greek and the
Turkish complete; text contrast of at least 4.5:1 against the real background colours in both themes; touch
targets of at least 44 x 44 px on a phone.

axe-core is npm's package, pinned to its newest release by scripts/test.sh (``XERI_AXE_JS`` names its
``axe.min.js``) and injected into the page by Playwright. Screens: lobby, the open Settings, how to play, the
card gallery, a table waiting for friends, a table in play (with the counting aid, and the move log's drawer on a
phone), the round-over dialog of a round ended mid-match (that round played against ``easy`` bots by clicking the
first playable card) with its folded tables open, the end-of-match dialog, history, replay with the master's
review (its answer stubbed: a blunder, a mistake and an inaccuracy), stats and one player's stats (its matches
stubbed, for the chart and the win rates), the account's dialog, the lobby signed in (its Rated box), the
account's rated table waiting (its badge), a profile with its ratings and their chart, and a leaderboard (both
stubbed: the account plays no rated match here).
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route

from support.a11y import AXE, AXE_PIN, LOW_CONTRAST, ROOT, axe
from support.browser import DESKTOP, PHONE, Console, Server, new_page, play_until
from support.web_tables import post, seat, stub_player_matches

# Latin words the Greek page may show: card ranks, key names, the language's own name, the
# command line that checks a commitment, and the server bots' stand-in name in a record.
ALLOWED_LATIN = {"J", "Q", "K", "A", "H", "S", "U", "Ctrl", "C", "Enter", "Esc", "English", "xeri", "verify",
                 "commitment", "QR"}  # "κωδικός QR": Greek says the QR code by its Latin letters

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


def low_contrast(page: Page) -> dict[str, list[Any]]:
    """Texts under 4.5:1 in each theme, the page put in each by its data-theme (then set back)."""
    found: dict[str, list[Any]] = {}
    before = page.evaluate("document.documentElement.dataset.theme || ''")
    for theme in ("dark", "light"):
        page.evaluate("t => { document.documentElement.dataset.theme = t; }", theme)
        low = page.evaluate(LOW_CONTRAST, 4.5)
        if low:
            found[theme] = low[:6]
    page.evaluate("t => { document.documentElement.dataset.theme = t; }", before)
    return found


def english_words(lang: str) -> set[str]:
    """Words of the English strings that the language's own strings never use: English left on its page."""
    source = (ROOT / "src/xeri/web/js/lib/i18n.js").read_text()

    def block(name: str) -> str:
        m = re.search(rf"\n  {name}: \{{(.*?)\n  \}},", source, flags=re.S)
        assert m, f"lib/i18n.js has no {name} block"
        return m[1]

    def words(text: str) -> set[str]:
        values = " ".join(re.findall(r'"((?:[^"\\]|\\.)*)"', text))
        return set(re.findall(r"[A-Za-z]{3,}", re.sub(r"\{\w+\}", " ", values)))

    return words(block("en")) - words(block(lang)) - ALLOWED_LATIN


def stub_review(page: Page) -> None:
    """The master's review of any match, answered at once: one blunder, one mistake and one inaccuracy."""
    def move(n: int, grade: str, lost: float) -> dict[str, Any]:
        return {"round": 1, "move": n, "played": "7H", "best": "KS", "values": {"7H": -lost, "KS": 0.0},
                "lost": lost, "grade": grade, "forced": False,
                "best_effect": {"kind": "capture", "cards": 3, "points": 2, "unseen": 1}}

    moves = [move(1, "blunder", 10.0), move(3, "mistake", 2.5), move(5, "inaccuracy", 1.0)]
    review = {"lost": 13.5, "moves_reviewed": 3, "costliest": [{"round": 1, "move": m["move"]} for m in moves],
              "rounds": [{"number": 1, "lost": 13.5, "margin": -12.0,
                          "grades": {"blunder": 1, "mistake": 1, "inaccuracy": 1}, "moves": moves}]}
    page.route(re.compile(r".*/api/matches/[^/]+/review.*"), lambda route: route.fulfill(
        json={"state": "done", "done": 3, "total": 3, "review": review}))


def stub_ratings(page: Page, name: str) -> None:
    """The server's profile of ``name`` with ratings and three points of history, and a leaderboard with them."""
    points = [(1597, 475, True), (1674, 455, True), (1590, 430, False)]
    history = [{"format": "classic-2p", "at": f"2026-01-0{i + 1}T10:00:00Z", "rating": r, "deviation": d, "won": w}
               for i, (r, d, w) in enumerate(points)]
    line = {"format": "classic-2p", "rating": 1590, "deviation": 430, "games": 3, "wins": 2}

    def profile(route: Route) -> None:
        route.fulfill(json={**route.fetch().json(), "ratings": [line], "rating_history": history})

    def board(route: Route) -> None:
        route.fulfill(json={**route.fetch().json(), "players": [
            {"rank": 1, "name": name, **{k: v for k, v in line.items() if k != "format"}}]})

    page.route(re.compile(rf".*/api/profiles/{name}$"), profile)
    page.route(re.compile(r".*/api/leaderboards/classic-2p$"), board)


@pytest.fixture(scope="module")
def account(server: Server) -> Iterator[str]:
    """One account for every walk (signing up is rate-limited per address; signing in is too, less tightly)."""
    post(server, "/api/account/signup", {"name": "Nikos", "password": ACCOUNT_PASSWORD})
    yield "Nikos"


ACCOUNT_PASSWORD = "a good long password"


@pytest.fixture(scope="module")
def rated_table(server: Server, account: str) -> Iterator[str]:
    """A rated table of the account waiting for a friend (its badge); made with the account's session cookie."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def call(path: str, body: Any) -> Any:
        req = urllib.request.Request(server.url + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Origin": server.url})
        with opener.open(req, timeout=10) as r:
            return json.load(r)

    call("/api/account/signin", {"name": account, "password": ACCOUNT_PASSWORD})
    made = call("/api/tables", {"rated": True, "name": account, "seat": 0, "seats": [None, None], "target": 51})
    assert made["table"]["rated"] == "classic-2p"
    yield made["table_id"]


def latin(page: Page, allowed_ids: set[str]) -> set[str]:
    """Latin words on the page that are not on the allow-list (nor part of a table id or a player's name:
    data, not the page's words; other tests' tables show in the lobby's list)."""
    text = re.sub(r"[0-9a-f]{16,}", " ", page.evaluate(VISIBLE_TEXT))  # commitments, salts: hex digits
    words = set(re.findall(r"[A-Za-z]+", text))
    return {w for w in words if w not in ALLOWED_LATIN and not any(w in i for i in allowed_ids)}


def targets_too_small(page: Page) -> list[Any]:
    """Buttons, links, fields and switches that are visible and smaller than 44 x 44 px."""
    return page.evaluate("""() => [...document.querySelectorAll(
        'button, a[href], select, input:not([type=checkbox]), summary, label.pref')]
      .filter((el) => el.getClientRects().length && !el.closest('.sr-only, .skip-link, .fx'))
      .map((el) => [el.outerHTML.slice(0, 80), el.getBoundingClientRect()])
      .filter(([, r]) => r.width < 43.5 || r.height < 43.5)
      .map(([html, r]) => [html, Math.round(r.width), Math.round(r.height)])""")


def test_axe_is_the_pinned_newest_release(browser: Browser, contexts: list[BrowserContext],
                                         console: Console) -> None:
    """scripts/test.sh pins the newest axe-core (4.14.1 when this was written) and the suite runs that one."""
    assert AXE_PIN, "scripts/test.sh pins axe-core as AXE_VERSION=..."
    assert tuple(int(p) for p in AXE_PIN[1].split(".")) >= (4, 14, 1), AXE_PIN[1]
    assert AXE.is_file(), f"axe-core is missing at {AXE}: scripts/test.sh installs it"
    page = new_page(browser, contexts, console)
    page.set_content("<!doctype html><html lang='en'><title>x</title><main><h1>x</h1></main></html>")
    page.add_script_tag(path=str(AXE))
    assert page.evaluate("axe.version") == AXE_PIN[1]


# Both themes on a desktop and on a phone (contrast and layout), and each language at least once (its words), Greek
# on both: four walks cover what six did pair by pair, for the suite's time.
WALKS = [("en", False, "dark"), ("el", False, "light"), ("tr", True, "light"), ("el", True, "dark")]
LOCALES = {"en": "en-GB", "el": "el-GR", "tr": "tr-TR"}
NAMES = {"en": "Zoe", "el": "Ζωή", "tr": "Zeynep"}


@pytest.mark.parametrize("lang, phone, scheme", WALKS)
def test_every_screen_passes_axe(server: Server, browser: Browser, contexts: list[BrowserContext],
                                 console: Console, finished: str, account: str, rated_table: str, lang: str,
                                 phone: bool, scheme: str) -> None:
    assert AXE.is_file(), f"axe-core is missing at {AXE}: scripts/test.sh installs it"
    options: dict[str, Any] = {"viewport": PHONE, "is_mobile": True, "has_touch": True} if phone else {
        "viewport": DESKTOP}
    page = new_page(browser, contexts, console, locale=LOCALES[lang], color_scheme=scheme, **options)
    stub_review(page)
    name = NAMES[lang]
    stub_player_matches(page, name)
    ids = {finished, "Nikos", rated_table, *NAMES.values()}  # every walk's player: one walk lists another's matches
    english = english_words(lang) if lang != "en" else set()
    strays: dict[str, set[str]] = {}
    slashes: dict[str, list[str]] = {}
    small: dict[str, list[Any]] = {}
    contrast: dict[str, dict[str, list[Any]]] = {}

    def check(screen: str) -> None:
        axe(page, f"{lang}/{'phone' if phone else 'desktop'}/{screen}")
        low = low_contrast(page)
        if low:
            contrast[screen] = low
        if lang != "en":
            with urllib.request.urlopen(server.url + "/api/tables?status=all", timeout=5) as r:
                for table in json.load(r)["tables"]:
                    ids.add(table["id"])
                    ids.update(s["name"] for s in table["seats"] if s["name"] and s["human"])
            # A signed-in lobby also lists the account's own tables, private ones too: their ids are data as well.
            ids.update(page.evaluate("document.querySelector('#account-btn.signed-in') ? fetch('/api/account/tables')"
                                     ".then((r) => r.json()).then((d) => d.tables.map((x) => x.table_id)) : []"))
            text = page.evaluate(VISIBLE_TEXT)
            # Greek: no Latin word off the allow-list; Turkish (Latin script): no word only the English strings use.
            found = latin(page, ids) if lang == "el" else {
                w for w in re.findall(r"[A-Za-z]{3,}", text) if w in english and not any(w in i for i in ids)}
            if found:
                strays[screen] = found
            # "ο/η", "τον/την", "τελευταίος/α": a sentence is built without them (counts like 4/52 are no words).
            slash = re.findall(r"[^\W\d_]+/[^\W\d_]+", re.sub(r"https?://\S+|/#/\S*", " ", text))
            if slash:
                slashes[screen] = slash
        if phone:
            tiny = targets_too_small(page)
            if tiny:
                small[screen] = tiny

    page.goto(server.url + "/")
    page.wait_for_selector(".play-now")
    check("lobby")
    page.click(".prefs-menu summary")
    page.wait_for_selector("#pref-theme", state="visible")
    check("settings")
    page.keyboard.press("Escape")
    page.click("#nav-help")
    page.wait_for_selector(".help .help-values")
    check("how to play")
    page.goto(server.url + "/#/cards")
    page.wait_for_selector(".gallery .card")
    check("cards")

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
    page.wait_for_selector("#round-dialog .fairness[data-ok]", state="attached")
    check("round dialog")
    page.click("#round-dialog .dialog-more summary")
    check("round dialog, unfolded")
    page.keyboard.press("Escape")

    page.goto(f"{server.url}/#/t/{finished}/watch")
    page.wait_for_selector("#match-dialog .fairness[data-ok]", state="attached")
    page.click("#match-dialog .dialog-more summary")
    check("match dialog")
    page.keyboard.press("Escape")

    page.goto(server.url + "/#/history")
    page.wait_for_selector(f"tr[data-match='{finished}']")
    check("history")
    page.goto(f"{server.url}/#/replay/{finished}")
    page.wait_for_selector(".replay-board .seat-box")
    page.click(".replay-next")
    page.click(".review-start")
    page.wait_for_selector(".review-costliest .review-jump")
    page.locator(".review-jump").first.click()  # the blunder: "lost 10.0 — Blunder: ..." under the step
    page.wait_for_selector(".review-note[data-grade=blunder]")
    check("replay")
    page.goto(server.url + "/#/stats")
    page.wait_for_selector(".stats-table")
    check("stats")
    page.goto(f"{server.url}/#/stats/{name}")
    page.wait_for_selector(".recent-chart")
    check("player stats")

    # Accounts: the dialog signed out, then signed in (its choices), and a profile.
    page.goto(server.url + "/")
    page.wait_for_selector(".play-now")
    page.click("#account-btn")
    page.wait_for_selector("#account-dialog .sign-in-form")
    check("account dialog")
    page.fill("#account-name", account)
    page.fill("#account-password", ACCOUNT_PASSWORD)
    page.click("#account-dialog .sign-in-btn")
    page.wait_for_selector("#account-btn.signed-in")
    page.wait_for_selector("#vs-rated")
    check("lobby, signed in")
    page.goto(f"{server.url}/#/t/{rated_table}")
    page.wait_for_selector(".waiting .rated-badge")
    check("rated table, waiting")
    page.click("#account-btn")
    page.wait_for_selector("#account-dialog .delete-form")
    check("account dialog, signed in")
    page.keyboard.press("Escape")
    stub_ratings(page, account)
    page.goto(f"{server.url}/#/profile/{account}")
    page.wait_for_selector(".profile-name")
    page.wait_for_selector(".profile-ratings .rating-chart")
    check("profile")
    page.click(".profile-ratings .leaderboard-link")
    page.wait_for_selector(".leaderboard-table")
    check("leaderboard")

    assert contrast == {}, f"text under 4.5:1 (contrast, text, element) by screen and theme: {contrast}"
    assert strays == {}, f"English left on the {lang} page: {strays}"
    assert slashes == {}, f"'/' constructions on the {lang} page: {slashes}"
    assert small == {}, f"touch targets under 44 x 44 px: {small}"
