"""Play offline (issue 31), in Debian's Chromium: the installable page, its service worker and the offline engine.

The offline engine is xeri's own Python under Pyodide in a Web Worker. These tests install the offline pack from
a real ``xeri serve --offline-pack``, play with the network off and the server stopped, resume after a reload,
export a record that ``xeri verify`` accepts, play seeded matches through the server and the worker and compare
the two records byte for byte, and update the page to a new version cleanly. The page runs under its own
Content-Security-Policy (not bypassed), so the worker's policy is tested too.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from support.browser import DESKTOP, TURN, Console, Server, hand
from support.server import Player

ROOT = Path(__file__).resolve().parents[2]
PYODIDE = Path(os.environ.get("XERI_TEST_PYODIDE")
               or ROOT / ".cache" / "pyodide-314.0.8" / "node_modules" / "pyodide")
#: the matches played both ways: (ruleset, options, the bots' levels of seats 1..n-1)
CONFIGS = {
    "classic": ("classic", {"rounds": 2}, ["hard"]),
    "cardgames": ("cardgames", {"match_end": "rounds", "rounds": 1}, ["medium"]),
    "berman": ("berman", {"match_end": "rounds", "rounds": 1}, ["hard"]),
    "pisti": ("pisti", {"match_end": "rounds", "rounds": 1}, ["easy"]),
    "4 players": ("classic", {"players": 4, "rounds": 1}, ["easy", "medium", "hard"]),
}
#: a match through the offline worker, in the page: the person in seat 0 plays its first legal card, closes each
#: round's summary; every text the worker sends is kept. Returns the texts and the record's text.
PLAY_IN_WORKER = """async ([body, hooks]) => {
  const { offlineEngine } = await import("/static/js/offline/engine.js");
  const engine = offlineEngine();
  const made = await engine.call("new_table", body, hooks);
  const texts = [];
  await new Promise((resolve, reject) => {
    const sent = new Set();
    const send = (msg) => engine.call("send", made.id, JSON.stringify(msg));
    const act = (msg) => {
      if (msg.type === "error") return reject(new Error(msg.message));
      if (msg.type !== "sync" && msg.type !== "update") return;
      const v = msg.view;
      if (v.match_over) return resolve();
      if (msg.pause) {
        send({ type: "ready" });
        send({ type: "sync" });  // the person may be the first to play the next round
      } else if (v.turn === 0 && !sent.has(msg.version)) {
        sent.add(msg.version);  // once a version: a sync may repeat an update's
        send({ type: "move", card: v.legal_moves[0], version: msg.version });
      }
    };
    engine.listeners.set(made.id, (got) => {
      texts.push(...got);
      for (const text of got) act(JSON.parse(text));
    });
    engine.call("send", made.id, JSON.stringify({ type: "sync" }));
  });
  return { texts, record: await engine.call("record", made.id) };
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    assert (PYODIDE / "pyodide.asm.wasm").is_file(), \
        f"Pyodide is missing at {PYODIDE}: scripts/test.sh installs it (npm's pyodide package)"
    srv = Server(tmp_path_factory.mktemp("web-offline"))
    srv.extra = ["--offline-pack", str(PYODIDE), "--rate", "1000"]  # the comparisons play fast
    srv.start()
    yield srv
    srv.stop()


def offline_page(browser: Browser, contexts: list[BrowserContext], console: Console) -> Page:
    """A fresh player, under the page's own CSP, whose offline bots move without the server's pause."""
    ctx = browser.new_context(viewport=DESKTOP, locale="en-GB", reduced_motion="reduce", accept_downloads=True)
    ctx.set_default_timeout(20_000)
    contexts.append(ctx)
    ctx.add_init_script("localStorage.setItem('xeri.offlineBotDelay', '0')")
    return console.watch(ctx.new_page())


def poll(page: Page, script: str, timeout: float = 30.0) -> Any:
    """The value of ``script`` (an expression) once it is truthy, polled from Python (the page's CSP forbids
    Playwright's own wait_for_function)."""
    deadline = time.monotonic() + timeout
    while True:
        value = page.evaluate(script)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{script} stayed {value!r}")
        page.wait_for_timeout(100)  # the polling interval, not synchronisation


def install_and_start(page: Page, server: Server, *, level: str = "hard", target: str = "r1") -> str:
    """From the lobby: Play offline (the pack downloads), a match against ``level``; returns its table id."""
    page.goto(server.url + "/")
    poll(page, "navigator.serviceWorker.controller !== null")
    page.fill(".vs-name", "Ada")
    page.select_option(".vs-level", level)
    page.select_option(".vs-players", "2")
    page.select_option(".vs-ruleset", "classic")
    page.select_option(".vs-target", target)
    assert page.inner_text(".offline-levels") == "Offline: easy, medium, hard, master"
    page.click(".play-offline")
    page.wait_for_selector(".hand .card-btn", timeout=90_000)
    assert "#/t/offline-" in page.url
    return page.url.split("#/t/")[1]


def test_offline_play_with_no_network_and_no_server_resumes_and_exports_a_verified_record(
        server: Server, browser: Browser, contexts: list[BrowserContext], console: Console, tmp_path: Path) -> None:
    page = offline_page(browser, contexts, console)
    table_id = install_and_start(page, server, target="r1")
    cached = page.evaluate("caches.keys()")
    assert any(k.startswith("xeri-pack-") for k in cached) and any(k.startswith("xeri-shell-") for k in cached)

    # No network, no server: the page loads from the service worker, and the engine from the pack.
    page.context.set_offline(True)
    server.stop()
    page.reload()
    page.wait_for_selector(".hand .card-btn", timeout=90_000)
    for _ in range(5):
        page.locator(TURN).first.click()
        page.wait_for_selector(TURN)
    # A reload in the middle of the match: the same hand, at the same place.
    before = sorted(hand(page))
    talon = page.inner_text(".talon-count")
    page.reload()
    page.wait_for_selector(TURN, timeout=90_000)
    assert sorted(hand(page)) == before and page.inner_text(".talon-count") == talon
    # The rest of the match, with a hint on the way (the offline master's).
    page.click(".hint-btn")
    page.wait_for_selector(".card-btn.hinted")
    for _ in range(60):
        page.wait_for_selector(f"#match-dialog, #round-dialog, {TURN}")
        if page.locator("#match-dialog").count():
            break
        if page.locator("#round-dialog").count():  # the last round's screen comes before the match's (issue 39)
            page.click("#round-dialog .actions button.primary")
            page.wait_for_selector("#round-dialog", state="detached")
            continue
        page.locator(TURN).first.click()
    dialog = page.locator("#match-dialog")
    assert dialog.count() == 1
    # Each round's fair shuffle is checked by the same Python, offline.
    dialog.locator(".dialog-more summary").click()
    page.wait_for_selector("#match-dialog .fairness[data-ok]", state="attached")
    assert dialog.locator(".fairness").first.get_attribute("data-ok") == "true"

    # Online again: the record downloads (from this browser's store) and xeri verify accepts it.
    server.start()
    page.context.set_offline(False)
    with page.expect_download() as download:
        dialog.get_by_text("Download record").click()
    path = tmp_path / "record.json"
    shutil.copy(download.value.path(), path)
    record = json.loads(path.read_text())
    assert record["format"] == "xeri-record" and record["result"]["over"] is True
    assert record["table"]["id"] == table_id and record["table"]["bots"] == {"1": "hard"}
    done = subprocess.run([sys.executable, "-m", "xeri", "verify", str(path)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    # History lists the offline match beside the server's, replays it, and the offline master reviews it.
    page.goto(server.url + "/#/history")
    row = page.locator(f"tr[data-match='{table_id}']")
    row.wait_for()
    row.locator(".replay-link").click()
    page.wait_for_selector(".replay-board .seat-box")
    assert page.inner_text(".step-caption").startswith("Move 0 of ")
    page.click(".review-start")
    page.wait_for_selector(".review-total", timeout=120_000)
    mine = sum(len(r["moves"]) for r in record["rounds"])  # every move; half of them are seat 0's
    reviewed = int(page.inner_text(".review-total").split(" moves")[0].split()[-1])
    assert 0 < reviewed <= mine // 2 + 1


def server_match(server: Server, name: str) -> tuple[str, dict[str, Any], list[dict[str, Any]], bytes]:
    """A seeded match through the server: seat 0 (a WebSocket client, as the page connects) plays its first legal
    card. Returns the table id, the offline engine's hooks for the same match, the updates seat 0 got, and the
    record's bytes."""
    import httpx

    ruleset, options, levels = CONFIGS[name]
    body = {"ruleset": ruleset, "options": options, "name": "Ada", "seats": [None, *({"bot": lv} for lv in levels)]}
    made = httpx.post(server.url + "/api/tables", json=body, timeout=10).json()
    table_id = made["table_id"]
    with sqlite3.connect(server.db) as db:
        seed, salt_key = db.execute("SELECT match_seed, salt_key FROM xeri_tables WHERE id = ?",
                                    (table_id,)).fetchone()
    p = Player(server.url.replace("http:", "ws:"), table_id, f"{made['token']}&summary=1")
    for _ in range(500):
        assert p.view is not None
        if p.view["match_over"]:
            break
        last = p.messages[-1]
        if last.get("pause"):
            p.send(type="ready")
        if p.view["turn"] == 0 and not last.get("pause"):
            p.send(type="move", card=p.view["legal_moves"][0], version=p.version)
        try:
            p.until(lambda m: m["type"] in ("update", "table"))
        except TimeoutError:
            raise AssertionError(f"the server's match stalled after {[m['type'] for m in p.messages[-4:]]}: "
                                 f"{p.messages[-1]}") from None
    p.close()
    record = httpx.get(f"{server.url}/api/matches/{table_id}/record", timeout=10).content
    hooks = {"table_id": table_id, "match_seed": int(seed), "salt_key": salt_key, "bot_delay": 0}
    return table_id, {"body": body, "hooks": hooks}, [m for m in p.messages if m["type"] == "update"], record


@pytest.fixture(scope="module")
def engine_page(server: Server, browser: Browser) -> Iterator[Page]:
    """One page with the pack installed and the engine loaded, shared by the comparisons (Pyodide loads once)."""
    ctx = browser.new_context(viewport=DESKTOP, locale="en-GB", reduced_motion="reduce")
    ctx.set_default_timeout(20_000)
    page = ctx.new_page()
    page.goto(server.url + "/")
    poll(page, "navigator.serviceWorker.controller !== null")
    page.evaluate("async () => { await (await import('/static/js/offline/pack.js')).installPack(); "
                  "await (await import('/static/js/offline/engine.js')).offlineEngine().call('about'); }")
    yield page
    ctx.close()


def comparable(msg: dict[str, Any]) -> dict[str, Any]:
    """An update less the seconds left of a round's pause (the two clocks differ)."""
    out = dict(msg)
    if out.get("pause"):
        out["pause"] = {"waiting": out["pause"]["waiting"]}
    return out


@pytest.mark.parametrize("name", list(CONFIGS))
def test_a_seeded_match_through_the_server_and_the_offline_worker_gives_the_same_record(
        server: Server, engine_page: Page, name: str) -> None:
    table_id, given, updates, record = server_match(server, name)
    # The seed is a 64-bit number: it goes to the worker's Python as JSON text, never as a JavaScript number.
    got = engine_page.evaluate(PLAY_IN_WORKER, [json.dumps(given["body"]), json.dumps(given["hooks"])])
    assert got["record"].encode() == record, "the offline worker's record is not the server's, byte for byte"
    # Every update the server's seat 0 got, the worker sent too (the server's bots may move before seat 0 connects).
    ours = [comparable(json.loads(t)) for t in got["texts"] if json.loads(t)["type"] == "update"]
    assert updates and ours[-len(updates):] == [comparable(u) for u in updates]
    assert table_id in got["record"]


def test_a_new_version_of_the_page_takes_over_only_when_the_player_reloads(
        browser: Browser, contexts: list[BrowserContext], console: Console,
        tmp_path_factory: pytest.TempPathFactory) -> None:
    web = tmp_path_factory.mktemp("page") / "web"
    shutil.copytree(ROOT / "src" / "xeri" / "web", web)
    srv = Server(tmp_path_factory.mktemp("web-update"))
    srv.env["XERI_WEB_DIR"] = str(web)
    srv.start()
    try:
        page = offline_page(browser, contexts, console)
        page.goto(srv.url + "/")
        poll(page, "navigator.serviceWorker.controller !== null")
        lobby = web / "js" / "pages/lobby.js"
        lobby.write_text(lobby.read_text() + "\n// version two\n")
        page.reload()
        page.wait_for_selector(".start-vs")
        # The new version is cached and waits; the page still gets every file of the old one.
        page.wait_for_selector(".update-banner", timeout=30_000)
        old = page.evaluate("fetch('/static/js/pages/lobby.js').then((r) => r.text())")
        assert "version two" not in old
        with page.expect_navigation():  # the new version takes over, and the page reloads itself
            page.click(".update-reload")
        page.wait_for_selector(".start-vs")
        assert "version two" in page.evaluate("fetch('/static/js/pages/lobby.js').then((r) => r.text())")
        shells = [k for k in page.evaluate("caches.keys()") if k.startswith("xeri-shell-")]
        assert len(shells) == 1
    finally:
        srv.stop()
