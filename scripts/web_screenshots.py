"""The README's and docs/web.md's pictures of the table: a scripted 4-player table mid-round at four sizes.

    PYTHONPATH=src python scripts/web_screenshots.py docs/img web-table
    PYTHONPATH=/work/main/src python scripts/web_screenshots.py docs/img before-web-table   # an older page

The server is ``xeri serve`` from whatever ``PYTHONPATH`` names, so the same script pictures an older page for a
before and after; the table's messages are the ones tests/web/test_web_felt.py scripts, so every picture shows the
same deal. Saved with 255 colours (a third of the bytes).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

# The tests' shared helpers (tests/support), as pytest's `pythonpath` (pyproject.toml) puts them: tests/ first.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from PIL import Image
from playwright.sync_api import sync_playwright

from support.browser import CHROMIUM, CHROMIUM_ARGS, Server
from support.table_script import SIZES, open_table, sync


def main(out: Path, prefix: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    srv = Server(Path(tempfile.mkdtemp()))
    srv.start()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for size, (w, h) in SIZES.items():
                ctx = browser.new_context(viewport={"width": w, "height": h}, reduced_motion="reduce",
                                          bypass_csp=True, is_mobile=w < 600, has_touch=w < 600)
                page = ctx.new_page()
                open_table(page, srv, sync(4, dealer=0, xeris=[[["6H", False], ["QS", False]], []],
                                           captured_counts=[12, 6]), prefs={"seenAid": True})
                page.evaluate("document.activeElement && document.activeElement.blur()")
                path = out / f"{prefix}-{size}.png"
                page.screenshot(path=str(path), animations="disabled", caret="hide")
                Image.open(path).convert("RGB").quantize(colors=255, dither=Image.Dither.NONE).save(path, optimize=True)
                print(path)
                ctx.close()
            browser.close()
    finally:
        srv.stop()


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2])
