"""Takebacks (issue 29): what ``Match.take_back`` retracts, its refusals, and the record that keeps the move and its
retraction (``xeri.record``), which ``xeri verify`` checks (``xeri.fairness``)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from xeri import fairness, record
from xeri.errors import RecordError, TakebackError
from xeri.events import Played
from xeri.match import Match
from xeri.rules import find_ruleset
from xeri.views import Commitments

ME = 0


def fresh(seed: int = 7, players: int = 2, **options: Any) -> Match:
    names = [f"P{i}" for i in range(players)]
    return Match(find_ruleset("classic", players=players, **options), seed=seed, names=names)


def play_to_my_turn(match: Match, rng: random.Random) -> None:
    while match.turn != ME:
        match.play(rng.choice(match.legal_moves))


def test_take_back_retracts_my_card_and_the_replies_after_it() -> None:
    match = fresh()
    rng = random.Random(1)
    play_to_my_turn(match, rng)
    before_hand, before_pile, before_log = match.round.hand(ME), match.round.pile, match.events
    mine = match.legal_moves[0]
    match.play(mine)
    reply = match.legal_moves[0]
    match.play(reply)
    assert match.takeback_run(ME) == 2 and match.takeback_run(1) == 1
    taken = match.take_back(ME)
    assert taken.seat == ME and taken.cards == (mine, reply) and taken.round == 1
    assert match.turn == ME and match.round.hand(ME) == before_hand and match.round.pile == before_pile
    assert match.events == before_log  # as if the two cards had not been played
    assert match.takebacks == [taken]
    # The deal is the same: the game goes on from it, and the same card again makes the same position.
    match.play(mine)
    assert match.round.played[-1] == (ME, mine)


def test_takebacks_in_a_row_go_back_card_by_card() -> None:
    match = fresh(seed=11)
    rng = random.Random(2)
    play_to_my_turn(match, rng)
    first = match.legal_moves[-1]
    match.play(first)
    play_to_my_turn(match, rng)
    second = match.legal_moves[0]
    match.play(second)
    assert match.take_back(ME).cards[0] == second
    assert match.take_back(ME).cards[0] == first
    with pytest.raises(TakebackError) as nothing:
        match.take_back(ME)
    assert nothing.value.code == "nothing_to_take_back"


def test_refusals_name_why() -> None:
    match = fresh(seed=3)
    rng = random.Random(3)
    with pytest.raises(TakebackError, match="no card in this hand") as nothing:
        match.take_back(ME)
    assert nothing.value.code == "nothing_to_take_back"
    with pytest.raises(TakebackError) as bad:
        match.take_back(5)
    assert bad.value.code == "bad_seat"
    # Play to the next round: the last round's cards stay played.
    rounds = len(match.rounds)
    while len(match.rounds) == rounds:
        match.play(rng.choice(match.legal_moves))
    with pytest.raises(TakebackError, match="round of your last card is over") as over:
        match.take_back(ME)
    assert over.value.code == "round_over"
    while not match.is_over:
        match.play(rng.choice(match.legal_moves))
    with pytest.raises(TakebackError) as done:
        match.take_back(ME)
    assert done.value.code == "game_over"


def test_a_new_hand_stops_a_takeback_for_either_seat() -> None:
    match = fresh(seed=5)
    rng = random.Random(5)
    # The hand's last card by seat 1 deals the next hands: seat 1's card is then behind a deal.
    for _ in range(2 * match.ruleset.hand_size):  # the first hands, to their last card
        match.play(rng.choice(match.legal_moves))
    assert len(match.round.hand(0)) == match.ruleset.hand_size
    for seat in (0, 1):
        with pytest.raises(TakebackError) as refused:
            match.take_back(seat)
        assert refused.value.code == "new_hand"


def played_with_takebacks(seed: int = 9, players: int = 2) -> Match:
    """A finished match in which seat 0 took back now and then (three times, the first in round 1)."""
    match = fresh(seed=seed, players=players, rounds=2, match_end="rounds")
    rng = random.Random(seed)
    taken = 0
    while not match.is_over:
        if match.turn == ME and taken < 3 and rng.random() < 0.3:
            try:
                match.take_back(ME)
                taken += 1
                continue
            except TakebackError:
                pass
        match.play(rng.choice(match.legal_moves))
    assert taken == 3 and match.takebacks[0].round == 1
    return match


def test_the_record_keeps_the_moves_and_their_retraction() -> None:
    match = played_with_takebacks()
    data = record.to_record(match)
    assert data["version"] == record.TAKEBACK_VERSION
    entries = [e for r in data["rounds"] for e in r["moves"] if isinstance(e, dict)]
    assert [(e["seat"], e["takeback"]) for e in entries] == [(t.seat, [c.code for c in t.cards])
                                                             for t in match.takebacks]
    # Each takeback follows the cards it retracts, in the order they were played.
    first = next(r["moves"] for r in data["rounds"] if any(isinstance(e, dict) for e in r["moves"]))
    at = next(k for k, e in enumerate(first) if isinstance(e, dict))
    assert first[at - len(first[at]["takeback"]):at] == first[at]["takeback"]
    again = record.from_record(json.loads(json.dumps(data)))
    assert record.to_record(again) == data
    assert [r.moves for r in again.rounds] == [r.moves for r in match.rounds]
    assert again.scores == match.scores and again.takebacks == match.takebacks
    lines = record.summary_lines(again)
    assert sum("took back" in line for line in lines) == 3


def test_a_record_without_takebacks_reads_as_before() -> None:
    match = fresh(seed=4, rounds=1, match_end="rounds")
    rng = random.Random(4)
    while not match.is_over:
        match.play(rng.choice(match.legal_moves))
    data = record.to_record(match)
    assert data["version"] == record.VERSION == 1
    assert all(isinstance(e, str) for r in data["rounds"] for e in r["moves"])
    assert record.to_record(record.from_record(data)) == data


def first_takeback(data: dict[str, Any]) -> dict[str, Any]:
    return next(e for r in data["rounds"] for e in r["moves"] if isinstance(e, dict))


@pytest.mark.parametrize(("forge", "message"), [
    (lambda e, d: e.update(takeback=[*e["takeback"][:1], "2C"]), "but seat 0's takeback retracts"),
    (lambda e, d: e.update(takeback=e["takeback"][1:] or ["2C"]), "but seat 0's takeback retracts"),
    (lambda e, d: e.update(seat=1), "seat 1"),
    (lambda e, d: e.update(seat="0"), "a takeback entry is"),
    (lambda e, d: e.update(extra=1), "a takeback entry is"),
    (lambda e, d: d.update(version=1), "needs record version 2"),
])
def test_a_forged_retraction_is_refused(forge: Any, message: str) -> None:
    data = record.to_record(played_with_takebacks())
    bad = copy.deepcopy(data)
    forge(first_takeback(bad), bad)
    with pytest.raises(RecordError, match=message):
        record.from_record(bad)


def test_a_takeback_moved_where_the_rule_forbids_it_is_refused() -> None:
    data = record.to_record(played_with_takebacks())
    bad = copy.deepcopy(data)
    moves = next(r["moves"] for r in bad["rounds"] if any(isinstance(e, dict) for e in r["moves"]))
    entry = moves.pop(next(k for k, e in enumerate(moves) if isinstance(e, dict)))
    moves.insert(0, entry)  # before any card: nothing to take back
    with pytest.raises(RecordError, match="may not take back here"):
        record.from_record(bad)


def served(match: Match, bots: dict[str, str]) -> dict[str, Any]:
    """``match``'s record with the fairness and table sections the server writes."""
    data = record.to_record(match)
    data["fairness"] = Commitments(match.seed, fairness.new_key()).record_section(match)
    data["table"] = {"id": "t", "title": "", "bots": bots}
    return data


