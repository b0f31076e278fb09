"""Search bots with playouts in the compiled simulator (rollout=compiled)."""

from __future__ import annotations

import pytest

from xeri import Match, find_ruleset
from xeri.bots import BotSpecError, bot_card, make_bot


@pytest.mark.parametrize("spec", ["ismcts:iterations=60,rollout=compiled", "pimc:iterations=60,rollout=compiled"])
def test_compiled_rollouts_play_legal_reproducible_moves(spec: str) -> None:
    def first_moves(seed: int) -> list[str]:
        match = Match(find_ruleset("classic"), seed=3)
        bots = [make_bot(spec, seed), make_bot("random", seed)]
        moves = []
        for _ in range(24):
            seat = match.turn
            assert seat is not None
            card = bot_card(match, bots[seat])
            assert card in match.legal_moves
            match.play(card)
            moves.append(card.code)
        return moves

    assert first_moves(1) == first_moves(1)


def test_unknown_rollout_is_a_bot_spec_error() -> None:
    with pytest.raises(BotSpecError, match="rollout must be one of smart, fast, compiled"):
        make_bot("ismcts:rollout=turbo")
