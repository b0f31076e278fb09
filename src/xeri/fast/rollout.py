"""Search rollouts in the compiled simulator: finish a ``xeri.bots.sim.SimState`` with the search's playout policy.

``playout(st, rnd, smart)`` has the signature of ``xeri.bots.ismcts.playout`` and
plays the same policy (``policy_move``; ``xeri.fast.policies.playout_move`` is its
compiled twin, checked move for move by ``tests/fast/test_fast.py``), only on the
kernel's random stream, seeded by one ``rnd()`` draw; so a search can swap it in
(``rollout=compiled``). ``benchmarks/research_rollouts.py`` measures the gain.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..bots.sim import SimState
from . import kernels
from .layout import R_CARDS, R_JXERIS, R_POINTS, R_TOTAL, R_XERIS, pack_config
from .policies import P_PLAYOUT, P_PLAYOUT_FAST

_BUFFERS: dict[int, tuple[Any, ...]] = {}
_CFG: dict[tuple[Any, ...], tuple[Any, Any]] = {}


def _config(st: SimState) -> tuple[Any, Any]:
    """The kernels' config and card values for the search state's rules (no deal: pile and initial rule unused)."""
    r = st.rules
    # Keyed by value: search states of different rulesets may share nothing but these numbers.
    key = (r.players, r.sides, r.hand_size, r.jack_xeri_any, r.xeri_points, r.jack_xeri_points,
           r.most_cards_points, r.last_card_xeri, tuple(r.values))
    got = _CFG.get(key)
    if got is None:
        cfg = pack_config(r.players, r.sides, r.hand_size, 0, "keep", r.jack_xeri_any, r.xeri_points,
                          r.jack_xeri_points, r.most_cards_points, r.last_card_xeri)
        got = _CFG[key] = (cfg, np.array(r.values, dtype=np.int64))
    return got


def finish(st: SimState, seed: int, smart: bool = True, moves: Any = None) -> None:
    """Finish the round in ``st`` with ``policy_move``'s twin, on the kernel stream of ``seed``.

    Points go into ``st.pts`` (and cards into ``st.cnt``, xeris into ``st.xeris``);
    ``st.turn`` ends at -1. With ``moves`` (an int64 array of 52), the cards played are kept there.
    """
    cfg, values = _config(st)
    n = st.rules.players
    bufs = _BUFFERS.get(n)
    if bufs is None:
        bufs = _BUFFERS[n] = (np.empty((n, 16), np.int64), np.empty(n, np.int64), np.empty(53, np.int64),
                              np.empty(52, np.int64), np.empty(13, np.int64), np.empty(52, np.int64),
                              np.full(n, P_PLAYOUT, np.int64), np.full(n, P_PLAYOUT_FAST, np.int64))
    hands, hand_len, pile, talon, seen, no_moves, smart_pol, fast_pol = bufs
    for s, h in enumerate(st.hands):
        hand_len[s] = len(h)
        hands[s, : len(h)] = h
    pl = len(st.pile)
    pile[:pl] = st.pile
    tl = len(st.talon)
    talon[:tl] = st.talon
    seen[:] = st.seen
    res = np.zeros((st.rules.sides, 5), np.int64)
    res[:, R_CARDS] = st.cnt
    res[:, R_POINTS] = st.pts
    record = moves is not None
    kernels.finish_round(cfg, values, smart_pol if smart else fast_pol, hands, hand_len, pile, pl, talon, st.tpos,
                         tl, st.turn, st.dealer, st.last, seen, res, seed, moves if record else no_moves, record)
    st.pts = res[:, R_TOTAL].tolist()
    st.cnt = res[:, R_CARDS].tolist()
    taken = (res[:, R_XERIS] + res[:, R_JXERIS]).tolist()
    st.xeris = [a + b for a, b in zip(st.xeris, taken, strict=True)]
    st.turn = -1


def playout(st: SimState, rnd: Callable[[], float], smart: bool = True) -> None:
    """Finish the round in ``st`` as ``xeri.bots.ismcts.playout`` does (same policy), on a stream seeded by ``rnd``."""
    finish(st, int(rnd() * 2**62), smart)
