"""Rollout values of a seat's cards: each legal card, then the rest of the round played by a policy, in sampled worlds.

The master bot's ``early=rollout`` (one step of policy improvement over the
expert): for a decision before its exact endgame it deals W worlds from the
seat's view only (``xeri.bots.inference.sample_consistent``), and this module
plays, in each world and for each candidate card, that card and then the rest
of the round with the compiled expert (``xeri.fast.policies``) at every seat.
Every candidate sees the same worlds and the same kernel random stream (common
random numbers), so the differences between cards are measured, not the luck of
the deal. ``card_values`` is offered to the bots as the ``xeri.playouts`` entry
point ``compiled-expert`` (``xeri.bots.playouts``): the bots never import numba.

Each seat's policy reads what that seat may know: its hand, the pile and the
cards shown face up (``gone``: the view's shown cards, then every card played).
The kernel releases the GIL: a server's bot thread leaves its event loop free.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit, uint64

from ..bots.sim import Rules, SimState, new_state
from ..rules import find_ruleset
from . import kernels
from .layout import (
    C_HAND,
    C_JACK_ANY,
    C_JXERI,
    C_LASTX,
    C_PLAYERS,
    C_SIDES,
    C_XERI,
    F_NONE,
    R_CARDS,
    R_JXERIS,
    R_POINTS,
    R_TOTAL,
    R_XERIS,
    RANK,
    _mix,
    stream_start,
)
from .policies import NAMES, choose
from .rollout import _config


@njit(cache=True, nogil=True)
def margins(cfg: np.ndarray, values: np.ndarray, policies: np.ndarray, hands: np.ndarray, hand_len: np.ndarray,
            piles: np.ndarray, pl0: int, talons: np.ndarray, tl: int, turn0: int, dealer: int, last0: int,
            seen: np.ndarray, gone: np.ndarray, res0: np.ndarray, cards: np.ndarray, side: int, seed: int,
            deals: int, card_w: float, out: np.ndarray) -> None:
    """``out[w, k]``: the margin of ``side`` when the seat ``turn0`` plays ``cards[k]`` in world ``w``.

    World ``w`` is ``hands[w]``/``hand_len[w]``, ``piles[w, :pl0]``, the undealt
    talon ``talons[w, :tl]`` and the tallies so far ``res0[w]`` (``R_CARDS``,
    ``R_POINTS`` with xeri points folded in); ``seen`` (per rank) and ``gone``
    (per card) count the cards shown face up. After the card, ``policies[s]``
    plays seat ``s``, on the stream of (``seed``, ``w``) for every card, to the
    round's end (``deals`` 0: the margin is the side's total minus the mean of
    the others') or to the end of the ``deals``-th deal from now (the points so
    far, plus ``card_w`` a card taken, minus the others' mean).
    """
    n, sides, hand = cfg[C_PLAYERS], cfg[C_SIDES], cfg[C_HAND]
    jack_any, last_xeri = cfg[C_JACK_ANY] == 1, cfg[C_LASTX] == 1
    base = _mix(uint64(seed))
    state = np.empty(1, np.uint64)
    h = np.empty((n, 16), np.int64)
    hl = np.empty(n, np.int64)
    pile = np.empty(53, np.int64)
    sn = np.empty(13, np.int64)
    gn = np.empty(52, np.uint8)
    res = np.empty((sides, 5), np.int64)
    worth = np.empty(sides, np.float64)
    for w in range(hands.shape[0]):
        talon = talons[w]
        for k in range(cards.shape[0]):
            state[0] = stream_start(base, w)
            h[:, :] = hands[w]
            hl[:] = hand_len[w]
            pl = pl0
            pile[:pl] = piles[w, :pl]
            sn[:] = seen
            gn[:] = gone
            res[:, :] = 0
            res[:, R_CARDS] = res0[w, :, R_CARDS]
            res[:, R_POINTS] = res0[w, :, R_POINTS]
            turn, last, tpos = turn0, last0, 0
            in_hands = 0
            for s in range(n):
                in_hands += hl[s]
            ends = deals
            first = True
            while True:
                if first:
                    i = 0
                    for j in range(hl[turn]):
                        if h[turn, j] == cards[k]:
                            i = j
                    first = False
                else:
                    i = choose(policies[turn], cfg, values, h[turn], hl[turn], pile, pl, sn, gn, hl, turn,
                               tl - tpos, state)
                card, pl, flag = kernels.play_card(sides, jack_any, last_xeri, values, h, hl, turn, i, pile, pl,
                                                   in_hands - 1 + tl - tpos, res, True)
                in_hands -= 1
                sn[RANK[card]] += 1
                gn[card] = 1
                if flag != F_NONE:
                    last = turn
                turn = turn + 1 if turn + 1 < n else 0
                if in_hands == 0:
                    if tpos == tl:
                        kernels.finish(cfg, values, pile, pl, last, res)
                        for s in range(sides):
                            worth[s] = res[s, R_TOTAL]
                        break
                    ends -= 1
                    if ends == 0:
                        for s in range(sides):
                            worth[s] = (res[s, R_POINTS] + cfg[C_XERI] * res[s, R_XERIS]
                                        + cfg[C_JXERI] * res[s, R_JXERIS] + card_w * res[s, R_CARDS])
                        break
                    tpos, in_hands = kernels._deal_hands(h, hl, talon, tpos, tl, n, hand, dealer)
            rest = 0.0
            for s in range(sides):
                if s != side:
                    rest += worth[s]
            out[w, k] = worth[side] - rest / (sides - 1)


def card_values(worlds: Sequence[SimState], cards: Sequence[int], side: int, seed: int, gone: Sequence[int],
                policy: str = "expert", deals: int = 0, card_w: float = 0.15) -> list[list[float]]:
    """Per world, each card's round margin for ``side``: the card, then ``policy`` (``xeri.fast.policies.NAMES``)
    at every seat to the round's end (or to the end of the ``deals``-th deal from now, each card taken worth
    ``card_w``: ``margins``); ``gone`` lists the cards shown face up so far (the view's, not a world's).

    The worlds share the seat to move, the pile's length and the talon's length (samples of one view).
    """
    if not worlds:
        return []
    first = worlds[0]
    cfg, values = _config(first)
    n, sides = first.rules.players, first.rules.sides
    w = len(worlds)
    hands = np.zeros((w, n, 16), np.int64)
    hand_len = np.zeros((w, n), np.int64)
    pl = len(first.pile)
    piles = np.zeros((w, 53), np.int64)
    tl = len(first.talon) - first.tpos
    talons = np.zeros((w, 52), np.int64)
    res0 = np.zeros((w, sides, 5), np.int64)
    for i, st in enumerate(worlds):
        for s, hand in enumerate(st.hands):
            hand_len[i, s] = len(hand)
            hands[i, s, : len(hand)] = hand
        piles[i, :pl] = st.pile
        talons[i, :tl] = st.talon[st.tpos:]
        res0[i, :, R_CARDS] = st.cnt
        res0[i, :, R_POINTS] = st.pts
    gone_arr = np.zeros(52, np.uint8)
    gone_arr[list(gone)] = 1
    out = np.empty((w, len(cards)), np.float64)
    margins(cfg, values, np.full(n, NAMES[policy], np.int64), hands, hand_len, piles, pl, talons, tl, first.turn,
            first.dealer, first.last, np.array(first.seen, np.int64), gone_arr, res0, np.array(cards, np.int64),
            side, seed, deals, card_w, out)
    return out.tolist()


def _warm() -> None:
    """Load (or compile) ``margins`` at import, on a one-card round: a game's first decision should not wait for it."""
    rules = Rules(find_ruleset("classic"))
    cfg, values = _config(new_state(rules, 0, [[1], []], [], [], 0))
    out = np.empty((1, 1), np.float64)
    margins(cfg, values, np.full(2, NAMES["expert"], np.int64), np.ones((1, 2, 16), np.int64),
            np.array([[1, 0]], np.int64), np.zeros((1, 53), np.int64), 0, np.zeros((1, 52), np.int64), 0, 0, 1, -1,
            np.zeros(13, np.int64), np.zeros(52, np.uint8), np.zeros((1, 2, 5), np.int64), np.ones(1, np.int64), 0, 1,
            1, 0.15, out)


_warm()
