"""The page's static files: they ship in the package, and every file they load exists.

These need no browser; tests/web/test_web.py drives the page itself.
"""

from __future__ import annotations

import re
import tomllib
from importlib.resources import files
from pathlib import Path

WEB = Path(str(files("xeri"))) / "web"
ROOT = Path(__file__).resolve().parents[2]


def test_the_page_ships_inside_the_package() -> None:
    assert (WEB / "index.html").is_file()
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["xeri"]
    assert "web/**/*" in package_data
    # No front-end build: no bundler output, no package.json the install would need.
    assert not (WEB / "package.json").exists()


def test_every_module_and_stylesheet_the_page_loads_exists() -> None:
    html = (WEB / "index.html").read_text()
    loaded = re.findall(r'(?:src|href)="/static/([^"]+)"', html)
    assert "js/app.js" in loaded and "css/style.css" in loaded
    for rel in loaded:
        assert (WEB / rel).is_file(), rel
    js = WEB / "js"
    modules = sorted(js.rglob("*.js"))
    # The modules sit in rooms by concern (after lichess's ui/round); only the entry point and the service worker
    # (whose URL scopes it to the whole page) stay at the top.
    assert {m.relative_to(js).parts[0] for m in modules if m.parent != js} == {"lib", "net", "table", "pages",
                                                                                "offline"}
    assert {m.name for m in modules if m.parent == js} == {"app.js", "sw.js"}
    imported: set[str] = {"app.js"}
    for module in modules:
        # Static imports (a bare one too: import "./ratingstrings.js"), and the modules loaded when first needed
        # (import("./engine.js")); JSDoc's type imports ({import("../protocol.js").Table}: protocol.d.ts, no
        # module) are no loads.
        text = module.read_text()
        found = re.findall(r'^import (?:[^;]* from )?"(\.\.?/[^"]+)";$', text, flags=re.M)
        found += re.findall(r'import\("(\.\.?/[^"]+)"\)', re.sub(r"/\*.*?\*/", "", text, flags=re.S))
        for target in found:
            path = (module.parent / target).resolve()
            assert path.is_file(), f"{module.relative_to(js)} imports a missing {target}"
            imported.add(path.relative_to(js).as_posix())
    # The two scripts that are no modules of the page but run beside it, each at the URL the page names: the
    # service worker (registered by offline/pack.js, served as /sw.js) and the offline engine's Web Worker (started by
    # offline/engine.js, served as /offline/worker.js).
    workers = {"sw.js": ("offline/pack.js", 'register("/sw.js"'),
               "offline/worker.js": ("offline/engine.js", 'new Worker("/offline/worker.js"')}
    for name, (starter, started) in workers.items():
        assert (js / name).is_file() and started in (js / starter).read_text(), name
    server = next(p for p in (ROOT / "src" / "xeri" / "server").rglob("*.py") if '"js" / "sw.js"' in p.read_text())
    assert '"js" / "offline" / "worker.js"' in server.read_text()
    # The type-only modules (JSDoc typedefs, no code) are named by the checker's type imports, not loaded.
    types_only = {m.relative_to(js).as_posix() for m in modules
                  if re.sub(r"/\*.*?\*/|//[^\n]*", "", m.read_text(), flags=re.S).split() == ["export", "{};"]}
    assert types_only == {"net/types.js"}
    # Every module is used by the page (nothing left over).
    assert {m.relative_to(js).as_posix() for m in modules} == imported | workers.keys() | types_only


def test_every_language_has_every_string() -> None:
    source = (WEB / "js" / "lib/i18n.js").read_text()
    blocks = re.search(r"const STRINGS = \{\s*en: \{(.*?)\n  \},\s*el: \{(.*?)\n  \},\s*tr: \{(.*?)\n  \},\n\};",
                       source, flags=re.S)
    assert blocks, "lib/i18n.js keeps STRINGS = { en: {...}, el: {...}, tr: {...} }"
    keys = [set(re.findall(r"(\w+): \"", block)) for block in blocks.groups()]
    assert keys[0] == keys[1], keys[0] ^ keys[1]
    assert keys[0] == keys[2], keys[0] ^ keys[2]
    # Every key the modules ask for is defined.
    used: set[str] = set()
    for module in (WEB / "js").rglob("*.js"):
        used |= set(re.findall(r"\btn?\(\"(\w+)\"", module.read_text()))
    used |= set(re.findall(r'data-i18n(?:-title|-placeholder|-aria)?="(\w+)"', (WEB / "index.html").read_text()))
    assert {"title", "lobby", "four_colour"} <= used
    # The strings of views loaded when first needed (pages/ratingstrings.js: the ratings, the leaderboards) keep the
    # same three tables, every language with every key, and no key of lib/i18n.js's own.
    lazy = (WEB / "js" / "pages/ratingstrings.js").read_text()
    more = [set(re.findall(r"(\w+): \"", m)) for m in (re.search(rf"\n  {lang}: \{{(.*?)\n  \}},", lazy,
                                                                 flags=re.S)[1] for lang in ("en", "el", "tr"))]
    assert {"ratings", "leaderboard", "rating_change"} <= more[0]
    assert more[0] == more[1] == more[2], (more[0] ^ more[1], more[0] ^ more[2])
    assert not more[0] & keys[0], more[0] & keys[0]
    # A counted string (issue 39) is its forms, key_one and key_other, each in every language.
    counted = {k.removesuffix("_other") for k in keys[0] | more[0] if k.endswith("_other")}
    assert used <= keys[0] | more[0] | counted, used - keys[0] - more[0] - counted
    assert all(f"{k}_one" in keys[0] | more[0] for k in counted), counted
