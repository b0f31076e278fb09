"""The browser page of ``xeri serve``, driven in Debian's Chromium through Playwright.

Each test talks to a real server started on a free loopback port, and fails on
any console error or uncaught exception in the page. Screenshots of the table
(desktop and phone) go to ``test-artifacts/``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from support.a11y import axe
from support.browser import (
    ARTIFACTS,
    DESKTOP,
    PHONE,
    RECORD_ANNOUNCEMENTS,
    TURN,
    Console,
    Server,
    hand,
    invite_friends,
    new_page,
    play_until,
    record_frames,
    start_vs_computer,
)


def redealt(frames: list[str]) -> set[str]:
    """Cards of every initial pile the page was told was redealt (``pile_redealt`` events): shown to everyone."""
    out: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("kind") == "pile_redealt":
                out.update(node.get("cards") or ())
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for frame in frames:
        try:
            walk(json.loads(frame))
        except ValueError:
            continue
    return out


def number(text: str) -> int:
    return int(text.replace(":", " ").split()[-1] if ":" in text else text.split()[0])


def assert_all_52_cards_shown(page: Page) -> None:
    """Hands, face-down hands, pile, talon and captured piles together account for the whole deck."""
    backs = page.locator(".seat-box .fan .card.back").count()
    counted = sum(number(t) for t in page.locator(".seat-box .hand-count").all_inner_texts())
    assert backs == counted
    mine = page.locator(".hand .card-btn").count()
    pile = number(page.inner_text(".pile-count"))
    talon = number(page.inner_text(".talon-count"))
    captured = sum(number(t) for t in page.locator(".captured-count").all_inner_texts())
    assert page.locator(".pile .card").count() == min(pile, 4)
    assert backs + mine + pile + talon + captured == 52, (backs, mine, pile, talon, captured)


def boxes_overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    eps = 0.5
    return (a["x"] + eps < b["x"] + b["width"] and b["x"] + eps < a["x"] + a["width"]
            and a["y"] + eps < b["y"] + b["height"] and b["y"] + eps < a["y"] + a["height"])


BLOCKS = [".brand", ".nav a", ".prefs-menu", ".scorebar", ".seat-box", ".talon", ".pile-area", ".me .status", ".hand",
          ".my-pile", ".hint-text"]


def assert_no_overlaps(page: Page, viewport: dict[str, int], *, opponents: int) -> None:
    """No two parts of the table overlap, nothing is wider than the screen, the hand is visible without scrolling."""
    boxes: list[tuple[str, dict[str, float]]] = []
    for sel in BLOCKS:
        for i, loc in enumerate(page.locator(sel).all()):
            if sel == ".brand" and not loc.is_visible():
                continue  # a phone shows no brand: the lobby link is in the nav
            box = loc.bounding_box()
            assert box is not None, sel
            boxes.append((f"{sel}[{i}]", box))
    assert len([n for n, _ in boxes if n.startswith(".seat-box")]) == opponents
    for i, (na, a) in enumerate(boxes):
        assert a["x"] >= 0 and a["x"] + a["width"] <= viewport["width"] + 0.5, (na, a)
        for nb, b in boxes[i + 1:]:
            assert not boxes_overlap(a, b), (na, a, nb, b)
    cards = [loc.bounding_box() for loc in page.locator(".hand .card-btn").all()]
    for i, a in enumerate(cards):
        assert a is not None and a["y"] + a["height"] <= viewport["height"], "the hand must show without scrolling"
        for b in cards[i + 1:]:
            assert b is not None and not boxes_overlap(a, b)
    # What sticks out past the right edge (outside the scrolled chip lines), named if the page is too wide.
    wider = page.evaluate(
        """w => [...document.querySelectorAll('body *')]
             .filter(e => !e.closest('.chips, .tools, .sr-only') && e.getBoundingClientRect().right > w + 0.5)
             .map(e => `${e.tagName.toLowerCase()}.${e.className}: ${Math.round(e.getBoundingClientRect().right)}`)""",
        viewport["width"])
    assert page.evaluate("document.scrollingElement.scrollWidth") <= viewport["width"], wider


def test_full_round_against_the_weakest_bot_by_clicking(server: Server, browser: Browser,
                                                        contexts: list[BrowserContext], console: Console) -> None:
    page = new_page(browser, contexts, console)
    page.add_init_script(RECORD_ANNOUNCEMENTS)
    table_id = start_vs_computer(page, server, "Ada", target="r1")
    # A hint names one of our cards and says why.
    page.wait_for_selector(TURN)
    page.click(".hint-btn")
    page.wait_for_selector(".card-btn.hinted")
    assert page.inner_text(".hint-text").startswith("Try ")
    # The table shows both hands, the pile and its size, the talon, and the scores.
    assert_all_52_cards_shown(page)
    assert page.locator(".hand .card-btn").count() == 6
    assert page.inner_text(".talon-count") == "Talon: 36"
    assert page.locator(".score-chip").count() == 2
    for _ in range(3):
        page.locator(TURN).first.click()
        page.wait_for_selector(TURN)
    assert page.locator(".seen-grid span.gone").count() >= 4
    assert_no_overlaps(page, DESKTOP, opponents=1)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-table-desktop.png"))
    # The counting aid switches off and on.
    page.click(".seen-btn")
    assert page.locator(".seen-panel").count() == 0
    page.click(".seen-btn")
    assert page.locator(".seen-panel").count() == 1

    moves = 3 + play_until(page, "#match-dialog")
    assert moves >= 20, moves
    dialog = page.locator("#match-dialog")
    dialog.locator(".dialog-more summary").click()  # the tables and the fair shuffle, folded below the result
    assert dialog.locator("table.breakdown tr.total td").count() == 2  # one total a side
    assert dialog.locator("table.rounds-table").count() == 1
    page.wait_for_selector("#match-dialog .fairness[data-ok]", state="attached")
    fairness = dialog.locator(".fairness").first
    assert fairness.get_attribute("data-ok") == "true", fairness.inner_text()
    assert "verified" in dialog.locator(".fairness .verdict").first.inner_text()
    with page.expect_download() as download:
        dialog.get_by_text("Download record").click()
    record = json.loads(Path(download.value.path()).read_text())
    assert record["format"] == "xeri-record"
    assert record["result"]["over"] is True
    assert sum(len(r["moves"]) for r in record["rounds"]) >= 2 * moves - 1
    # Every xeri of the match was announced, and nothing else was called one.
    xeris = sum(s["xeris"] + s["jack_xeris"] for r in record["rounds"] for s in r["scores"])
    announced = [a for a in page.evaluate("window.__announcements") if "xeri!" in a.lower()]
    assert len(announced) == xeris, (announced, xeris)

    # "New match" makes the same table again, with us in the same seat.
    dialog.locator(".new-match").click()
    page.wait_for_function(f"!location.hash.includes('{table_id}')")
    page.wait_for_selector(".hand .card-btn")
    assert page.inner_text(".round-chip") == "Round 1 of 1"
    assert "Ada (you)" in page.inner_text(".my-name")

    # History lists the match, among this browser's own first; the replay steps through it with every hand shown.
    page.click("#nav-history")
    row = page.locator(f".your-matches tr[data-match='{table_id}']")
    row.wait_for()
    assert "Ada" in row.inner_text()
    assert page.locator(".history h2").first.inner_text() == "Your matches"
    row.locator(".replay-link").click()
    page.wait_for_selector(".replay-board .seat-box")
    assert page.inner_text(".step-caption").startswith("Move 0 of ")
    assert page.locator(".replay-board .seat-box .fan .card.back").count() == 0
    page.click(".replay-next")
    assert page.inner_text(".step-caption").startswith("Move 1 of ")
    assert " plays " in page.inner_text(".step-what")  # the move log's words
    page.click(".replay-last")
    page.wait_for_selector(".step-scores table.breakdown")
    # Stats for the player.
    page.goto(server.url + "/#/stats/Ada")
    page.wait_for_selector(".stats-table tr[data-player='Ada']")
    games = page.inner_text(".stats-table tr[data-player='Ada'] td:nth-child(2)")
    assert int(games) >= 1


def test_two_browsers_play_each_other_and_a_spectator_sees_no_hand(server: Server, browser: Browser,
                                                                    contexts: list[BrowserContext],
                                                                    console: Console) -> None:
    frames: dict[str, list[str]] = {"alice": [], "bob": [], "watcher": []}
    alice = record_frames(new_page(browser, contexts, console), frames["alice"])
    invite = invite_friends(alice, server, listed=True)  # listed on purpose: private by default (issue 41)
    assert "#/t/" in invite
    table_id = invite.split("#/t/")[1]

    bob = record_frames(new_page(browser, contexts, console, locale="el-GR"), frames["bob"])
    bob.goto(invite)
    # The join page says who invites, and to what: not the table's id (issue 41).
    assert bob.inner_text(".join-form h1") == "Τραπέζι: Alice"
    invitation = bob.inner_text(".join-form .invitation")
    assert invitation.startswith("Πρόσκληση από Alice") and "2 παίκτες" in invitation, invitation
    bob.fill(".join-name", "Bob")
    bob.click(".join-btn")
    for page in (alice, bob):
        page.wait_for_selector(".hand .card-btn")
    assert bob.inner_text(".brand") == "Ξερή"

    watcher = record_frames(new_page(browser, contexts, console), frames["watcher"])
    watcher.goto(server.url + "/")
    listed = watcher.locator(f".open-tables li[data-table='{table_id}']")
    assert "Alice" in listed.inner_text() and "Bob" in listed.inner_text()
    listed.locator(".watch-table").click()
    watcher.wait_for_selector(".board .seat-box")
    assert watcher.locator(".hand").count() == 0
    assert watcher.locator(".seat-box").count() == 2
    assert watcher.locator(".seat-box .fan .card:not(.back)").count() == 0

    mover, other = (alice, bob) if alice.locator(".hand.my-turn").count() else (bob, alice)
    assert other.locator(".hand.my-turn").count() == 0
    moves = 0
    while True:
        played = mover.locator(TURN).first.get_attribute("data-card")
        # Click the card we read, not whatever is first by the time of the click: a re-render between the two
        # calls may reorder the hand, and waiting for a card we never played would stall.
        mover.locator(f"{TURN}[data-card='{played}']").click()
        moves += 1
        other.wait_for_selector(f"{TURN}, #round-dialog")
        if other.locator("#round-dialog").count():
            # The round's last card: the next round may already be dealt, and may hand that card back.
            mover.wait_for_selector("#round-dialog")
            break
        # the mover's own page has the update too (its hand no longer holds the card)
        try:
            mover.wait_for_selector(f".hand .card-btn[data-card='{played}']", state="detached")
        except PlaywrightTimeoutError:
            who = "alice" if mover is alice else "bob"
            raise AssertionError(f"move {moves}: {who}'s page still holds {played}: hand {hand(mover)}, status "
                                 f"{mover.inner_text('.me .status')!r}, last frames {frames[who][-3:]}") from None
        mover, other = other, mover
        assert moves < 60
        if moves in (1, 17, 33):
            # A card in one player's hand was never sent to the other player or to the spectator.
            hands = {"alice": set(hand(alice)), "bob": set(hand(bob))}
            assert hands["alice"] and hands["bob"]
            # (the frames are really recorded: each player was sent their own cards)
            assert all(any(f'"{c}"' in f for f in frames[who]) for who in ("alice", "bob") for c in hands[who])
            for receiver, held_by in (("alice", "bob"), ("bob", "alice"), ("watcher", "alice"), ("watcher", "bob")):
                # A pile redealt at the start went back into the talon face up, seen by all: one may draw it.
                shown = redealt(frames[receiver])
                leaked = {c: f[max(0, f.index(f'"{c}"') - 400):f.index(f'"{c}"') + 200]
                          for c in hands[held_by] - shown for f in frames[receiver] if f'"{c}"' in f}
                assert not leaked, f"{receiver} was sent {set(leaked)} from {held_by}'s hand (move {moves}): {leaked}"
    assert moves == 48  # 52 cards less the 4 of the initial pile, one per move
    mover.wait_for_selector("#round-dialog")
    for page in (alice, bob):
        assert page.locator("#round-dialog table.breakdown tr.total td").count() == 2
        page.wait_for_selector("#round-dialog .fairness[data-ok='true']", state="attached")
    watcher.wait_for_selector("#round-dialog")
    assert watcher.locator("#round-dialog .fairness").count() == 1
    # Closed, the breakdown stays one click away.
    alice.keyboard.press("Escape")
    alice.click(".rounds-btn")
    alice.wait_for_selector("#rounds-dialog table.breakdown[data-round='1']")
    alice.wait_for_selector("#rounds-dialog .fairness[data-ok='true']")


def test_table_talk_reaches_the_other_player_and_mute_hides_it(server: Server, browser: Browser,
                                                                contexts: list[BrowserContext],
                                                                console: Console) -> None:
    """A preset from one browser shows by its seat in the other's language and is read out once; a muted player's
    talk shows nowhere (issue 41's table talk)."""
    alice = new_page(browser, contexts, console)
    invite = invite_friends(alice, server)
    bob = new_page(browser, contexts, console, locale="el-GR")
    bob.goto(invite)
    bob.fill(".join-name", "Bob")
    bob.click(".join-btn")
    for page in (alice, bob):
        page.wait_for_selector(".hand .card-btn")
    alice.click(".talk-btn")
    assert alice.locator(".talk-btn").get_attribute("aria-expanded") == "true"
    assert alice.evaluate("document.activeElement.className") == "talk-phrase"  # the panel takes the focus
    assert alice.locator(".talk-form").count() == 1  # free text: a friends' table is private by default
    axe(alice, "the talk panel")
    alice.click(".talk-phrase:has-text('Good luck!')")
    assert alice.locator(".talk-panel").count() == 0
    bubble = bob.locator(".seat-box[data-seat='0'] .talk-bubble")
    bubble.wait_for()
    assert bubble.inner_text() == "Καλή τύχη!"
    assert "Alice: Καλή τύχη!" in bob.inner_text("#live")
    # Bob mutes Alice: her bubble goes, and what she says next is neither shown nor read out.
    bob.click(".talk-btn")
    bob.click(".talk-mute[data-seat='0']")
    assert bob.locator(".talk-mute[data-seat='0']").get_attribute("aria-pressed") == "true"
    assert bob.locator(".talk-bubble").count() == 0
    bob.keyboard.press("Escape")
    assert bob.locator(".talk-panel").count() == 0
    assert bob.evaluate("document.activeElement.className") == "talk-btn"
    # A spectator hears the players and may mute one: its panel holds only the mutes (it cannot talk).
    watcher = new_page(browser, contexts, console)
    watcher.goto(invite + "/watch")
    watcher.wait_for_selector(".board")
    watcher.click(".talk-btn")
    assert watcher.locator(".talk-phrase, .talk-emote, .talk-form").count() == 0
    watcher.click(".talk-mute[data-seat='0']")
    watcher.keyboard.press("Escape")
    alice.click(".talk-btn")
    alice.click(".talk-emote[aria-label='Heart']")
    alice.wait_for_selector(".me .talk-bubble:has-text('❤️')")  # published: Bob's socket has it before what follows
    bob.click(".talk-btn")
    bob.click(".talk-phrase:has-text('Ευχαριστώ!')")
    bob.wait_for_selector(".me .talk-bubble:has-text('Ευχαριστώ!')")
    assert bob.locator(".seat-box[data-seat='0'] .talk-bubble").count() == 0
    assert "❤️" not in bob.inner_text("#live")
    alice.wait_for_selector(".seat-box[data-seat='1'] .talk-bubble:has-text('Thanks!')")
    watcher.wait_for_selector(".seat-box[data-seat='1'] .talk-bubble:has-text('Thanks!')")  # after Alice's heart
    assert watcher.locator(".seat-box[data-seat='0'] .talk-bubble").count() == 0 and "❤️" not in watcher.inner_text(
        "#live")


def test_reload_restores_the_seat_and_a_lost_connection_recovers(browser: Browser, contexts: list[BrowserContext],
                                                                 console: Console,
                                                                 tmp_path: Path) -> None:
    srv = Server(tmp_path)
    srv.start()
    try:
        page = new_page(browser, contexts, console, motion=True)
        page.add_init_script(RECORD_ANNOUNCEMENTS)
        table_id = start_vs_computer(page, srv, "Kim")
        for _ in range(2):
            page.wait_for_selector(TURN)
            page.keyboard.press("1")  # the keyboard plays the first card
            page.wait_for_selector(TURN)
        before = hand(page)
        assert len(before) == 4
        page.reload()
        page.wait_for_selector(TURN)
        assert hand(page) == before
        assert "Kim (you)" in page.inner_text(".my-name")
        assert page.url.endswith(f"#/t/{table_id}")

        # The server goes away: a banner says so; when it is back, the page resumes by itself.
        console.allowed = ("WebSocket connection to",)
        srv.stop()
        page.wait_for_selector("#banner:not([hidden])")
        assert "Connection lost" in page.inner_text("#banner")
        srv.start()
        page.wait_for_function("window.__banners.includes('Reconnected')", timeout=20_000)
        page.wait_for_selector("#banner", state="hidden")
        page.wait_for_selector(TURN)
        assert hand(page) == before
        page.locator(TURN).first.click()
        page.wait_for_selector(TURN)
        assert len(hand(page)) == 3
        # Tab to a card and press Enter: it is played, and the focus comes back to the hand for the next move.
        page.focus(TURN)
        page.keyboard.press("Enter")
        page.wait_for_selector(TURN)
        assert len(hand(page)) == 2
        page.wait_for_function("document.activeElement.classList.contains('card-btn')")
    finally:
        srv.stop()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_phone_layout_has_no_overlaps(server: Server, browser: Browser, contexts: list[BrowserContext],
                                      console: Console, players: int) -> None:
    greek = players == 4
    page = new_page(browser, contexts, console, viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2,
                    locale="el-GR" if greek else "en-GB")
    start_vs_computer(page, server, "Zoe", players=players)
    page.wait_for_selector(TURN)
    page.locator(TURN).first.tap()
    page.wait_for_selector(TURN)
    page.locator(".hint-btn").tap()
    page.wait_for_selector(".card-btn.hinted")
    hint_text = page.inner_text(".hint-text")
    if greek:  # the server's English reason is shown in Greek
        assert hint_text.startswith("Δοκίμασε"), hint_text
        assert not any(w in hint_text for w in ("takes", "matches", "gives away", "pile")), hint_text
    assert_no_overlaps(page, PHONE, opponents=players - 1)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"web-table-phone-{players}p.png"))


