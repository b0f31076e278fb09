"""The round's end you can read (issue 39): each side's captured cards with the scoring ones lit, the table behind it
left at the round's end until Continue, the last round shown before the match's result, the result said once and
only after the last card lands, and the match's buttons side by side on a phone (bugs 6, 7, 8, 9 and 17).

The server's messages are the real ones: a seeded match is played by the offline engine (xeri.offline, which builds
the server's messages byte for byte), and its messages are written to the page's own WebSocket
(tests/support/table_script.py's ``Scripted``), so each test is one or two messages long and the same every run.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from support.browser import Console, Server, new_page
from support.table_script import TABLE_ID, felt_page, open_table, round_record, sync
from xeri.cards import Rank
from xeri.offline.table import OfflineTable

MOTION = {"motion": "normal"}


@functools.cache
def round_ends(players: int = 2, ruleset: str = "classic", rounds: int = 2, seed: int = 5
               ) -> tuple[tuple[dict[str, Any], dict[str, Any]], ...]:
    """Each round's end of a seeded match against the computer: the sync just before the move that scored the
    round, and that move's update (as the server sends them to seat 0)."""
    options: dict[str, Any] = {"match_end": "rounds", "rounds": rounds, "players": players}
    table = OfflineTable.create({"ruleset": ruleset, "options": options, "name": "Maria",
                                 "seats": [None] + [{"bot": "medium"}] * (players - 1)},
                                table_id=TABLE_ID, match_seed=seed, salt_key="5a" * 16, bot_delay=0)
    out = []
    while not table.match.is_over:
        before = table.sync()
        if table.match.turn == table.me:
            # Maria takes what she can (a match, else with a jack): a round with xeris on both sides at this seed.
            legal, top = table.match.round.legal_moves, table.match.view(table.me).top
            card = next((c for c in legal if top and c.rank == top.rank), None) or next(
                (c for c in legal if top and c.rank is Rank.JACK), legal[0])
            [update, *_] = table.move(table.me, card.code, table.version)
        else:
            [update, *_] = table.bot_move()
        if any(e["kind"] == "round_scored" for e in update["events"]):
            before["table"].pop("offline", None)  # the page plays it as a server's table
            out.append((before, update))
            if not table.match.is_over:
                table.ready()
    return tuple(out)


def lit_cards(page: Page, side: int) -> set[str]:
    return set(page.locator(f"#round-dialog .side-haul[data-side='{side}'] .mini-card.lit").evaluate_all(
        "els => els.map(e => e.dataset.card)"))


