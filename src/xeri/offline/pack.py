"""The offline pack: Pyodide's runtime and standard library, and a wheel of this package's core and bots.

The wheel is built from the running package itself (the files next to this module), so the engine a browser
plays offline is always the server's own Python, never a copy that could drift. It holds the core, the views,
the bots (not the learned one: no NumPy in the pack, so no strong level), the review and this package, and
nothing that needs more than the standard library. It is built deterministically (fixed times, sorted names):
the same code gives the same bytes, and so the same pack version.

Pyodide's own files come from npm's ``pyodide`` package, installed beforehand (``scripts/test.sh`` does it;
``xeri serve --offline-pack DIR`` names its folder): nothing is downloaded when the server runs.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .. import __version__
from ..bots.registry import BOT_NEEDS, parse_spec
from .table import OFFLINE_LEVELS

#: the package's root folder, which the wheel is built from
PACKAGE = Path(__file__).resolve().parent.parent
#: the top-level modules in the wheel: the stdlib-only core, the views, the table's rules and the review
MODULES = ("__init__", "cards", "rules", "engine", "events", "scoring", "match", "record", "errors", "seeds",
           "notation", "saves", "fairness", "views", "table_rules", "review")
#: the packages in the wheel, and the modules of theirs left out (the learned bot needs NumPy)
PACKAGES: dict[str, tuple[str, ...]] = {"bots": ("learned",), "offline": ()}
#: Pyodide's files that the worker loads, from npm's ``pyodide`` package
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
#: the Pyodide release the worker is written and tested against (scripts/test.sh installs it)
PYODIDE_VERSION = "314.0.8"
#: a fixed time for every file of the wheel, so the same code gives the same bytes
EPOCH = (2024, 1, 1, 0, 0, 0)


class PackError(Exception):
    """The offline pack cannot be served: Pyodide's files are missing."""


def wheel_name() -> str:
    return f"xeri-{__version__}-py3-none-any.whl"


def wheel_sources() -> Iterator[tuple[str, Path]]:
    """(name in the wheel, file) of every module the wheel holds, sorted."""
    for name in MODULES:
        yield f"xeri/{name}.py", PACKAGE / f"{name}.py"
    for package, left_out in PACKAGES.items():
        for path in sorted((PACKAGE / package).glob("*.py")):
            if path.stem not in left_out:
                yield f"xeri/{package}/{path.name}", path


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def build_wheel() -> bytes:
    """The wheel's bytes: the modules, and a dist-info (METADATA, WHEEL, RECORD) naming them."""
    info = f"xeri-{__version__}.dist-info"
    files: list[tuple[str, bytes]] = [(name, path.read_bytes()) for name, path in wheel_sources()]
    files.append((f"{info}/METADATA", f"Metadata-Version: 2.1\nName: xeri\nVersion: {__version__}\n"
                  "Summary: Xeri's core and bots, for the browser's offline engine\n".encode()))
    files.append((f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: xeri.offline.pack\nRoot-Is-Purelib: true\n"
                  b"Tag: py3-none-any\n"))
    record = "".join(f"{name},sha256={_digest(data)},{len(data)}\n" for name, data in files)
    files.append((f"{info}/RECORD", (record + f"{info}/RECORD,,\n").encode()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files:
            entry = zipfile.ZipInfo(name, EPOCH)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            z.writestr(entry, data)
    return out.getvalue()


def pack_levels() -> list[str]:
    """The levels the pack's Python plays: those whose bot needs nothing beyond the standard library (the pack
    bundles no NumPy, so not strong)."""
    return [level for level, spec in OFFLINE_LEVELS.items() if parse_spec(spec)[0] not in BOT_NEEDS]


def pyodide_version(folder: Path) -> str | None:
    """The version npm's ``package.json`` in ``folder`` names, or None."""
    try:
        version = json.loads((folder / "package.json").read_text()).get("version")
    except (OSError, ValueError):
        return None
    return version if isinstance(version, str) else None


def check_pyodide(folder: Path) -> None:
    """PackError, saying what to install, unless ``folder`` holds Pyodide's files."""
    missing = [name for name in PYODIDE_FILES if not (folder / name).is_file()]
    if missing:
        raise PackError(f"{folder} is not Pyodide's folder (no {', '.join(missing)}): npm install "
                        f"pyodide@{PYODIDE_VERSION} and give its node_modules/pyodide")


def manifest(folder: Path, wheel: bytes) -> dict[str, Any]:
    """``/offline/pack.json``: the pack's version (a hash of its files), its files with their sizes, its levels."""
    check_pyodide(folder)
    files = [{"path": f"pyodide/{name}", "bytes": (folder / name).stat().st_size} for name in PYODIDE_FILES]
    files.append({"path": wheel_name(), "bytes": len(wheel)})
    # Pyodide's release and its files' sizes, not their times: two servers of one cluster give one version.
    hashed = hashlib.sha256(wheel)
    hashed.update(f"pyodide:{pyodide_version(folder)}".encode())
    for entry in files[:-1]:
        hashed.update(f"{entry['path']}:{entry['bytes']}".encode())
    return {"version": hashed.hexdigest()[:16], "xeri": __version__, "pyodide": pyodide_version(folder),
            "wheel": wheel_name(), "levels": pack_levels(), "numpy": False, "files": files,
            "bytes": sum(f["bytes"] for f in files)}
