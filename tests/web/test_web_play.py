"""Playing in the browser as a newcomer would: the six bugs of issue 12, the move log, the live region, the
keyboard, a friends' rematch and the page's delivery (caching, compression, manifest, first-visit cost).

Each bug test fails on the page before the fix. Driven in Debian's Chromium through Playwright against a
real ``xeri serve`` (the fixtures and helpers of tests/support/browser.py); one server and one browser for the module.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import urllib.parse
import urllib.request
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext

from support.browser import ARTIFACTS, PHONE, RECORD_ANNOUNCEMENTS, RECORD_LIVE, TURN, Console, Server, hand, new_page
from support.web_tables import api, friends_table, seat_page, vs_computer

SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def label(code: str) -> str:
    """A card as the page writes it (lib/cards.js cardLabel): 10♦, J♣, 7♥."""
    return ("10" if code[0] == "T" else code[0]) + SUITS[code[1]]


def test_the_next_round_waits_for_the_round_dialog(server: Server, browser: Browser,
                                                   contexts: list[BrowserContext], console: Console) -> None:
    """Bug 1: the computer does not lead the next round behind the open round dialog; the server holds it."""
    page = new_page(browser, contexts, console, motion=True)
    page.add_init_script(RECORD_LIVE)
    # Motion on, at the player's "fast" setting: the cards fly, only twice as quick (a whole round is played).
    page.add_init_script("localStorage.setItem('xeri.prefs', JSON.stringify({motion: 'fast'}))")
    table_id = vs_computer(page, server, "Rhea", target="r3", players=3)
    for _ in range(80):
        page.wait_for_selector(f"{TURN}, #round-dialog")
        if page.locator("#round-dialog").count():
            break
        page.keyboard.press("1")
    page.wait_for_selector("#round-dialog")
    version = api(server, "GET", f"/api/tables/{table_id}")["version"]
    lines = page.evaluate("window.__live.length")
    # While the dialog is open the server refuses to go on: its pause names us, and no move is made.
    info = api(server, "GET", f"/api/tables/{table_id}")
    assert info["pause"] and 0 in info["pause"]["waiting"], info["pause"]
    assert page.locator(".fx .card").count() == 0  # nothing flies over the dialog
    # Time passes: the fairness check returns.
    page.wait_for_selector("#round-dialog .fairness[data-ok='true']", state="attached")
    assert api(server, "GET", f"/api/tables/{table_id}")["version"] == version
    assert page.evaluate("window.__live.length") == lines
    page.keyboard.press("Enter")  # Continue
    page.wait_for_selector("#round-dialog", state="detached")
    # Then play goes on: the computer's move is said, or it is our turn.
    page.wait_for_function(f"window.__live.length > {lines} || document.querySelector('.hand.my-turn')")
    assert api(server, "GET", f"/api/tables/{table_id}")["pause"] is None


def test_classic_shows_rounds_won_and_the_board_after_the_match(server: Server, browser: Browser,
                                                                contexts: list[BrowserContext],
                                                                console: Console) -> None:
    """Bugs 2 and 5: rounds won where they decide; the winner and New match stay; "+N" is labelled and not doubled."""
    page = new_page(browser, contexts, console)
    vs_computer(page, server, "Ilias")
    chip = page.inner_text(".score-chip.mine")
    assert "0 rounds won" in chip and "0 points" in chip, chip
    page.wait_for_selector(TURN)
    while True:
        page.wait_for_selector(f"{TURN}, #match-dialog, #round-dialog")
        if page.locator("#match-dialog").count():
            break
        if page.locator("#round-dialog").count():  # the last round's screen comes before the match's (issue 39)
            page.click("#round-dialog .actions button.primary")
            page.wait_for_selector("#round-dialog", state="detached")
            continue
        title = page.evaluate("document.querySelector('.score-chip .round-points')?.title || null")
        assert title is None or title.startswith("Points this round so far"), title
        page.locator(TURN).first.click()
    dialog = page.locator("#match-dialog")
    result = dialog.locator(".match-result").inner_text()
    dialog.locator(".dialog-more summary").click()  # the tables, folded below the result
    assert "round won" in result or "rounds won" in result, result
    assert dialog.locator(".rounds-table .wins-row").count() == 1
    # The breakdown: fixed order, each item once, named for its round.
    items = dialog.locator("table.breakdown tbody tr").evaluate_all(
        "rows => rows.map(r => r.dataset.item || r.className)")
    assert len(items) == len(set(items)), items
    order = ["most cards", "Aces", "Kings", "Queens", "Jacks", "Tens", "good 10 (10♦)", "good 2 (2♣)", "xeri",
             "Jack xeri"]
    known = [i for i in items if i in order]
    assert known == sorted(known, key=order.index), items
    assert dialog.locator("table.breakdown caption").first.inner_text() == "Round 1"
    dialog.locator(".actions .close-btn").click()
    page.wait_for_selector("#match-dialog", state="detached")
    # The board still says who won and offers what to do next; the round's points are not added twice.
    # Said once (issue 39, bug 8): in the hand's place, no longer also in the status line.
    assert page.inner_text(".result .result-headline") in ("You win!", "You lose")
    assert page.inner_text(".me .status") == ""
    # Where the hand was (issue 23: the felt), not in the tool bar.
    assert page.locator(".result .new-match").is_visible()
    assert page.locator(".result .back-lobby").is_visible()
    assert page.locator(".score-chip .round-points").count() == 0
    # The board names the bot by its seat, its level under the name; history by the same words (issue 41: it said
    # "Computer (easy)" where the table said "Computer 2").
    bot_line = page.locator(".seat-name", has=page.locator(".seat-level")).first
    assert bot_line.locator(".name-text").inner_text() == "Computer 2"
    assert bot_line.locator(".seat-level").inner_text() == "easy"
    page.click("#nav-history")
    row = page.locator("table.matches tbody tr").first
    row.wait_for()
    assert "Rounds won: " in row.inner_text()
    assert "Computer 2 (easy)" in row.inner_text()


def test_the_countdown_follows_the_server_timer(server: Server, browser: Browser, contexts: list[BrowserContext],
                                                console: Console) -> None:
    """Bug 3: a joiner who connects just after the start is not shown as away, counting down."""
    table_id, token = friends_table(server)
    alice = seat_page(new_page(browser, contexts, console), server, table_id, 0, token)
    alice.wait_for_selector(".waiting-text")
    bob_seat = api(server, "POST", f"/api/tables/{table_id}/join", {"name": "Bob"})  # Bob is not connected yet
    alice.wait_for_selector(".hand .card-btn")
    if alice.locator(".hand.my-turn").count():
        alice.locator(TURN).first.click()
    alice.wait_for_function("/Bob to play · \\d+ s/.test(document.querySelector('.me .status').textContent)")
    bob = seat_page(new_page(browser, contexts, console), server, table_id, bob_seat["seat"], bob_seat["token"])
    bob.wait_for_selector(TURN)
    # Bob is here: no countdown for him any more.
    alice.wait_for_function("document.querySelector('.me .status').textContent === 'Bob to play'")


def test_a_move_made_while_disconnected_is_said_and_sent_after_the_resync(
        browser: Browser, contexts: list[BrowserContext], console: Console, tmp_path: Path) -> None:
    """Bug 4: the page says the move was not sent, and sends it after the resync while it is still legal."""
    srv = Server(tmp_path)
    srv.start()
    try:
        page = new_page(browser, contexts, console)
        page.add_init_script(RECORD_ANNOUNCEMENTS)
        vs_computer(page, srv, "Nikos")
        page.wait_for_selector(TURN)
        before = hand(page)
        console.allowed = ("WebSocket connection to",)
        srv.stop()
        page.wait_for_selector("#banner:not([hidden])")
        card = page.locator(TURN).first.get_attribute("data-card")
        page.locator(f"{TURN}[data-card='{card}']").click()  # the card we read, whatever re-renders meanwhile
        page.wait_for_function("window.__announcements.some(a => a.startsWith('Your move was not sent'))")
        srv.start()
        page.wait_for_function("window.__announcements.some(a => a.startsWith('Your move was sent now'))",
                               timeout=20_000)
        page.wait_for_selector(f".hand .card-btn[data-card='{card}']", state="detached")
        assert len(hand(page)) == len(before) - 1
    finally:
        srv.stop()


def test_copy_falls_back_to_selecting_the_link_share_and_qr(server: Server, browser: Browser,
                                                            contexts: list[BrowserContext], console: Console) -> None:
    """Bug 6: where the clipboard refuses (plain http on a LAN), the page selects the link and says so. Issue 41: a
    phone's share sheet gets the link with the invitation, and a QR code of it is there for a phone to scan."""
    page = new_page(browser, contexts, console)
    page.add_init_script("navigator.clipboard && (navigator.clipboard.writeText = () => "
                         "Promise.reject(new DOMException('denied', 'NotAllowedError')));"
                         "navigator.share = (data) => { window.__shared = data; return Promise.resolve(); };")
    table_id, token = friends_table(server)
    seat_page(page, server, table_id, 0, token)
    page.click(".invite button")
    page.wait_for_selector(".copy-note:has-text('Copying is blocked')")
    assert page.inner_text(".copy-btn") != "Copied"
    selected = page.evaluate("(() => { const i = document.querySelector('.invite-url'); return"
                             " [document.activeElement === i, i.selectionEnd - i.selectionStart, i.value.length]; })()")
    assert selected[0] and selected[1] == selected[2] > 0
    link = page.locator(".invite-url").input_value()
    page.click(".share-btn")
    shared = page.wait_for_function("window.__shared").json_value()
    assert shared["url"] == link and shared["text"].startswith("Alice invites you to play: ")
    page.click(".invite-qr summary")
    page.wait_for_function("(() => { const i = document.querySelector('.invite-qr img.qr');"
                           " return i.complete && i.naturalWidth > 100; })()")
    src = page.get_attribute(".invite-qr img.qr", "src")
    assert src == "/api/qr.svg?url=" + urllib.parse.quote(link, safe="")


