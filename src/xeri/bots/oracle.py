"""The oracle: it CHEATS. It reads every hidden card, for evaluation in the arena only.

It is not in ``BOTS`` and ``make_bot`` refuses it: ``make_cheater`` builds it
bound to a live ``Round`` or ``Match`` whose hidden cards it reads, and it
searches the true position with the same tree search the honest ISMCTS bot
uses. Its margin against a fair bot bounds what hidden information is worth.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import Card
from ..engine import Round, SeatView
from ..events import Event
from ..match import Match
from .ismcts import SearchStats, search
from .sim import SimState, from_round


class OracleCheater:
    """Tree search over the true cards of the round it is bound to."""

    name = "oracle-cheater"
    cheats = True

    def __init__(self, game: Round | Match, seed: int | None = None, iterations: int = 2000, c: float = 0.7) -> None:
        if not isinstance(iterations, int) or iterations < 1:
            raise ValueError("iterations must be a positive integer")
        self._game = game
        self._rng = random.Random(seed)
        self.iterations = iterations
        self.c = float(c)
        self.stats = SearchStats()

    def _round(self) -> Round:
        return self._game.round if isinstance(self._game, Match) else self._game

    def choose(self, view: SeatView, history: Sequence[Event]) -> Card:
        legal = view.legal_moves
        if len(legal) == 1:
            return legal[0]
        truth = from_round(self._round())

        def sample(rng: random.Random) -> SimState:
            return truth.copy()

        best = search(sample, [c.index for c in legal], self._rng, self.iterations, None, self.c, self.stats)
        return Card.from_index(best)
