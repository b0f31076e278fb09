"""The table's rules (``xeri.table_rules``), which the server and the offline engine both ask: each refusal as data,
in the protocol's order, the pause between rounds, and the TABLE they both send (tests/offline compares the two
runtimes' messages end to end; here the rules stand alone, on a plain table)."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

import pytest

from xeri import table_rules as rules
from xeri.cards import Card
from xeri.engine import Round
from xeri.events import RoundScored
from xeri.match import Match
from xeri.rules import Ruleset, find_ruleset
from xeri.table_rules import Refusal, RoundPause


@dataclass
class PlainTable:
    """The least a table is (``table_rules.Table``): two players, seat 0 a person, every field plain."""

    match: Match | None
    ruleset: Ruleset = field(default_factory=lambda: find_ruleset("classic", rounds=2))
    status: str = "playing"
    version: int = 0
    pause: RoundPause = field(default_factory=RoundPause)
    left: set[int] = field(default_factory=set)
    takebacks: bool = True
    id: str = "t1"
    title: str = ""
    created_at: float = 0.0
    finished_at: float | None = None
    turn_timer: float | None = None
    takeover_after: float | None = None
    takeover_level: str = "easy"
    private: bool = False

    def has_left(self, seat: int) -> bool:
        return seat in self.left

    def takeback_allowed(self) -> bool:
        return self.takebacks


def table(seed: int = 3) -> PlainTable:
    ruleset = find_ruleset("classic", rounds=2)
    return PlainTable(Match(ruleset, seed=seed, names=["Ada", "Bo"]), ruleset)


def code(verdict: object) -> str | None:
    return verdict.code if isinstance(verdict, Refusal) else None


def test_a_move_is_refused_in_the_protocols_order_and_the_refusal_carries_the_version() -> None:
    t = table()
    assert t.match is not None
    turn = t.match.turn
    assert turn is not None
    other = 1 - turn
    card = t.match.legal_moves[0]
    assert rules.verify_move(t, turn, card.code, 0) == card
    assert code(rules.verify_move(t, None, card.code, 0)) == "spectator"
    assert code(rules.verify_move(PlainTable(None, status="waiting"), 0, card.code, 0)) == "not_started"
    assert rules.verify_move(PlainTable(t.match, status="closed"), turn, card.code, 0) == \
        Refusal("game_over", "this table was closed")
    assert rules.verify_move(t, turn, card.code, 4) == \
        Refusal("stale", "the move was made at version 4, but the table is at 0", 0)
    assert code(rules.verify_move(t, other, card.code, 0)) == "not_your_turn"
    assert code(rules.verify_move(t, turn, "XX", 0)) == "bad_card"
    held = {c.code for c in t.match.view(turn).hand}
    assert code(rules.verify_move(t, turn, next(c for c in ("2C", "3D", "4H", "5S", "6C") if c not in held), 0)) \
        == "illegal_move"
    # A left seat and the pause hold back the person, never the computer playing for the seat.
    t.left.add(turn)
    assert code(rules.verify_move(t, turn, card.code, 0)) == "left"
    assert rules.verify_move(t, turn, card.code, 0, auto=True) == card
    t.left.clear()
    t.pause.waiting, t.pause.until = {0}, time.monotonic() + 60
    paused = rules.verify_move(t, turn, card.code, 0)
    assert isinstance(paused, Refusal) and paused.code == "round_pause" and paused.extra() == {"version": 0}
    assert rules.verify_move(t, turn, card.code, 0, auto=True) == card


def test_a_takeback_is_refused_as_data_and_allowed_once_the_person_has_played() -> None:
    t = table()
    assert t.match is not None
    assert code(rules.verify_takeback(t, None, 0)) == "spectator"
    assert code(rules.verify_takeback(PlainTable(t.match, takebacks=False), 0, 0)) == "no_takebacks"
    while t.match.turn != 0:
        t.match.play(t.match.legal_moves[0])
        t.version += 1
    assert code(rules.verify_takeback(t, 0, t.version)) == "nothing_to_take_back"
    assert not rules.can_take_back(t, 0)
    t.match.play(t.match.legal_moves[0])
    t.match.play(t.match.legal_moves[0])
    t.version += 2
    assert rules.verify_takeback(t, 0, t.version) == 2 and rules.can_take_back(t, 0)
    assert code(rules.verify_takeback(t, 0, t.version - 1)) == "stale"
    assert not rules.can_take_back(t, None)


def test_the_pause_holds_the_next_round_for_its_readers_until_they_close_it() -> None:
    t = table()
    assert t.match is not None
    while not any(isinstance(e, RoundScored) for e in t.match.events):
        assert not t.pause.on()  # a move that scores no round pauses nothing
        events = t.match.play(t.match.legal_moves[0])
        t.pause.after(t.match, events, [0], time.monotonic())
    assert t.pause.on() and t.pause.waiting == {0}
    shown = t.pause.shown()
    assert shown is not None and shown["waiting"] == [0] and 0 < shown["remaining"] <= rules.ROUND_PAUSE
    assert not t.pause.ready(1) and t.pause.ready(0)
    assert not t.pause.on() and t.pause.shown() is None and t.pause.left(time.monotonic()) == 0.0
    # Nobody to wait for: no pause at all.
    nobody = RoundPause()
    nobody.after(t.match, t.match.events, [], time.monotonic())
    assert not nobody.on()


def test_the_table_info_is_the_protocols_table() -> None:
    t = table()
    seats = [rules.seat_info(t.ruleset, s, name=n, bot=None if s == 0 else "easy", human=s == 0)
             for s, n in enumerate(["Ada", "Bo"])]
    info = rules.table_info(t, seats, offline=True)
    assert info["invite"] == "/#/t/t1" and info["created_at"] == "1970-01-01T00:00:00Z"
    assert info["finished_at"] is None and info["free_seats"] == [] and info["scores"] == [0, 0]
    assert info["seats"][1] == {"seat": 1, "side": 1, "name": "Bo", "bot": "easy", "human": False, "taken": True,
                                "connected": True, "away": False}
    assert info["pause"] is None and info["takebacks"] is True and info["offline"] is True
    assert rules.table_info(PlainTable(None), [])["scores"] == [0, 0]


def test_a_move_and_a_takeback_the_rules_allowed_are_applied_without_a_second_check(monkeypatch: Any) -> None:
    """The rules check once (issue 40): ``play_allowed`` and ``retract`` take the verdict as it is, the engine's own
    checks (``Round.play``, ``Match.takeback_run``) are not run again, and a whole match ends as ``play`` ends it."""
    checked, trusted = table(seed=5), table(seed=5)
    assert checked.match is not None and trusted.match is not None
    rng = random.Random(2)
    while not checked.match.is_over:
        card = rng.choice(checked.match.legal_moves)
        allowed = rules.verify_move(trusted, trusted.match.turn, card.code, 0)
        assert isinstance(allowed, Card)
        assert trusted.match.play_allowed(allowed) == checked.match.play(card)
    assert trusted.match.scores == checked.match.scores and trusted.match.events == checked.match.events
    t = table()
    assert t.match is not None
    while t.match.turn != 0:
        t.match.play(t.match.legal_moves[0])
    t.match.play(t.match.legal_moves[0])
    count = rules.verify_takeback(t, 0, 0)
    assert count == 1
    monkeypatch.setattr(Match, "takeback_run", lambda *_: pytest.fail("walked twice"))
    monkeypatch.setattr(Round, "play", lambda *_: pytest.fail("checked twice"))
    assert t.match.retract(0, count).seat == 0 and t.match.turn == 0
    t.match.play_allowed(t.match.legal_moves[0])
