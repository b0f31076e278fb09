"""Search rollouts in the compiled simulator: finish a ``xeri.bots.sim.SimState`` with a fast policy.

``playout(st, rnd, smart)`` has the signature of ``xeri.bots.ismcts.playout``,
so a search can swap it in; ``benchmarks/research_rollouts.py`` measures the
gain in iterations per second.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..bots.sim import SimState
from . import kernels

_BUFFERS: dict[int, tuple[Any, ...]] = {}
_CFG: dict[tuple[Any, ...], tuple[Any, Any]] = {}


def _config(st: SimState) -> tuple[Any, Any]:
    r = st.rules
    # Keyed by value: search states of different rulesets may share nothing but these numbers.
    key = (r.players, r.sides, r.hand_size, r.jack_xeri_any, r.xeri_points, r.jack_xeri_points,
           r.most_cards_points, r.last_card_xeri, tuple(r.values))
    got = _CFG.get(key)
    if got is None:
        cfg = np.array([r.players, r.sides, r.hand_size, 0, 0, int(r.jack_xeri_any), r.xeri_points,
                        r.jack_xeri_points, r.most_cards_points, int(r.last_card_xeri)], dtype=np.int64)
        got = _CFG[key] = (cfg, np.array(r.values, dtype=np.int64))
    return got


def playout(st: SimState, rnd: Callable[[], float], smart: bool = True) -> None:
    """Finish the round in ``st`` (points into ``st.pts``, ``st.turn = -1``) with the expert-like policy."""
    cfg, values = _config(st)
    n = st.rules.players
    bufs = _BUFFERS.get(n)
    if bufs is None:
        bufs = _BUFFERS[n] = (np.empty((n, 16), np.int64), np.empty(n, np.int64), np.empty(52, np.int64),
                              np.empty(52, np.int64), np.empty(13, np.int64))
    hands, hand_len, pile, talon, seen = bufs
    for s, h in enumerate(st.hands):
        hand_len[s] = len(h)
        hands[s, : len(h)] = h
    pl = len(st.pile)
    pile[:pl] = st.pile
    tl = len(st.talon)
    talon[:tl] = st.talon
    seen[:] = st.seen
    cnt = np.array(st.cnt, np.int64)
    pts = np.array(st.pts, np.int64)
    policy = kernels.P_EXPERT if smart else kernels.P_RANDOM
    kernels.finish_round(cfg, values, policy, hands, hand_len, pile, pl, talon, st.tpos, tl, st.turn, st.dealer,
                         st.last, cnt, pts, seen, int(rnd() * 2**62))
    st.pts = pts.tolist()
    st.cnt = cnt.tolist()
    st.turn = -1
