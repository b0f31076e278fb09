"""Sampling the hidden cards: a full simulator state consistent with one seat's knowledge.

Hidden cards are ``view.unseen()``: other hands, the talon, face-down pile
cards and face-down cards already captured (nobody sees those). A sample
deals them uniformly at random into those places, keeping every public fact:
hand sizes, the talon size, the exposed bottom card (last in the talon, or in
the dealer's hand once the talon is dealt) and which pile cards are face down.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine import SeatView
from ..errors import XeriError
from ..events import Captured, Event
from .sim import Rules, SimState, new_state


class Determinizer:
    """Precomputes what is fixed in a seat's information set; ``sample`` fills in the rest."""

    def __init__(self, view: SeatView, history: Sequence[Event], rules: Rules | None = None) -> None:
        if view.seat is None or view.turn is None:
            raise XeriError("a bot can only choose for a seat whose turn it is")
        self.rules = rules or Rules(view.ruleset)
        self.seat = view.seat
        n = self.rules.players
        sides = self.rules.sides
        pool = sorted(c.index for c in view.unseen())
        fixed: list[list[int]] = [[] for _ in range(n)]
        fixed[self.seat] = [c.index for c in view.hand]
        talon_tail: list[int] = []
        if view.exposed is not None and view.exposed.index in pool:
            x = view.exposed.index
            pool.remove(x)
            if view.exposed_holder is None:
                talon_tail = [x]
            else:
                fixed[view.exposed_holder].append(x)
        # Face-down cards captured so far, per side (their faces stay hidden from everyone).
        hidden_taken = [0] * sides
        for e in history:
            if type(e) is Captured and e.hidden_count:
                hidden_taken[e.seat % sides] += e.hidden_count
        self.pool = pool
        self.fixed = fixed
        self.need = [view.hand_counts[s] - len(fixed[s]) for s in range(n)]
        self.talon_tail = talon_tail
        self.talon_need = view.talon_count - len(talon_tail)
        self.pile = [-1 if c is None else c.index for c in view.pile]
        self.face_down_at = [i for i, c in enumerate(view.pile) if c is None]
        self.hidden_taken = hidden_taken
        wanted = sum(self.need) + self.talon_need + len(self.face_down_at) + sum(hidden_taken)
        if wanted != len(pool) or min(self.need) < 0 or self.talon_need < 0:
            raise XeriError("the view and history do not fit together: cannot place the unseen cards")
        self.dealer = view.dealer
        self.turn = view.turn
        self.last = -1 if view.last_capturer is None else view.last_capturer
        self.cnt = list(view.captured_counts)
        self.pts = list(view.points)
        self.xeris = [len(x) for x in view.xeris]
        self.seen = [0] * 13
        for card in view.gone:
            self.seen[card.index % 13] += 1

    def sample(self, rng: random.Random) -> SimState:
        """One uniformly random placement of the unseen cards, as a fresh simulator state."""
        pool = self.pool[:]
        rng.shuffle(pool)
        pos = 0
        hands = []
        for s, need in enumerate(self.need):
            hands.append(self.fixed[s] + pool[pos : pos + need])
            pos += need
        pile = self.pile[:]
        for i in self.face_down_at:
            pile[i] = pool[pos]
            pos += 1
        pts = self.pts[:]
        values = self.rules.values
        for side, k in enumerate(self.hidden_taken):
            for c in pool[pos : pos + k]:
                pts[side] += values[c]
            pos += k
        talon = pool[pos:] + self.talon_tail
        return new_state(
            self.rules, self.dealer, hands, pile, talon, self.turn,
            last=self.last, cnt=self.cnt[:], pts=pts, xeris=self.xeris[:], seen=self.seen[:],
        )
