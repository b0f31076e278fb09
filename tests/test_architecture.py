"""The core imports only the standard library and other core modules."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

CORE = ["cards", "rules", "engine", "events", "scoring", "match", "record", "errors", "seeds", "notation", "saves"]
SRC = Path(__file__).resolve().parents[1] / "src" / "xeri"


def imports_of(module: str) -> set[str]:
    tree = ast.parse((SRC / f"{module}.py").read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level and node.module:
                names.add("." + node.module)
            elif node.level:
                names.update("." + alias.name for alias in node.names)
            else:
                names.add(node.module or "")
    return names


def test_core_uses_only_stdlib_and_core() -> None:
    for module in CORE:
        for name in imports_of(module):
            if name.startswith("."):
                assert name[1:].split(".")[0] in CORE, f"{module} imports {name}, outside the core"
            else:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names, f"{module} imports {name}, not in the standard library"
