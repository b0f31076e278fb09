"""Determinized Monte Carlo ("PIMC") with common random numbers: the strongest bot per second of thought.

Each round of sampling draws one placement of the hidden cards
(``Determinizer.sample``) and one stream of random numbers, then plays every
legal card in that same world followed by the same playout policy with the
same random stream. Comparing the cards on identical futures cancels most of
the noise of the deal, so far fewer playouts separate good cards from bad
than in a tree search, where each card is tried in different worlds. The
``iterations`` budget counts playouts, as ISMCTS's does.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from ..cards import Card
from ..engine import SeatView
from ..events import Event
from ..scoring import margin
from .determinize import Determinizer
from .ismcts import Playout, SearchStats, playout, rollout_playout, search_budget
from .sim import SimState


def flat_values(
    sample: Callable[[random.Random], SimState],
    legal: Sequence[int],
    seat: int,
    rng: random.Random,
    iterations: int | None,
    seconds: float | None,
    stats: SearchStats | None = None,
    smart: bool = True,
    play_out: Playout = playout,
) -> list[float]:
    """Each legal card's mean margin for ``seat``'s side (own points minus the others' mean) over shared futures."""
    start = time.perf_counter()
    cpu = time.process_time()
    deadline = None if seconds is None else start + seconds
    limit = iterations if iterations is not None else 1 << 62
    k = len(legal)
    totals = [0.0] * k
    done = 0
    rand = rng.random
    while done + k <= limit or done == 0:
        world = sample(rng)
        stream = [rand() for _ in range(60)]
        sides = world.rules.sides
        side = seat % sides
        for i, card in enumerate(legal):
            st = world.copy()
            st.play(card)
            if st.turn >= 0:
                play_out(st, iter(stream).__next__, smart)
            totals[i] += margin(st.pts, side)
        done += k
        if deadline is not None and time.perf_counter() >= deadline:
            break
    if stats is not None:
        stats.iterations = done
        stats.seconds = time.perf_counter() - start
        stats.cpu_seconds = time.process_time() - cpu
    worlds = done // k
    return [t / worlds for t in totals]


class PimcBot:
    """Determinized Monte Carlo over the seat's information set; budgets in playouts and/or seconds."""

    name = "pimc"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
        rollout: str = "smart",
    ) -> None:
        iterations, seconds = search_budget(iterations, seconds)
        self.play_out, self.smart = rollout_playout(rollout)
        self.iterations, self.seconds = iterations, seconds
        self._rng = random.Random(seed)
        self.stats = SearchStats()

    def choose(self, view: SeatView, history: Sequence[Event]) -> Card:
        legal = view.legal_moves
        if len(legal) == 1:
            return legal[0]
        values = self.evaluate(view, history)
        return max(values, key=values.__getitem__)

    def evaluate(self, view: SeatView, history: Sequence[Event]) -> dict[Card, float]:
        """Each legal card's expected round point margin: own side minus the others' mean (``choose`` takes the max).

        This is what ``xeri review`` reports; it searches even a forced single card, so that card gets a value.
        """
        legal = view.legal_moves
        if not legal or view.seat is None:
            raise ValueError("evaluate needs a view of the seat to play")
        det = Determinizer(view, history)
        values = flat_values(
            det.sample, [c.index for c in legal], view.seat, self._rng, self.iterations, self.seconds, self.stats,
            self.smart, self.play_out,
        )
        return dict(zip(legal, values, strict=True))
