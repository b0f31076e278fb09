"""Chromium through Playwright: the web tests' fixtures (a real ``xeri serve``, the browser, a console watch) and
the page helpers the tests share (a new page, the lobby's forms, playing cards until something shows)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Playwright, sync_playwright

from support import logs as server_logs

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 375, "height": 667}
DESKTOP = {"width": 1280, "height": 800}
# A card we may play now: our turn, and no dialog in front of the table.
TURN = "body:not(:has(.modal-back)) .hand.my-turn .card-btn:not([aria-disabled=true])"


# Keeps every text the page shows in its announcements (#toast) and its connection banner (#banner),
# so a test can check what was shown even if it was shown briefly.
RECORD_ANNOUNCEMENTS = """
window.__announcements = [];
window.__banners = [];
document.addEventListener("DOMContentLoaded", () => {
  for (const [id, into] of [["toast", window.__announcements], ["banner", window.__banners]]) {
    const node = document.getElementById(id);
    new MutationObserver(() => { if (!node.hidden) into.push(node.textContent); })
      .observe(node, { attributes: true, childList: true, characterData: true, subtree: true });
  }
});
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``xeri serve`` in a subprocess; ``stop``/``start`` keep its port and database."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.db = tmp / "xeri.db"
        self.log = tmp / "serve.log"
        self.env = {**os.environ, "XERI_DATA_DIR": str(tmp / "data")}
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = f"http://127.0.0.1:{self.port}"
        #: more ``xeri serve`` options (tests/web/test_web_offline.py: ``--offline-pack``)
        self.extra: list[str] = []
        #: how much of the log was checked for tracebacks (tests/support/logs.py)
        self.checked = 0

    def start(self) -> None:
        cmd = [sys.executable, "-m", "xeri", "serve", "--port", str(self.port), "--db", str(self.db),
               "--bot-delay", "0", *self.extra]
        with self.log.open("ab") as log:  # a file, not a pipe: a full pipe would stall the server
            self.proc = subprocess.Popen(cmd, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"xeri serve exited: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/api/health", timeout=1) as r:
                    if json.load(r).get("ok"):
                        return
            except OSError:
                time.sleep(0.05)  # polling interval while the server binds, not synchronisation
        raise RuntimeError("xeri serve did not become ready in 30 s")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc is not None:
            self.checked = server_logs.check_file(str(self.log), f"xeri serve on port {self.port}", self.checked)
        self.proc = None

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=5) as r:
            return json.load(r)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("web-server"))
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    b = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield b
    pool = _POOLS.pop(id(b), None)
    if pool is not None:
        pool.close()
    b.close()


