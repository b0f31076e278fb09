"""Takebacks in real Chromium (docs/web.md, docs/play.md#takebacks): against the computer a card is taken back by the
Take back button and by the U key, and the hand holds it again; with a friend at the table there is no button."""

from __future__ import annotations

from playwright.sync_api import Browser, BrowserContext

from support.browser import (
    NOT_IN_HAND,
    TURN,
    Console,
    Server,
    hand,
    invite_friends,
    new_page,
    play_and_take_back,
    start_vs_computer,
)


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
