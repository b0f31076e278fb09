"""Play offline (issue 31), measured in Debian's Chromium: the pack's size, the time to the first card, each level's
time per move under Pyodide.

It starts ``xeri serve --offline-pack`` (Pyodide from npm's package, as scripts/test.sh installs it) and drives
Chromium with Playwright:

- the pack: its files' bytes, and what they weigh on the wire (gzipped, as the server sends them);
- "Play offline" to the first card of the hand: the first time (the pack downloads, Pyodide starts, the match is
  dealt), then again in new pages with the pack cached, and with the network off (``--repeat`` times each: the
  medians, and every figure);
- each offline level's seconds per move, the offline engine's bots timed inside the worker (one-round 2-player
  classic matches, the person playing its first legal card);
- a first visit's bytes on the wire, which the pack must not add to (it downloads only on "Play offline").

    python benchmarks/web_offline.py [--matches 3] [--repeat 1] [--out benchmarks/results/web_offline.json]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "src")]

from playwright.sync_api import Page, sync_playwright  # noqa: E402

from support.browser import CHROMIUM, CHROMIUM_ARGS, DESKTOP, Server  # noqa: E402

PYODIDE = Path(os.environ.get("XERI_TEST_PYODIDE")
               or ROOT / ".cache" / "pyodide-314.0.8" / "node_modules" / "pyodide")
#: the page's own clock: when Play offline was clicked, and when the first card of the hand was drawn
CLOCK = """
document.addEventListener("click", (ev) => {
  if (ev.target instanceof Element && ev.target.closest(".play-offline")) window.__clicked = performance.now();
}, true);
new MutationObserver(() => {
  if (window.__clicked && !window.__card && document.querySelector(".hand .card-btn"))
    window.__card = performance.now();
}).observe(document, { childList: true, subtree: true });
localStorage.setItem("xeri.offlineBotDelay", "0");
"""


def wait_for(page: Page, script: str, timeout: float = 120.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = page.evaluate(script)
        if value:
            return value
        if time.monotonic() > deadline:
            raise RuntimeError(f"{script} stayed {value!r}")
        page.wait_for_timeout(50)  # polling interval


def first_card(page: Page, url: str) -> float:
    """Milliseconds from the click on Play offline to the first card of the hand, by the page's clock."""
    page.goto(url + "/")
    wait_for(page, "navigator.serviceWorker.controller !== null")
    page.select_option(".vs-level", "hard")
    page.select_option(".vs-players", "2")
    page.select_option(".vs-target", "r1")
    page.click(".play-offline")
    page.wait_for_selector(".hand .card-btn", timeout=180_000)
    return float(wait_for(page, "window.__card && window.__card - window.__clicked"))


def pack_sizes(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url + "/offline/pack.json", timeout=10) as r:
        manifest = json.load(r)
    wire = 0
    files = []
    for f in [*manifest["files"], {"path": "../offline/worker.js"}]:
        path = "/offline/" + f["path"] if not f["path"].startswith("..") else "/offline/worker.js"
        req = urllib.request.Request(url + path, headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(req, timeout=60) as r:
            body = r.read()
            zipped = r.headers.get("Content-Encoding") == "gzip"
        raw = len(gzip.decompress(body)) if zipped else len(body)
        files.append({"path": path, "bytes": raw, "wire_bytes": len(body)})
        wire += len(body)
    return {"version": manifest["version"], "pyodide": manifest["pyodide"], "levels": manifest["levels"],
            "bytes": sum(f["bytes"] for f in files), "wire_bytes": wire, "files": files}


def summary(seconds: list[float]) -> dict[str, float]:
    ms = sorted(s * 1000 for s in seconds)
    return {"mean_ms": round(statistics.fmean(ms), 3), "p50_ms": round(ms[len(ms) // 2], 3),
            "p95_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.95))], 3), "max_ms": round(ms[-1], 3)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=3, help="one-round matches per level (default 3)")
    parser.add_argument("--repeat", type=int, default=1, help="pages timed with the pack cached, and offline")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "web_offline.json")
    args = parser.parse_args()
    srv = Server(Path(tempfile.mkdtemp(prefix="xeri-web-offline-")))
    srv.extra = ["--offline-pack", str(PYODIDE)]
    srv.start()
    try:
        out: dict[str, Any] = {"pack": pack_sizes(srv.url), "load_average": os.getloadavg()[0]}
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            out["chromium"] = browser.version
            first = browser.new_context(viewport=DESKTOP, locale="en-GB", reduced_motion="reduce")
            visit = first.new_page()
            visit.goto(srv.url + "/")
            visit.wait_for_selector(".start-vs")
            wait_for(visit, "navigator.serviceWorker.controller !== null")
            out["first_visit"] = visit.evaluate("""() => {
                const got = (kind) => performance.getEntriesByType(kind);
                const all = [...got('navigation'), ...got('resource')];
                return { bytes: all.reduce((n, e) => n + (e.transferSize || 0), 0), files: all.length,
                         offline_files: all.filter((e) => e.name.includes('/offline/')).length };
            }""")
            first.close()
            ctx = browser.new_context(viewport=DESKTOP, locale="en-GB", reduced_motion="reduce")
            ctx.add_init_script(CLOCK)
            page = ctx.new_page()
            cold = first_card(page, srv.url)
            cached: list[float] = []
            offline: list[float] = []
            for _ in range(args.repeat):
                again = ctx.new_page()
                cached.append(first_card(again, srv.url))
                again.close()
            ctx.set_offline(True)
            for _ in range(args.repeat):
                offline_page = ctx.new_page()
                offline_page.goto(srv.url + "/")  # the shell from the service worker; the lobby's data it kept
                offline.append(first_card(offline_page, srv.url))
                offline_page.close()
            ctx.set_offline(False)
            out["first_card_ms"] = {"first_time": round(cold, 1), "pack_cached": round(statistics.median(cached), 1),
                                    "no_network": round(statistics.median(offline), 1)}
            out["first_card_runs_ms"] = {"pack_cached": [round(x, 1) for x in cached],
                                         "no_network": [round(x, 1) for x in offline]}
            levels: dict[str, Any] = {}
            for level in out["pack"]["levels"]:
                got = json.loads(page.evaluate(
                    "async ([level, n]) => (await import('/static/js/offline/engine.js')).offlineEngine()"
                    ".call('time_level', level, n, 2026)", [level, args.matches]))
                levels[level] = {"moves": got["moves"], **summary(got["seconds"])}
            out["move_ms"] = levels
            browser.close()
    finally:
        srv.stop()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps({k: v for k, v in out.items() if k != "pack"}, indent=1))
    print(f"pack: {out['pack']['bytes']} bytes, {out['pack']['wire_bytes']} on the wire")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
