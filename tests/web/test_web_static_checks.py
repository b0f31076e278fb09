"""The browser code is checked too: TypeScript's compiler type-checks the JS modules, ESLint lints them.

The page stays plain ES modules with no build step (docs/web.md): every module starts with ``// @ts-check``,
its types are JSDoc, and ``tsc --noEmit`` (tsconfig.json, strict) checks them; eslint.config.js runs ESLint's
recommended rules and holds lines to the project's 120 columns. Both tools are npm's packages at the exact
versions of package.json and package-lock.json, installed by scripts/test.sh (``npm ci`` into node_modules/);
nothing is downloaded here. Each checker is also shown a bad file, so a checker that passes everything fails.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "src" / "xeri" / "web" / "js"
BIN = ROOT / "node_modules" / ".bin"
MODULES = sorted(JS.rglob("*.js"))


def tool(name: str) -> Path:
    path = BIN / name
    assert path.is_file(), f"{name} is missing at {path}: scripts/test.sh installs the pinned checkers (npm ci)"
    return path


def run(*args: str | Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], cwd=ROOT, input=stdin, capture_output=True, text=True,
                          timeout=120)


def test_the_checkers_are_pinned_and_installed_at_those_versions() -> None:
    wanted = json.loads((ROOT / "package.json").read_text())["devDependencies"]
    assert {"typescript", "eslint", "@eslint/js", "@stylistic/eslint-plugin", "globals"} <= set(wanted)
    for name, version in wanted.items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"{name}@{version}: pin an exact version"
    lock = json.loads((ROOT / "package-lock.json").read_text())["packages"]
    assert lock[""]["devDependencies"] == wanted, "package-lock.json is stale: run npm install"
    for name, version in wanted.items():
        assert lock[f"node_modules/{name}"]["version"] == version
        installed = ROOT / "node_modules" / name / "package.json"
        assert installed.is_file(), f"{name} is missing: scripts/test.sh installs the pinned checkers (npm ci)"
        assert json.loads(installed.read_text())["version"] == version, f"{name}: run scripts/test.sh again"


def test_every_module_opts_into_type_checking() -> None:
    assert len(MODULES) > 10
    for module in MODULES:
        assert module.read_text().startswith("// @ts-check\n"), f"{module.name} does not start with // @ts-check"
    listed = run(tool("tsc"), "-p", "tsconfig.json", "--listFilesOnly")
    assert listed.returncode == 0, listed.stdout + listed.stderr
    checked = {Path(line.strip()) for line in listed.stdout.splitlines()}
    assert set(MODULES) <= checked, set(MODULES) - checked


def test_the_modules_type_check() -> None:
    out = run(tool("tsc"), "-p", "tsconfig.json")
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_modules_lint_clean_within_the_width() -> None:
    out = run(tool("eslint"), "--max-warnings", "0", "src/xeri/web/js")
    assert out.returncode == 0, out.stdout + out.stderr


def test_tsc_rejects_a_wrong_type_and_an_untyped_parameter(tmp_path: Path) -> None:
    # The project's own settings (strict) on a file with two mistakes.
    (tmp_path / "tsconfig.json").write_text(json.dumps({"extends": str(ROOT / "tsconfig.json"),
                                                        "include": ["bad.js"]}))
    (tmp_path / "bad.js").write_text('// @ts-check\n/** @type {number} */\nexport const n = "one";\n'
                                     "export function twice(x) {\n  return x * 2;\n}\n")
    out = run(tool("tsc"), "-p", tmp_path / "tsconfig.json")
    assert out.returncode != 0
    assert "TS2322" in out.stdout, out.stdout  # a string where a number is declared
    assert "TS7006" in out.stdout, out.stdout  # a parameter with no type (strict's noImplicitAny)


def test_eslint_rejects_a_bad_module() -> None:
    # Linted as if it were a module of the page, without writing it there: one run, three mistakes.
    source = f'const unused = 1;\nexport const x = undefinedName;\nexport const long = "{"x" * 120}";\n'
    out = run(tool("eslint"), "--stdin", "--stdin-filename", "src/xeri/web/js/bad.js", stdin=source)
    assert out.returncode == 1, out.stdout + out.stderr
    for rule in ["no-unused-vars", "no-undef", "@stylistic/max-len"]:
        assert rule in out.stdout, out.stdout