def test_language_follows_the_browser_and_the_switch(server: Server, browser: Browser, contexts: list[BrowserContext],
                                                     console: Console) -> None:
    page = new_page(browser, contexts, console, locale="el-GR")
    page.goto(server.url + "/")
    page.wait_for_selector(".play-now")
    assert page.inner_text("#nav-lobby") == "Αίθουσα"
    assert page.inner_text(".play-now") == "Παίξε τώρα"
    levels = "els => els.map(e => [e.value, e.textContent])"
    assert page.eval_on_selector_all(".vs-level option", levels) == [  # every level the server offers, in order
        ["easy", "εύκολο"], ["medium", "μέτριο"], ["hard", "δύσκολο"], ["strong", "δυνατό"], ["master", "μαέστρος"]]
    page.click(".prefs-menu summary")  # the settings (⚙)
    page.select_option("#pref-lang", "en")
    page.wait_for_selector("text=Play now")
    page.reload()
    page.wait_for_selector(".play-now")
    assert page.inner_text("#nav-lobby") == "Lobby"
    english = new_page(browser, contexts, console, locale="en-US")
    english.goto(server.url + "/")
    assert english.inner_text("#nav-lobby") == "Lobby"
    english.wait_for_selector(".vs-level option", state="attached")
    assert english.eval_on_selector_all(".vs-level option", levels) == [
        [level, level] for level in ("easy", "medium", "hard", "strong", "master")]


