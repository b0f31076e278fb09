"""The greedy bot: the card that scores most on this move, blind to what follows."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import Card
from ..engine import SeatView
from ..events import Event
from .gain import captures, immediate_gain


class GreedyBot:
    """Most points now; among equals the most cards taken; remaining ties by the seeded random source."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: SeatView, history: Sequence[Event]) -> Card:
        legal = view.legal_moves
        size = len(view.pile)
        scored = [(immediate_gain(view, c), size + 1 if captures(view, c) else 0) for c in legal]
        best = max(scored)
        return self._rng.choice([c for c, s in zip(legal, scored, strict=True) if s == best])