def test_the_round_screen_shows_each_sides_captured_cards_with_the_scoring_ones_lit(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    (before, update), _ = round_ends()
    scores = update["history"][0]["scores"]
    assert any(b["xeris"] for b in scores)
    page = felt_page(browser, contexts, console)
    open_table(page, server, before).send(update)
    page.wait_for_selector("#round-dialog .side-haul")
    for b in scores:
        haul = page.locator(f"#round-dialog .side-haul[data-side='{b['side']}']")
        # Every card the side took, grouped by suit, and the cards behind each score line lit, a xeri's marked.
        cards = haul.locator(".mini-card").evaluate_all("els => els.map(e => e.dataset.card)")
        assert sorted(cards) == sorted(b["captured"]) and len(cards) == b["cards"], (cards, b)
        assert lit_cards(page, b["side"]) == {c for line in b["lines"] for c in line["cards"]}
        xeris = {c for line in b["lines"] if line["label"].startswith(("xeri", "Jack xeri")) for c in line["cards"]}
        assert set(haul.locator(".xeri-card").evaluate_all("els => els.map(e => e.dataset.card)")) == xeris
        suits = haul.locator(".haul-suit").evaluate_all("els => els.map(e => e.dataset.suit)")
        assert len(suits) == len(set(suits)) and all(
            set(haul.locator(f".haul-suit[data-suit='{s}'] .mini-card").evaluate_all(
                "els => els.map(e => e.dataset.card[1])")) == {s} for s in suits)
        # The score rows add up to the side's points; then the match's score.
        points = haul.locator(".haul-items .item-points").all_inner_texts()
        assert sum(int(p) for p in points) == b["total"], (points, b)
        assert haul.locator(".haul-points").inner_text() == f"{b['total']} points"
    assert page.locator("#round-dialog .haul-match .match-result li").count() == 2


def test_bug6_the_finished_round_stays_behind_its_screen_until_continue(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    (before, update), _ = round_ends()
    assert update["round_end"]["round_number"] == 1 and update["view"]["round_number"] == 2
    assert update["view"]["hand"], "the next round was dealt in the same update"
    page = felt_page(browser, contexts, console)
    script = open_table(page, server, before)
    script.send(update)
    page.wait_for_selector("#round-dialog")
    # Behind it, the round as it ended: its number, no new hand, the stacks as they were left.
    assert page.locator(".round-chip").inner_text().startswith("Round 1")
    assert page.locator(".hand .card-btn").count() == 0
    mine = update["history"][0]["scores"][0]["cards"]
    assert f"{mine} cards" in page.locator(".me .my-pile").inner_text()
    page.click("#round-dialog .actions button.primary")
    page.wait_for_selector(".hand .card-btn")
    assert page.locator(".round-chip").inner_text().startswith("Round 2")
    assert sorted(page.locator(".hand .card-btn").evaluate_all("els => els.map(e => e.dataset.card)")) == sorted(
        update["view"]["hand"])
    assert {"type": "ready", "round": 1} in script.sent


# Notes, at every change of the page, whatever is drawn while a card still flies: the result box, a dialog, or the
# result in the status line; and whether the xeri banner is up when a dialog opens.
WATCH = """window.__seen = {flying: [], bannerUnderDialog: false};
new MutationObserver(() => {
  const moving = document.querySelector('[data-moving]');
  const dialog = document.querySelector('.modal-back');
  const status = (document.querySelector('.me .status') || {}).textContent || '';
  if (moving && (document.querySelector('.result-box') || dialog || /win|lose/i.test(status)))
    window.__seen.flying.push(document.body.innerText.slice(0, 80));
  if (dialog && !document.getElementById('toast').hidden) window.__seen.bannerUnderDialog = true;
}).observe(document.body, {childList: true, subtree: true, attributes: true, characterData: true});"""


def test_bugs7_8_9_the_last_round_then_the_result_once_after_the_last_card_lands(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    _, (before, update) = round_ends()
    assert update["view"]["match_over"] and "round_end" not in update
    page = felt_page(browser, contexts, console, motion=True)
    script = open_table(page, server, before, prefs=MOTION)
    page.evaluate(WATCH)
    # A xeri's banner still up from the move before, as a quick last move leaves it.
    page.evaluate("import('/static/js/lib/flight.js').then(m => m.announce('Xeri!', {big: true, ms: 60000}))")
    page.wait_for_selector("#toast:not([hidden])")
    script.send(update)
    # Bug 7: the last round's screen first, and nothing of the match's result yet.
    page.wait_for_selector("#round-dialog, #match-dialog")
    assert page.locator("#round-dialog").count() == 1, "the match's dialog came before the last round's"
    assert page.locator("#round-dialog h2").inner_text().startswith(("You won round 2", "Computer 2 won round 2",
                                                                      "Round 2 is a draw"))
    assert page.locator("#match-dialog").count() == 0 and page.locator(".result-box").count() == 0
    page.click("#round-dialog .actions button.primary")
    page.wait_for_selector("#match-dialog")
    # Bug 9: nothing of the result while a card flew, and no banner left over a dialog.
    seen = page.evaluate("window.__seen")
    assert seen == {"flying": [], "bannerUnderDialog": False}, seen
    # Bug 8: said once, by the dialog's heading; not in the status line, not a second headline on the board.
    assert "match" in page.locator("#match-dialog h2").inner_text()
    assert page.locator(".me .status").inner_text() == ""
    assert page.locator(".result-box").count() == 0
    assert not any(m.get("type") == "ready" and m.get("round") == 2 for m in script.sent)
    # Closed: the result and what comes next take the hand's place, once.
    page.keyboard.press("Escape")
    page.wait_for_selector(".result-box")
    assert page.locator(".result-headline").count() == 1 and page.locator(".me .status").inner_text() == ""


# Where a button's words sit: the box around its text, against the button's own box.
TEXT_BOX = """el => { const r = document.createRange(); r.selectNodeContents(el); const t = r.getBoundingClientRect();
  const b = el.getBoundingClientRect(); return {top: t.top - b.top, bottom: b.bottom - t.bottom}; }"""


@pytest.mark.parametrize(("size", "lang"), [((390, 844), "en"), ((360, 740), "el")])
def test_bug17_a_phone_shows_the_match_dialogs_buttons_side_by_side(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console,
        size: tuple[int, int], lang: str) -> None:
    _, (before, update) = round_ends()
    page = new_page(browser, contexts, console, viewport={"width": size[0], "height": size[1]}, is_mobile=True,
                    has_touch=True)
    open_table(page, server, before, prefs={"lang": lang}).send(update)
    page.wait_for_selector("#round-dialog, #match-dialog")
    if page.locator("#round-dialog").count():
        # The round's screen fits the phone: no side's cards run off it.
        assert page.evaluate("(d => d.scrollWidth <= d.clientWidth)(document.querySelector('#round-dialog'))")
        page.click("#round-dialog .actions button.primary")
    page.wait_for_selector("#match-dialog")
    row = page.locator("#match-dialog .actions").bounding_box()
    download = page.locator("#match-dialog .actions a.btn")
    close = page.locator("#match-dialog .actions .close-btn")
    d, c = download.bounding_box(), close.bounding_box()
    assert row and d and c
    # One row, Close beside Download, each its share of the row, each a finger's height, its words in its middle.
    assert abs(d["y"] - c["y"]) < 2 and c["x"] >= d["x"] + d["width"], (d, c)
    assert abs(d["width"] - c["width"]) < 2 and d["width"] + c["width"] >= 0.9 * row["width"], (d, c, row)
    assert min(c["height"], d["height"]) >= 44
    for button in (download, close):
        gap = button.evaluate(TEXT_BOX)
        assert abs(gap["top"] - gap["bottom"]) <= 3, gap


def test_back_after_a_reload_the_round_screen_not_yet_closed_opens_again(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    """A round's end the player has not closed (the pause still waits for them) opens again after a reload, and
    closing it says ready; a match that ended while the tab was away opens on its last round, then the result; a
    reload after the result has been seen shows the result alone."""
    page = felt_page(browser, contexts, console)
    script = open_table(page, server, sync(2))  # playing: this tab knows the match in play
    ended = sync(2, hand=[], legal_moves=[], pile=[], top=None, turn=None, over=True, hand_counts=[0, 0],
                 talon_count=0)
    ended["history"], ended["pause"] = [round_record()], {"waiting": [0, 1], "remaining": 30}
    script.first = ended
    page.reload()
    page.wait_for_selector("#round-dialog")
    page.click("#round-dialog .actions button.primary")
    page.wait_for_function("() => !document.querySelector('#round-dialog')")
    assert {"type": "ready", "round": 1} in script.sent

    over = sync(2, hand=[], legal_moves=[], pile=[], top=None, turn=None, over=True, match_over=True, winner=0,
                match_scores=[15, 4], round_wins=[1, 0], hand_counts=[0, 0], talon_count=0)
    over["history"] = [round_record()]
    script.first = over
    page.reload()
    page.wait_for_selector("#round-dialog")
    assert page.locator("#match-dialog").count() == 0  # the result waits for the last round's screen
    page.click("#round-dialog .actions button.primary")
    page.wait_for_selector("#match-dialog")
    page.reload()
    page.wait_for_selector("#match-dialog")
    assert page.locator("#round-dialog").count() == 0
