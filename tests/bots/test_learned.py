"""The learned bot: the shipped weights load, run in NumPy only, and play legal cards at any table."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from xeri import find_ruleset
from xeri.bots import make_bot
from xeri.bots.learned import LearnedPolicyError, NumpyPolicy, scale_vector
from xeri.engine import Round


def test_shipped_weights_are_small_and_pick_legal_cards() -> None:
    path = Path(__file__).resolve().parents[2] / "src" / "xeri" / "data" / "learned.npz"
    assert path.stat().st_size < 400_000
    policy = NumpyPolicy.load()
    rng = np.random.default_rng(0)
    obs = rng.random((64, 228)).astype(np.float32)
    masks = (rng.random((64, 52)) < 0.1).astype(np.int8)
    masks[np.arange(64), rng.integers(0, 52, 64)] = 1
    acts = policy.act(obs, masks)
    assert acts.shape == (64,) and (masks[np.arange(64), acts] == 1).all()
    assert int(policy.act(obs[0], masks[0])) == int(acts[0])


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    policy = NumpyPolicy([(rng.normal(size=(228, 8)), rng.normal(size=8)), (rng.normal(size=(8, 52)),
                          rng.normal(size=52))], scale_vector(2, 2))
    policy.save(tmp_path / "p.npz")
    again = NumpyPolicy.load(tmp_path / "p.npz")
    x = rng.random((5, 228)).astype(np.float32)
    assert np.allclose(again.logits(x), policy.logits(x), atol=0.05)  # float16 weights
    with pytest.raises(LearnedPolicyError, match="cannot read"):
        NumpyPolicy.load(tmp_path / "missing.npz")


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("cardgames", 2), ("classic", 3), ("pisti", 2)])
def test_learned_bot_plays_whole_rounds(preset: str, players: int) -> None:
    rs = find_ruleset(preset, players=players)
    rng = random.Random(players)
    rnd = Round.new(rs, players - 1, rng.getrandbits(64))
    bots = [make_bot("learned", seed=s) for s in range(players)]
    while not rnd.is_over:
        seat = rnd.turn
        assert seat is not None
        card = bots[seat].choose(rnd.view(seat), rnd.log_for(seat))
        assert card in rnd.legal_moves
        rnd.play(card, seat=seat)


def test_playing_the_learned_bot_needs_no_torch() -> None:
    code = ("import sys; from xeri.bots import make_bot; from xeri.engine import Round; from xeri import find_ruleset\n"
            "r = Round.new(find_ruleset('classic'), 1, 3); b = make_bot('learned')\n"
            "r.play(b.choose(r.view(r.turn), r.log_for(r.turn)))\n"
            "assert 'torch' not in sys.modules and 'sb3_contrib' not in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


@pytest.mark.parametrize(("preset", "players", "twin"), [
    ("classic", 3, "master:rworlds=256"),  # the counting master is no better than the expert with 3 players
    ("classic", 4, "master:early=expert"),
    ("pisti", 4, "expert:jack_keep=3,xeri_weight=1.0"),  # the counting master is as strong as the master there
    ("pisti", 2, "master:early=expert"),  # while the face-down cards lie on the pile
])
def test_off_its_table_the_strong_level_plays_the_master_measured_for_that_table(
        preset: str, players: int, twin: str) -> None:
    """Where the network was not trained, strong plays a smaller master, card for card with the same seed, and
    ``fallback=counting`` keeps the counting master at every table."""
    rs = find_ruleset(preset, players=players)
    rnd = Round.new(rs, 0, 2027)
    strong, same = make_bot("learned", seed=5), make_bot(twin, seed=5)
    counting, counting_twin = make_bot("learned:fallback=counting", seed=5), make_bot("master:early=expert", seed=5)
    moves = 0
    while not rnd.is_over and moves < 12 and (players > 2 or None in rnd.view(rnd.turn or 0).pile):
        seat = rnd.turn
        assert seat is not None
        view, log = rnd.view(seat), rnd.log_for(seat)
        card = strong.choose(view, log)
        assert card == same.choose(view, log)
        assert counting.choose(view, log) == counting_twin.choose(view, log)
        rnd.play(card, seat=seat)
        moves += 1
    with pytest.raises(ValueError, match="fallback must be"):
        make_bot("learned:fallback=rollouts")
    with pytest.raises(ValueError, match="rworlds"):
        make_bot("learned:rworlds=0")


def test_the_strong_level_says_how_its_three_player_master_played(monkeypatch: pytest.MonkeyPatch) -> None:
    """``status`` (the notices): ``strong-warming`` while the 3-player master's rollouts load, ``strong-full``
    once they are there, None at a table where it plays no master with rollouts."""
    import xeri.bots.master as master

    rnd = Round.new(find_ruleset("classic", players=3), 0, 3)
    seat = rnd.turn
    assert seat is not None
    bot = make_bot("strong", 1, interactive=True)
    assert bot.status is None  # type: ignore[attr-defined]
    monkeypatch.setattr(master, "_compiled_rollouts", lambda wait: (None, False))  # still loading
    bot.choose(rnd.view(seat), rnd.log_for(seat))
    assert bot.status == "strong-warming"  # type: ignore[attr-defined]
    monkeypatch.undo()
    bot = make_bot("strong", 1)  # waits for the rollouts
    bot.choose(rnd.view(seat), rnd.log_for(seat))
    assert bot.status == "strong-full"  # type: ignore[attr-defined]
    two = Round.new(find_ruleset("classic"), 0, 3)
    bot.choose(two.view(two.turn or 0), two.log_for(two.turn or 0))
    assert bot.status is None  # type: ignore[attr-defined]
    counting = make_bot("learned:fallback=counting", 1)
    counting.choose(rnd.view(seat), rnd.log_for(seat))
    assert counting.status is None  # type: ignore[attr-defined]
