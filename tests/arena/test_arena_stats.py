"""The arena's statistics are right on synthetic data with known answers."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from xeri.arena import DealResult, GameResult, mean_ci, summarize
from xeri.arena.stats import bradley_terry, deal_scores, ladder_ratings


def game(a: int, b: int, xa: int = 0, xb: int = 0, ca: int = 26, cb: int = 26) -> GameResult:
    return GameResult(a, b, xa, xb, ca, cb, 0.5, 10, 0.25, 10)


def test_mean_ci_by_hand() -> None:
    est = mean_ci([1.0, 2.0, 3.0, 4.0, 5.0])
    half = 1.959964 * math.sqrt(2.5) / math.sqrt(5)
    assert est.mean == 3.0
    assert est.lo == pytest.approx(3.0 - half, abs=1e-5) and est.hi == pytest.approx(3.0 + half, abs=1e-5)
    single = mean_ci([7.0])
    assert (single.lo, single.mean, single.hi) == (7.0, 7.0, 7.0)
    with pytest.raises(ValueError):
        mean_ci([])


def test_intervals_cover_the_true_mean_95_percent_of_the_time() -> None:
    rng = random.Random(1)
    trials, hits = 600, 0
    for _ in range(trials):
        est = mean_ci([rng.gauss(2.0, 5.0) for _ in range(60)])
        hits += est.lo <= 2.0 <= est.hi
    assert 0.92 <= hits / trials <= 0.975


def test_summary_of_known_deals() -> None:
    deals = [
        DealResult(0, (game(30, 10, xa=2, ca=30, cb=22), game(20, 20))),  # margins +20, 0 (a tie)
        DealResult(1, (game(5, 25, xb=1), game(15, 5))),  # margins -20, +10
        DealResult(2, (game(12, 10), game(10, 12))),  # margins +2, -2
    ]
    s = summarize(deals)
    assert (s.deals, s.rounds) == (3, 6)
    # per-deal margins: 10, -5, 0 -> mean 5/3, sd of deal means
    per_deal = [10.0, -5.0, 0.0]
    half = 1.959964 * statistics.stdev(per_deal) / math.sqrt(3)
    assert s.margin.mean == pytest.approx(5 / 3)
    assert s.margin.lo == pytest.approx(5 / 3 - half, abs=1e-4)
    # rounds won by A: +20, +10, +2 -> 3 of 6; per deal 0.5, 0.5, 0.5 -> zero-width interval
    assert s.win_rate.mean == pytest.approx(0.5)
    assert s.win_rate.lo == pytest.approx(0.5) and s.win_rate.hi == pytest.approx(0.5)
    assert s.tie_rate == pytest.approx(1 / 6)
    assert s.points_a == pytest.approx((30 + 20 + 5 + 15 + 12 + 10) / 6)
    assert s.xeris_a == pytest.approx(2 / 6) and s.xeris_b == pytest.approx(1 / 6)
    assert s.cards_a == pytest.approx((30 + 26 * 5) / 6)
    assert s.seconds_per_move_a == pytest.approx(0.05) and s.seconds_per_move_b == pytest.approx(0.025)
    assert deal_scores(deals) == [1.5, 1.0, 1.0]


def test_bradley_terry_recovers_known_odds() -> None:
    # A beats B 3 times in 4: the Elo gap is 400 log10(3).
    elo = bradley_terry(2, [(0, 1, 300.0, 400.0)], prior=0.0)
    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(3), abs=0.01)
    assert sum(elo) == pytest.approx(0.0, abs=1e-6)
    # A transitive three: strengths 4 : 2 : 1 with exact expected scores.
    p = [4.0, 2.0, 1.0]
    games = [(i, j, 1000 * p[i] / (p[i] + p[j]), 1000.0) for i in range(3) for j in range(i + 1, 3)]
    elo = bradley_terry(3, games, prior=0.0)
    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(2), abs=0.01)
    assert elo[1] - elo[2] == pytest.approx(400 * math.log10(2), abs=0.01)
    # A clean sweep stays finite thanks to the prior.
    assert all(math.isfinite(x) for x in bradley_terry(2, [(0, 1, 10.0, 10.0)]))


def test_ladder_intervals_contain_the_truth_and_order_the_bots() -> None:
    rng = random.Random(3)
    strengths = [1.0, 2.0, 4.0]

    def deals(i: int, j: int) -> list[float]:
        p = strengths[i] / (strengths[i] + strengths[j])
        return [sum(rng.random() < p for _ in range(2)) for _ in range(800)]

    scores = {(i, j): deals(i, j) for i in range(3) for j in range(i + 1, 3)}
    ratings = ladder_ratings(["weak", "mid", "strong"], scores, seed=0, resamples=100)
    assert [r.bot for r in sorted(ratings, key=lambda r: r.elo)] == ["weak", "mid", "strong"]
    truth = [400 * math.log10(s) for s in strengths]
    centre = statistics.fmean(truth)
    for r, t in zip(ratings, truth, strict=True):
        assert r.lo <= r.elo <= r.hi
        assert r.lo - 15 <= t - centre <= r.hi + 15
