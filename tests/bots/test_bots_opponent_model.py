"""The master's opponent model and weighted worlds: what the others' plays say about their style and their cards.

Both read the public log only (the twin test in ``test_bots_master.py`` covers the master's ``model`` and
``weigh`` options): a finished deal's plays with the hands they came from, and the deal in progress.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from xeri import find_ruleset
from xeri.bots import make_bot
from xeri.bots.determinize import Determinizer
from xeri.bots.inference import lacked_indices
from xeri.bots.opponent_model import (
    EPSILON,
    Decision,
    Model,
    OpponentModel,
    _argmax_sets,
    _view,
    current_decisions,
    finished_decisions,
    likelihood,
)
from xeri.cards import Card
from xeri.engine import Round
from xeri.fast.rollout_values import WorldValues, seat_policies


def _play(preset: str, players: int, specs: list[str], seed: int, until: int | None = None,
          ) -> tuple[Round, list[tuple[int, tuple[Card, ...], object]]]:
    """A round of ``specs`` (seat by seat) to its end or ``until`` cards played; each play's hand and view."""
    ruleset = find_ruleset(preset, players=players)
    rnd = Round.new(ruleset, seed % players, seed)
    bots = [make_bot(spec, seed + s) for s, spec in enumerate(specs)]
    seen = []
    while not rnd.is_over and (until is None or len(rnd.played) < until):
        seat = rnd.turn
        assert seat is not None
        view = rnd.view(seat)
        seen.append((seat, rnd.hand(seat), view))
        rnd.play(bots[seat].choose(view, rnd.log_for(seat)), seat)
    return rnd, seen


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("pisti", 2), ("cardgames", 4), ("berman", 3)])
def test_finished_deals_replay_each_hand_and_view(preset: str, players: int) -> None:
    """Each play of a finished deal comes back with the hand it was played from and what that seat saw then."""
    for seed in range(3):
        rnd, seen = _play(preset, players, ["expert"] * players, seed)
        log = rnd.log_for(0)
        done = finished_decisions(log, players)
        last_deal = max(i for i, e in enumerate(log) if type(e).__name__ == "Dealt")
        assert len(done) == sum(type(e).__name__ == "Played" for e in log[:last_deal])  # all but the last deal
        for d, (seat, hand, view) in zip(done, seen, strict=False):
            assert (d.seat, sorted(d.hand)) == (seat, sorted(hand))
            assert d.played in hand
            assert (d.pile, d.gone, d.hand_counts, d.talon_count) == (
                view.pile, view.gone, view.hand_counts, view.talon_count)  # type: ignore[attr-defined]
        # The deal in progress: a seat's plays since, from the same log cut mid-deal.
        cut, seen = _play(preset, players, ["expert"] * players, seed, until=len(rnd.played) - 3)
        now = current_decisions(cut.log_for(0), players)
        assert now and all(d.played in d.hand and None not in d.pile for d in now)
        for d in now:
            assert set(d.hand) <= {c for s, c in cut.played if s == d.seat}


@pytest.mark.parametrize(("other", "fits"), [("expert", {"expert"}), ("greedy", {"greedy"}),
                                             ("random", {"greedy", "own"})])
def test_the_model_names_the_style_of_each_bot(other: str, fits: set[str]) -> None:
    """After three finished deals, the other seat's plays name its policy; a random seat is greedy or ``own``."""
    for seed in range(6):
        rnd, seen = _play("classic", 2, ["expert", other], seed)
        model = OpponentModel()
        named = []
        for k, (seat, _hand, view) in enumerate(seen):
            if seat == 0 and view.talon_count == 0:  # type: ignore[attr-defined]
                log = rnd.log_for(0)[: _events_before(rnd, k)]
                named.append(model.policies(view, finished_decisions(log, 2))[1])  # type: ignore[arg-type]
        assert named and set(named) <= fits, (seed, named)


def _events_before(rnd: Round, plays: int) -> int:
    """How many events of the log came before the ``plays``-th card was played."""
    count = 0
    for i, e in enumerate(rnd.log_for(0)):
        if type(e).__name__ == "Played":
            if count == plays:
                return i
            count += 1
    raise AssertionError("not that many plays")


def _python_weight(d: Decision, hand: list[int], policy: str, like: object, eps: float) -> float:
    """The likelihood ``play_weights`` gives one play, from the Python bots' own scores."""
    full = tuple(Card.from_index(c) for c in hand) + d.hand
    if len(full) < 2 or policy == "random":
        return 1.0
    best = _argmax_sets(_view(Decision(d.seat, full, d.played, d.pile, d.gone, d.hand_counts, d.talon_count,
                                       d.exposed), like))[policy]  # type: ignore[arg-type]
    return likelihood(Model(policy, eps, policy, 0.0), best, d.played, len(full))


