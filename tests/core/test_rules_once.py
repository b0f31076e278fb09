"""The capture and xeri rules live once (``rules.takes``/``makes_xeri``): what the bots' arithmetic and the hints
read off a seat's view is what the engine then does (issue 15 §1)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from xeri import find_ruleset
from xeri.bots.endgame import Solver
from xeri.bots.gain import captures, xeri_points
from xeri.bots.hint import reason_for
from xeri.bots.ismcts import policy_move
from xeri.bots.sim import from_round
from xeri.cards import Card
from xeri.engine import Round
from xeri.events import Captured, Xeri
from xeri.rules import jack_xeri, makes_xeri, takes
from xeri.scoring import margin, xeri_bonus, zero_sum

VARIANTS = {
    "plain": {},
    "jack_any": {"jack_xeri_any": True},
    "no_last_xeri": {"last_card_xeri": False, "xeri_points": 7, "jack_xeri_points": 25},
}


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("berman", 3), ("pisti", 2), ("cardgames", 4)])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_views_arithmetic_is_what_the_engine_does(preset: str, players: int, variant: str) -> None:
    ruleset = find_ruleset(preset, players=players, **VARIANTS[variant])
    rng = random.Random(f"{preset}{players}{variant}")
    for seed in range(12):
        rnd = Round.new(ruleset, seed % players, seed)
        while not rnd.is_over:
            seat = rnd.turn
            assert seat is not None
            view = rnd.view(seat)
            card = rng.choice(rnd.legal_moves)
            takes_it, bonus, reason = captures(view, card), xeri_points(view, card), reason_for(view, card)
            events = rnd.play(card)
            assert takes_it == any(type(e) is Captured and not e.leftover for e in events)
            xeris = [e for e in events if isinstance(e, Xeri)]
            assert bonus == (xeris[0].points if xeris else 0)
            assert (reason.code == "xeri") == bool(xeris)


def test_a_jack_on_a_lone_card_and_the_last_card() -> None:
    five, jack, jack2 = Card.parse("5H"), Card.parse("JS"), Card.parse("JC")
    classic, berman = find_ruleset("classic"), find_ruleset("berman")
    assert takes(jack, five) and takes(Card.parse("5C"), five) and not takes(Card.parse("6C"), five)
    assert not takes(jack, None)
    assert not makes_xeri(classic, jack, five, 1, 10) and makes_xeri(berman, jack, five, 1, 10)
    assert not makes_xeri(berman, jack, five, 2, 10)
    no_last = classic.replace(last_card_xeri=False)
    assert makes_xeri(classic, Card.parse("5C"), five, 1, 0) and not makes_xeri(no_last, Card.parse("5C"), five, 1, 0)
    assert jack_xeri(jack, jack2) and not jack_xeri(jack, five)
    assert xeri_bonus(classic, jack, jack2, 1, 3) == 20 and xeri_bonus(berman, jack, five, 1, 3) == 10
    assert xeri_bonus(classic, jack, five, 1, 3) == 0


def test_the_hint_names_a_xeri_by_the_rule() -> None:
    """Under 004 (jack_xeri_any) a Jack on a lone card is a xeri; without last_card_xeri the last card makes none."""
    jack, lone, match = Card.parse("JS"), Card.parse("5H"), Card.parse("5C")
    view = Round.new(find_ruleset("berman"), 0, 1).view(1)
    assert reason_for(replace(view, pile=(lone,)), jack).code == "xeri"
    assert reason_for(replace(view, pile=(Card.parse("9D"), lone)), jack).code == "jack_sweep"
    last = replace(view, ruleset=view.ruleset.replace(last_card_xeri=False), pile=(lone,), talon_count=0,
                   hand_counts=(0, 1))
    assert reason_for(last, match).code == "match"
    assert reason_for(replace(last, ruleset=view.ruleset), match).code == "xeri"


def test_margins_and_the_zero_sum_reward() -> None:
    assert margin([30, 10], 0) == 20 and margin([30, 10, 20], 1) == -15
    four = find_ruleset("classic", players=4)
    assert zero_sum(four, [20, 8]) == [6.0, -6.0, 6.0, -6.0]
    assert sum(zero_sum(find_ruleset("classic", players=3), [9, 3, 1])) == pytest.approx(0)


def test_the_endgames_policy_opponents_play_policy_move() -> None:
    """The horizon search's policy opponents play the playout policy itself, its scan starting at the first card."""
    ruleset = find_ruleset("classic", players=3)
    rng = random.Random(4)
    for seed in range(30):
        rnd = Round.new(ruleset, seed % 3, seed)
        for _ in range(rng.randrange(40)):
            rnd.play(rng.choice(rnd.legal_moves))
        st = from_round(rnd)
        if st.turn < 0:
            continue
        solver = Solver(st)
        solver.policy_seen = st.seen
        top = st.pile[-1] % 13 if st.pile else -1
        got = solver._policy(tuple(st.hands[st.turn]), top, len(st.pile), st.pile_val)
        assert got == policy_move(st, lambda: 0.0), seed
