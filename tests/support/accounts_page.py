"""The accounts' dialog in the page: open it, sign up, sign in, and the matches a profile lists."""

from __future__ import annotations

from playwright.sync_api import Page

from support.browser import Server

PASSWORD = "a good long password"


def open_dialog(page: Page) -> None:
    page.click("#account-btn")
    page.wait_for_selector("#account-dialog")


def sign_up(page: Page, name: str) -> None:
    open_dialog(page)
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.click("#account-dialog .sign-up-btn")
    page.wait_for_selector("#account-dialog", state="detached")
    page.wait_for_function("name => document.querySelector('#account-btn').textContent === name", arg=name)


def sign_in(page: Page, name: str, password: str = PASSWORD) -> None:
    open_dialog(page)
    page.fill("#account-name", name)
    page.fill("#account-password", password)
    page.click("#account-dialog .sign-in-btn")


def profile_matches(page: Page, server: Server, name: str) -> list[str]:
    page.goto(f"{server.url}/#/profile/{name}")
    page.wait_for_selector(".profile-name")
    return page.eval_on_selector_all(".profile-matches tr[data-match]", "rows => rows.map(r => r.dataset.match)")
