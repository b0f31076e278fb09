"""The random bot: a uniformly random legal card."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import Card
from ..engine import SeatView
from ..events import Event


class RandomBot:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: SeatView, history: Sequence[Event]) -> Card:
        return self._rng.choice(view.legal_moves)