def test_verify_checks_a_game_with_takebacks_on_the_same_deals() -> None:
    match = played_with_takebacks()
    verdict = fairness.verify_match(served(match, {"1": "easy"}))
    assert verdict.ok, [c.detail for c in verdict.checks if not c.ok]
    assert any("3 takeback(s)" in c.detail for c in verdict.checks)
    # A takeback at a table with another person, or by a bot's seat, is not one the server allows.
    for bots in ({}, {"0": "easy", "1": "easy"}):
        verdict = fairness.verify_match(served(match, bots))
        assert not verdict.ok
        assert any(not c.ok and "not made against the computer only" in c.detail for c in verdict.checks)
    # A forged retraction does not replay.
    data = served(match, {"1": "easy"})
    first_takeback(data)["takeback"][0] = "2C"
    verdict = fairness.verify_match(data)
    assert not verdict.ok and "does not replay" in verdict.checks[0].detail


def test_four_players_take_back_the_three_replies() -> None:
    match = fresh(seed=21, players=4)
    rng = random.Random(21)
    play_to_my_turn(match, rng)
    mine = match.legal_moves[0]
    match.play(mine)
    play_to_my_turn(match, rng)
    assert match.takeback_run(ME) == 4
    taken = match.take_back(ME)
    assert taken.cards[0] == mine and len(taken.cards) == 4
    assert [type(e) for e in match.events].count(Played) == len(match.round.moves)
