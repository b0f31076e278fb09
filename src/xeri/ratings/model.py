"""The rating model: OpenSkill's Plackett–Luce, scaled so that a new player starts at 1500 (docs/ratings.md).

Partnerships are teams, so the model is a team-aware one: a team's strength is the sum of its players', its
uncertainty the sum of their variances, and one match result moves each player by their share of the team's
uncertainty. The model works on the displayed scale itself: OpenSkill's defaults (mu 25, sigma 25/3, beta 25/6,
tau 25/300) multiplied by 60 and moved to start at 1500, so mu is the rating a page shows and sigma its deviation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from openskill.models import PlackettLuce

from ..errors import XeriError

#: a new player's rating and deviation (OpenSkill's mu 25 and sigma 25/3, times 60, moved to 1500)
START_MU = 1500.0
START_SIGMA = 500.0
#: the spread of one match's result around the ratings (OpenSkill's beta 25/6, times 60)
BETA = 250.0
#: the deviation added before every match, so that a rating can follow a player who improves (25/300, times 60)
TAU = 5.0


class RatingError(XeriError):
    """A format, team or level that cannot be rated."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A rating on the displayed scale: ``mu`` the estimate, ``sigma`` its deviation (one standard deviation)."""

    mu: float
    sigma: float

    def __post_init__(self) -> None:
        if not (math.isfinite(self.mu) and math.isfinite(self.sigma)) or self.sigma < 0:
            raise RatingError(f"a rating needs a finite mu and a sigma of 0 or more, not ({self.mu}, {self.sigma})")

    @property
    def display(self) -> int:
        """The rating as a page shows it: mu, rounded."""
        return round(self.mu)

    @property
    def deviation(self) -> int:
        """The deviation as a page shows it (the ± after the rating): sigma, rounded."""
        return round(self.sigma)


def initial() -> Rating:
    """A player's rating before their first rated match: 1500, with a deviation wide enough (500) that the first
    matches against the computer's fixed levels place them at once."""
    return Rating(START_MU, START_SIGMA)


def model() -> PlackettLuce:
    """The OpenSkill model every rating goes through (a fresh one: the library's models hold no state that
    matters, but nothing is shared between callers)."""
    return PlackettLuce(mu=START_MU, sigma=START_SIGMA, beta=BETA, tau=TAU)
