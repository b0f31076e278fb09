"""Numba kernels of the batch simulator: one round's deal and play on small integer arrays.

Cards are indices 0..51 (``Card.index``: suit * 13 + rank - 2), so a card's rank
is ``index % 13`` (9 is a Jack). Every round has its own random stream, derived
from the batch seed and the round number, so results do not depend on threads.
Policies read only what the seat to play may know: its hand, the pile and the
cards seen face up (``seen``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange, uint64

# cfg layout (an int64 array, see ``xeri.fast.config_array``)
C_PLAYERS, C_SIDES, C_HAND, C_PILE, C_INITIAL, C_JACK_ANY, C_XERI, C_JXERI, C_MOST, C_LASTX = range(10)
# initial_pile codes
I_REDEAL, I_JACK_UNDER, I_REDEAL_ANY_JACK, I_KEEP = range(4)
# policy codes
P_RANDOM, P_GREEDY, P_EXPERT = range(3)
# per-move flags in the move log
F_NONE, F_CAPTURE, F_XERI, F_JACK_XERI = range(4)
# result columns per side
R_TOTAL, R_CARDS, R_POINTS, R_XERIS, R_JXERIS = range(5)

JACK = 9
#: rank (0..12) of each card index: a table lookup beats Python-semantics ``%`` in the hot loop
RANK = np.array([i % 13 for i in range(52)], dtype=np.int64)
_M1 = uint64(0x9E3779B97F4A7C15)
_M2 = uint64(0xBF58476D1CE4E5B9)
_M3 = uint64(0x94D049BB133111EB)
_MUL = uint64(0x2545F4914F6CDD1D)


@njit(cache=True, inline="always")
def _mix(x: np.uint64) -> np.uint64:
    """splitmix64's finaliser: turns (seed, round) into a well-spread stream state."""
    x = x + _M1
    x = (x ^ (x >> uint64(30))) * _M2
    x = (x ^ (x >> uint64(27))) * _M3
    return x ^ (x >> uint64(31))


@njit(cache=True, inline="always")
def _below(state: np.ndarray, n: int) -> Any:
    """A uniform integer in 0..n-1 from the xorshift64* stream in ``state[0]``."""
    x = state[0]
    x ^= x >> uint64(12)
    x ^= x << uint64(25)
    x ^= x >> uint64(27)
    state[0] = x
    r = (x * _MUL) >> uint64(32)
    return np.int64((r * uint64(n)) >> uint64(32))