def test_cards_are_svg_with_an_optional_four_colour_deck(server: Server, browser: Browser,
                                                         contexts: list[BrowserContext], console: Console) -> None:
    page = new_page(browser, contexts, console)
    page.goto(server.url + "/#/cards")
    page.wait_for_selector(".gallery .card")
    assert page.locator(".gallery .card svg").count() == 53  # 52 faces and a back
    fill = "document.querySelector('.gallery .card[data-card=TD] svg path').getAttribute('fill')"
    assert page.evaluate(fill) == "#c8102e"
    page.click(".prefs-menu summary")  # the settings (⚙)
    page.check("#pref-four")
    page.wait_for_function(f"{fill} === '#0b5cad'")
    labels = page.eval_on_selector_all(".gallery .card svg", "els => els.map(e => e.getAttribute('aria-label'))")
    assert "10♦" in labels and "A♠" in labels


def test_page_helpers_in_the_browser(server: Server, browser: Browser, contexts: list[BrowserContext],
                                     console: Console) -> None:
    """The page's pure helpers, imported as modules into the real page."""
    page = new_page(browser, contexts, console)
    page.goto(server.url + "/#/cards")
    page.wait_for_selector(".gallery .card")
    got = page.evaluate("""async () => {
        const i18n = await import('/static/js/lib/i18n.js');
        const board = await import('/static/js/table/board.js');
        const prev = i18n.language();
        i18n.setLanguage('el');
        const cards = await import('/static/js/lib/cards.js');
        const reasons = [
            i18n.hintReason({code: 'xeri', params: {card: 'TD', top: 'TS'}}, cards.cardLabel),
            i18n.hintReason({code: 'least_given', params: {card: '8S'}}, cards.cardLabel),
            i18n.hintReason({code: 'something_new', reason: 'something new'}, cards.cardLabel),
        ];
        i18n.setLanguage(prev);
        return {
            langs: [i18n.detectLanguage(null, ['el-GR', 'en']), i18n.detectLanguage(null, ['fr-FR', 'de']),
                    i18n.detectLanguage('en', ['el-GR']), i18n.detectLanguage(null, ['en-US', 'el'])],
            split: [i18n.splitScoreLabel('most cards (34)'), i18n.splitScoreLabel('xeri x2'),
                    i18n.splitScoreLabel('good 10 (10♦)')],
            reasons,
            seats: [board.otherSeats(4, 1), board.otherSeats(3, null), board.pileOwner(1, 2, 0, [1, 2, 3]),
                    board.pileOwner(0, 2, 2, [3, 0, 1])],
        };
    }""")
    assert got["langs"] == ["el", "en", "en", "en"]
    assert got["split"] == [["most cards", "34"], ["xeri", "×2"], ["good 10 (10♦)", ""]]
    assert got["reasons"] == [
        "το 10♦ παίρνει το μοναχικό 10♠: ξερή",
        "κανένα μάζεμα δεν αξίζει· το 8♠ χαρίζει τα λιγότερα",
        "something new",
    ]
    assert got["seats"] == [[2, 3, 0], [0, 1, 2], 1, 2]


