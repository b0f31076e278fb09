"""Search bots with playouts in the compiled simulator (rollout=compiled)."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

from xeri import Match, find_ruleset
from xeri.bots import BotSpecError, bot_card, make_bot, playouts


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


def test_compiled_rollout_is_the_fast_playout_offered_by_entry_point() -> None:
    from xeri.bots.ismcts import rollout_playout
    from xeri.fast.rollout import playout

    assert rollout_playout("compiled") == (playout, True)
    assert make_bot("ismcts:rollout=compiled").play_out is playout  # type: ignore[attr-defined]


@pytest.mark.parametrize(("offered", "message"), [
    ([], r"rollout=compiled is not installed: pip install 'xeri\[fast\]'"),
    ([EntryPoint("compiled", "xeri_no_such_module:playout", playouts.GROUP)],
     r"rollout=compiled needs the fast extra: pip install 'xeri\[fast\]'"),
])
def test_a_missing_compiled_rollout_is_a_bot_spec_error(monkeypatch: pytest.MonkeyPatch, offered: list[EntryPoint],
                                                        message: str) -> None:
    monkeypatch.setattr(playouts, "_LOADED", {})
    monkeypatch.setattr(playouts, "entry_points", lambda group, name: [e for e in offered if e.name == name])
    with pytest.raises(BotSpecError, match=message):
        make_bot("ismcts:rollout=compiled")
