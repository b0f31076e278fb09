"""The page's accessibility checks: axe-core (pinned by scripts/test.sh, ``XERI_AXE_JS`` names its
``axe.min.js``) run on a page as it is, and the contrast of every visible text against its real background."""

from __future__ import annotations

import os
import re
from pathlib import Path

from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]
AXE_PIN = re.search(r"^AXE_VERSION=(\S+)$", (ROOT / "scripts/test.sh").read_text(), flags=re.M)
AXE_DIR = ROOT / f".cache/axe-{AXE_PIN and AXE_PIN[1]}"
AXE = Path(os.environ.get("XERI_AXE_JS", AXE_DIR / "node_modules/axe-core/axe.min.js"))
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


# Each visible text's colour against the real colours behind it: the element's own and its ancestors' background
# colours composited upwards to the first opaque one, a gradient counted by each of its colour stops (the felt),
# the text's colour and the opacities above it composited over that. Returns the texts under 4.5:1, the worst
# first. Disabled controls (WCAG exempts them) and the cards' own SVG drawings are left out.
LOW_CONTRAST = """(minimum) => {
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat([1]);
  const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const backgrounds = (el) => {
    const layers = [];
    for (let n = el; n; n = n.parentElement) {
      const st = getComputedStyle(n);
      const stops = (st.backgroundImage.match(/rgba?\\([^)]+\\)/g) || []).map(parse);
      const colour = parse(st.backgroundColor);
      if (stops.length) {
        // A gradient over the element's own colour (or white): each stop is a background the text may sit on.
        const under = colour && colour[3] > 0 ? over(colour, [255, 255, 255, 1]) : [255, 255, 255, 1];
        return stops.map((s) => layers.reduceRight((acc, l) => over(l, acc), over(s, under)));
      }
      if (colour && colour[3] >= 1) return [layers.reduceRight((acc, l) => over(l, acc), colour)];
      if (colour && colour[3] > 0) layers.push(colour);
    }
    return [layers.reduceRight((acc, l) => over(l, acc), [255, 255, 255, 1])];
  };
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const el = t.parentElement;
    if (!t.textContent.trim() || !el || !el.getClientRects().length) continue;
    if (el.closest('svg, .sr-only, script, style, noscript, [disabled], [aria-disabled=true], [hidden]')) continue;
    const st = getComputedStyle(el);
    if (st.visibility === 'hidden') continue;
    if (el.closest('details:not([open])') && !el.closest('summary')) continue;
    let alpha = 1;
    for (let n = el; n; n = n.parentElement) alpha *= Number(getComputedStyle(n).opacity);
    if (alpha === 0) continue;
    const ink = parse(st.color);
    ink[3] *= alpha;
    const worst = Math.min(...backgrounds(el).map((bg) => ratio(over(ink, bg), bg)));
    const what = el.className && typeof el.className === 'string' ? el.className : el.tagName;
    if (worst < minimum) out.push([Math.round(worst * 100) / 100, t.textContent.trim().slice(0, 40), what]);
  }
  return out.sort((a, b) => a[0] - b[0]);
}"""


def axe(page: Page, screen: str) -> None:
    """Run axe-core on the page as it is; fail with every violation's rule and nodes."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags}, "
                           "resultTypes: ['violations']})", TAGS)
    found = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:4]) for v in result["violations"]]
    assert found == [], f"{screen}: {found}"
