"""A Bayesian reading of each other seat's style (the master's ``fit=1``, issue 43): whose best cards it plays, and
how often it plays off them, inferred from its plays rather than assumed to be the expert's.

The master weighs each sampled world by how likely it makes the deal's plays, a play's likelihood being
``(1 - eps) / |best|`` if the card is among the style's best cards and ``eps / hand`` on top for any card
(``opponent_model.likelihood``, the kernel's ``play_weights``). That is exact for the expert, whose plays are
its best cards; against another player it reads hands that are not there. Here ``eps`` is not fixed: each seat
has a posterior over ``eps`` on ``NOISE_GRID`` (prior ``NOISE_PRIOR``: most mass at the expert's own noise),
and over the styles of ``STYLES``, updated from every play of the round's finished deals (where the hand it
was played from is public). A style is chosen by its marginal likelihood (``eps`` integrated out) plus its
prior; the seat's ``eps`` is then the posterior mean given that style. Because the likelihood is linear in
``eps``, that mean is the exact Bayesian predictive probability of the seat's next play: a mixture of the style
and a uniform player, in the proportion the plays so far support. A seat whose plays the style explains keeps a
small ``eps`` (the prior mean, 0.091, is under the master's ``weigh`` floor of 0.1, so without evidence the
master weighs as it always has); a seat that often plays off it gets its worlds' weights tempered toward flat.
Nothing is drawn: the reading depends on the log alone.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import Card
from ..engine import SeatView
from .opponent_model import Decision, _argmax_sets, _view

#: the noise levels the posterior is kept on (1: a uniformly random player)
NOISE_GRID: tuple[float, ...] = (0.02, 0.1, 0.2, 0.35, 0.5, 0.75, 1.0)
#: their prior probabilities: most on the expert's own noise; the prior mean is 0.091
NOISE_PRIOR: tuple[float, ...] = (0.7, 0.15, 0.06, 0.04, 0.02, 0.015, 0.015)


@dataclass(frozen=True, slots=True)
class Style:
    """Whose best cards a style plays (``opponent_model._argmax_sets``' key), the compiled policy that rolls it
    out (``xeri.fast.policies.NAMES``), and its prior in log odds."""

    best: str
    rollout: str
    prior: float


#: the candidate styles: a seat plays like the expert unless its plays say otherwise (as ``MODELS``' priors)
STYLES: dict[str, Style] = {
    "expert": Style("expert", "expert", math.log(4.0)),
    "greedy": Style("greedy", "greedy", 0.0),
}


@dataclass(frozen=True, slots=True)
class Reading:
    """One seat's reading: its likeliest style, the posterior mean of its noise, and that style's posterior
    probability among ``STYLES``."""

    style: str
    rollout: str
    noise: float
    belief: float


def _logsumexp(xs: Sequence[float]) -> float:
    top = max(xs)
    return top + math.log(sum(math.exp(x - top) for x in xs))


def read_seats(decisions: Sequence[Decision], like: SeatView, players: int,
               styles: dict[str, Style] = STYLES) -> list[Reading]:
    """Per seat, its ``Reading`` from ``decisions`` (finished deals' plays, ``deal_decisions``' first list); a seat
    with none reads as the likeliest style by prior with the prior mean noise."""
    if not styles:
        raise ValueError("read_seats needs at least one style")
    logs = {name: [[0.0] * len(NOISE_GRID) for _ in range(players)] for name in styles}
    for d in decisions:
        k = len(d.hand)
        if k < 2:  # a play from one card says nothing
            continue
        sets = _argmax_sets(_view(d, like))
        for name, style in styles.items():
            best = sets[style.best]
            hit = (1.0 / len(best)) if d.played in best else 0.0
            row = logs[name][d.seat]
            for j, eps in enumerate(NOISE_GRID):
                row[j] += math.log((1.0 - eps) * hit + eps / k)
    priors = [math.log(p) for p in NOISE_PRIOR]
    out = []
    for seat in range(players):
        marginal = {name: styles[name].prior + _logsumexp([p + x for p, x in zip(priors, logs[name][seat],
                                                                                   strict=True)])
                    for name in styles}
        name = max(styles, key=lambda n: marginal[n])  # ties: the first style (the expert)
        post = [p + x for p, x in zip(priors, logs[name][seat], strict=True)]
        norm = _logsumexp(post)
        noise = sum(eps * math.exp(x - norm) for eps, x in zip(NOISE_GRID, post, strict=True))
        belief = math.exp(marginal[name] - _logsumexp(list(marginal.values())))
        out.append(Reading(name, styles[name].rollout, noise, belief))
    return out


class StyleFit:
    """Each other seat's ``Reading``, kept between decisions: it changes only when a deal ends."""

    def __init__(self, styles: dict[str, Style] = STYLES) -> None:
        if not styles:
            raise ValueError("StyleFit needs at least one style")
        self.styles = styles
        self._key: tuple[tuple[int, Card], ...] | None = None
        self._fit: list[Reading] = []

    def readings(self, view: SeatView, decisions: Sequence[Decision]) -> list[Reading]:
        """Per seat, its reading from the finished deals' plays (this seat's own is the expert's, unread)."""
        assert view.seat is not None
        key = tuple((d.seat, d.played) for d in decisions)
        if key != self._key:
            self._fit = read_seats(decisions, view, view.ruleset.players, self.styles)
            self._key = key
        fit = self._fit[:]
        fit[view.seat] = Reading("expert", "expert", 0.0, 1.0)
        return fit
