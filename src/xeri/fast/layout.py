"""What the kernels agree on: the config and result columns, the move flags, card ranks, and the random stream.

Cards are indices 0..51 (``Card.index``: suit * 13 + rank - 2), so a card's rank
is ``index % 13`` (9 is a Jack). Every round (or game) has its own xorshift64*
stream, seeded from (seed, round number) through splitmix64, so results do not
depend on the number of threads.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, uint64

# cfg layout (an int64 array made by ``pack_config``)
C_PLAYERS, C_SIDES, C_HAND, C_PILE, C_INITIAL, C_JACK_ANY, C_XERI, C_JXERI, C_MOST, C_LASTX = range(10)
CONFIG_SIZE = 10
# initial_pile codes
I_REDEAL, I_JACK_UNDER, I_REDEAL_ANY_JACK, I_KEEP = range(4)
INITIAL = {"redeal": I_REDEAL, "jack_under": I_JACK_UNDER, "redeal_any_jack": I_REDEAL_ANY_JACK, "keep": I_KEEP}
# per-move flags in the move log
F_NONE, F_CAPTURE, F_XERI, F_JACK_XERI = range(4)
# result columns per side: the total, cards taken, the taken cards' points, xeris, Jack xeris
R_TOTAL, R_CARDS, R_POINTS, R_XERIS, R_JXERIS = range(5)
RESULT_COLUMNS = 5

JACK = 9
#: rank (0..12) of each card index: a table lookup beats Python-semantics ``%`` in the hot loop
RANK = np.array([i % 13 for i in range(52)], dtype=np.int64)
_M1 = uint64(0x9E3779B97F4A7C15)
_M2 = uint64(0xBF58476D1CE4E5B9)
_M3 = uint64(0x94D049BB133111EB)
_MUL = uint64(0x2545F4914F6CDD1D)


def pack_config(players: int, sides: int, hand_size: int, pile_size: int, initial_pile: str, jack_xeri_any: bool,
                xeri_points: int, jack_xeri_points: int, most_cards_points: int, last_card_xeri: bool) -> Any:
    """The rule numbers as the int64 array the kernels read (the one place that knows its layout)."""
    return np.array(
        [players, sides, hand_size, pile_size, INITIAL[initial_pile], int(jack_xeri_any), xeri_points,
         jack_xeri_points, most_cards_points, int(last_card_xeri)],
        dtype=np.int64,
    )


@njit(cache=True, inline="always")
def _mix(x: np.uint64) -> np.uint64:
    """splitmix64's finaliser: turns (seed, round) into a well-spread stream state."""
    x = x + _M1
    x = (x ^ (x >> uint64(30))) * _M2
    x = (x ^ (x >> uint64(27))) * _M3
    return x ^ (x >> uint64(31))


@njit(cache=True, inline="always")
def stream_start(base: np.uint64, r: int) -> np.uint64:
    """The start of stream ``r`` of a batch whose seed mixed to ``base`` (never 0: xorshift would stay at 0)."""
    x = _mix(base ^ _mix(uint64(r)))
    return x if x != uint64(0) else _M1


@njit(cache=True, inline="always")
def _step(x: np.uint64) -> np.uint64:
    """The next state of the xorshift64* stream."""
    x ^= x >> uint64(12)
    x ^= x << uint64(25)
    x ^= x >> uint64(27)
    return x


@njit(cache=True, inline="always")
def _draw(x: np.uint64, n: int) -> Any:
    """The uniform integer in 0..n-1 of the stepped state ``x``: ``floor(u * n)`` for its 32-bit fraction ``u``.

    Hot loops keep the state in a local (a register) and call ``_step`` and
    ``_draw``; ``_below`` does both on a state kept in an array.
    """
    r = (x * _MUL) >> uint64(32)
    return np.int64((r * uint64(n)) >> uint64(32))


@njit(cache=True, inline="always")
def _below(state: np.ndarray, n: int) -> Any:
    """A uniform integer in 0..n-1 from the xorshift64* stream in ``state[0]``.

    It is ``floor(u * n)`` for the 32-bit fraction ``u`` of the step, so a Python
    ``rnd()`` returning the same ``u`` makes ``int(rnd() * n)`` draw the same number.
    """
    x = _step(state[0])
    state[0] = x
    return _draw(x, n)
