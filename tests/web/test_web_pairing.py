""""Play online" in real Chromium (docs/web.md): two fresh browsers press it, are seated at one table, and play;
the second accepts the first's open challenge in the lobby's list."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, BrowserContext

from support.browser import TURN, Console, Server, hand, new_page
from support.server import AccountClient


def test_two_browsers_press_play_online_sit_at_one_table_and_play(server: Server, browser: Browser,
                                                                   contexts: list[BrowserContext],
                                                                   console: Console) -> None:
    pages = [new_page(browser, contexts, console), new_page(browser, contexts, console, locale="tr-TR")]
    selin = AccountClient(server.url)  # a signed-in player's rated challenge: a guest's Accept is disabled (issue 41)
    for i, page in enumerate(pages):
        if i == 1:
            selin.sign_up("Selin")
            selin_seek = selin.post("/api/pairing", {"format": "xeri-2", "rated": True}).json()["seek_id"]
        page.goto(server.url + "/")
        page.click(".play-online")
        if i == 1:  # the second sees the first waiting, on its pool's button, before choosing
            page.wait_for_function("document.querySelector(\".pool-choice[data-format='xeri-2'] .pool-waiting\")"
                                   ".textContent.includes('1')")
            assert page.inner_text(".pool-choice[data-format='pisti-2'] .pool-waiting") == ""
        page.fill("#online-name", ["Ada", "Deniz"][i])  # a newcomer says the name the other will see
        if i == 1:  # the lobby lists Ada's seek as an open challenge, and who is here; Accept pairs them (issue 41)
            ada = page.locator(".challenge-list li.challenge", has=page.locator(".challenge-name", has_text="Ada"))
            ada.wait_for()
            assert ada.get_attribute("data-format") == "xeri-2" and "Klasik · 2 oyuncu" in ada.inner_text()
            assert re.fullmatch(r"\d+ oyuncu çevrimiçi · \d+ masada oyun sürüyor", page.inner_text(".lobby-pulse"))
            rated = page.locator(".challenge-list li.challenge[data-rated='true']", has_text="Selin")
            assert rated.locator(".challenge-accept").is_disabled()
            reason = rated.locator(".challenge-reason")
            assert reason.inner_text() == "Dereceli bir meydan okumayı kabul etmek için giriş yap."
            assert rated.locator(".challenge-accept").get_attribute("aria-describedby") == reason.get_attribute("id")
            selin.http.delete(f"/api/pairing/{selin_seek}")
            ada.locator(".challenge-accept").click()
            continue
        page.click(".pool-choice[data-format='xeri-2']")
        if i == 0:  # alone in the pool: it waits, with Cancel, and is told how many wait
            page.wait_for_selector(".pairing-wait:not([hidden]) .pairing-cancel")
            page.wait_for_function("document.querySelector('.pairing-players').textContent.includes('1')")
    for page in pages:
        page.wait_for_selector(".hand .card-btn")
    ids = [page.url.split("#/t/")[1] for page in pages]
    assert ids[0] == ids[1]
    kept = [page.evaluate("JSON.parse(localStorage.getItem('xeri.seats'))") for page in pages]
    assert sorted(k[ids[0]]["seat"] for k in kept) == [0, 1]  # each browser holds its own seat's token
    table = server.get(f"/api/tables/{ids[0]}")
    assert table["status"] == "playing" and all(s["human"] for s in table["seats"])
    assert sorted(s["name"] for s in table["seats"]) == ["Ada", "Deniz"]
    mover, other = (pages[0], pages[1]) if pages[0].locator(".hand.my-turn").count() else (pages[1], pages[0])
    for _ in range(2):  # each plays a card
        mover.wait_for_selector(TURN)
        played = mover.locator(TURN).first.get_attribute("data-card")
        mover.locator(f"{TURN}[data-card='{played}']").click()
        mover.wait_for_selector(f".hand .card-btn[data-card='{played}']", state="detached")
        assert played not in hand(mover)
        mover, other = other, mover
