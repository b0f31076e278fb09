"""The offline engine as the browser's Web Worker calls it: JSON text in, JSON text out.

``web/js/offline/worker.js`` loads Pyodide and this package's wheel, then calls these functions with strings
and numbers only, so nothing but text crosses between JavaScript and Python. Messages come back as the
server's texts (``json.dumps`` with ``ensure_ascii=False``), one a line: ``json.dumps`` never writes a raw
newline, and the page parses each text as it parses a WebSocket frame (a 64-bit seed is a string of digits, as
the server sends it).

A refusal (a bad saved table, a bad request) is the protocol's error message, never a traceback.
"""

from __future__ import annotations

import json
import time
from typing import Any

from .. import __version__, fairness
from ..errors import XeriError
from ..record import deal_from_dict, deal_to_dict
from ..review import MoveReview, ReviewPlan, plan_review
from ..rules import Ruleset, find_ruleset
from ..views import replay_steps
from .table import BOT_DELAY, OFFLINE_LEVELS, OfflineError, OfflineTable, error, offline_levels

#: the open tables, by id
TABLES: dict[str, OfflineTable] = {}
#: the reviews being built, by (match id, seat): the plan and the moves weighed so far
REVIEWS: dict[tuple[str, int], tuple[ReviewPlan, list[MoveReview]]] = {}


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _lines(messages: list[dict[str, Any]]) -> str:
    return "\n".join(_text(m) for m in messages)


def about() -> str:
    """What this engine plays: its levels (strong only with NumPy), its version."""
    return _text({"version": __version__, "levels": offline_levels(), "specs": OFFLINE_LEVELS})


def new_table(body: str, hooks: str = "{}") -> str:
    """Open a new table from a create request (``OfflineTable.create``); answers ``{"id"}`` or an error.

    ``hooks`` may give ``table_id``, ``match_seed``, ``salt_key`` (a test that plays the server's match) and
    ``bot_delay`` (seconds between bot moves)."""
    try:
        given = json.loads(hooks)
        table = OfflineTable.create(json.loads(body), table_id=given.get("table_id"),
                                    match_seed=given.get("match_seed"), salt_key=given.get("salt_key"),
                                    bot_delay=float(given.get("bot_delay", BOT_DELAY)))
    except OfflineError as exc:
        return _text(error(exc.code, exc.message))
    except (ValueError, TypeError, AttributeError) as exc:
        return _text(error("bad_request", f"a new table is a JSON object: {exc}"))
    TABLES[table.id] = table
    return _text({"id": table.id})


def open_saved(state: str, bot_delay: float = BOT_DELAY) -> str:
    """Open a saved table (its ``state``), replayed; answers ``{"id"}`` or an error."""
    try:
        table = OfflineTable.from_state(json.loads(state), bot_delay=bot_delay)
    except OfflineError as exc:
        return _text(error(exc.code, exc.message))
    except ValueError as exc:
        return _text(error("bad_state", f"the saved table is not JSON: {exc}"))
    TABLES[table.id] = table
    return _text({"id": table.id})


def _table(table_id: str) -> OfflineTable:
    table = TABLES.get(table_id)
    if table is None:
        raise OfflineError("no_such_table", f"there is no offline table {table_id[:40]!r}")
    return table


def handle(table_id: str, message: str) -> str:
    """The answers to one socket message of the page, one text a line."""
    try:
        table = _table(table_id)
        data = json.loads(message)
    except OfflineError as exc:
        return _text(error(exc.code, exc.message))
    except ValueError:
        return _text(error("bad_json", "the message is not JSON"))
    return _lines(table.handle(data))


def bot_wait(table_id: str) -> float:
    """Seconds until a bot moves at the table, or -1 when no bot will."""
    table = TABLES.get(table_id)
    wait = table.bot_wait() if table is not None else None
    return -1.0 if wait is None else wait


def bot_move(table_id: str) -> str:
    """The messages of the next bot move, one text a line ("" when no bot is to play)."""
    table = TABLES.get(table_id)
    return "" if table is None else _lines(table.bot_move())


