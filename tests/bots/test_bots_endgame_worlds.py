"""The master's endgame worlds where cards stay hidden (issue 28): Pişti's face-down cards, 3 and 4 players.

Every world places only the cards the seat cannot place (never one it holds or has seen face up), keeps every
public fact, and is weighed by the others' plays; with few placements every one of them is solved.
"""

from __future__ import annotations

import math
import random

import pytest

from xeri import find_ruleset
from xeri.bots import BotSpecError, make_bot
from xeri.bots.determinize import Determinizer
from xeri.bots.master import ENUMERATE, MasterBot, placement_count, placements
from xeri.bots.master_config import MasterConfig
from xeri.bots.sim import SimState
from xeri.engine import Round, SeatView
from xeri.events import Event


def endgame(preset: str, players: int, seed: int, left: int) -> tuple[Round, SeatView, tuple[Event, ...]]:
    """A round played by the expert until the talon is empty and at most ``left`` cards are in the hands."""
    rules = find_ruleset(preset, players=players)
    rnd = Round.new(rules, seed % players, seed)
    bots = [make_bot("expert", seed + s) for s in range(players)]
    while not (rnd.talon == () and sum(len(rnd.hand(s)) for s in range(players)) <= left):
        seat = rnd.turn
        assert seat is not None
        rnd.play(bots[seat].choose(rnd.view(seat), rnd.log_for(seat)), seat)
    seat = rnd.turn
    assert seat is not None
    return rnd, rnd.view(seat), rnd.log_for(seat)


def check_world(world: SimState, det: Determinizer, view: SeatView) -> None:
    """The world keeps the view's public facts and puts only unseen cards in the hidden places."""
    seat = det.seat
    unseen = {c.index for c in view.unseen()}
    assert sorted(world.hands[seat]) == sorted(c.index for c in view.hand)
    assert [len(h) for h in world.hands] == list(view.hand_counts)
    placed = [c for s, h in enumerate(world.hands) if s != seat for c in h]
    placed += [world.pile[i] for i in det.face_down_at]
    assert set(placed) <= unseen and len(set(placed)) == len(placed)
    for i, c in enumerate(view.pile):
        if c is not None:
            assert world.pile[i] == c.index
    # The face-down cards taken are the unseen cards placed nowhere else; their points are the world's extra.
    taken = unseen - set(placed)
    assert len(taken) == sum(det.hidden_taken)
    values = det.rules.values
    assert sum(world.pts) - sum(view.points) == sum(values[c] for c in taken)


@pytest.mark.parametrize("seed", range(4))
def test_pisti_endgame_places_every_way_and_only_unseen_cards(seed: int) -> None:
    """Two players: the other hand and the face-down cards taken share the unseen cards; every way is listed."""
    rnd, view, log = endgame("pisti", 2, seed, 8)
    det = Determinizer(view, log)
    assert sum(det.hidden_taken) + len(det.face_down_at) == 3  # the face-down cards stay hidden
    count = placement_count(det)
    assert count <= ENUMERATE
    placed = list(placements(det))
    assert len(placed) == count == math.comb(len(det.pool), sum(det.need))
    other = 1 - view.seat  # type: ignore[operator]
    assert len({tuple(sorted(h[other])) for h, _, _ in placed}) == count
    assert tuple(sorted(c.index for c in rnd.hand(other))) in {tuple(sorted(h[other])) for h, _, _ in placed}
    bot = MasterBot(seed=1)
    assert bot.rollouts_ready
    legal = [c.index for c in view.legal_moves]
    worlds = bot._weighted_worlds(det, view, log, legal, view.seat % 2)  # type: ignore[operator]
    assert worlds is not None and len(worlds) == count
    for world, weight in worlds:
        assert weight > 0
        check_world(world, det, view)


@pytest.mark.parametrize(("preset", "players", "left"), [("pisti", 4, 10), ("cardgames", 4, 10), ("berman", 3, 12),
                                                         ("berman", 3, 7)])
def test_many_placements_are_dealt_and_drawn_by_weight(preset: str, players: int, left: int) -> None:
    """Many placements: worlds dealt in the kernel, 24 drawn by weight; few: every one (3 players, late)."""
    for seed in range(3):
        _rnd, view, log = endgame(preset, players, seed, left)
        det = Determinizer(view, log)
        count = placement_count(det)
        bot = MasterBot(MasterConfig(exact_worlds=24), seed=seed)
        legal = [c.index for c in view.legal_moves]
        worlds = bot._weighted_worlds(det, view, log, legal, view.seat % view.ruleset.sides)  # type: ignore[operator]
        assert worlds is not None
        if count > ENUMERATE:
            assert sum(w for _, w in worlds) == 24  # 24 draws, a repeated world counted as often as drawn
        else:
            assert len(worlds) == count and left < 12
        for world, _ in worlds:
            check_world(world, det, view)


def test_weighted_endgame_favours_worlds_that_explain_the_plays() -> None:
    """Against the expert, the world holding the other's real hand weighs more than the uniform share."""
    shares = []
    for seed in range(8):
        rnd, view, log = endgame("pisti", 2, seed, 6)
        det = Determinizer(view, log)
        if placement_count(det) < 4:
            continue
        legal = [c.index for c in view.legal_moves]
        worlds = MasterBot(seed=0)._weighted_worlds(det, view, log, legal, view.seat % 2)  # type: ignore[operator]
        assert worlds is not None
        other = 1 - view.seat  # type: ignore[operator]
        truth = sorted(c.index for c in rnd.hand(other))
        total = sum(w for _, w in worlds)
        mine = sum(w for world, w in worlds if sorted(world.hands[other]) == truth)
        shares.append(mine / total * len(worlds))  # 1: the uniform share
    assert len(shares) >= 4
    assert sum(shares) / len(shares) > 1.0


def test_without_the_kernel_the_endgame_draws_uniform_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    import xeri.bots.master as master

    monkeypatch.setattr(master, "_compiled_rollouts", lambda wait: (None, True))
    _rnd, view, log = endgame("pisti", 2, 1, 8)
    bot = MasterBot(seed=1)
    assert bot._weighted_worlds(Determinizer(view, log), view, log, [c.index for c in view.legal_moves], 0) is None
    assert bot.choose(view, log) in view.legal_moves


def test_bad_endgame_options_are_refused() -> None:
    for spec in ("master:endworlds=all", "master:partner=human"):
        with pytest.raises(BotSpecError, match=r"endworlds|partner"):
            make_bot(spec, 0)
    rng = random.Random(0)
    assert make_bot("master:endworlds=uniform,downplays=0,partner=master", rng.getrandbits(32)).name == "master"