def test_friends_rematch_in_one_click_each(server: Server, browser: Browser, contexts: list[BrowserContext],
                                           console: Console) -> None:
    table_id, token = friends_table(server, options={"match_end": "rounds", "rounds": 1})
    bob_seat = api(server, "POST", f"/api/tables/{table_id}/join", {"name": "Bob"})
    alice = seat_page(new_page(browser, contexts, console), server, table_id, 0, token)
    bob = seat_page(new_page(browser, contexts, console), server, table_id, bob_seat["seat"], bob_seat["token"])
    pages = [alice, bob]
    alice.wait_for_selector(".hand.my-turn, .seat-box.turn")
    mover, other = (alice, bob) if alice.locator(".hand.my-turn").count() else (bob, alice)
    for _ in range(60):
        mover.wait_for_selector(TURN)
        mover.locator(TURN).first.click()
        other.wait_for_selector(f"{TURN}, #round-dialog")
        if other.locator("#round-dialog").count():
            break
        mover, other = other, mover
    for p in pages:  # the last round's screen, closed by each player, then the match's (issue 39)
        p.wait_for_selector("#round-dialog")
        p.click("#round-dialog .actions button.primary")
        p.wait_for_selector("#match-dialog")
    watcher = new_page(browser, contexts, console)
    watcher.goto(f"{server.url}/#/t/{table_id}/watch")
    watcher.wait_for_selector(".result .result-headline, #match-dialog")
    alice.click("#match-dialog .rematch-btn")
    bob.wait_for_selector("#match-dialog .rematch-btn:has-text('Accept')")
    # Who offers, by name, for everyone (issue 41): in Bob's dialog, and on the spectator's board.
    assert bob.inner_text("#match-dialog .rematch-note") == "Alice offers a rematch"
    watcher.wait_for_selector(".rematch-note:has-text('Alice offers a rematch')")
    bob.click("#match-dialog .rematch-btn")
    for p in pages:
        p.wait_for_function(f"!location.hash.includes('{table_id}')")
        p.wait_for_selector(".hand .card-btn")
    assert alice.url.split("#/t/")[1] == bob.url.split("#/t/")[1] != table_id
    # The spectator follows the rematch, as a spectator.
    watcher.wait_for_function(f"location.hash === '#/t/{alice.url.split('#/t/')[1]}/watch'")
    watcher.wait_for_selector(".board .seat-box")
    assert "Alice (you)" in alice.inner_text(".my-name") and "Bob (you)" in bob.inner_text(".my-name")


