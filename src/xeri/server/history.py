"""Finished matches: their summaries for the history list, and move-by-move replays.

Only finished matches are replayed here, so every hand may be shown.
"""

from __future__ import annotations

import json
import time
from typing import Any

# Replays are built in the core (xeri.views), which the offline engine in the browser shares.
from ..views import replay_steps
from .store import MatchRow

__all__ = ["replay_steps", "summary"]


def summary(row: MatchRow) -> dict[str, Any]:
    """One finished match as the history list shows it."""
    result = json.loads(row.result) if row.result else {}
    return {
        "id": row.id, "title": row.title or "", "names": json.loads(row.names) if row.names else [],
        "ruleset": json.loads(row.ruleset), "scores": result.get("scores"), "winner": result.get("winner"),
        "winners": result.get("winners", []), "rounds": result.get("rounds"),
        # Rounds won decide a match played to a number of rounds; bots are told apart by level, not by name.
        "round_wins": result.get("round_wins"), "bots": result.get("bots"),
        "finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(row.finished_at))
        if row.finished_at else None,
    }
