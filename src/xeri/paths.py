"""Where xeri keeps saved matches and its database: the user's data directory.

``XERI_DATA_DIR`` overrides it (tests use this), and commands take ``--data-dir``.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The data directory, created if missing."""
    chosen = override or os.environ.get("XERI_DATA_DIR") or platformdirs.user_data_dir("xeri", appauthor=False)
    path = Path(chosen).expanduser()
    path.mkdir(parents=True, exist_ok=True)
    return path


def matches_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The folder of saved match records (one JSON file per match)."""
    path = data_dir(override) / "matches"
    path.mkdir(parents=True, exist_ok=True)
    return path
