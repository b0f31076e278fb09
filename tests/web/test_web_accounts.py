"""Accounts in real Chromium (docs/accounts.md): sign up in the lobby's dialog, sign in on a second browser context
and see the same history; a guest's matches (and its table in play) claimed at sign-up; the account's table
resumed and left on another device; the cookie the page never sees; sign out."""

from __future__ import annotations

from playwright.sync_api import Browser, BrowserContext, Page

from support.accounts_page import PASSWORD, open_dialog, profile_matches, sign_in, sign_up
from support.browser import TURN, Console, Server, hand, new_page, play_until, start_vs_computer


def finish_a_match(page: Page, server: Server, name: str) -> str:
    table_id = start_vs_computer(page, server, name, target="r1")
    play_until(page, "#match-dialog")
    return table_id


def test_sign_up_then_sign_in_on_a_second_context_shows_the_same_history(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    first = new_page(browser, contexts, console)
    first.goto(server.url + "/")
    first.wait_for_selector(".play-now")
    assert first.text_content("#account-btn") == "Sign in"
    sign_up(first, "Hypatia")
    # The session cookie is HttpOnly: the page's script cannot read it.
    assert "xeri_session" not in first.evaluate("document.cookie")
    cookie = next(c for c in first.context.cookies() if c["name"] == "xeri_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
    played = finish_a_match(first, server, "typed name")
    assert first.locator(".seat-name, .me").first.is_visible()
    mine = profile_matches(first, server, "Hypatia")
    assert mine == [played]
    # A second browser (another device): a wrong password is told, then the right one signs in.
    second = new_page(browser, contexts, console)
    assert profile_matches(second, server, "Hypatia") == [played]
    console.allowed = ("status of 401",)  # Chromium logs the refused sign-in's 401 itself
    sign_in(second, "hypatia", "not the password at all")
    second.wait_for_selector("#account-dialog .account-error:not(:empty)")
    assert "do not match" in (second.text_content("#account-dialog .account-error") or "")
    second.fill("#account-password", PASSWORD)
    second.click("#account-dialog .sign-in-btn")
    second.wait_for_function("() => document.querySelector('#account-btn').textContent === 'Hypatia'")
    assert profile_matches(second, server, "Hypatia") == [played]
    # The profile links each match to its replay and its review (of the player's own seat).
    links = second.eval_on_selector_all(f"tr[data-match='{played}'] a", "as => as.map(a => a.getAttribute('href'))")
    assert links == [f"#/replay/{played}", f"#/replay/{played}/review/0"]
    second.click(f"tr[data-match='{played}'] a.review-link")
    second.wait_for_selector(".replay .review-seat")
    assert second.eval_on_selector(".review-seat", "s => s.value") == "0"
    # This browser never sat at that table: the account's own matches come first in its history all the same.
    second.goto(server.url + "/#/history")
    second.wait_for_selector(f".your-matches tr[data-match='{played}']")
    # Signing out here leaves the first browser signed in.
    open_dialog(second)
    second.click("#account-dialog .sign-out-btn")
    second.wait_for_function("() => document.querySelector('#account-btn').textContent === 'Sign in'")
    first.reload()
    first.wait_for_function("() => document.querySelector('#account-btn').textContent === 'Hypatia'")


def test_a_guest_s_matches_are_claimed_at_sign_up_and_a_table_follows_to_another_device(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    guest = new_page(browser, contexts, console)
    played = finish_a_match(guest, server, "Theano")
    guest.goto(server.url + "/")
    guest.wait_for_selector(".play-now")
    sign_up(guest, "Theano")
    # One match: "this browser's match is now your account's" (the count's plural form, issue 39).
    guest.wait_for_function("() => document.getElementById('live').textContent.includes(\"match is now your\")")
    assert profile_matches(guest, server, "Theano") == [played]
    # Signed in, a new table is the account's: another device signed in as Theano opens it from the lobby and
    # takes the seat without any token of its own.
    table_id = start_vs_computer(guest, server, "Theano", target="r5")
    other = new_page(browser, contexts, console)
    other.goto(server.url + "/")
    other.wait_for_selector(".play-now")
    sign_in(other, "Theano")
    other.wait_for_selector(f".my-tables-panel li[data-table='{table_id}']")
    other.click(f".my-tables-panel li[data-table='{table_id}'] a")
    other.wait_for_selector(".hand .card-btn")
    assert other.evaluate("localStorage.getItem('xeri.seats')") in (None, "{}")
    assert other.locator(".spectator-note").count() == 0


def play_one_card(page: Page) -> str:
    """Play a card on my turn (the last of the hand); returns it once the hand no longer holds it."""
    page.wait_for_selector(TURN)
    card = hand(page)[-1]
    page.click(f".hand .card-btn[data-card='{card}']")
    page.wait_for_function("c => !document.querySelector(`.hand .card-btn[data-card='${c}']`)", arg=card)
    return card


def test_a_guest_s_table_in_play_is_claimed_then_resumed_and_left_on_another_device(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    guest = new_page(browser, contexts, console)
    table_id = start_vs_computer(guest, server, "Irene", target="r5")
    play_one_card(guest)
    # Signing up here claims the table in play too: its seat becomes the account's.
    guest.goto(server.url + "/")
    guest.wait_for_selector(".play-now")
    sign_up(guest, "Irene")
    # One match, in the singular (issue 39's plural forms).
    guest.wait_for_function("() => document.getElementById('live').textContent.includes(\"match is now your\")")
    guest.wait_for_selector(f".my-tables-panel li[data-table='{table_id}']")
    guest.goto(f"{server.url}/#/t/{table_id}")
    guest.wait_for_selector(".hand .card-btn")
    mine = sorted(hand(guest))
    # Another device signed in as Irene: the lobby lists the table, which opens her seat with no token.
    other = new_page(browser, contexts, console)
    other.goto(server.url + "/")
    other.wait_for_selector(".play-now")
    sign_in(other, "Irene")
    other.click(f".my-tables-panel li[data-table='{table_id}'] a")
    other.wait_for_selector(".hand .card-btn")
    assert sorted(hand(other)) == mine and other.locator(".spectator-note").count() == 0
    assert other.evaluate("localStorage.getItem('xeri.seats')") in (None, "{}")
    play_one_card(other)
    # Leave, from this device: the session gives the seat up (a bot plays it), and the lobby no longer lists it.
    other.click(".leave-btn")
    other.click("#leave-dialog .leave-confirm")
    other.wait_for_selector(".play-now")
    assert server.get(f"/api/tables/{table_id}")["seats"][0]["bot"] is not None
    other.reload()
    other.wait_for_selector(".play-now")
    # Asked again with the page's own session (a response body read after the page moved on can be gone).
    listed = other.evaluate("() => fetch('/api/account/tables', {credentials: 'same-origin'}).then(r => r.json())")
    assert listed["tables"] == []
    other.wait_for_selector(".my-tables-panel[hidden]", state="attached")
    assert other.locator(f".my-tables-panel li[data-table='{table_id}']").count() == 0
