"""A PIMC with greedy rollouts and an evaluation of its own, after the Pişti study's "expectimax" agent.

The study (cemvural00/pisti-rl-framework, ``agents/expectimax.py``) describes a
determinized expectimax: it deals the cards its seat has not seen uniformly at
random into the hidden places, plays each legal card in every such world,
rolls the game on a few plies with a greedy policy at every seat, and plays the card with
the best mean score difference. Its rollouts and its evaluation are its own,
not the expert's, which is why it sits in the master's opponent pool
(``registry.POOL``, issue 43): a strong bot whose style the master was not
tuned on. Written afresh for this project's simulator:

* the rollout policy (``greedy_card``): the capture that takes most now (the
  pile's points and a xeri), a rank match before a Jack at equal worth;
  else the discard of fewest points, a non-Jack before a Jack, the lowest rank
  first. It plays the same for every seat and sees the sampled world's hands;
* the evaluation (``evaluate_state``): the own side's round margin (card
  points, xeris, the most-cards bonus) at the end of the round, where the
  rollouts go by default; a rollout cut after ``plies`` cards past the tried
  one (the study's agent stops after 6) adds the most-cards bonus
  times tanh(capture lead / 13) and a tenth of the pile's points when the own
  side took last, the study's shaping of an unfinished game.

Every card is tried in the same worlds (common random numbers, as ``pimc``).
The budget is ``samples`` worlds a decision; ``seconds`` adds a wall-clock cap.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from ..cards import Card
from ..engine import SeatView
from ..events import Event
from ..scoring import margin
from .determinize import Determinizer
from .sim import JACK, SimState

#: the capture lead that earns most of the most-cards bonus in a cut rollout's evaluation (the study's 13)
LEAD_SCALE = 13.0
#: the share of the pile's points a cut rollout credits to the side that took last (the study's 0.1)
PILE_SHARE = 0.1


def greedy_card(st: SimState) -> int:
    """The rollout policy's card for the seat to move in ``st``: the capture worth most, else the cheapest discard."""
    hand = st.hands[st.turn]
    rules = st.rules
    values = rules.values
    pile = st.pile
    if pile:
        top = pile[-1] % 13
        lone = len(pile) == 1
        # Cards left in the round after this one decide whether a xeri counts (``last_card_xeri``).
        more = st.in_hands > 1 or st.tpos < len(st.talon)
        best: tuple[int, bool, int] | None = None
        pick = -1
        for c in hand:
            r = c % 13
            if r != top and r != JACK:
                continue
            worth = st.pile_val
            if lone and (r == top or rules.jack_xeri_any) and (rules.last_card_xeri or more):
                worth += rules.jack_xeri_points if r == JACK and top == JACK else rules.xeri_points
            key = (worth, r != JACK, -c)
            if best is None or key > best:
                best, pick = key, c
        if pick >= 0:
            return pick
    return min(hand, key=lambda c: (values[c], c % 13 == JACK, c % 13, c))


def roll_out(st: SimState, plies: int) -> None:
    """Play ``st`` on with ``greedy_card`` at every seat: to the round's end, or ``plies`` cards (``plies`` > 0)."""
    left = plies if plies > 0 else -1
    while st.turn >= 0 and left != 0:
        st.play(greedy_card(st))
        left -= 1


def evaluate_state(st: SimState, side: int) -> float:
    """``side``'s margin in ``st``: exact at the round's end, with the study's shaping of an unfinished round."""
    value = margin(st.pts, side)
    if st.turn < 0:
        return value
    rules = st.rules
    lead = margin(st.cnt, side)
    value += rules.most_cards_points * math.tanh(lead / LEAD_SCALE)
    if st.pile and st.last >= 0 and st.last % rules.sides == side:
        value += PILE_SHARE * st.pile_val
    return value


class PimcGreedyBot:
    """Determinized Monte Carlo with greedy rollouts and its own evaluation; the pool's outside style."""

    name = "pimc-greedy"

    def __init__(
        self, seed: int | None = None, samples: int = 32, plies: int = 0, seconds: float | None = None,
    ) -> None:
        if not isinstance(samples, int) or samples < 1:
            raise ValueError("samples must be a positive integer")
        if not isinstance(plies, int) or plies < 0:
            raise ValueError("plies must be 0 (to the round's end) or a positive integer")
        if seconds is not None and not (isinstance(seconds, (int, float)) and seconds > 0):
            raise ValueError("seconds must be a positive number")
        self.samples, self.plies = samples, plies
        self.seconds = None if seconds is None else float(seconds)
        self._rng = random.Random(seed)

    def choose(self, view: SeatView, history: Sequence[Event]) -> Card:
        legal = view.legal_moves
        if len(legal) == 1:
            return legal[0]
        values = self.evaluate(view, history)
        # Ties go to the lowest card index: the choice depends on the cards, not on their order in the hand.
        return max(legal, key=lambda c: (values[c], -c.index))

    def evaluate(self, view: SeatView, history: Sequence[Event]) -> dict[Card, float]:
        """Each legal card's mean evaluation over the sampled worlds (``choose`` plays the best)."""
        det = Determinizer(view, history)
        legal = [c.index for c in view.legal_moves]
        side = det.seat % det.rules.sides
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        totals = [0.0] * len(legal)
        worlds = 0
        while worlds < self.samples:
            world = det.sample(self._rng)
            for i, card in enumerate(legal):
                st = world.copy()
                st.play(card)
                roll_out(st, self.plies)
                totals[i] += evaluate_state(st, side)
            worlds += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return {Card.from_index(c): t / worlds for c, t in zip(legal, totals, strict=True)}
