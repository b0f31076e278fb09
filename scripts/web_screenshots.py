"""Regenerate the README's browser screenshots: docs/img/web-table.png (a desktop table with its
move log) and docs/img/web-table-phone.png (the Greek phone layout).

Starts ``xeri serve`` on a free loopback port with its own database, plays a few cards against the
easy level in Debian's Chromium through Playwright, and saves the screenshots. Usage:

    python scripts/web_screenshots.py [--moves 5]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]
TURN = "body:not(:has(.modal-back)) .hand.my-turn .card-btn:not([aria-disabled=true])"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def play(page: Page, url: str, name: str, moves: int) -> None:
    page.goto(url + "/")
    page.fill(".vs-name", name)
    page.select_option(".vs-level", "easy")
    page.select_option(".vs-target", "r3")
    page.click(".start-vs")
    for _ in range(moves):
        page.wait_for_selector(TURN)
        page.locator(TURN).first.click()
    page.wait_for_selector(TURN)
    page.click(".hint-btn")
    page.wait_for_selector(".card-btn.hinted")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=5)
    args = parser.parse_args()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen([sys.executable, "-m", "xeri", "serve", "--port", str(port), "--db",
                                   f"{data}/x.db", "--bot-delay", "0"], env={**os.environ, "XERI_DATA_DIR": data},
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    with urllib.request.urlopen(url + "/api/health", timeout=1) as r:
                        if json.load(r).get("ok"):
                            break
                except OSError:
                    if time.monotonic() > deadline:
                        raise SystemExit("xeri serve did not start") from None
                    time.sleep(0.1)  # a script may poll while the server binds
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                desktop = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB",
                                              reduced_motion="reduce")
                page = desktop.new_page()
                play(page, url, "Ada", args.moves)
                page.screenshot(path=str(ROOT / "docs/img/web-table.png"))
                phone = browser.new_context(viewport={"width": 375, "height": 667}, is_mobile=True, has_touch=True,
                                            device_scale_factor=2, locale="el-GR", reduced_motion="reduce")
                page = phone.new_page()
                play(page, url, "Ζωή", args.moves)
                page.screenshot(path=str(ROOT / "docs/img/web-table-phone.png"))
                browser.close()
        finally:
            server.terminate()
            server.wait(10)
    print("wrote docs/img/web-table.png and docs/img/web-table-phone.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
