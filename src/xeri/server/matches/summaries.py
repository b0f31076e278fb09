"""Finished matches: their summaries for the history list, and move-by-move replays.

Only finished matches are replayed here, so every hand may be shown.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

# Replays are built in the core (xeri.views), which the offline engine in the browser shares; here they are
# typed (and checked) as the schema's Replay.
from ... import views
from ...rules import Ruleset
from ..store import MatchRow
from ..wire.messages import Replay


def summary(row: MatchRow) -> dict[str, Any]:
    """One finished match as the history list shows it."""
    result = json.loads(row.result) if row.result else {}
    return {
        "id": row.id, "title": row.title or "", "names": json.loads(row.names) if row.names else [],
        # Through the rules, so a table stored before an option existed shows that option's default.
        "ruleset": Ruleset.from_dict(json.loads(row.ruleset)).to_dict(),
        "scores": result.get("scores"), "winner": result.get("winner"),
        "winners": result.get("winners", []), "rounds": result.get("rounds"),
        # Rounds won decide a match played to a number of rounds; bots are told apart by level, not by name.
        "round_wins": result.get("round_wins"), "bots": result.get("bots"),
        "finished_at": views.iso_time(row.finished_at) if row.finished_at else None,
        "end": result.get("end"),
    }


def replay_steps(record: dict[str, Any]) -> Replay:
    """Every step of a finished match: each round's deal, then each move, with the whole table shown."""
    return msgspec.convert(views.replay_steps(record), Replay)
