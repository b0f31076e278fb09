"""Takebacks in real Chromium (docs/web.md, docs/play.md#takebacks): against the computer a card is taken back by the
Take back button and by the U key, and the hand holds it again; with a friend at the table there is no button."""

from __future__ import annotations

from playwright.sync_api import Browser, BrowserContext, Page
from test_web import TURN, Console, Server, hand, invite_friends, new_page, start_vs_computer

IN_HAND = "c => [...document.querySelectorAll('.hand .card-btn')].some(e => e.dataset.card === c)"
NOT_IN_HAND = "c => ![...document.querySelectorAll('.hand .card-btn')].some(e => e.dataset.card === c)"


def play_and_take_back(page: Page, how: str) -> None:
    """Play a card on my turn, then take it back ``how`` ("button" or "key"): the hand holds it again."""
    page.wait_for_selector(TURN)
    before = hand(page)
    card = before[-1]
    page.click(f".hand .card-btn[data-card='{card}']")
    page.wait_for_function(NOT_IN_HAND, arg=card)
    # Enabled once the server says there is a card to take back (its answer to the move).
    page.wait_for_selector(".takeback-btn:not([disabled])")
    if how == "button":
        page.click(".takeback-btn")
    else:
        page.locator("body").focus()
        page.keyboard.press("u")
    page.wait_for_function(IN_HAND, arg=card)
    assert sorted(hand(page)) == sorted(before)
    # The screen reader hears it; the page is the server's: my turn again, nothing more to take back here.
    page.wait_for_function("() => document.getElementById('live').textContent.includes('Taken back')")
    page.wait_for_selector(TURN)
    assert page.locator(".takeback-btn[disabled]").count() == 1


def test_take_back_by_button_and_by_key(server: Server, browser: Browser, contexts: list[BrowserContext],
                                        console: Console) -> None:
    page = new_page(browser, contexts, console)
    table_id = start_vs_computer(page, server, "Ana")
    button = page.locator(".takeback-btn")
    assert button.count() == 1 and button.is_disabled() and "(U)" in (button.get_attribute("title") or "")
    play_and_take_back(page, "button")
    play_and_take_back(page, "key")
    assert server.get(f"/api/tables/{table_id}")["takebacks"] is True
    # The keyboard help names the key.
    assert "U take back" in page.evaluate("() => import('/static/js/lib/i18n.js').then(m => m.t('keys_help'))")


def test_no_take_back_with_a_friend(server: Server, browser: Browser, contexts: list[BrowserContext],
                                    console: Console) -> None:
    alice = new_page(browser, contexts, console)
    invite = invite_friends(alice, server)
    bob = new_page(browser, contexts, console)
    bob.goto(invite)
    bob.fill(".join-name", "Bob")
    bob.click(".join-btn")
    for page in (alice, bob):
        page.wait_for_selector(".hand .card-btn")
    mover = alice if alice.locator(".hand.my-turn").count() else bob
    mover.wait_for_selector(TURN)
    card = hand(mover)[0]
    mover.click(f".hand .card-btn[data-card='{card}']")
    mover.wait_for_function(NOT_IN_HAND, arg=card)
    for page in (alice, bob):
        assert page.locator(".hint-btn").count() == 1  # the tool bar is drawn
        assert page.locator(".takeback-btn").count() == 0
    assert server.get(f"/api/tables/{invite.split('#/t/')[1]}")["takebacks"] is False
