"""The page's words (issue 39, bugs 10-15, 18 and 20): counts in their plural forms, the Greek and Turkish wording and
its glossary, the hint readable on the felt, and every word of the phone's table and of How to play on the screen.

Each test failed on the page before its fix (6c00e5f). The tables are scripted over the page's own WebSocket
(tests/support/table_script.py's ``open_table``), so each is one message and the same every run.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from support.a11y import LOW_CONTRAST
from support.browser import Console, Server, new_page
from support.table_script import felt_page, open_table, sync, table

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("el", "tr", "en")


def phone(browser: Browser, contexts: list[BrowserContext], console: Console, w: int, h: int) -> Page:
    return new_page(browser, contexts, console, viewport={"width": w, "height": h}, is_mobile=w < h, has_touch=True)


def three_players(page: Page, server: Server, lang: str) -> None:
    """Three players against the computer, six tools (Take back too), in `lang`."""
    tbl = table(3)
    tbl["takebacks"] = True
    open_table(page, server, sync(3, tbl, names=["Maria", None, None], points=[11, 1, 1]),
               prefs={"lang": lang, "seenAid": False})


# ---- bug 10: the hint's words on the felt ----

def test_issue39_bug10_the_hint_reads_on_the_felt_in_both_themes(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    # The light theme's hint was #5fd4ff on the pale felt: 1.3:1. Measured against the felt as it is styled now
    # (every stop of its gradient), so a restyled felt is measured too.
    for theme in ("light", "dark"):
        page = felt_page(browser, contexts, console, "390x844")
        script = open_table(page, server, sync(2), prefs={"theme": theme, "seenAid": False})
        script.send({"type": "hint", "card": "QC", "code": "empty_pile", "params": {"card": "QC"}})
        page.wait_for_selector(".hint-text:not(:empty)")
        measured = [r for r in page.evaluate(LOW_CONTRAST, 100) if "hint-text" in r[2]]
        assert measured, theme  # the hint's words were measured
        assert min(r[0] for r in measured) >= 4.5, (theme, measured)


# ---- bug 11: counts in their plural forms ----

PLURALS = """async () => {
  const m = await import('/static/js/lib/i18n.js');
  const out = {};
  for (const lang of ['en', 'el', 'tr']) {
    m.setLanguage(lang);
    out[lang] = [
      m.t('log_leftover', { name: 'A', n: 1, cards: '5♠' }), m.t('log_leftover', { name: 'A', n: 3, cards: '5♠' }),
      m.t('log_unclaimed', { n: 1 }), m.cardsCount(1), m.cardsCount(2), m.xerisCount(1), m.xerisCount(3),
      m.t('pts', { n: 1 }), m.t('pts', { n: 0 }), m.hintReason({ code: 'jack_sweep', params: { count: 1 } }),
      m.roundsCount(1), m.roundsCount(5),
    ];
  }
  m.setLanguage('en');
  return out;
}"""


def test_issue39_bug11_counts_take_their_plural_forms(server: Server, browser: Browser,
                                                      contexts: list[BrowserContext], console: Console) -> None:
    # "takes the 1 cards left", "τα 1 φύλλα": the forms come from Intl.PluralRules in every language.
    page = felt_page(browser, contexts, console)
    page.goto(server.url + "/")
    got = page.evaluate(PLURALS)
    assert got["en"] == [
        "A made the last capture and takes the 1 card left: 5♠",
        "A made the last capture and takes the 3 cards left: 5♠",
        "Nobody captured: the 1 card left stays unclaimed", "1 card", "2 cards", "1 xeri", "3 xeris", "1 point",
        "0 points", "the Jack takes the whole pile of 1 card", "1 round", "5 rounds"]
    assert got["el"] == [
        "A: έκανε το τελευταίο μάζεμα και παίρνει το 1 φύλλο που έμεινε: 5♠",
        "A: έκανε το τελευταίο μάζεμα και παίρνει τα 3 φύλλα που έμειναν: 5♠",
        "Κανείς δεν μάζεψε: το 1 φύλλο που έμεινε δεν πάει σε κανέναν", "1 φύλλο", "2 φύλλα", "1 ξερή", "3 ξερές",
        "1 πόντος", "0 πόντοι", "ο βαλές παίρνει όλη τη στοίβα, 1 φύλλο", "1 γύρος", "5 γύροι"]
    # Turkish keeps the noun singular after a number.
    assert got["tr"][3:9] == ["1 kâğıt", "2 kâğıt", "1 pişti", "3 pişti", "1 puan", "0 puan"]
    assert "1 kâğıt" in got["tr"][9] and "kalan 1 kâğıdı" in got["tr"][0]


def test_issue39_bug11_the_move_log_says_one_card_left(server: Server, browser: Browser,
                                                       contexts: list[BrowserContext], console: Console) -> None:
    page = felt_page(browser, contexts, console)
    script = open_table(page, server, sync(2), prefs={"logOpen": True, "seenAid": False})
    script.send({"type": "update", "version": 11,
                 "events": [{"kind": "captured", "seat": 0, "cards": ["5S"], "leftover": True}],
                 "view": sync(2, pile=[], top=None)["view"]})
    page.wait_for_function("document.querySelector('.log-lines').textContent.includes('last capture')")
    line = page.locator(".log-lines li").last.inner_text()
    assert "takes the 1 card left" in line, line


# ---- bugs 12, 18: the score chips and the tools on a phone ----

# Each score chip: is it cut by the row or by the screen?
CHIPS_CUT = """() => { const row = document.querySelector('.scorebar .chips'); const r = row.getBoundingClientRect();
  return [row.scrollWidth > row.clientWidth + 1, [...row.querySelectorAll('.chip')].filter(c => {
    const b = c.getBoundingClientRect();
    return b.right > Math.min(r.right, innerWidth) + 0.5 || c.scrollWidth > c.clientWidth + 1; })
    .map(c => c.innerText)]; }"""


def test_issue39_bug12_every_score_chip_shows_upright_and_a_fade_says_the_row_scrolls_on_its_side(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    # 390x844 in Greek, 3 players: "Υπολ. 3" was off the screen, the row scrolling with no sign of it.
    for lang in LANGS:
        page = phone(browser, contexts, console, 390, 844)
        three_players(page, server, lang)
        assert page.evaluate(CHIPS_CUT) == [False, []], lang
        assert page.locator(".scorebar .chips").get_attribute("data-more") is None, lang
    # 844x390 in Greek: the chips beside the tools cannot all fit; the edge with more past it fades.
    page = phone(browser, contexts, console, 844, 390)
    three_players(page, server, "el")
    row = page.locator(".scorebar .chips")
    page.wait_for_function("document.querySelector('.scorebar .chips').dataset.more === 'end'")
    assert "gradient" in row.evaluate("r => getComputedStyle(r).maskImage || getComputedStyle(r).webkitMaskImage")
    row.evaluate("r => { r.scrollLeft = r.scrollWidth; }")
    page.wait_for_function("document.querySelector('.scorebar .chips').dataset.more === 'start'")


def test_issue39_bug18_leave_is_a_modest_tool_on_a_phone(server: Server, browser: Browser,
                                                         contexts: list[BrowserContext], console: Console) -> None:
    # At 390 the Leave button took a full-width row of its own, the biggest button on the screen.
    for lang in LANGS:
        page = phone(browser, contexts, console, 390, 844)
        three_players(page, server, lang)
        tools = page.evaluate("""() => [...document.querySelectorAll('.scorebar .tools button')].map(b => {
          const r = b.getBoundingClientRect(); return [b.className, r.width, r.height, r.top]; })""")
        leave = next(t for t in tools if "leave-btn" in t[0])
        others = [t for t in tools if t is not leave]
        assert leave[1] <= 0.3 * 390 and leave[1] < max(t[1] for t in others), (lang, tools)
        assert leave[2] >= 44, (lang, leave)  # still a touch target
        if lang != "el":  # Greek's six tools take two rows at 390; the others' share one
            assert any(abs(t[3] - leave[3]) < 2 for t in others), (lang, tools)


# ---- bug 13: a side seat's name whole while it has the turn ----

# Each side seat's name: is its last letter inside the name's box, and the box inside the seat?
NAME_WHOLE = """() => [...document.querySelectorAll('.seat-west, .seat-east')].map(seat => {
  const e = seat.querySelector('.name-text');
  const r = e.getBoundingClientRect(); const s = seat.getBoundingClientRect();
  const range = document.createRange(); const text = e.firstChild;
  range.setStart(text, text.length - 1); range.setEnd(text, text.length);
  const last = range.getBoundingClientRect();
  return [e.textContent, seat.classList.contains('turn'),
    last.right <= r.right + 0.5 && last.bottom <= r.bottom + 0.5 && r.left >= s.left - 0.5 && r.right <= s.right + 0.5
    && e.scrollHeight <= e.clientHeight + 1]; })"""


def test_issue39_bug13_a_side_seat_s_name_is_whole_while_it_has_the_turn(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    # "Computer 2" read "Computer" at 390 with 4 players while the seat had the turn; a name of three words at a side
    # seat lost its last (two lines at most were shown).
    for lang, names, turn in (("en", ["Maria", None, None, None], 1), ("el", ["Maria", None, None, None], 3),
                              ("tr", ["Maria", None, None, None], 1),
                              ("en", ["Maria", "Maria del Carmen Rodríguez", None, None], 1)):
        page = phone(browser, contexts, console, 390, 844)
        msg: dict[str, Any] = sync(4, table(4, names=tuple(n for n in names if n)), names=names, turn=turn,
                                   dealer=turn, hand_counts=[4, 1, 4, 1])
        msg["timer"] = {"seat": turn, "remaining": 28}
        open_table(page, server, msg, prefs={"lang": lang, "seenAid": False})
        seats = page.evaluate(NAME_WHOLE)
        assert [turning for _, turning, _ in seats].count(True) == 1, seats
        assert all(whole for _, _, whole in seats), (lang, seats)


# ---- bug 14: Greek's words for the move log and the animations; the talon's count on one line ----

def test_issue39_bug14_greek_names_the_log_and_the_animations_apart_and_the_talon_s_count_is_one_line(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    for lang in LANGS:
        page = phone(browser, contexts, console, 390, 844)
        three_players(page, server, lang)
        moves = page.evaluate("""async () => { const m = await import('/static/js/lib/i18n.js');
          return [m.t('moves'), m.t('motion'), m.t('move_log')]; }""")
        assert moves[1] not in (moves[0], moves[2]), (lang, moves)
        for label in (".talon-count", ".pile-count"):
            # The lines its words take: the distinct tops of their boxes.
            lines = page.locator(label).evaluate("e => { const r = document.createRange(); r.selectNodeContents(e);"
                                                 " return new Set([...r.getClientRects()].map(c => Math.round(c.top)))"
                                                 ".size; }")
            assert lines == 1, (lang, label, page.locator(label).inner_text())


# ---- bug 15: the Turkish and Greek wording, and its glossary ----

def block(source: str, lang: str) -> str:
    m = re.search(rf"\n  {lang}: \{{(.*?)\n  \}},", source, flags=re.S)
    assert m, lang
    return m[1]


def test_issue39_bug15_turkish_says_what_english_means_and_the_glossary_holds() -> None:
    source = (ROOT / "src/xeri/web/js/lib/i18n.js").read_text()
    tr, el = block(source, "tr"), block(source, "el")
    # "opens in vain", "that the others cannot match" (English: unlikely to), "gives the least thing".
    for wrong in ("boş yere açar", "eşleyemeyeceği", "en az şey verir"):
        assert wrong not in tr, wrong
    assert "olasılığı düşük" in tr  # unlikely
    # Greek: one word for the dealer (not "ντίλερ" beside "μοιράζει").
    assert "ντίλερ" not in el
    # The glossary (docs/reference/translation-terms.md): each term chosen is the one the strings use.
    glossary = (ROOT / "docs/reference/translation-terms.md").read_text()
    rows = [[c.strip(" `*") for c in line.strip("|").split("|")] for line in glossary.splitlines()
            if line.startswith("| ") and not line.startswith("| English") and "---" not in line]
    assert len(rows) >= 15, rows
    lazy = (ROOT / "src/xeri/web/js/pages/ratingstrings.js").read_text()
    def low(text: str) -> str:
        return text.replace("İ", "i").lower()  # Turkish's dotted capital I lowers to i and a combining dot

    words = {"el": low(el + block(lazy, "el")), "tr": low(tr + block(lazy, "tr"))}
    for en_term, el_term, tr_term, *_ in rows:
        assert low(el_term) in words["el"], (en_term, el_term)
        assert low(tr_term) in words["tr"], (en_term, tr_term)


# ---- bug 20: How to play's table of values on a phone ----

@pytest.mark.parametrize("width", [360, 390])
def test_issue39_bug20_how_to_play_s_values_fit_a_phone(server: Server, browser: Browser,
                                                        contexts: list[BrowserContext], console: Console,
                                                        width: int) -> None:
    # The table was cut mid-word ("Be", "ta") at the screen's edge, and scrolled sideways with no sign of it.
    page = phone(browser, contexts, console, width, 780)
    for lang in LANGS:
        page.goto(server.url + "/#/cards")
        page.evaluate("l => localStorage.setItem('xeri.prefs', JSON.stringify({lang: l}))", lang)
        page.goto(server.url + "/#/help")
        page.reload()
        page.wait_for_selector(".help-values")
        cut = page.evaluate("""() => {
          const box = document.querySelector('.table-scroll'); const b = box.getBoundingClientRect();
          const out = box.scrollWidth > box.clientWidth + 1 ? ['the table scrolls'] : [];
          for (const c of box.querySelectorAll('th, td')) {
            const r = c.getBoundingClientRect();
            if (c.scrollWidth > c.clientWidth + 1 || c.scrollHeight > c.clientHeight + 1 || r.right > b.right + 0.5
                || r.right > innerWidth) out.push(c.textContent);
          }
          return out; }""")
        assert cut == [], (lang, cut)
        assert page.evaluate("document.scrollingElement.scrollWidth") <= width, lang