def test_turn_timer_counts_down_and_the_computer_moves_for_a_slow_player(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    alice = new_page(browser, contexts, console)
    alice.add_init_script(RECORD_ANNOUNCEMENTS)
    invite = invite_friends(alice, server, timer=5)
    bob = new_page(browser, contexts, console)
    bob.add_init_script(RECORD_ANNOUNCEMENTS)
    # Private by default (issue 41): a stranger's lobby does not list it; its link opens it.
    bob.goto(server.url + "/")
    bob.wait_for_selector(".open-tables:not([aria-busy])")
    assert bob.locator(f".open-tables li[data-table='{invite.split('#/t/')[1]}']").count() == 0
    assert server.get(f"/api/tables/{invite.split('#/t/')[1]}")["private"] is True
    bob.goto(invite)
    bob.fill(".join-name", "Bob")
    bob.click(".join-btn")
    for page in (alice, bob):
        page.wait_for_selector(".hand .card-btn")
    slow = alice if alice.locator(".hand.my-turn").count() else bob
    assert slow.inner_text(".me .status").startswith("Your turn · ")
    before = hand(slow)
    # Nobody moves: when the 5 s are up, the computer plays one of the slow player's cards for them.
    slow.wait_for_function("window.__announcements.some(a => a.startsWith('Time is up'))", timeout=15_000)
    slow.wait_for_function(f"document.querySelectorAll('.hand .card-btn').length === {len(before) - 1}")
    assert set(hand(slow)) < set(before)


#: counts the page's WebSockets, and holds its account request until the test lets it go (window.__release)
ACCOUNT_GATE = """(() => {
  window.__ws = 0;
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket { constructor(...a) { super(...a); window.__ws += 1; } };
  const gate = new Promise((resolve) => { window.__release = resolve; });
  const fetched = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    if (String(input).endsWith("/api/account")) await gate;
    return fetched(input, init);
  };
})();"""


def test_a_hash_changed_while_the_account_loads_mounts_its_table_once(server: Server, browser: Browser,
                                                                      contexts: list[BrowserContext],
                                                                      console: Console) -> None:
    page = new_page(browser, contexts, console)
    table_id = start_vs_computer(page, server, "Once")
    page.add_init_script(ACCOUNT_GATE)
    page.goto(server.url + "/#/cards")
    page.reload()  # the page loads again; its account request waits
    page.evaluate(f"location.hash = '#/t/{table_id}'")  # a link followed before the server says who this is
    page.evaluate("window.__release()")
    page.wait_for_selector("#account-btn[aria-label]")  # the account is known: the first route has run
    page.wait_for_selector(".hand .card-btn")
    assert page.evaluate("window.__ws") == 1  # one table, one socket (it was mounted twice, with two sockets)


def test_a_wrong_seat_token_is_refused_and_offers_to_watch(server: Server, browser: Browser,
                                                           contexts: list[BrowserContext], console: Console) -> None:
    owner = new_page(browser, contexts, console)
    table_id = start_vs_computer(owner, server, "Owner")
    page = new_page(browser, contexts, console)
    page.goto(server.url + "/#/cards")
    page.evaluate("id => localStorage.setItem('xeri.seats', JSON.stringify({[id]: {seat: 0, token: 'wrong'}}))",
                  table_id)
    page.goto(f"{server.url}/#/t/{table_id}")
    # The panel, not the announcer (which may say "no longer yours" a moment before the socket's close).
    page.wait_for_selector(f".panel:has-text('This seat is no longer yours') a[href='#/t/{table_id}/watch']")
    assert page.evaluate("localStorage.getItem('xeri.seats')") == "{}"  # the bad token is forgotten
    page.click(f"a[href='#/t/{table_id}/watch']")
    page.wait_for_selector(".board .seat-box")
    assert page.locator(".hand").count() == 0
