"""Saved matches: one record file per match, rewritten atomically after every move.

A saved file is a normal ``xeri.record`` document (so ``xeri replay`` reads
it) with one extra top-level key, ``"play"``, holding what ``xeri play`` needs
to continue: which seats are people, and each bot's level and seed. The record
reader ignores keys it does not know.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import record
from .errors import RecordError, XeriError
from .match import Match

PLAY_KEY = "play"


class SaveError(XeriError):
    """No saved match to continue, or a save file that cannot be used."""


@dataclass
class PlaySetup:
    """Who plays which seat: people (``humans``) and bots (seat -> level or bot spec)."""

    humans: tuple[int, ...]
    levels: dict[int, str]
    bot_seeds: dict[int, int]
    started: str = field(default_factory=lambda: _now())

    def to_dict(self) -> dict[str, Any]:
        return {
            "humans": list(self.humans),
            "bots": [{"seat": s, "level": self.levels[s], "seed": self.bot_seeds[s]} for s in sorted(self.levels)],
            "started": self.started,
            "updated": _now(),
        }

    @classmethod
    def from_dict(cls, data: Any) -> PlaySetup:
        try:
            bots = data["bots"]
            return cls(
                humans=tuple(int(s) for s in data["humans"]),
                levels={int(b["seat"]): str(b["level"]) for b in bots},
                bot_seeds={int(b["seat"]): int(b["seed"]) for b in bots},
                started=str(data.get("started", "")),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise SaveError(f"the saved match has a malformed {PLAY_KEY!r} section: {exc!r}") from None


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def new_save_path(folder: Path) -> Path:
    """A fresh file name that sorts by start time."""
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S")
    path = folder / f"{stamp}.json"
    n = 2
    while path.exists():
        path = folder / f"{stamp}-{n}.json"
        n += 1
    return path


def save(path: Path, match: Match, setup: PlaySetup) -> None:
    """Write the record: to a temporary file first, then rename it over the old one.

    The rename is atomic, so a crash mid-write leaves the previous save whole.
    """
    data = record.to_record(match)
    data[PLAY_KEY] = setup.to_dict()
    text = json.dumps(data, ensure_ascii=False, indent=1)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".tmp")
    except OSError as exc:
        raise SaveError(f"cannot save the match in {path.parent}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise SaveError(f"cannot save the match to {path}: {exc.strerror}") from None
        raise


def read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SaveError(f"cannot read {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise SaveError(f"{path} is not valid JSON: {exc.msg} at line {exc.lineno}") from None
    if not isinstance(data, dict):
        raise SaveError(f"{path} is not a xeri record")
    return data


def load(path: Path) -> tuple[Match, PlaySetup]:
    """Replay a saved match (checking every move) and its play setup."""
    data = read(path)
    if PLAY_KEY not in data:
        raise SaveError(f"{path} was not saved by xeri play, so it cannot be continued here")
    setup = PlaySetup.from_dict(data[PLAY_KEY])
    try:
        match = record.from_record(data)
    except RecordError as exc:
        raise SaveError(f"{path}: {exc}") from None
    return match, setup


def record_files(folder: Path) -> list[Path]:
    """Saved record files, newest first."""
    files = [p for p in folder.glob("*.json") if p.is_file()]
    return sorted(files, key=lambda p: (p.stat().st_mtime, p.name), reverse=True)


def newest_unfinished(folder: Path) -> Path:
    """The most recently saved ``xeri play`` match that is not over."""
    for path in record_files(folder):
        try:
            data = read(path)
        except SaveError:
            continue
        result = data.get("result")
        if PLAY_KEY in data and isinstance(result, dict) and not result.get("over"):
            return path
    raise SaveError(f"no unfinished match in {folder}; start one with: xeri play")