@njit(cache=True, inline="always")
def _deal_hands(hands: np.ndarray, hand_len: np.ndarray, talon: np.ndarray, tpos: int, tl: int, n: int, h: int,
                dealer: int) -> tuple[int, int]:
    """Deal each seat the next hand from the talon, the dealer's next seat first; the new (tpos, in_hands)."""
    k = min(h, (tl - tpos) // n)
    for j in range(n):
        seat = (dealer + 1 + j) % n
        for c in range(k):
            hands[seat, c] = talon[tpos]
            tpos += 1
        hand_len[seat] = k
    return tpos, k * n


@njit(cache=True, inline="always")
def _pile_fault(rule: int, pile: np.ndarray, p: int) -> bool:
    if p == 0 or (rule != I_REDEAL and rule != I_REDEAL_ANY_JACK):
        return False
    if p >= 2 and RANK[pile[p - 1]] == RANK[pile[p - 2]]:
        return True
    if rule == I_REDEAL:
        return bool(RANK[pile[p - 1]] == JACK)
    for i in range(p):
        if RANK[pile[i]] == JACK:
            return True
    return False


@njit(cache=True, inline="always")
def deal_round(cfg: np.ndarray, dealer: int, state: np.ndarray, deck: np.ndarray,
               hands: np.ndarray, hand_len: np.ndarray, pile: np.ndarray, talon: np.ndarray) -> tuple[int, int]:
    """Shuffle, cut, deal hands and pile, apply the initial-pile rule; returns (pile_len, talon_len)."""
    n, h, p = cfg[C_PLAYERS], cfg[C_HAND], cfg[C_PILE]
    for i in range(52):
        deck[i] = i
    for i in range(51, 0, -1):
        j = _below(state, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    # A cut only rotates a uniformly shuffled deck, so it is left out here.
    pos = 0
    for k in range(n):
        seat = (dealer + 1 + k) % n
        for c in range(h):
            hands[seat, c] = deck[pos]
            pos += 1
        hand_len[seat] = h
    rest = 52 - pos
    body = deck[pos:]
    rule = cfg[C_INITIAL]
    while _pile_fault(rule, body, p):
        for i in range(rest - 1, 0, -1):
            j = _below(state, i + 1)
            body[i], body[j] = body[j], body[i]
    for i in range(p):
        pile[i] = body[i]
    tl = rest - p
    for i in range(tl):
        talon[i] = body[p + i]
    if rule == I_JACK_UNDER:
        all_jacks = True
        for i in range(p):
            if RANK[pile[i]] != JACK:
                all_jacks = False
        while p > 0 and not all_jacks and RANK[pile[p - 1]] == JACK:
            top = pile[p - 1]
            for i in range(p - 1, 0, -1):
                pile[i] = pile[i - 1]
            pile[0] = top
    return p, tl


@njit(cache=True)
def _choose(policy: int, seat_hand: np.ndarray, hl: int, pile: np.ndarray, pl: int, seen: np.ndarray,
            values: np.ndarray, cfg: np.ndarray, cards_left: int, state: np.ndarray) -> Any:
    """The position in the hand of the card to play."""
    if policy == P_RANDOM or hl == 1:
        return _below(state, hl)
    top = RANK[pile[pl - 1]] if pl > 0 else -1
    pile_value = 0
    for i in range(pl):
        pile_value += values[pile[i]]
    best = -1
    best_score = -1_000_000
    for i in range(hl):
        card = seat_hand[i]
        rank = RANK[card]
        if pl > 0 and (rank == top or rank == JACK):
            gain = 100 * (pile_value + values[card]) + 10 * (pl + 1)
            if pl == 1 and rank == top:
                gain += 100 * (cfg[C_JXERI] if rank == JACK else cfg[C_XERI])
            elif pl == 1 and cfg[C_JACK_ANY] == 1:
                gain += 100 * cfg[C_XERI]
            if rank == JACK and rank != top:
                if policy == P_GREEDY:
                    gain -= 50  # keep the Jack when an equal capture by rank exists
                # The expert keeps a Jack for a pile worth taking.
                elif pile_value + values[card] < 2 and pl < 4 and cards_left > 0:
                    gain = -1_000 + gain // 100
            score = 10_000 + gain
        else:
            # Not a capture: give away little, and a card whose rank is mostly gone.
            score = -100 * values[card]
            if rank == JACK:
                score -= 2_000
            if policy == P_EXPERT:
                same = seen[rank]
                for k in range(hl):
                    if k != i and RANK[seat_hand[k]] == rank:
                        same += 1
                score += 300 * same
                if pl == 0:
                    score += 300 * same  # a lone card invites a xeri
        # Ties go to the lowest card, so the choice depends on the hand's cards, not their order.
        if score > best_score or (score == best_score and card < seat_hand[best]):
            best_score = score
            best = i
    return best


@njit(cache=True, inline="always")
def play_round(cfg: np.ndarray, values: np.ndarray, policies: np.ndarray, dealer: int, state: np.ndarray,
               hands: np.ndarray, hand_len: np.ndarray, pile: np.ndarray, pl: int, talon: np.ndarray, tl: int,
               owner: np.ndarray, seen: np.ndarray, result: np.ndarray, moves: np.ndarray, flags: np.ndarray,
               record: bool) -> None:
    """Play a dealt round to its end; fill ``result[side, R_*]`` and, with ``record``, ``owner[card]`` (side, or -1).

    Points are summed as cards are taken (no pass over the owners at the end): the hot path of random play.
    """
    n, sides, h = cfg[C_PLAYERS], cfg[C_SIDES], cfg[C_HAND]
    if record:
        for i in range(52):
            owner[i] = -1
    smart = False  # only the smart policies read ``seen``: random play skips it
    for s in range(n):
        if policies[s] != P_RANDOM:
            smart = True
    if smart:
        for r in range(13):
            seen[r] = 0
        for i in range(pl):
            seen[RANK[pile[i]]] += 1
    for s in range(sides):
        for k in range(5):
            result[s, k] = 0
    in_hands = 0
    for s in range(n):
        in_hands += hand_len[s]
    tpos = 0
    last = -1
    turn = (dealer + 1) % n
    step = 0
    jack_any = cfg[C_JACK_ANY] == 1
    last_xeri = cfg[C_LASTX] == 1
    while True:
        hl = hand_len[turn]
        if not smart or hl == 1 or policies[turn] == P_RANDOM:
            i = _below(state, hl)
        else:
            i = _choose(policies[turn], hands[turn], hl, pile, pl, seen, values, cfg, in_hands - 1 + tl - tpos, state)
        card = hands[turn, i]
        hands[turn, i] = hands[turn, hl - 1]
        hand_len[turn] = hl - 1
        in_hands -= 1
        rank = RANK[card]
        if smart:
            seen[rank] += 1
        flag = F_NONE
        if pl > 0 and (rank == RANK[pile[pl - 1]] or rank == JACK):
            top = RANK[pile[pl - 1]]
            side = turn % sides
            val = values[card]
            for k in range(pl):
                val += values[pile[k]]
            if record:
                for k in range(pl):
                    owner[pile[k]] = side
                owner[card] = side
            result[side, R_POINTS] += val
            result[side, R_CARDS] += pl + 1
            last = turn
            flag = F_CAPTURE
            if pl == 1 and (rank == top or jack_any) and (last_xeri or in_hands > 0 or tpos < tl):
                if rank == JACK and top == JACK:
                    result[side, R_JXERIS] += 1
                    flag = F_JACK_XERI
                else:
                    result[side, R_XERIS] += 1
                    flag = F_XERI
            pl = 0
        else:
            pile[pl] = card
            pl += 1
        if record:
            moves[step] = card
            flags[step] = flag
        step += 1
        turn += 1
        if turn == n:
            turn = 0
        if in_hands == 0:
            if tpos == tl:
                break
            tpos, in_hands = _deal_hands(hands, hand_len, talon, tpos, tl, n, h, dealer)
    if pl > 0 and last >= 0:
        side = last % sides
        for k in range(pl):
            result[side, R_POINTS] += values[pile[k]]
            if record:
                owner[pile[k]] = side
        result[side, R_CARDS] += pl
    best = -1
    best_count = -1
    tie = False
    for s in range(sides):
        if result[s, R_CARDS] > best_count:
            best_count = result[s, R_CARDS]
            best = s
            tie = False
        elif result[s, R_CARDS] == best_count:
            tie = True
    for s in range(sides):
        total = result[s, R_POINTS] + cfg[C_XERI] * result[s, R_XERIS] + cfg[C_JXERI] * result[s, R_JXERIS]
        if s == best and not tie:
            total += cfg[C_MOST]
        result[s, R_TOTAL] = total
    if record:
        for j in range(step, 52):
            moves[j] = -1
            flags[j] = -1


@njit(cache=True, parallel=True)
def simulate_batch(cfg: np.ndarray, values: np.ndarray, policies: np.ndarray, seed: int, first_dealer: int,
                   results: np.ndarray, record: bool, owners: np.ndarray, moves: np.ndarray, flags: np.ndarray,
                   deals: np.ndarray, chunks: int) -> None:
    """Deal and play ``results.shape[0]`` rounds; round i has dealer first_dealer + i.

    With ``record`` the deal (52 cards: hands in seat order, pile, talon), each
    card's owner, the moves and their flags are kept per round.
    """
    total = results.shape[0]
    n, h = cfg[C_PLAYERS], cfg[C_HAND]
    per = (total + chunks - 1) // chunks
    base = _mix(uint64(seed))
    for ch in prange(chunks):
        state = np.empty(1, dtype=np.uint64)
        deck = np.empty(52, dtype=np.int64)
        hands = np.empty((n, 16), dtype=np.int64)
        hand_len = np.empty(n, dtype=np.int64)
        pile = np.empty(52, dtype=np.int64)
        talon = np.empty(52, dtype=np.int64)
        owner = np.empty(52, dtype=np.int64)
        seen = np.empty(13, dtype=np.int64)
        res = np.empty((4, 5), dtype=np.int64)
        dummy = np.empty(52, dtype=np.int64)
        for r in range(ch * per, min(total, (ch + 1) * per)):
            state[0] = _mix(base ^ _mix(uint64(r)))
            if state[0] == uint64(0):
                state[0] = _M1
            dealer = (first_dealer + r) % n
            pl, tl = deal_round(cfg, dealer, state, deck, hands, hand_len, pile, talon)
            if record:
                pos = 0
                for s in range(n):
                    for c in range(h):
                        deals[r, pos] = hands[s, c]
                        pos += 1
                for c in range(pl):
                    deals[r, pos] = pile[c]
                    pos += 1
                for c in range(tl):
                    deals[r, pos] = talon[c]
                    pos += 1
                play_round(cfg, values, policies, dealer, state, hands, hand_len, pile, pl, talon, tl,
                           owner, seen, res, moves[r], flags[r], True)
                for c in range(52):
                    owners[r, c] = owner[c]
            else:
                play_round(cfg, values, policies, dealer, state, hands, hand_len, pile, pl, talon, tl,
                           owner, seen, res, dummy, dummy, False)
            for s in range(cfg[C_SIDES]):
                for k in range(5):
                    results[r, s, k] = res[s, k]


@njit(cache=True, parallel=True)
def play_deals_batch(cfg: np.ndarray, values: np.ndarray, policies: np.ndarray, seed: int, dealers: np.ndarray,
                     deals: np.ndarray, results: np.ndarray, owners: np.ndarray, moves: np.ndarray,
                     flags: np.ndarray, chunks: int) -> None:
    """Play given deals (52 cards each: hands in seat order, pile, talon) and record everything."""
    total = results.shape[0]
    n, h, p = cfg[C_PLAYERS], cfg[C_HAND], cfg[C_PILE]
    tl = 52 - n * h - p
    per = (total + chunks - 1) // chunks
    base = _mix(uint64(seed))
    for ch in prange(chunks):
        state = np.empty(1, dtype=np.uint64)
        hands = np.empty((n, 16), dtype=np.int64)
        hand_len = np.empty(n, dtype=np.int64)
        pile = np.empty(52, dtype=np.int64)
        talon = np.empty(52, dtype=np.int64)
        owner = np.empty(52, dtype=np.int64)
        seen = np.empty(13, dtype=np.int64)
        res = np.empty((4, 5), dtype=np.int64)
        for r in range(ch * per, min(total, (ch + 1) * per)):
            state[0] = _mix(base ^ _mix(uint64(r)))
            if state[0] == uint64(0):
                state[0] = _M1
            pos = 0
            for s in range(n):
                for c in range(h):
                    hands[s, c] = deals[r, pos]
                    pos += 1
                hand_len[s] = h
            for c in range(p):
                pile[c] = deals[r, pos]
                pos += 1
            for c in range(tl):
                talon[c] = deals[r, pos]
                pos += 1
            play_round(cfg, values, policies, dealers[r], state, hands, hand_len, pile, p, talon, tl,
                       owner, seen, res, moves[r], flags[r], True)
            for c in range(52):
                owners[r, c] = owner[c]
            for s in range(cfg[C_SIDES]):
                for k in range(5):
                    results[r, s, k] = res[s, k]


@njit(cache=True)
def finish_round(cfg: np.ndarray, values: np.ndarray, policy: int, hands: np.ndarray, hand_len: np.ndarray,
                 pile: np.ndarray, pl: int, talon: np.ndarray, tpos: int, tl: int, turn: int, dealer: int,
                 last: int, cnt: np.ndarray, pts: np.ndarray, seen: np.ndarray, seed: int) -> None:
    """Play a round from the middle to its end with one policy for every seat (a search rollout).

    ``cnt`` and ``pts`` (per side) hold the cards and points taken so far, xeris
    included, and are updated in place; 'most cards' is added at the end.
    """
    n, sides, h = cfg[C_PLAYERS], cfg[C_SIDES], cfg[C_HAND]
    state = np.empty(1, dtype=np.uint64)
    state[0] = _mix(uint64(seed))
    if state[0] == uint64(0):
        state[0] = _M1
    in_hands = 0
    for s in range(n):
        in_hands += hand_len[s]
    pile_val = 0
    for k in range(pl):
        pile_val += values[pile[k]]
    while True:
        hl = hand_len[turn]
        if policy == P_RANDOM or hl == 1:
            i = _below(state, hl)
        else:
            i = _choose(policy, hands[turn], hl, pile, pl, seen, values, cfg, in_hands - 1 + tl - tpos, state)
        card = hands[turn, i]
        hands[turn, i] = hands[turn, hl - 1]
        hand_len[turn] = hl - 1
        in_hands -= 1
        rank = RANK[card]
        seen[rank] += 1
        if pl > 0 and (rank == RANK[pile[pl - 1]] or rank == JACK):
            top = RANK[pile[pl - 1]]
            side = turn % sides
            cnt[side] += pl + 1
            pts[side] += pile_val + values[card]
            last = turn
            if pl == 1 and (rank == top or cfg[C_JACK_ANY] == 1) and (
                    cfg[C_LASTX] == 1 or in_hands > 0 or tpos < tl):
                pts[side] += cfg[C_JXERI] if (rank == JACK and top == JACK) else cfg[C_XERI]
            pl = 0
            pile_val = 0
        else:
            pile[pl] = card
            pl += 1
            pile_val += values[card]
        turn += 1
        if turn == n:
            turn = 0
        if in_hands == 0:
            if tpos == tl:
                break
            tpos, in_hands = _deal_hands(hands, hand_len, talon, tpos, tl, n, h, dealer)
    if pl > 0 and last >= 0:
        side = last % sides
        cnt[side] += pl
        pts[side] += pile_val
    best = 0
    ties = 0
    for s in range(sides):
        if cnt[s] > cnt[best]:
            best = s
    for s in range(sides):
        if cnt[s] == cnt[best]:
            ties += 1
    if ties == 1:
        pts[best] += cfg[C_MOST]
