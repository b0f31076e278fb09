"""The computer's word about its own strength, through the page (issue 28): a fresh ``xeri serve``'s worker loads
the master's compiled rollouts at its first master move and plays by the counting rules until they are there;
the table is told once that it does, and once when it plays at full strength.

Its own module, so its own server: the first move of the strong level at 3 players (which plays a master there)
is that server's first master move, so it comes before the rollouts are loaded.
"""

from __future__ import annotations

from playwright.sync_api import Browser, BrowserContext

from support.browser import RECORD_ANNOUNCEMENTS, RECORD_LIVE, TURN, Console, Server, new_page
from support.web_tables import vs_computer

WARMING = "The strong level is warming up"
READY = "The strong level's rollouts are ready"


def test_the_strong_level_at_three_players_says_it_warms_up_then_that_it_is_itself(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console) -> None:
    from xeri.bots.master import _load_rollouts

    # Compiled into numba's cache now if this machine never did (the server's workers then load it in about a
    # second): what the test waits for is the load in the server, not a compilation.
    assert _load_rollouts() is not None
    page = new_page(browser, contexts, console)
    page.add_init_script(RECORD_LIVE)
    page.add_init_script(RECORD_ANNOUNCEMENTS)
    vs_computer(page, server, "Nike", level="strong", target="r5", players=3)

    def said(text: str) -> int:
        return int(page.evaluate("(t) => window.__live.filter((s) => s.startsWith(t)).length", text))

    for _ in range(300):  # the match's 80 moves at most, a round dialog between rounds
        page.wait_for_selector(f"{TURN}, #round-dialog, #match-dialog")
        if said(READY):
            break
        assert not page.locator("#match-dialog").count(), "the match ended before the strong level was itself"
        if page.locator("#round-dialog").count():
            page.click("#round-dialog .actions button.primary")
        else:
            page.locator(TURN).first.click()
    assert said(WARMING) == 1 and said(READY) == 1
    live = page.evaluate("window.__live")
    assert min(i for i, s in enumerate(live) if s.startswith(WARMING)) < min(
        i for i, s in enumerate(live) if s.startswith(READY))
    shown = page.evaluate("window.__announcements")
    assert any(s.startswith(WARMING) for s in shown) and any(s.startswith(READY) for s in shown)
