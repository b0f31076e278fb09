"""The cheaters: they read hidden cards, for evaluation in the arena only.

They are not in ``BOTS`` and ``make_bot`` refuses them: ``make_cheater`` builds
one bound to a live ``Round`` or ``Match`` whose hidden cards it reads. The
oracle searches the true position with the same tree search the honest ISMCTS
bot uses: its margin against a fair bot bounds what hidden information is
worth. The peeking master is the master shown the other hands only: what it
gains over the master is what those hands are worth to the master's search.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import Card
from ..engine import Round, SeatView
from ..events import Event
from ..match import Match
from .determinize import Determinizer
from .ismcts import SearchStats, search
from .master import MasterBot
from .master_config import MasterConfig
from .sim import SimState, from_round


def live_round(game: Round | Match) -> Round:
    """The round in play of the game a cheater is bound to."""
    return game.round if isinstance(game, Match) else game


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

    def choose(self, view: SeatView, history: Sequence[Event]) -> Card:
        legal = view.legal_moves
        if len(legal) == 1:
            return legal[0]
        truth = from_round(live_round(self._game))

        def sample(rng: random.Random) -> SimState:
            return truth.copy()

        best = search(sample, [c.index for c in legal], self._rng, self.iterations, None, self.c, self.stats)
        return Card.from_index(best)


class PeekingMaster(MasterBot):
    """The master shown the other hands: it CHEATS (the arena only), but the talon and face-down cards stay hidden.

    The same search as the master's, on the same budget; only its worlds hold the true hands. Its margin over
    the master's against a fair bot is what knowing the others' cards is worth to that search, apart from any
    gain of another search (the oracle's tree search also knows the talon).
    """

    name = "peek-master"
    cheats = True

    def __init__(self, game: Round | Match, config: MasterConfig | None = None, *, seed: int | None = None) -> None:
        super().__init__(config, seed=seed)
        self._game = game

    def _determinizer(self, view: SeatView, history: Sequence[Event]) -> Determinizer:
        det = super()._determinizer(view, history)
        rnd = live_round(self._game)
        for seat in range(det.rules.players):
            if seat == det.seat:
                continue
            shown = [c.index for c in rnd.hand(seat) if c.index not in det.fixed[seat]]
            det.pool = [c for c in det.pool if c not in shown]
            det.fixed[seat] = det.fixed[seat] + shown
            det.need[seat] = 0
        return det
