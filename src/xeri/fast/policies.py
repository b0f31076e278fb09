"""The kernels' playing policies, one copy each, shared by ``xeri.fast.simulate``, the rollouts and the vector env.

Each is the compiled twin of a Python policy, kept equal by a differential test:

- ``random``: a uniformly random card of the hand.
- ``greedy`` and ``expert``: ``xeri.bots``' ``GreedyBot`` and ``ExpertBot``
  (their card scores, ties drawn at random; ``tests/fast/test_fast_vec.py``).
- ``expert-pisti``: ``ExpertBot(jack_keep=3, xeri_weight=1)``, the expert's rules tuned for Pişti, where a
  pişti is most of the game (``tests/fast/test_fast_vec.py`` too); ``master:rpolicy=expert-pisti`` plays its own
  seat in the rollouts by it (measured, not the default: docs/reference/bots-measurements.md, "Pişti").
- ``playout`` and ``playout-fast``: the search playout ``xeri.bots.ismcts.policy_move``
  with ``smart`` on and off, the policy of ``rollout=smart`` and ``rollout=fast``
  (``tests/fast/test_fast.py`` plays both side by side on one random stream).

Like their twins they read only what the seat may know: its hand, the pile,
the cards seen face up (``gone`` per card, ``seen`` per rank) and hand sizes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ..bots.expert import PISTI_JACK_KEEP, PISTI_XERI_WEIGHT
from .layout import C_JACK_ANY, C_JXERI, C_LASTX, C_MOST, C_PLAYERS, C_XERI, JACK, RANK, _below

# policy codes
P_RANDOM, P_GREEDY, P_EXPERT, P_PLAYOUT, P_PLAYOUT_FAST, P_EXPERT_PISTI = range(6)
NAMES = {"random": P_RANDOM, "greedy": P_GREEDY, "expert": P_EXPERT, "playout": P_PLAYOUT,
         "playout-fast": P_PLAYOUT_FAST, "expert-pisti": P_EXPERT_PISTI}
#: the expert's value of a Jack kept in hand (``ExpertBot(jack_keep=5.0)``)
JACK_KEEP = 5.0
# ``expert-pisti``'s Jack kept and pişti-chance weight are ``bots.expert``'s (one copy). numba freezes globals
# into its cache, keyed on this file only: after changing them there, clear ``__pycache__`` (the twin test fails).
#: the playout takes a pile with a Jack when the pile and the Jack are worth this much (``ismcts.JACK_MIN``)
JACK_MIN = 2
_TIE = 1e-9
#: a face-down card in a pile handed to ``policy_scores`` (a card index is below it)
FACE_DOWN = 52


@njit(cache=True, inline="always")
def _p_holds(unseen_total: int, of_rank: int, hand: int) -> float:
    """``xeri.bots.expert.p_holds``: chance a hand of ``hand`` cards from the unseen holds one of ``of_rank``."""
    if of_rank <= 0 or hand <= 0 or unseen_total <= 0:
        return 0.0
    if hand > unseen_total - of_rank:
        return 1.0
    ratio = 1.0
    for i in range(hand):
        ratio *= (unseen_total - of_rank - i) / (unseen_total - i)
    return 1.0 - ratio


@njit(cache=True)
def policy_scores(policy: int, cfg: np.ndarray, values: np.ndarray, hand: np.ndarray, hl: int, pile: np.ndarray,
                  pl: int, gone: np.ndarray, hand_len: np.ndarray, seat: int, talon_left: int,
                  scores: np.ndarray, hidden: float) -> None:
    """Score each card of the seat's hand as ``GreedyBot`` or ``ExpertBot`` does (higher is better) into ``scores``.

    A pile entry of ``FACE_DOWN`` (or more) is a face-down card the seat cannot see: it counts in the pile's
    size, and ``hidden`` is what all of them are worth together to the seat (``gain.pile_points``: each at the
    mean of the cards it cannot see). The top card is always face up.
    """
    n = cfg[C_PLAYERS]
    top = RANK[pile[pl - 1]] if pl > 0 else -1
    pile_value = hidden
    for i in range(pl):
        if pile[i] < FACE_DOWN:
            pile_value += values[pile[i]]
    in_hands = 0
    for s in range(n):
        in_hands += hand_len[s]
    if policy == P_GREEDY:
        for i in range(hl):
            card = hand[i]
            rank = RANK[card]
            if pl > 0 and (rank == top or rank == JACK):
                gain = pile_value + values[card]
                if pl == 1 and (rank == top or cfg[C_JACK_ANY] == 1) and (
                        cfg[C_LASTX] == 1 or in_hands - 1 + talon_left > 0):
                    gain += cfg[C_JXERI] if (rank == JACK and top == JACK) else cfg[C_XERI]
                scores[i] = 64.0 * gain + pl + 1
            else:
                scores[i] = 0.0
        return
    # The expert (``ExpertBot.score``): card counting over the cards this seat cannot place.
    by_rank = np.zeros(13, np.int64)
    for c in range(52):
        if gone[c] == 0:
            by_rank[RANK[c]] += 1
    for i in range(hl):
        by_rank[RANK[hand[i]]] -= 1
    total = 0
    for r in range(13):
        total += by_rank[r]
    opp_hand = hand_len[(seat + 1) % n]
    card_w = 0.1 + cfg[C_MOST] / 60.0
    my_left = hl - 1
    jack_keep = PISTI_JACK_KEEP if policy == P_EXPERT_PISTI else JACK_KEEP
    xeri_weight = PISTI_XERI_WEIGHT if policy == P_EXPERT_PISTI else 0.5
    keep = 0.0 if my_left == 0 else jack_keep + (1.5 if talon_left == 0 else 0.0)
    xeri_pts = cfg[C_XERI]
    for i in range(hl):
        card = hand[i]
        rank = RANK[card]
        if pl > 0 and (rank == top or rank == JACK):
            gain = float(pile_value + values[card])
            if pl == 1 and (rank == top or cfg[C_JACK_ANY] == 1) and (
                    cfg[C_LASTX] == 1 or in_hands - 1 + talon_left > 0):
                gain += cfg[C_JXERI] if (rank == JACK and top == JACK) else xeri_pts
            gain += card_w * (pl + 1)
            if rank == JACK and top != JACK:
                gain -= keep
            if opp_hand > 0 and (talon_left > 0 or my_left > 0):
                chance_count = 0
                for r in range(13):
                    if r == JACK:
                        continue
                    held = False
                    for k in range(hl):
                        if k != i and RANK[hand[k]] == r:
                            held = True
                    if held:
                        chance_count += by_rank[r]
                chance = chance_count / max(total, 1)
                gain += xeri_weight * xeri_pts * min(chance, 1.0)
            scores[i] = gain
            continue
        lone = pl == 0
        after = float(pile_value + values[card])
        size = pl + 1
        p_match = _p_holds(total, by_rank[rank], opp_hand)
        xeri = 0.0
        if lone and (talon_left > 0 or in_hands > 2 or cfg[C_LASTX] == 1):
            xeri = float(cfg[C_JXERI] if rank == JACK else xeri_pts)
        loss = p_match * (after + card_w * (size + 1) + xeri)
        if rank != JACK:
            p_jack = _p_holds(total, by_rank[JACK], opp_hand)
            jack_take = after + card_w * (size + 1) - jack_keep
            if lone and cfg[C_JACK_ANY] == 1:
                jack_take += xeri_pts
            loss += (1 - p_match) * p_jack * max(jack_take, 0.0)
        else:
            loss += keep
        loss += 0.05 * values[card]
        scores[i] = -loss


@njit(cache=True)
def best_scored(policy: int, cfg: np.ndarray, values: np.ndarray, hand: np.ndarray, hl: int, pile: np.ndarray,
                pl: int, gone: np.ndarray, hand_len: np.ndarray, seat: int, talon_left: int, rng: np.ndarray) -> Any:
    """The position of the greedy's or expert's card: the best score, ties uniformly at random."""
    if hl == 1:
        return 0
    scores = np.empty(16, np.float64)
    policy_scores(policy, cfg, values, hand, hl, pile, pl, gone, hand_len, seat, talon_left, scores, 0.0)
    best = scores[0]
    for i in range(1, hl):
        if scores[i] > best:
            best = scores[i]
    ties = 0
    for i in range(hl):
        if scores[i] >= best - _TIE:
            ties += 1
    pick = _below(rng, ties) if ties > 1 else 0
    for i in range(hl):
        if scores[i] >= best - _TIE:
            if pick == 0:
                return i
            pick -= 1
    return 0


@njit(cache=True)
def playout_move(hand: np.ndarray, hl: int, pile: np.ndarray, pl: int, seen: np.ndarray, values: np.ndarray,
                 smart: bool, rng: np.ndarray) -> Any:
    """The position of ``policy_move``'s card: capture by rank, a Jack for a pile worth ``JACK_MIN``, else a discard.

    The discard is (``smart``) the first non-Jack, from a random start round the
    hand, of the rank whose copies the seat can best account for, fewer points
    first; or a random card. One draw, only when the seat discards from 2+ cards.
    """
    if pl > 0:
        top = RANK[pile[pl - 1]]
        jack = -1
        for i in range(hl):
            rank = RANK[hand[i]]
            if rank == top:
                return i
            if rank == JACK:
                jack = i
        if jack >= 0 and hl > 1:
            worth = values[hand[jack]]
            for k in range(pl):
                worth += values[pile[k]]
            if worth >= JACK_MIN:
                return jack
    if hl == 1:
        return 0
    start = _below(rng, hl)
    if smart:
        best = -1000
        choice = -1
        for j in range(start, start + hl):
            i = j - hl if j >= hl else j
            rank = RANK[hand[i]]
            if rank != JACK:
                k = seen[rank] * 8 - values[hand[i]]
                for d in range(hl):
                    if RANK[hand[d]] == rank:
                        k += 8
                if k > best:
                    best = k
                    choice = i
        if choice >= 0:
            return choice
    return start


@njit(cache=True, inline="always")
def choose(policy: int, cfg: np.ndarray, values: np.ndarray, hand: np.ndarray, hl: int, pile: np.ndarray, pl: int,
           seen: np.ndarray, gone: np.ndarray, hand_len: np.ndarray, seat: int, talon_left: int,
           rng: np.ndarray) -> Any:
    """The position in the hand of the card ``policy`` plays."""
    if policy == P_RANDOM:
        return _below(rng, hl)
    if policy == P_PLAYOUT or policy == P_PLAYOUT_FAST:
        return playout_move(hand, hl, pile, pl, seen, values, policy == P_PLAYOUT, rng)
    return best_scored(policy, cfg, values, hand, hl, pile, pl, gone, hand_len, seat, talon_left, rng)