def state(table_id: str) -> str:
    """What the browser keeps of the table (``state``: its JSON text, whose 64-bit seeds JavaScript's numbers would
    round), and its summary for the history list: ``{"state", "summary", "over"}``."""
    table = _table(table_id)
    return _text({"state": _text(table.state()), "summary": table.summary(), "over": table.match.is_over})


def info(table_id: str) -> str:
    """The table's TABLE object, or an error's text."""
    try:
        return _text(_table(table_id).info())
    except OfflineError as exc:
        return _text(error(exc.code, exc.message))


def record(table_id: str) -> str:
    """The finished match's record text, the server's bytes; an error's text before the end."""
    try:
        return _table(table_id).record_text()
    except OfflineError as exc:
        return _text(error(exc.code, exc.message))


def close(table_id: str) -> None:
    TABLES.pop(table_id, None)


def replay(record_text: str) -> str:
    """A finished match's replay (``GET /api/matches/{id}/replay``) from its record."""
    try:
        return _text(replay_steps(json.loads(record_text)))
    except (XeriError, KeyError, TypeError, ValueError) as exc:
        return _text(error("bad_record", f"the record cannot be replayed: {exc}"))


def review(match_id: str, record_text: str, seat: int, moves: int = 1) -> str:
    """The review of one seat (``GET /api/matches/{id}/review``) by the offline master: each call weighs up to
    ``moves`` more moves and answers the progress, ``{"state": "done", ..., "review"}`` at the end."""
    key = (match_id, seat)
    try:
        if key not in REVIEWS:
            REVIEWS[key] = (plan_review(json.loads(record_text), seat, level=OFFLINE_LEVELS["master"]), [])
        plan, done = REVIEWS[key]
        for task in plan.tasks[len(done):len(done) + max(moves, 0)]:
            done.append(task.run())
    except (XeriError, KeyError, TypeError, ValueError) as exc:
        REVIEWS.pop(key, None)
        return _text(error("bad_request", str(exc)))
    total = len(plan.tasks)
    if len(done) < total:
        return _text({"state": "running", "done": len(done), "total": total})
    return _text({"state": "done", "done": total, "total": total, "review": plan.assemble(done).to_dict()})


def verify(body: str) -> str:
    """One round's fairness check (``POST /api/verify`` of a round), offline."""
    try:
        data = json.loads(body)
        ruleset = data.get("ruleset", "classic")
        rules = find_ruleset(ruleset) if isinstance(ruleset, str) else Ruleset.from_dict(ruleset)
        dealer = data["dealer"]
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < rules.players:
            raise OfflineError("bad_request", "give ruleset, dealer (a seat), seed (an integer), salt and commitment")
        deal = deal_from_dict(data["deal"]) if data.get("deal") is not None else None
        check = fairness.verify_round(rules, dealer, int(data["seed"]), str(data["salt"]), str(data["commitment"]),
                                      deal, data.get("round"))
    except OfflineError as exc:
        return _text(error(exc.code, exc.message))
    except (XeriError, KeyError, TypeError, AttributeError, ValueError, OverflowError) as exc:
        return _text(error("bad_request", str(exc)))
    return _text({"ok": check.ok, "detail": check.detail,
                  "rounds": [{"round": check.round, "ok": check.ok, "detail": check.detail}],
                  "deal": deal_to_dict(check.deal) if check.deal else None})


def time_level(level: str, matches: int = 3, seed: int = 0) -> str:
    """Seconds per bot move of ``level`` here (benchmarks/web_offline.py runs it under Pyodide in Chromium): one-round
    2-player classic matches, the person playing its first legal card; ``{"level", "moves", "seconds": [...]}``."""
    seconds: list[float] = []
    for k in range(matches):
        table = OfflineTable.create({"ruleset": "classic", "options": {"rounds": 1}, "seats": [None, {"bot": level}]},
                                    table_id=f"offline-bench-{k}", match_seed=seed + k, salt_key="0" * 64,
                                    bot_delay=0)
        while not table.match.is_over:
            if table.match.turn == table.me:
                table.move(table.me, table.match.legal_moves[0].code, table.version)
                table.pause.waiting.clear()
            else:
                start = time.perf_counter()
                table.bot_move()
                seconds.append(time.perf_counter() - start)
                table.pause.waiting.clear()
    return _text({"level": level, "moves": len(seconds), "seconds": seconds})
