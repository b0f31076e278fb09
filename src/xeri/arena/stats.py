"""Arena statistics: means with 95% intervals over duplicate deals, and Bradley–Terry ratings.

The two games of a duplicate deal share their cards, so they are not
independent: every interval treats the *deal* as the unit (the mean of its
two games), which is what makes duplicate play pay off in narrower intervals.
Intervals are normal-approximation ones (z = 1.96), sound for the hundreds of
deals the arena plays.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from .play import DealResult

Z95 = statistics.NormalDist().inv_cdf(0.975)


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean and its 95% confidence interval."""

    mean: float
    lo: float
    hi: float

    def to_dict(self) -> dict[str, object]:
        return {"mean": self.mean, "ci95": [self.lo, self.hi]}


def mean_ci(values: Sequence[float]) -> Estimate:
    """Sample mean ± 1.96 standard errors (a single value has a zero-width interval)."""
    if not values:
        raise ValueError("no values")
    m = statistics.fmean(values)
    if len(values) < 2:
        return Estimate(m, m, m)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return Estimate(m, m - half, m + half)


@dataclass(frozen=True, slots=True)
class Summary:
    """What one arena run measured, per round, from bot A's side."""

    deals: int
    rounds: int
    margin: Estimate
    win_rate: Estimate
    tie_rate: float
    points_a: float
    points_b: float
    xeris_a: float
    xeris_b: float
    cards_a: float
    cards_b: float
    seconds_per_move_a: float
    seconds_per_move_b: float


def summarize(results: Sequence[DealResult]) -> Summary:
    """Per-round figures; the intervals are over deals (each the mean of its two games)."""
    games = [g for d in results for g in d.games]
    rounds = len(games)
    margins = [statistics.fmean(g.margin for g in d.games) for d in results]
    wins = [statistics.fmean(1.0 if g.margin > 0 else 0.0 for g in d.games) for d in results]

    def per_round(values: Sequence[float]) -> float:
        return sum(values) / rounds

    moves_a = sum(g.moves_a for g in games)
    moves_b = sum(g.moves_b for g in games)
    return Summary(
        deals=len(results),
        rounds=rounds,
        margin=mean_ci(margins),
        win_rate=mean_ci(wins),
        tie_rate=per_round([1.0 if g.margin == 0 else 0.0 for g in games]),
        points_a=per_round([g.points_a for g in games]),
        points_b=per_round([g.points_b for g in games]),
        xeris_a=per_round([g.xeris_a for g in games]),
        xeris_b=per_round([g.xeris_b for g in games]),
        cards_a=per_round([g.cards_a for g in games]),
        cards_b=per_round([g.cards_b for g in games]),
        seconds_per_move_a=sum(g.seconds_a for g in games) / max(moves_a, 1),
        seconds_per_move_b=sum(g.seconds_b for g in games) / max(moves_b, 1),
    )


def deal_scores(results: Sequence[DealResult]) -> list[float]:
    """A's score in each deal: 1 per round won, ½ per tie (what the ratings count)."""
    return [sum(1.0 if g.margin > 0 else 0.5 if g.margin == 0 else 0.0 for g in d.games) for d in results]


@dataclass(frozen=True, slots=True)
class Rating:
    """A Bradley–Terry strength on the Elo scale (mean of all bots is 0) with a bootstrap 95% interval."""

    bot: str
    elo: float
    lo: float
    hi: float

    def to_dict(self) -> dict[str, object]:
        return {"bot": self.bot, "elo": self.elo, "ci95": [self.lo, self.hi]}


def bradley_terry(n_bots: int, games: Sequence[tuple[int, int, float, float]], prior: float = 0.5) -> list[float]:
    """Elo-scale strengths from ``(i, j, score_i, n_games)`` records, by Hunter's MM algorithm.

    ``prior`` adds that many virtual wins each way per pair so a bot that wins
    every game still gets a finite rating. The result is centred on 0.
    """
    wins = [0.0] * n_bots
    pairs: dict[tuple[int, int], float] = {}
    for i, j, s, n in games:
        wins[i] += s + prior
        wins[j] += n - s + prior
        key = (min(i, j), max(i, j))
        pairs[key] = pairs.get(key, 0.0) + n + 2 * prior
    p = [1.0] * n_bots
    for _ in range(2000):
        new = []
        for i in range(n_bots):
            denom = sum(n / (p[i] + p[j if i == k else k]) for (k, j), n in pairs.items() if i in (k, j))
            new.append(wins[i] / denom if denom else p[i])
        g = math.exp(statistics.fmean(math.log(x) for x in new))
        new = [x / g for x in new]
        delta = max(abs(x - y) for x, y in zip(new, p, strict=True))
        p = new
        if delta < 1e-10:
            break
    return [400.0 * math.log10(x) for x in p]


def ladder_ratings(
    bots: Sequence[str],
    pair_scores: dict[tuple[int, int], list[float]],
    seed: int = 0,
    resamples: int = 200,
    games: int = 2,
) -> list[Rating]:
    """Ratings from each pair's per-deal scores (``games`` games a deal: 3 with 3 players), with deal-bootstrap
    95% intervals."""
    def fit(scores: dict[tuple[int, int], list[float]]) -> list[float]:
        return bradley_terry(len(bots), [(i, j, sum(s), float(games) * len(s)) for (i, j), s in scores.items()])

    point = fit(pair_scores)
    rng = random.Random(seed)
    samples: list[list[float]] = [[] for _ in bots]
    for _ in range(resamples):
        boot = {key: rng.choices(s, k=len(s)) for key, s in pair_scores.items()}
        for i, r in enumerate(fit(boot)):
            samples[i].append(r)
    out = []
    for i, name in enumerate(bots):
        qs = sorted(samples[i])
        lo = qs[int(0.025 * (len(qs) - 1))] if qs else point[i]
        hi = qs[math.ceil(0.975 * (len(qs) - 1))] if qs else point[i]
        out.append(Rating(name, point[i], lo, hi))
    return out
