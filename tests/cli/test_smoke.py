"""Whole matches under every preset and player count run to a winner."""

import random

import pytest

from xeri import PRESETS, Match, find_ruleset


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_match_finishes(preset: str, players: int) -> None:
    match = Match(find_ruleset(preset, players=players), seed=7)
    rng = random.Random(7)
    while not match.is_over:
        match.play(rng.choice(match.legal_moves))
    assert match.winner is not None
    assert len(match.scores) == (2 if players == 4 else players)
