"""The cautious bot: a card counter that plays safe first, a style of its own for the master's opponent pool.

Where the expert prices every card in expected points (what the next player
takes with it, times the chance it can), the cautious bot decides by rules in
a fixed order, safety before gain:

1. it takes every pile it can take by rank, the one worth most;
2. it spends a Jack only on a big pile (``jack_points`` points or
   ``jack_cards`` cards with the Jack), on a xeri, or when only Jacks are left
   to play: Jacks are kept for big piles;
3. otherwise it discards a non-Jack whose rank it has seen most, so that the
   fewest copies are left for the others to match. It counts every card that
   has been face up (``view.unseen()``); on an empty pile that is the lone card
   a xeri takes, so it leads the card an opponent is least likely to hold. Among
   equally seen ranks it throws the fewest points, then the lowest rank.

Ties left after that go to the seeded random source.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..cards import Card, Rank
from ..engine import SeatView
from ..events import Event
from .gain import captures, immediate_gain, pile_points, values_of, xeri_points

_JACK = Rank.JACK


class CautiousBot:
    """Safety-first card counting: bank rank captures, keep Jacks for big piles, discard the most-seen ranks."""

    name = "cautious"

    def __init__(self, seed: int | None = None, jack_points: int = 3, jack_cards: int = 5) -> None:
        if not isinstance(jack_points, int) or not isinstance(jack_cards, int) or jack_points < 0 or jack_cards < 2:
            raise ValueError("jack_points must be an integer >= 0 and jack_cards an integer >= 2")
        self.jack_points, self.jack_cards = jack_points, jack_cards
        self._rng = random.Random(seed)

    def choose(self, view: SeatView, history: Sequence[Event]) -> Card:
        legal = view.legal_moves
        if len(legal) == 1:
            return legal[0]
        top = view.top
        if top is not None:
            matches = [c for c in legal if c.rank is top.rank]
            if matches:
                return self._best(matches, lambda c: immediate_gain(view, c))
            jacks = [c for c in legal if c.rank is _JACK and captures(view, c)]
            if jacks and (self._big(view, jacks[0]) or len(jacks) == len(legal)):
                return self._best(jacks, lambda c: immediate_gain(view, c))
        return self._discard(view, legal)

    def _big(self, view: SeatView, jack: Card) -> bool:
        """Whether the pile is worth a Jack: enough points or cards, or a xeri."""
        points = pile_points(view) + values_of(view)[jack.index]
        return points >= self.jack_points or len(view.pile) + 1 >= self.jack_cards or xeri_points(view, jack) > 0

    def _discard(self, view: SeatView, legal: Sequence[Card]) -> Card:
        """The non-Jack of the most-seen rank (fewest copies unseen), then fewest points, then the lowest rank."""
        unseen: dict[Rank, int] = {}
        for c in view.unseen():
            unseen[c.rank] = unseen.get(c.rank, 0) + 1
        values = values_of(view)
        choices = [c for c in legal if c.rank is not _JACK] or list(legal)
        keys = {c: (unseen.get(c.rank, 0), values[c.index], c.rank) for c in choices}
        low = min(keys.values())
        return self._rng.choice([c for c in choices if keys[c] == low])

    def _best(self, cards: Sequence[Card], worth: Callable[[Card], float]) -> Card:
        scores = [worth(c) for c in cards]
        top = max(scores)
        return self._rng.choice([c for c, s in zip(cards, scores, strict=True) if s == top])
