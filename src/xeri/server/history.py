"""Finished matches: their summaries for the history list, and move-by-move replays.

Only finished matches are replayed here, so every hand may be shown.
"""

from __future__ import annotations

import dataclasses
import json
import time
from typing import Any

import msgspec

from ..engine import Round
from ..events import RoundStarted
from ..match import Match
from ..record import deal_from_dict
from ..rules import Ruleset
from . import messages
from .messages import Replay, Step, View
from .store import MatchRow
from .table.views import event_json, full_state_json


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
        "finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(row.finished_at))
        if row.finished_at else None,
    }


def _state(match: Match, rnd: Round) -> View:
    view = dataclasses.replace(rnd.view(None), match_scores=tuple(match.scores), round_wins=tuple(match.round_wins),
                               round_number=match.rounds.index(rnd) + 1, target=match.target, names=match.names)
    hands = [rnd.hand(s) for s in range(match.ruleset.players)]
    return full_state_json(view, hands, rnd.pile, winner=match.winner, match_over=match.is_over)


def replay_steps(record: dict[str, Any]) -> Replay:
    """Every step of a finished match: each round's deal, then each move, with the whole table shown."""
    ruleset = Ruleset.from_dict(record["ruleset"])
    names = [s["name"] for s in record["seats"]]
    deals = [deal_from_dict(r["deal"]) for r in record["rounds"]]
    match = Match(ruleset, seed=record.get("seed") or 0, names=names, first_dealer=record.get("first_dealer", 0),
                  deals=deals)
    first = Step(round=1, seat=None, card=None, events=[event_json(e) for e in match.events],
                 state=_state(match, match.round))
    steps = [first]
    for r in record["rounds"]:
        for code in r["moves"]:
            rnd, seat = match.round, match.turn
            number = len(match.rounds)
            events = match.play(code)
            split = next((i for i, e in enumerate(events) if isinstance(e, RoundStarted)), len(events))
            steps.append(Step(round=number, seat=seat, card=code, events=[event_json(e) for e in events[:split]],
                              state=_state(match, rnd)))
            if split < len(events):
                steps.append(Step(round=number + 1, seat=None, card=None,
                                  events=[event_json(e) for e in events[split:]], state=_state(match, match.round)))
    table = record.get("table") or {}
    levels = table.get("bots") or {}
    bots = [levels.get(str(s)) for s in range(ruleset.players)]
    return Replay(id=table.get("id"), names=names, bots=bots,
                  ruleset=msgspec.convert(ruleset.to_dict(), messages.Ruleset), steps=steps)

