"""The cards' faces, the felt and the sounds (issue 39): the Settings' faces in every language, a switch that redraws
the cards, the card sounds' variants, and the weight of the lobby and of a table with its faces and sounds.

The table is scripted as in test_web_felt.py (the page's own WebSocket, answered by the test), so the hand holds a
court card every run.
"""

from __future__ import annotations

import itertools
from typing import Any

from playwright.sync_api import Browser, BrowserContext

from support.browser import Console, Server
from support.table_script import felt_page, open_table, sync

# A court card in the hand (the queen of clubs), and one on the pile (the king of diamonds).
HAND = ["3D", "7S", "9H", "QC"]
WEIGHT = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource');
  return {bytes: [nav, ...res].reduce((n, e) => n + (e.transferSize || 0), 0),
          names: res.map((e) => new URL(e.name).pathname),
          sizes: Object.fromEntries(res.map((e) => [new URL(e.name).pathname, e.transferSize]))};
}"""


def test_settings_offer_the_faces_in_every_language_and_a_switch_redraws_the_cards(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    page = felt_page(browser, contexts, console)
    open_table(page, server, sync(2, hand=HAND, legal_moves=HAND), prefs={"seenAid": False})
    queen = ".hand .card[data-card='QC']"
    # The default: figures, the court card a framed figure (a <use> of the deck's art), not the large letter.
    page.wait_for_selector(f"{queen} .figure use")
    assert page.locator(f"{queen} .court-index").count() == 0
    assert page.locator(".pile .card[data-card='KD'] .figure").count() == 1
    labels = {}
    menu = page.locator(".prefs-menu")

    def open_menu() -> None:
        if not menu.evaluate("m => m.open"):
            menu.locator("summary").click()

    for lang in ("en", "el", "tr"):
        open_menu()
        page.select_option("#pref-lang", lang)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        labels[lang] = (page.locator("label[for='pref-faces'] .pref-text").text_content(),
                        [o.strip() for o in page.locator("#pref-faces option").all_text_contents()])
    assert labels["en"] == ("Card faces", ["Figures", "Large letters"]), labels
    assert labels["el"] == ("Όψη φύλλων", ["Φιγούρες", "Μεγάλα γράμματα"]), labels
    assert labels["tr"] == ("Kâğıt yüzü", ["Resimli", "Büyük harfli"]), labels
    # The large letters: the same cards drawn again, the queen a letter in a frame; and back to the figures.
    open_menu()
    page.select_option("#pref-faces", "index")
    page.wait_for_selector(f"{queen} .court-index")
    assert page.locator(".hand .figure, .pile .figure").count() == 0
    assert page.evaluate("JSON.parse(localStorage.getItem('xeri.prefs')).faces") == "index"
    open_menu()
    page.select_option("#pref-faces", "figures")
    page.wait_for_selector(f"{queen} .figure use")
    assert page.locator(f"{queen} .court-index").count() == 0


def test_card_sounds_take_turns_and_every_new_sound_plays(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    page = felt_page(browser, contexts, console, motion=True)
    open_table(page, server, sync(2), prefs={"seenAid": False, "sound": True, "motion": "normal"})
    page.click(".talon-slot")  # a gesture (where a click does nothing): the page may make sound from now on
    assert page.evaluate("import('/static/js/lib/sound.js').then(m => m.ready())")
    got: dict[str, Any] = page.evaluate("""() => import('/static/js/lib/sound.js').then((m) => {
        const names = ['play', 'slide', 'capture', 'sweep', 'shuffle', 'xeri', 'turn', 'win'];
        const from = m.takes.length;
        for (const name of names) for (let i = 0; i < 4; i++) m.sound(name);
        return {played: [...m.played], takes: m.takes.slice(from)};
    })""")
    for name in ("shuffle", "slide", "sweep", "win"):
        assert name in got["played"], (name, got["played"])
    by_name: dict[str, list[str]] = {}
    for take in got["takes"]:
        name, variant = take.split(":")
        by_name.setdefault(name, []).append(variant)
    # The card sounds have variants, taken in turn: the same sound twice running never plays the same variant.
    for name in ("play", "slide", "capture", "sweep", "shuffle", "xeri"):
        variants = by_name[name]
        assert len(set(variants)) >= 2, (name, variants)
        assert all(a != b for a, b in itertools.pairwise(variants)), (name, variants)


def test_a_table_with_its_faces_and_sounds_weighs_at_most_400_kb_and_the_lobby_carries_none_of_it(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    # No service worker (its script refused): it would serve the page's files from its cache, which the page's
    # timings count as nothing. Chromium says so in the console, the one error allowed here.
    console.allowed = ("fetching the script",)
    lobby = felt_page(browser, contexts, console, fresh=True)
    lobby.context.route("**/sw.js", lambda route: route.abort())
    lobby.goto(server.url + "/")
    lobby.wait_for_selector(".start-vs")
    first = lobby.evaluate(WEIGHT)
    assert first["bytes"] <= 120_000, first
    assert not [n for n in first["names"] if n.endswith(("/courts.js", "/faces.js", "/controller.js"))], first
    table = felt_page(browser, contexts, console, fresh=True)
    table.context.route("**/sw.js", lambda route: route.abort())
    # A cold visit: no reload (open_table's settings would reload, and a reload revalidates what the first load
    # fetched), so every file the table and its faces need is counted as it came over the wire.
    open_table(table, server, sync(2, hand=HAND, legal_moves=HAND))
    table.wait_for_selector(".hand .card[data-card='QC'] .figure use")
    cost = table.evaluate(WEIGHT)
    assert not table.evaluate("navigator.serviceWorker.controller"), "a service worker served the page"
    # The figures came over the wire, compressed (about 90 KB of 235), not from a cache.
    assert 50_000 < cost["sizes"]["/static/js/lib/courts.js"] < 150_000, cost["sizes"]
    print(f"lobby's first visit: {first['bytes']} bytes; a table with its faces and sounds: {cost['bytes']} bytes")
    assert cost["bytes"] <= 400_000, cost