class Console:
    """Collects console errors and page exceptions from every page it watches."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.allowed: tuple[str, ...] = ()

    def watch(self, page: Page) -> Page:
        def on_console(msg: ConsoleMessage) -> None:
            if msg.type == "error" and not any(a in msg.text for a in self.allowed):
                self.errors.append(f"{page.url}: {msg.text}")

        page.on("console", on_console)
        page.on("pageerror", lambda exc: self.errors.append(f"{page.url}: uncaught {exc}"))
        return page


@pytest.fixture
def console() -> Iterator[Console]:
    c = Console()
    yield c
    assert c.errors == [], "console errors in the page"


class ContextPool:
    """Browser contexts kept between a file's tests, each emptied before it is lent again.

    A new context costs Chromium about 2 CPU-s more than a new page in a used one that still has a page open (its
    renderer processes, and the page's modules fetched and compiled cold), and the browser tests make hundreds:
    Chromium is most of the suite's CPU. So each context keeps a blank page of its own that no test sees. A
    context comes back with no other page, and no cookie, route, permission or site data (local and session
    storage, IndexedDB, Cache Storage, service workers) for any origin its pages opened; only the HTTP cache
    (revalidated: the server's files are ``no-cache``) and the compiled code stay. A test that measures a cold
    first visit asks ``new_page`` for ``fresh=True``."""

    def __init__(self) -> None:
        self.idle: dict[str, list[BrowserContext]] = {}
        self.kept: dict[int, tuple[str, Page, set[str]]] = {}

    def take(self, browser: Browser, key: str, options: dict[str, Any]) -> BrowserContext:
        idle = self.idle.get(key)
        if idle:
            return idle.pop()
        ctx = browser.new_context(**options)
        seen: set[str] = set()
        ctx.on("page", lambda page: self._follow(page, seen))
        self.kept[id(ctx)] = (key, ctx.new_page(), seen)
        return ctx

    @staticmethod
    def _follow(page: Page, seen: set[str]) -> None:
        def on_navigated(frame: Any) -> None:
            url = urllib.parse.urlsplit(frame.url)
            if url.scheme in ("http", "https"):
                seen.add(f"{url.scheme}://{url.netloc}")

        page.on("framenavigated", on_navigated)

    def give_back(self, ctx: BrowserContext) -> None:
        """Empty ``ctx`` and keep it for the next test; close it if it cannot be emptied (the test closed it)."""
        kept = self.kept.get(id(ctx))
        if kept is None:
            ctx.close()
            return
        key, blank, seen = kept
        try:
            for page in ctx.pages:
                if page is not blank:
                    page.close()
            cdp = ctx.new_cdp_session(blank)
            for origin in sorted(seen):
                cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
            cdp.detach()
            seen.clear()
            ctx.unroute_all(behavior="ignoreErrors")
            ctx.clear_cookies()
            ctx.clear_permissions()
            ctx.set_offline(False)
            ctx.set_extra_http_headers({})
        except Exception:
            del self.kept[id(ctx)]
            ctx.close()
            return
        self.idle.setdefault(key, []).append(ctx)

    def close(self) -> None:
        for idle in self.idle.values():
            for ctx in idle:
                ctx.close()
        self.idle.clear()
        self.kept.clear()


#: one pool per browser (the browser fixture is per test file)
_POOLS: dict[int, ContextPool] = {}


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    made: list[BrowserContext] = []
    yield made
    pool = _POOLS.get(id(browser))
    for ctx in made:
        if pool is None:
            ctx.close()
        else:
            pool.give_back(ctx)


def new_page(browser: Browser, contexts: list[BrowserContext], console: Console, *, motion: bool = False,
             locale: str = "en-GB", fresh: bool = False, **options: Any) -> Page:
    """A page in a context of its own (its own localStorage: a separate player), emptied if a test before used it;
    ``fresh``: a new context, for a test of what a first visit costs."""
    options.setdefault("viewport", DESKTOP)
    # Playwright evaluates a string predicate (wait_for_function) with eval, which the page's own CSP forbids.
    options.setdefault("bypass_csp", True)
    options = {"locale": locale, "reduced_motion": "no-preference" if motion else "reduce", **options}
    if fresh:
        ctx = browser.new_context(**options)
    else:
        key = json.dumps(options, sort_keys=True, default=repr)
        ctx = _POOLS.setdefault(id(browser), ContextPool()).take(browser, key, options)
    ctx.set_default_timeout(15_000)
    contexts.append(ctx)
    return console.watch(ctx.new_page())


def open_with_storage(page: Page, url: str, items: dict[str, Any]) -> None:
    """Open ``url`` in ``page`` with ``items`` (JSON-encoded) already in its localStorage: one page load.

    A fresh page gets them from an init script that runs once per tab (a reload keeps what the page has since
    written), so the app boots with them; loading another of its pages first only to write them costed a second
    load, and Chromium's CPU is most of the suite's. A page already on the app writes them and reloads."""
    pairs = [[k, json.dumps(v)] for k, v in items.items()]
    if page.url.startswith(url.split("#")[0].rstrip("/")):
        page.evaluate("pairs => { for (const [k, v] of pairs) localStorage.setItem(k, v); }", pairs)
        page.goto(url)
        page.reload()
        return
    page.add_init_script(script="(() => { try {"
                         " if (sessionStorage.getItem('xeri.test.storage')) return;"
                         f" for (const [k, v] of {json.dumps(pairs)}) localStorage.setItem(k, v);"
                         " sessionStorage.setItem('xeri.test.storage', '1');"
                         " } catch (e) { /* about:blank has no storage */ } })();")
    page.goto(url)


def record_frames(page: Page, into: list[str]) -> Page:
    """Keep the text of every WebSocket message the page receives."""
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: into.append(str(payload))))
    return page


def weakest_level(server: Server) -> str:
    """The random bot where the server offers it as a level, else its weakest level."""
    levels: list[str] = server.get("/api/levels")
    return next((lv for lv in levels if lv in ("random", "beginner")), levels[0])


def start_vs_computer(page: Page, server: Server, name: str, *, players: int = 2, target: str = "r5") -> str:
    """Create a table against the weakest bot from the lobby form; returns the table id."""
    page.goto(server.url + "/")
    page.fill(".vs-name", name)
    page.select_option(".vs-level", weakest_level(server))
    page.select_option(".vs-players", str(players))
    page.select_option(".vs-ruleset", "classic")
    page.select_option(".vs-target", target)
    page.click(".start-vs")
    page.wait_for_selector(".hand .card-btn")
    return page.url.split("#/t/")[1]


def invite_friends(page: Page, server: Server, *, listed: bool = False, timer: int | None = None) -> str:
    """Alice makes a 2-player friends' table from the lobby (listed in it, or private: the default) and waits
    there; its invite link."""
    page.goto(server.url + "/")
    page.fill(".fr-name", "Alice")
    page.select_option(".fr-players", "2")
    if listed:
        page.check("#fr-public")
    if timer is not None:
        page.fill(".fr-timer", str(timer))
    page.click(".create-friends")
    return page.locator(".invite-url").input_value()


def hand(page: Page) -> list[str]:
    return page.eval_on_selector_all(".hand .card-btn", "els => els.map(e => e.dataset.card)")


def play_until(page: Page, done: str, *, tap: bool = False, max_moves: int = 300) -> int:
    """Play the first playable card whenever it is our turn, until ``done`` shows; closes round dialogs."""
    moves = 0
    for _ in range(max_moves):
        page.wait_for_selector(f"{done}, {TURN}, #round-dialog")
        if page.locator(done).count():
            return moves
        if page.locator("#round-dialog").count():
            page.click("#round-dialog .actions button.primary")
            continue
        card = page.locator(TURN).first
        card.tap() if tap else card.click()
        moves += 1
    raise AssertionError(f"{done} did not appear within {max_moves} moves")


# Keeps every line the polite live region (#live) was given, and whether the focus ever fell to the body
# while a table was shown and no dialog was open.
RECORD_LIVE = """
window.__live = [];
window.__bodyFocus = 0;
document.addEventListener("DOMContentLoaded", () => {
  const live = document.getElementById("live");
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) window.__live.push(n.textContent);
  }).observe(live, { childList: true });
  document.addEventListener("focusout", () => setTimeout(() => {
    if (document.activeElement === document.body && document.querySelector(".board .hand")
        && !document.querySelector(".modal-back")) window.__bodyFocus += 1;
  }, 0));
});
"""


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
