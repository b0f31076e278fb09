"""Fitting the levels' anchors to the arena's measured match win rates (benchmarks/level_ratings.py).

Adjacent levels played duplicate matches; the model's predicted win probability of a team of the higher level
over a team of the lower one is ``Phi(k * (mu_hi - mu_lo) / c)``, with ``k`` players a side and
``c = sqrt(2 beta^2 + k (sigma_hi^2 + sigma_lo^2))`` (OpenSkill's ``predict_win``). Each gap is the one that makes
that prediction the measured rate; medium is pinned at the new player's 1500 (a newcomer is taken to play like the
greedy capturer until their matches say otherwise), and each level's sigma is the standard error of its distance
from medium, summed along the chain (the delta method on the rates' intervals).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist

from ..bots.registry import LEVELS
from .formats import FORMATS, team_size
from .model import BETA, START_MU, Rating, RatingError

#: the level held at the new player's rating
PINNED = "medium"
_N = NormalDist()


@dataclass(frozen=True, slots=True)
class PairRate:
    """One measured pair: the share of matches the higher level won, its standard error, and the match count."""

    higher: str
    lower: str
    rate: float
    se: float
    games: int

    def clamped(self) -> float:
        """The rate kept half a match away from 0 and 1 (a clean sweep has no finite gap)."""
        edge = 0.5 / max(self.games, 1)
        return min(max(self.rate, edge), 1 - edge)


def fit(fmt: str, pairs: Sequence[PairRate], pinned: str = PINNED, at: float = START_MU) -> dict[str, Rating]:
    """Each level's fixed rating in ``fmt`` from the measured rates of adjacent levels (weakest first)."""
    if fmt not in FORMATS:
        raise RatingError(f"unknown format {fmt!r}; formats are: {', '.join(FORMATS)}")
    names = list(LEVELS)
    by_pair: Mapping[tuple[str, str], PairRate] = {(p.higher, p.lower): p for p in pairs}
    missing = [f"{hi}-{lo}" for lo, hi in itertools.pairwise(names) if (hi, lo) not in by_pair]
    if missing:
        raise RatingError(f"no measured rate for {', '.join(missing)}")
    k = team_size(fmt)
    origin = names.index(pinned)
    sigma = dict.fromkeys(names, 0.0)
    mu = dict.fromkeys(names, at)
    for _ in range(20):  # the gaps depend on the sigmas and the sigmas on the gaps: a few rounds settle both
        new_mu, new_sigma = {pinned: at}, {pinned: 0.0}
        for step, order in ((1, range(origin + 1, len(names))), (-1, range(origin - 1, -1, -1))):
            for i in order:
                here, near = names[i], names[i - step]
                hi, lo = (here, near) if step == 1 else (near, here)
                p = by_pair[hi, lo]
                c = math.sqrt(2 * BETA**2 + k * (sigma[hi] ** 2 + sigma[lo] ** 2))
                z = _N.inv_cdf(p.clamped())
                gap = c * z / k
                gap_se = c * p.se / (_N.pdf(z) * k)
                new_mu[here] = new_mu[near] + step * gap
                new_sigma[here] = math.hypot(new_sigma[near], gap_se)
        mu, sigma = new_mu, new_sigma
    return {name: Rating(mu[name], sigma[name]) for name in names}