def test_a_whole_classic_match_by_keyboard_with_every_opponent_move_announced(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    page = new_page(browser, contexts, console)
    page.add_init_script(RECORD_LIVE)
    page.goto(server.url + "/")
    # The skip link is the first stop, and leads to the game.
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "skip-link"
    # The lobby's form by keyboard alone: name, the weakest level, a one-round classic match.
    page.focus(".vs-name")
    page.keyboard.type("Kiki")
    page.focus(".vs-level")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")  # easy, the first level
    assert page.locator(".vs-level").input_value() == "easy"
    page.focus(".vs-target")
    page.keyboard.press("ArrowDown")  # 1 round
    assert page.locator(".vs-target").input_value() == "r1"
    page.focus(".start-vs")
    page.keyboard.press("Enter")
    page.wait_for_selector(".hand .card-btn")
    table_id = page.url.split("#/t/")[1]
    # The table gives the focus to the hand.
    page.wait_for_function("document.activeElement.classList.contains('card-btn')")
    moves = 0
    while True:
        page.wait_for_selector(f"{TURN}, #match-dialog, #round-dialog")
        if page.locator("#match-dialog").count():
            break
        if page.locator("#round-dialog").count():
            page.keyboard.press("Enter")
            continue
        # Arrow keys move between the cards; Enter plays the one with the focus.
        page.wait_for_function("document.activeElement && document.activeElement.closest('.hand')")
        page.keyboard.press("End")
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement === [...document.querySelectorAll('.hand .card-btn')].pop()")
        page.keyboard.press("Enter")
        moves += 1
        assert moves < 40
    # Tab stays inside the dialog.
    for _ in range(8):
        page.keyboard.press("Tab")
        assert page.evaluate("Boolean(document.activeElement.closest('#match-dialog'))")
    assert page.evaluate("window.__bodyFocus") == 0
    record = json.loads(urllib.request.urlopen(f"{server.url}/api/matches/{table_id}/record", timeout=10).read())
    live = page.evaluate("window.__live")
    opponent = next(s["name"] for s in record["seats"] if s["seat"] != 0)
    assert opponent.startswith("Bot"), opponent
    said = 0
    for rnd in record["rounds"]:
        dealer = rnd["dealer"]
        for i, code in enumerate(rnd["moves"]):
            seat = (dealer + 1 + i) % 2
            if seat == 0:
                continue
            # Each computer seat has its own name at the table (issue 23): the level is said beside it.
            said_as = re.compile(rf"^Computer 2 plays (the Jack )?{re.escape(label(code))}( |$)")
            assert any(said_as.match(line) for line in live), (code, live[-5:])
            said += 1
    assert said >= 20
    assert any(line.startswith("Round over:") for line in live)
    page.keyboard.press("Escape")
    page.wait_for_selector("#match-dialog", state="detached")
    assert page.evaluate("document.activeElement !== document.body")


def test_move_log_drawer_help_and_default_level(server: Server, browser: Browser, contexts: list[BrowserContext],
                                               console: Console) -> None:
    page = new_page(browser, contexts, console, viewport=PHONE, is_mobile=True, has_touch=True, locale="el-GR")
    page.goto(server.url + "/")
    # A first visit plays "medium" (greedy), and the last choice is remembered.
    assert page.locator(".vs-level").input_value() == "medium"
    # The open tables drawn first: this module's other tables, listed above How to play, would move it under the tap.
    page.wait_for_selector(".open-tables:not([aria-busy])")
    page.click(".help-panel .help-link")
    page.wait_for_selector(".help h1")
    assert page.inner_text(".help h1") == "Πώς παίζεται η ξερή"
    assert page.locator(".help-presets dt").count() == 5
    vs_computer(page, server, "Ζωή")
    page.goto(server.url + "/")
    assert page.locator(".vs-level").input_value() == "easy"
    page.go_back()
    page.wait_for_selector(".hand .card-btn")
    # On a phone the log is a drawer.
    assert page.locator(".move-log").is_hidden()
    page.locator(".log-btn").tap()
    page.wait_for_selector(".move-log", state="visible")
    first = page.locator(".move-log li").first.inner_text()
    assert first.startswith("Γύρος 1: μοιράζει"), first
    page.locator(".log-close").tap()
    assert page.locator(".move-log").is_hidden()
    # The table opens How to play too (the top bar's "?").
    assert page.locator("#nav-help").get_attribute("aria-label") == "Πώς παίζεται"


def test_static_files_are_cached_compressed_and_installable(server: Server, browser: Browser,
                                                           contexts: list[BrowserContext], console: Console) -> None:
    """ETag + revalidation, gzip, a web-app manifest; and the first visit's bytes and time to interactive."""
    for path in ("/", "/static/js/table/controller.js", "/static/css/style.css"):
        req = urllib.request.Request(server.url + path, headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(req, timeout=5) as r:
            etag, body = r.headers["ETag"], r.read()
            assert r.headers["Cache-Control"] == "no-cache"
            assert r.headers["Content-Encoding"] == "gzip", path
            assert len(gzip.decompress(body)) > len(body)
        again = urllib.request.Request(server.url + path, headers={"If-None-Match": etag})
        try:
            urllib.request.urlopen(again, timeout=5)
            raise AssertionError(f"{path}: no 304 for a matching ETag")
        except urllib.error.HTTPError as exc:
            assert exc.code == 304
    with urllib.request.urlopen(server.url + "/static/manifest.webmanifest", timeout=5) as r:
        assert r.headers["Content-Type"].startswith("application/manifest+json")
        manifest = json.load(r)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone" and manifest["icons"]

    page = new_page(browser, contexts, console, fresh=True)
    # Interactive: when the lobby's Start button is there to press (noted by the page's own clock).
    page.add_init_script("""new MutationObserver((_, obs) => {
        if (document.querySelector('.start-vs')) { window.__interactive = performance.now(); obs.disconnect(); }
    }).observe(document, {childList: true, subtree: true});""")
    page.goto(server.url + "/")
    page.wait_for_selector(".start-vs")
    cost = page.evaluate("""() => {
        const nav = performance.getEntriesByType('navigation')[0];
        const res = performance.getEntriesByType('resource');
        const bytes = [nav, ...res].reduce((n, e) => n + (e.transferSize || 0), 0);
        const decoded = [nav, ...res].reduce((n, e) => n + (e.decodedBodySize || 0), 0);
        return {bytes, decoded, files: res.length + 1, interactive: window.__interactive};
    }""")
    assert page.evaluate("document.querySelector('link[rel=manifest]').href").endswith("/static/manifest.webmanifest")
    assert 0 < cost["bytes"] < cost["decoded"]  # compressed on the wire
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "web-first-visit.json").write_text(json.dumps(cost, indent=1))
    print(f"first visit: {cost['bytes']} bytes on the wire ({cost['decoded']} decoded) in {cost['files']} files, "
          f"interactive after {cost['interactive']:.0f} ms")
    # Issue 23's budget: at most 120 KB on the wire, sounds included (they are made by the page: no file), and
    # usable (the Start button there) within 1.5 s of the navigation. The time is a timing gate, which runs alone
    # (benchmarks/web_gates.py sets XERI_INTERACTIVE_GATE_MS), off the parallel suite that starves this browser.
    assert cost["bytes"] <= 120_000, cost
    assert not [e for e in page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
                if re.search(r"\.(mp3|ogg|wav|m4a|webm)$", e)]
    assert cost["interactive"] > 0, cost
    gate = float(os.environ.get("XERI_INTERACTIVE_GATE_MS", "0"))
    if gate:
        assert cost["interactive"] < gate, cost
