"""XPN positions: printed and parsed back, nothing hidden in a seat's, bad text refused."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from xeri import record
from xeri.cards import Card
from xeri.engine import Round
from xeri.match import Match
from xeri.notation import NotationError, PileCard, Position
from xeri.rules import PRESETS, Ruleset, find_ruleset

SEEDED_VIEW = "0 0 ???/TSTD AD2HTHQC6S3S4D2SQDAC9S 36 0:0/0:0 -"


def _rounds() -> list[Round]:
    """Rounds of every preset and player count, stopped at random points (Pişti lays face-down cards)."""
    rng = random.Random(5)
    out = []
    for name in PRESETS:
        for players in (2, 3, 4):
            for exposed in (False, True):
                out += _played_rounds(find_ruleset(name, players=players, exposed_bottom=exposed), rng)
    return out


def _played_rounds(ruleset: Ruleset, rng: random.Random) -> list[Round]:
    out = []
    for _ in range(3):
        rnd = Round.new(ruleset, rng.randrange(ruleset.players), rng.getrandbits(32))
        for _ in range(rng.randrange(60)):
            if rnd.is_over:
                break
            rnd.play(rng.choice(rnd.legal_moves))
        out.append(rnd)
    return out


def test_print_then_parse_gives_the_same_position_full_and_per_seat() -> None:
    for rnd in _rounds():
        for p in [Position.from_round(rnd), *(Position.from_view(rnd.view(s)) for s in (None, 0, 1))]:
            assert Position.parse(str(p)) == p
            assert eval(repr(p)) == p


def test_a_seats_position_names_no_card_it_cannot_place() -> None:
    for rnd in _rounds():
        for seat in range(rnd.ruleset.players):
            view = rnd.view(seat)
            text = str(Position.from_view(view))
            hidden = view.unseen()
            assert not any(card.code in text.split()[2] for card in hidden if card not in view.hand)
            pile = Position.from_view(view).pile
            assert all(slot.card is None for slot in pile if slot.face_down)


def test_a_known_position_prints_as_its_fixture() -> None:
    rnd = Round.new(find_ruleset("classic"), 0, 1)
    for _ in range(7):
        rnd.play(rnd.legal_moves[0])
    assert str(Position.from_view(rnd.view(1))) == SEEDED_VIEW
    p = Position.parse(SEEDED_VIEW)
    assert p.turn == 0 and p.talon == 36 and p.top == Card.parse("9S") and p.hands[0] == (None,) * 3


def test_face_down_cards_are_marked_in_a_full_position() -> None:
    p = Position.parse("1 0 2C3C4C5C/6C7C8C9C ~JH~QH~KHAH 40 0:0/0:0 -")
    assert p.pile[0] == PileCard(Card.parse("JH"), True) and not p.pile[3].face_down
    assert str(p).split()[3] == "~JH~QH~KHAH"


def test_can_play_agrees_with_play() -> None:
    rnd = Round.new(find_ruleset("classic"), 0, 3)
    turn = rnd.turn
    assert turn is not None
    mine, other = rnd.hand(turn)[0], rnd.hand(1 - turn)[0]
    assert rnd.can_play(mine) and rnd.view(turn).can_play(mine)
    assert not rnd.can_play(other) and not rnd.can_play(mine, seat=1 - turn)
    assert not rnd.view(1 - turn).can_play(other)
    assert Position.from_round(rnd).can_play(mine) and not Position.from_view(rnd.view(None)).can_play(mine)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0 0 ???", "7 or 8 fields"),
        ("0 0 ???/TSTD AD 36 0:0/0:0 - x:JD", "exposed card"),
        ("9 0 ???/TSTD AD2HTHQC6S3S4D2SQDAC9S 36 0:0/0:0 -", "not a seat"),
        ("0 0 ???/TSTD AD2HTHQC6S3S4D2SQDAC9S 37 0:0/0:0 -", "not 52"),
        ("0 0 ???/TSTS AD2HTHQC6S3S4D2SQDAC9S 36 0:0/0:0 -", "two places"),
        ("0 0 ???/TSXX AD2HTHQC6S3S4D2SQDAC9S 36 0:0/0:0 -", "card code"),
        ("0 0 ???/TSTD AD2HTHQC6S3S4D2SQDAC9S ３6 0:0/0:0 -", "whole number"),
        ("0 0 ???/TSTD AD2HTHQC6S3S4D2SQDAC9S 36 0:0:1:2/0:0 -", "cards:points"),
        ("0 0 ???/TSTD AD2HTHQC6S3S4D2SQDAC9S 36 0:0 -", "sides"),
    ],
)
def test_bad_text_is_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        Position.parse(text)


def _finished_match() -> Match:
    match = Match(find_ruleset("classic", target=1), seed=11)
    rng = random.Random(0)
    while not match.is_over:
        match.play(rng.choice(match.legal_moves))
    return match


def test_replay_position_prints_the_full_or_a_seats_position(tmp_path) -> None:  # type: ignore[no-untyped-def]
    match = _finished_match()
    path = tmp_path / "m.json"
    path.write_text(json.dumps(record.to_record(match)))
    run = [sys.executable, "-m", "xeri", "replay", str(path), "--position"]
    full = subprocess.run([*run, "5"], capture_output=True, text=True, check=True).stdout.strip()
    seat = subprocess.run([*run, "5", "--seat", "0"], capture_output=True, text=True, check=True).stdout.strip()
    rnd = Round(match.ruleset, match.rounds[0].dealer, match.rounds[0].deal)
    for card in match.rounds[0].moves[:5]:
        rnd.play(card)
    assert Position.parse(full) == Position.from_round(rnd)
    assert Position.parse(seat) == Position.from_view(rnd.view(0))
    bad = subprocess.run([*run, "100000"], capture_output=True, text=True)
    assert bad.returncode == 2 and "move count from 0 to" in bad.stderr and "Traceback" not in bad.stderr


def test_the_notation_docs_example_runs() -> None:
    import doctest
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs" / "notation.md"
    result = doctest.testfile(str(docs), module_relative=False)
    assert result.attempted >= 3 and result.failed == 0
