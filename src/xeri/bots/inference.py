"""What the other seats' plays reveal: a seat that could take the pile by rank and did not lacks that rank.

Every bot in the project, and nearly every player, takes a pile by matching
its top card when it can. So when a seat plays a card that takes nothing onto
a pile whose top card is face up, it very probably holds no card of that rank;
the inference holds until the seat is dealt new cards. The master bot uses it
to price discards and to deal its sampled worlds (``sample_consistent``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import Card, Rank
from ..events import Dealt, Event, Played
from ..rules import takes
from .determinize import Determinizer
from .sim import SimState


def lacked_ranks(history: Sequence[Event], players: int) -> list[set[Rank]]:
    """Per seat, the ranks it showed it does not hold in its current hand (from the public log only)."""
    lacks: list[set[Rank]] = [set() for _ in range(players)]
    pile: list[Card | None] = []
    for e in history:
        kind = type(e)
        if kind is Played:
            assert isinstance(e, Played)
            top = pile[-1] if pile else None
            if takes(e.card, top):
                pile = []
                continue
            if top is not None:
                lacks[e.seat].add(top.rank)
            pile.append(e.card)
        elif kind is Dealt:
            assert isinstance(e, Dealt)
            if e.first:
                pile = list(e.pile)
            for s in lacks:
                s.clear()
    return lacks


def lacked_indices(history: Sequence[Event], players: int) -> list[frozenset[int]]:
    """``lacked_ranks`` as simulator ranks (``Card.index % 13``), per seat."""
    return [frozenset(int(r) - 2 for r in s) for s in lacked_ranks(history, players)]


def sample_consistent(
    det: Determinizer, lacks: Sequence[frozenset[int]], rng: random.Random, tries: int = 40,
) -> SimState:
    """A world drawn uniformly among those where no seat holds a rank it showed it lacks (rejection sampling).

    If ``tries`` draws all break the inference (a seat that did not take what it could), the last draw is kept:
    the inference is a strong guess, not a rule of the game.
    """
    world = det.sample(rng)
    if not any(lacks[s] for s in range(len(lacks)) if s != det.seat):
        return world
    for _ in range(tries - 1):
        if all(not lacks[s] or all(c % 13 not in lacks[s] for c in hand)
               for s, hand in enumerate(world.hands) if s != det.seat):
            return world
        world = det.sample(rng)
    return world
