"""Around the table (issue 24): the lobby's one Play now and readable table titles, Settings that close and
remember the theme, sound, animation speed and card size, the round and match dialogs in words and opened at their
top, Stats with win rates and a chart, How to play's point values, and no "/" constructions in Greek or Turkish.

Driven in Debian's Chromium through Playwright against a real ``xeri serve`` (the fixtures of tests/support/browser.py).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Route

from support.browser import PHONE, Console, Server, new_page, play_until
from support.web_tables import post, seat, stub_player_matches

ROOT = Path(__file__).resolve().parents[2]

# Elements in the order a document reads them: true when each comes before the next.
IN_ORDER = """(selectors) => selectors.every((s, i) => i === 0 ||
  (document.querySelector(selectors[i - 1]).compareDocumentPosition(document.querySelector(s))
   & Node.DOCUMENT_POSITION_FOLLOWING))"""


def test_the_lobby_leads_with_one_play_now_and_titles_its_tables(server: Server, browser: Browser,
                                                                  contexts: list[BrowserContext],
                                                                  console: Console) -> None:
    page = new_page(browser, contexts, console)
    hosted = post(server, "/api/tables", {"ruleset": "classic", "players": 2, "name": "Ada", "seat": 0})
    page.goto(server.url + "/")
    page.wait_for_selector(f"li[data-table='{hosted['table_id']}']")
    # The first control of the page is one big Play now, in view; then Play with friends, the options, the tables.
    first = page.evaluate("document.querySelector('#view button, #view a[href], #view input, #view select')"
                          ".classList.contains('play-now')")
    assert first
    box = page.locator(".play-now").bounding_box()
    assert box and box["height"] >= 56 and box["width"] >= 200 and box["y"] + box["height"] <= 800, box
    assert page.inner_text(".play-now") == "Play now"
    assert page.evaluate(IN_ORDER, [".play-now", ".create-friends", "#vs-level", "#vs-players", "#vs-ruleset",
                                    "#vs-target", "#fr-timer", ".open-tables"])
    title = page.inner_text(f"li[data-table='{hosted['table_id']}'] .table-title")
    assert title == "Ada's table · classic · 2 players", title
    # Play now starts a game against the computer at the remembered level: a first visit gets medium.
    page.click(".play-now")
    page.wait_for_selector(".hand .card-btn")
    table = server.get(f"/api/tables/{page.url.split('#/t/')[1]}")
    assert [s["bot"] for s in table["seats"]] == [None, "medium"] and table["ruleset"]["name"] == "classic"


def test_the_lobby_does_not_move_under_a_finger_while_its_tables_load(server: Server, browser: Browser,
                                                                        contexts: list[BrowserContext],
                                                                        console: Console) -> None:
    page = new_page(browser, contexts, console, viewport=PHONE, is_mobile=True, has_touch=True)
    held: list[Route] = []
    # The open tables' answer waits for the test.
    page.route(re.compile(r"/api/tables\?"), lambda route: held.append(route))
    with page.expect_request(re.compile(r"/api/tables\?")):
        page.goto(server.url + "/")
    page.wait_for_selector(".help-panel .help-link")
    assert page.get_attribute(".open-tables", "aria-busy") == "true"
    assert page.inner_text(".open-tables") == "Loading…"
    before = page.locator(".help-panel").bounding_box()
    held[0].fulfill(json={"tables": []})
    page.wait_for_selector(".open-tables:not([aria-busy])")
    assert page.inner_text(".open-tables") == "No open tables."
    # The panels below kept their place: a tap aimed at How to play lands on it.
    assert page.locator(".help-panel").bounding_box() == before


def test_settings_close_on_escape_a_click_outside_and_a_change_of_page(server: Server, browser: Browser,
                                                                       contexts: list[BrowserContext],
                                                                       console: Console) -> None:
    page = new_page(browser, contexts, console)
    page.goto(server.url + "/#/cards")
    page.wait_for_selector(".gallery .card")
    is_open = "document.querySelector('.prefs-menu').open"
    page.click(".prefs-menu summary")
    assert page.evaluate(is_open)
    page.keyboard.press("Escape")
    assert not page.evaluate(is_open)
    assert page.evaluate("document.activeElement === document.querySelector('.prefs-menu summary')")
    page.click(".prefs-menu summary")
    page.click("#view h1")  # a click outside
    assert not page.evaluate(is_open)
    # Opened on the lobby, it is gone on the next page: the K♠ and A♠ of /#/cards are not covered.
    page.goto(server.url + "/")
    page.wait_for_selector(".play-now")
    page.click(".prefs-menu summary")
    page.evaluate("location.hash = '#/cards'")
    page.wait_for_selector(".gallery .card")
    assert not page.evaluate(is_open)
    for card in ("KS", "AS"):
        assert page.evaluate("""(code) => { const r = document.querySelector(`.gallery .card[data-card=${code}]`)
            .getBoundingClientRect(); const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
            return Boolean(at && at.closest(`.card[data-card=${code}]`)); }""", card), card
    # The language picker offers Turkish.
    page.click(".prefs-menu summary")
    page.select_option("#pref-lang", "tr")
    page.wait_for_function("document.documentElement.lang === 'tr'")
    assert page.inner_text("#view h1") == "Kâğıtlar"


def test_the_theme_follows_the_system_and_settings_override_it(server: Server, browser: Browser,
                                                               contexts: list[BrowserContext],
                                                               console: Console) -> None:
    theme = "document.documentElement.dataset.theme"
    background = "getComputedStyle(document.body).backgroundImage"
    dark = new_page(browser, contexts, console, color_scheme="dark")
    dark.goto(server.url + "/")
    dark.wait_for_selector(".play-now")
    # Motion allowed by the system: Settings' motion is then the player's to choose (else it says Off, disabled).
    light = new_page(browser, contexts, console, color_scheme="light", motion=True)
    light.goto(server.url + "/")
    light.wait_for_selector(".play-now")
    assert (dark.evaluate(theme), light.evaluate(theme)) == ("dark", "light")
    assert dark.evaluate(background) != light.evaluate(background)
    # Settings override the system's, and every setting is remembered.
    cw = """() => { const d = document.body.appendChild(document.createElement('div'));
        d.style.width = 'var(--cw)'; const w = d.getBoundingClientRect().width; d.remove(); return w; }"""
    medium = light.evaluate(cw)
    light.click(".prefs-menu summary")
    light.select_option("#pref-theme", "dark")
    assert light.evaluate(theme) == "dark"
    assert light.evaluate(background) == dark.evaluate(background)
    light.uncheck("#pref-sound")
    light.select_option("#pref-motion", "fast")
    light.select_option("#pref-size", "large")
    assert light.evaluate("document.documentElement.dataset.cardSize") == "large"
    assert light.evaluate(cw) > medium * 1.1
    light.reload()
    light.wait_for_selector(".play-now")
    assert light.evaluate(theme) == "dark"
    assert [light.input_value(s) for s in ("#pref-theme", "#pref-motion", "#pref-size")] == ["dark", "fast", "large"]
    assert not light.is_checked("#pref-sound")
    prefs = light.evaluate("JSON.parse(localStorage.getItem('xeri.prefs'))")
    assert (prefs["theme"], prefs["sound"], prefs["motion"], prefs["cardSize"]) == ("dark", False, "fast", "large")


def test_the_round_dialog_opens_at_its_top_with_a_headline_in_words(server: Server, browser: Browser,
                                                                    contexts: list[BrowserContext],
                                                                    console: Console) -> None:
    page = new_page(browser, contexts, console, viewport=PHONE, is_mobile=True, has_touch=True)
    made = post(server, "/api/tables", {"ruleset": "classic", "options": {"match_end": "rounds", "rounds": 2},
                                        "seats": [None, {"bot": "easy"}], "name": "Maria", "seat": 0})
    seat(page, server, made["table_id"], 0, made["token"])
    page.wait_for_selector(".hand .card-btn")
    play_until(page, "#round-dialog")
    dialog = page.locator("#round-dialog")
    page.wait_for_selector("#round-dialog .fairness[data-ok]", state="attached")
    # Opened at its top: the headline in view, not the hashes.
    assert dialog.evaluate("d => d.scrollTop") == 0
    headline = dialog.locator("h2").first
    assert re.fullmatch(r"(You won round 1|Computer \d+ won round 1|Round 1 is a draw), \d+–\d+",
                        headline.inner_text()), headline.inner_text()
    box = headline.bounding_box()
    assert box and 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"], box
    # A panel a side (its captured cards, the scoring ones lit); the full table and the hashes folded below.
    lines = dialog.locator(".compact-breakdown > li")
    assert lines.count() == 2 and lines.first.is_visible()
    assert lines.first.inner_text().startswith("Maria: ")
    assert not dialog.locator(".fairness").is_visible()
    assert not dialog.locator("table.breakdown").is_visible()
    dialog.locator(".dialog-more summary").click()
    assert dialog.locator(".fairness").is_visible() and dialog.locator("table.breakdown").is_visible()
    # The headline's score is the table's total, the winner's (or the player's) first.
    totals = [int(t) for t in dialog.locator("table.breakdown tr.total td").all_inner_texts()]
    found = re.search(r"(\d+)–(\d+)$", headline.inner_text())  # "Computer 2 won round 1, 19–6": the score is last
    assert found, headline.inner_text()
    score = [int(n) for n in found.groups()]
    assert sorted(score) == sorted(totals) and score[0] == max(totals), (score, totals)


def test_the_match_over_dialog_leads_with_the_winner_and_what_next(server: Server, browser: Browser,
                                                                   contexts: list[BrowserContext],
                                                                   console: Console, finished: str) -> None:
    page = new_page(browser, contexts, console, viewport=PHONE, is_mobile=True, has_touch=True)
    page.goto(f"{server.url}/#/t/{finished}/watch")
    page.wait_for_selector("#match-dialog")
    dialog = page.locator("#match-dialog")
    headline = dialog.locator("h2").first.inner_text()
    assert re.fullmatch(r"(.+ won the match|The match is a draw), \d+–\d+", headline), headline
    assert dialog.locator(".match-result").is_visible()
    lobby = dialog.locator(".lead-actions .lobby-btn")
    assert lobby.is_visible()
    assert dialog.evaluate("""d => d.querySelector('.match-result').getBoundingClientRect().top
        < d.querySelector('.lead-actions').getBoundingClientRect().top
        && d.querySelector('.lead-actions').getBoundingClientRect().top
        < d.querySelector('.dialog-more').getBoundingClientRect().top""")
    assert not dialog.locator(".rounds-table").is_visible()  # folded
    lobby.click()
    page.wait_for_selector(".play-now")


def i18n_keys(lang: str) -> list[str]:
    source = (ROOT / "src/xeri/web/js/lib/i18n.js").read_text()
    m = re.search(rf"\n  {lang}: \{{(.*?)\n  \}},", source, flags=re.S)
    assert m, f"lib/i18n.js has no {lang} block"
    return re.findall(r"(\w+): \"", m[1])


def test_greek_and_turkish_have_no_slash_constructions(server: Server, browser: Browser,
                                                       contexts: list[BrowserContext], console: Console) -> None:
    """"ο/η {name}", "τον/την", "τελευταίος/α": every sentence is built so it needs no article or gender."""
    page = new_page(browser, contexts, console)
    page.goto(server.url + "/#/help")
    page.wait_for_selector(".help h1")
    keys = i18n_keys("el")
    assert len(keys) > 200
    texts: dict[str, dict[str, str]] = page.evaluate("""async (keys) => {
        const i18n = await import('/static/js/lib/i18n.js');
        const out = {};
        for (const lang of ['el', 'tr']) {
            i18n.setLanguage(lang);
            out[lang] = Object.fromEntries(keys.map((k) => [k, i18n.t(k)]));
        }
        return out;
    }""", keys)
    found = {lang: {k: v for k, v in by.items() if re.search(r"[^\W\d_]/[^\W\d_]", v)} for lang, by in texts.items()}
    assert found == {"el": {}, "tr": {}}, found
    assert texts["tr"]["title"] == "Pişti" and texts["tr"]["xeri"] == "Pişti!"  # Turkish, not English fallback


def test_stats_show_win_rates_by_level_and_opponent_and_a_chart(server: Server, browser: Browser,
                                                                contexts: list[BrowserContext],
                                                                console: Console) -> None:
    page = new_page(browser, contexts, console)
    stub_player_matches(page, "Selin")
    page.goto(server.url + "/#/stats/Selin")
    page.wait_for_selector(".recent-chart")
    # Oldest first: the stub lists m1 (newest) .. m5.
    assert page.eval_on_selector_all(".recent-chart rect", "rs => rs.map(r => r.dataset.result)") == [
        "loss", "win", "win", "loss", "win"]
    assert page.get_attribute(".recent-chart", "aria-label").startswith("Last 5 matches: 3 won, 2 lost, 0 drawn")

    def rates(by: str) -> list[Any]:
        return page.eval_on_selector_all(f".win-rates[data-by={by}] tbody tr",
                                         "rs => rs.map(r => [...r.children].map(c => c.textContent))")

    assert sorted(rates("by_level")) == [["easy", "2", "2", "100%"], ["medium", "2", "0", "0%"]]
    assert sorted(rates("by_opponent")) == [["Computer (easy)", "2", "2", "100%"],
                                            ["Computer (medium)", "2", "0", "0%"], ["Nikos", "1", "1", "100%"]]


def test_how_to_play_gives_the_point_values_per_preset(server: Server, browser: Browser,
                                                       contexts: list[BrowserContext], console: Console) -> None:
    page = new_page(browser, contexts, console)
    page.goto(server.url + "/#/help")
    page.wait_for_selector(".help-values")
    head = page.eval_on_selector_all(".help-values thead th", "ths => ths.map(t => t.textContent)")
    assert head == ["Item", "classic", "classic-points", "cardgames", "berman", "pisti"]
    rows: dict[str, list[str]] = {r[0]: r[1:] for r in page.eval_on_selector_all(
        ".help-values tbody tr", "rs => rs.map(r => [...r.children].map(c => c.textContent))")}
    assert rows["A xeri"] == ["10"] * 5
    assert rows["A Jack xeri"] == ["20"] * 5
    assert rows["Most cards"] == ["3"] * 5
    assert rows["Aces"] == ["1 each"] * 5
    assert rows["good 10 (10♦)"] == ["1", "1", "1", "1", "–"]
    assert rows["10♦"] == ["–", "–", "–", "–", "3"]
    assert rows["2♣"] == ["–", "–", "–", "–", "2"]
    assert rows["2♠"] == ["–", "–", "–", "1", "–"]