@pytest.mark.parametrize(("preset", "players", "other", "down"), [
    ("classic", 2, "expert", False), ("classic", 2, "greedy", False), ("cardgames", 4, "expert", False),
    ("pisti", 2, "expert", True), ("pisti", 2, "greedy", True), ("pisti", 4, "expert", True)])
def test_world_weights_are_the_python_bots_likelihoods(preset: str, players: int, other: str, down: bool) -> None:
    """The kernel's weight of each world is the product of the Python expert's or greedy's play likelihoods,
    plays onto Pişti's face-down pile cards included (each priced as the seat saw it: an unseen card)."""
    rng = random.Random(3)
    checked = 0
    on_face_down = 0
    for seed in range(6 if down else 4):
        until = rng.randrange(2, 2 * players) if down else rng.randrange(14, 30)
        rnd, _ = _play(preset, players, ["expert"] + [other] * (players - 1), seed, until=until)
        seat = rnd.turn
        assert seat is not None
        view, log = rnd.view(seat), rnd.log_for(seat)
        observed = [d for d in current_decisions(log, players, face_down=down) if d.seat != seat]
        on_face_down += sum(None in d.pile for d in observed)
        policies = ["expert" if s == seat else other for s in range(players)]
        eps = [0.1 + 0.1 * s for s in range(players)]  # a noise of its own for each seat
        run = WorldValues(Determinizer(view, log), lacked_indices(log, players), [c.index for c in view.hand],
                          seat % rnd.ruleset.sides, [c.index for c in view.gone], policies, 0, 0.15,
                          observed=observed, eps=eps)
        hands, hand_len, *_ = run.deal(rng.getrandbits(62), 24)
        weights = run.weights(hands, hand_len)
        for w in range(24):
            want = math.prod(_python_weight(d, [int(c) for c in hands[w, d.seat, : hand_len[w, d.seat]]],
                                            policies[d.seat], view, eps[d.seat]) for d in observed)
            assert weights[w] == pytest.approx(want, rel=1e-9)
            checked += want < 1.0
    assert checked >= 20  # plays that did say something
    assert on_face_down >= 3 if down else on_face_down == 0


def test_plays_onto_face_down_cards_are_read_only_when_asked() -> None:
    rnd, _ = _play("pisti", 2, ["expert", "expert"], 4, until=3)
    log = rnd.log_for(0)
    with_down = current_decisions(log, 2, face_down=True)
    assert any(None in d.pile for d in with_down)
    assert all(None not in d.pile for d in current_decisions(log, 2))
    assert len(current_decisions(log, 2)) < len(with_down)


def test_weighted_worlds_hold_the_experts_cards_more_often() -> None:
    """Inference that works: weighted by the expert's plays, sampled hands hold more of its real cards."""
    rng = random.Random(8)
    uniform, weighted = [], []
    for seed in range(16):
        rnd, _ = _play("classic", 2, ["expert", "expert"], seed, until=rng.choice([9, 10, 21, 22, 33, 34]))
        seat = rnd.turn
        assert seat is not None
        view, log = rnd.view(seat), rnd.log_for(seat)
        observed = [d for d in current_decisions(log, 2) if d.seat != seat]
        run = WorldValues(Determinizer(view, log), lacked_indices(log, 2), [c.index for c in view.hand], seat,
                          [c.index for c in view.gone], "expert", 0, 0.15, observed=observed, eps=EPSILON)
        hands, hand_len, *_ = run.deal(rng.getrandbits(62), 1024)
        weights = run.weights(hands, hand_len)
        true = {c.index for c in rnd.hand(1 - seat)}
        share = np.array([np.isin(hands[w, 1 - seat, : hand_len[w, 1 - seat]], list(true)).mean()
                          for w in range(1024)])
        uniform.append(share.mean())
        weighted.append((weights * share).sum() / weights.sum())
    assert np.mean(weighted) > 1.4 * np.mean(uniform), (np.mean(uniform), np.mean(weighted))


def test_weighted_without_plays_is_the_plain_mean() -> None:
    rnd, _ = _play("classic", 2, ["expert", "expert"], 2, until=13)
    seat = rnd.turn
    assert seat is not None
    view, log = rnd.view(seat), rnd.log_for(seat)
    run = WorldValues(Determinizer(view, log), lacked_indices(log, 2), [c.index for c in view.hand], seat,
                      [c.index for c in view.gone], "expert", 0, 0.15)
    sums, weight = run.weighted(99, 64)
    assert (sums, weight) == (pytest.approx(run(99, 64)), 64.0)


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="weigh"):
        make_bot("master:weigh=2")
    with pytest.raises(ValueError, match="policies"):
        seat_policies(["expert", "nobody"], 2)
    with pytest.raises(ValueError, match="policies"):
        seat_policies(["expert"], 2)
