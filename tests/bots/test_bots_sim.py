"""The lean search simulator plays exactly like the event engine (differential test)."""

from __future__ import annotations

import random

import pytest

from xeri import PRESETS, find_ruleset
from xeri.bots.sim import from_deal, from_round
from xeri.engine import Round
from xeri.events import Captured, Xeri

ROUNDS_PER_CASE = 40


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("variant", ["plain", "exposed", "jack_any", "no_last_xeri", "points"])
def test_simulator_matches_engine(preset: str, players: int, variant: str) -> None:
    options = {
        "plain": {},
        "exposed": {"exposed_bottom": True},
        "jack_any": {"jack_xeri_any": True, "most_cards_points": 0},
        "no_last_xeri": {"last_card_xeri": False, "two_of_spades": True},
        "points": {"xeri_points": 7, "jack_xeri_points": 25, "most_cards_points": 11, "initial_pile": "keep"},
    }[variant]
    ruleset = find_ruleset(preset, players=players, **options)
    rng = random.Random(f"{preset}-{players}-{variant}")
    for i in range(ROUNDS_PER_CASE):
        dealer = i % players
        rnd = Round.new(ruleset, dealer, rng.getrandbits(64))
        sim = from_deal(ruleset, dealer, rnd.deal)
        check_at = rng.randrange(52)
        moves = 0
        xeris_now = [0] * ruleset.sides
        while not rnd.is_over:
            assert sim.turn == rnd.turn
            assert sorted(sim.hands[sim.turn]) == sorted(c.index for c in rnd.legal_moves)
            if moves == check_at:  # a mid-round copy of the true state agrees too
                mid = from_round(rnd)
                assert (mid.hands, mid.pile, mid.cnt, mid.pts, mid.last) == (
                    sim.hands, sim.pile, sim.cnt, sim.pts, sim.last)
            card = rng.choice(rnd.legal_moves)
            events = rnd.play(card)
            taken = sim.play(card.index)
            moves += 1
            caps = [e for e in events if type(e) is Captured and not e.leftover]
            assert taken == (len(caps[0].cards) + caps[0].hidden_count if caps else 0)
            xeris_before = xeris_now
            xeris_now = [len(rnd.xeris(s)) for s in range(ruleset.sides)]
            assert sim.xeris == xeris_now
            assert any(type(e) is Xeri for e in events) == (xeris_now != xeris_before)
        assert sim.over
        scores = rnd.scores
        assert scores is not None
        assert sim.totals() == [s.total for s in scores]
        assert sim.cnt == [s.cards for s in scores]
