"""Numba kernels of the batch simulator: one round's deal and play on small integer arrays.

One function plays a card (``play_card``: capture, xeri or pile), one ends a
round (``finish``: the last capture, most cards, the totals), and one loop
(``play_out``) drives them with the seats' policies; the batch of fresh deals,
the batch of given deals and the search rollout from the middle of a round all
run that loop, and ``tests/fast/test_fast.py`` replays its rounds through the engine.
All-random rounds with nothing recorded, the batch most callers run, have a
loop of their own (``random_batch``: the same rounds, faster).
Policies read only what the seat to play may know (``xeri.fast.policies``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange, uint64

from .layout import (
    C_HAND,
    C_INITIAL,
    C_JACK_ANY,
    C_JXERI,
    C_LASTX,
    C_MOST,
    C_PILE,
    C_PLAYERS,
    C_SIDES,
    C_XERI,
    F_CAPTURE,
    F_JACK_XERI,
    F_NONE,
    F_XERI,
    I_JACK_UNDER,
    I_REDEAL,
    I_REDEAL_ANY_JACK,
    JACK,
    R_CARDS,
    R_JXERIS,
    R_POINTS,
    R_TOTAL,
    R_XERIS,
    RANK,
    _below,
    _draw,
    _mix,
    _step,
    stream_start,
)
from .policies import P_RANDOM, choose


@njit(cache=True, inline="always")
def _deal_hands(hands: np.ndarray, hand_len: np.ndarray, talon: np.ndarray, tpos: int, tl: int, n: int, h: int,
                dealer: int) -> tuple[int, int]:
    """Deal each seat the next hand from the talon, the dealer's next seat first; the new (tpos, in_hands)."""
    k = min(h, (tl - tpos) // n)
    seat = dealer
    for _ in range(n):
        seat += 1
        if seat == n:
            seat = 0
        for c in range(k):
            hands[seat, c] = talon[tpos]
            tpos += 1
        hand_len[seat] = k
    return tpos, k * n


@njit(cache=True, inline="always")
def deal_round(cfg: np.ndarray, dealer: int, state: np.ndarray, deck: np.ndarray,
               hands: np.ndarray, hand_len: np.ndarray, pile: np.ndarray) -> tuple[int, int]:
    """Shuffle, cut, deal hands and pile, apply the initial-pile rule; returns (pile length, talon start).

    The talon stays in the deck: ``deck[talon_start:52]``, in dealing order.
    """
    n, h, p = cfg[C_PLAYERS], cfg[C_HAND], cfg[C_PILE]
    x = state[0]  # the stream in a local: a register, not a store and a load per draw
    for i in range(52):
        deck[i] = i
    for i in range(51, 0, -1):
        x = _step(x)
        j = _draw(x, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    # A cut only rotates a uniformly shuffled deck, so it is left out here.
    pos = 0
    seat = dealer
    for _ in range(n):
        seat += 1
        if seat == n:
            seat = 0
        for c in range(h):
            hands[seat, c] = deck[pos]
            pos += 1
        hand_len[seat] = h
    rule = cfg[C_INITIAL]
    while p > 0 and (rule == I_REDEAL or rule == I_REDEAL_ANY_JACK):
        # A faulty pile (a pair on top; a Jack on top, or anywhere with redeal_any_jack) reshuffles the rest.
        # Written out here, not as a helper: an inlined helper taking the deck adds refcounting each round.
        top = RANK[deck[pos + p - 1]]
        fault = top == JACK or (p >= 2 and top == RANK[deck[pos + p - 2]])
        if not fault and rule == I_REDEAL_ANY_JACK:
            for i in range(pos, pos + p - 1):
                if RANK[deck[i]] == JACK:
                    fault = True
        if not fault:
            break
        for i in range(51 - pos, 0, -1):
            x = _step(x)
            j = _draw(x, i + 1)
            deck[pos + i], deck[pos + j] = deck[pos + j], deck[pos + i]
    state[0] = x
    for i in range(p):
        pile[i] = deck[pos + i]
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
    return p, pos + p


@njit(cache=True, inline="always")
def play_card(sides: int, jack_any: bool, last_xeri: bool, values: np.ndarray, hands: np.ndarray,
              hand_len: np.ndarray, seat: int, i: int, pile: np.ndarray, pl: int, cards_left: int, res: np.ndarray,
              keep_order: bool) -> tuple[int, int, int]:
    """``seat`` plays the card at ``i`` in its hand, as ``xeri.engine.Round.play`` does.

    The rules come as scalars (``cfg[C_SIDES]``, ``cfg[C_JACK_ANY]``,
    ``cfg[C_LASTX]``), read once per round rather than once per card. With
    ``keep_order`` the rest of the hand keeps its order (the playout policy
    reads it); otherwise the last card takes the gap. ``cards_left`` counts
    the cards still to be played after this one (hands and talon: a xeri
    needs one unless ``last_card_xeri``). A capture adds to ``res[side]`` and
    leaves the taken cards readable in ``pile[:pl + 1]``.
    Returns (card, the new pile length, the move's flag).
    """
    # Unsigned indices (all are >= 0) spare numba's negative-index wraparound in this hot step.
    us = uint64(seat)
    hl = hand_len[us]
    card = hands[us, uint64(i)]
    if keep_order:
        for k in range(i, hl - 1):
            hands[us, uint64(k)] = hands[us, uint64(k + 1)]
    else:
        hands[us, uint64(i)] = hands[us, uint64(hl - 1)]
    hand_len[us] = hl - 1
    rank = RANK[card]
    pile[uint64(pl)] = card
    if pl > 0:
        top = RANK[pile[uint64(pl - 1)]]
        if rank == top or rank == JACK:
            side = seat - sides if seat >= sides else seat  # seats 0..n-1, n = sides or 2 * sides
            val = 0
            for k in range(pl + 1):
                val += values[pile[uint64(k)]]
            res[side, R_POINTS] += val
            res[side, R_CARDS] += pl + 1
            if pl == 1 and (rank == top or jack_any) and (last_xeri or cards_left > 0):
                if rank == JACK and top == JACK:
                    res[side, R_JXERIS] += 1
                    return card, 0, F_JACK_XERI
                res[side, R_XERIS] += 1
                return card, 0, F_XERI
            return card, 0, F_CAPTURE
    return card, pl + 1, F_NONE


@njit(cache=True)
def finish(cfg: np.ndarray, values: np.ndarray, pile: np.ndarray, pl: int, last: int, res: np.ndarray) -> None:
    """End the round: the last capturer takes the pile, a unique most-cards side its points; ``res[:, R_TOTAL]``."""
    sides = cfg[C_SIDES]
    if pl > 0 and last >= 0:
        side = last % sides
        for k in range(pl):
            res[side, R_POINTS] += values[pile[k]]
        res[side, R_CARDS] += pl
    best = 0
    for s in range(1, sides):
        if res[s, R_CARDS] > res[best, R_CARDS]:
            best = s
    ties = 0
    for s in range(sides):
        if res[s, R_CARDS] == res[best, R_CARDS]:
            ties += 1
    for s in range(sides):
        total = res[s, R_POINTS] + cfg[C_XERI] * res[s, R_XERIS] + cfg[C_JXERI] * res[s, R_JXERIS]
        if s == best and ties == 1:
            total += cfg[C_MOST]
        res[s, R_TOTAL] = total


@njit(cache=True, inline="always")
def _any_smart(policies: np.ndarray, n: int) -> bool:
    """Whether a seat's policy reads more than its hand size (the cards seen, the hand's order)."""
    for s in range(n):
        if policies[s] != P_RANDOM:
            return True
    return False


@njit(cache=True)
def play_out(cfg: np.ndarray, values: np.ndarray, policies: np.ndarray, dealer: int, state: np.ndarray,
             hands: np.ndarray, hand_len: np.ndarray, pile: np.ndarray, pl: int, talon: np.ndarray, tpos: int,
             tl: int, turn: int, last: int, seen: np.ndarray, gone: np.ndarray, res: np.ndarray, owner: np.ndarray,
             moves: np.ndarray, flags: np.ndarray, record: bool) -> None:
    """Play the round from seat ``turn``'s move to its end and ``finish`` it; ``res`` holds the tallies so far.

    ``talon[tpos:tl]`` is the undealt talon in dealing order, ``last`` the last
    capturer (-1: nobody yet). ``seen`` (per rank) and ``gone`` (per card) count the cards shown face up;
    only the smart policies read them, so random play leaves them alone. With
    ``record``, ``owner[card]`` gets the capturing side (set it to -1 first),
    and ``moves``/``flags`` the cards played and what they did (-1 after the last).
    """
    _play(cfg, values, policies, dealer, state, hands, hand_len, pile, pl, talon, tpos, tl, turn, last, seen, gone,
          res, owner, moves, flags, record, _any_smart(policies, cfg[C_PLAYERS]))


@njit(cache=True)
def _play(cfg: np.ndarray, values: np.ndarray, policies: np.ndarray, dealer: int, state: np.ndarray,
          hands: np.ndarray, hand_len: np.ndarray, pile: np.ndarray, pl: int, talon: np.ndarray, tpos: int,
          tl: int, turn: int, last: int, seen: np.ndarray, gone: np.ndarray, res: np.ndarray, owner: np.ndarray,
          moves: np.ndarray, flags: np.ndarray, record: bool, smart: bool) -> None:
    """``play_out``'s loop; called with constant ``record`` and ``smart``, it compiles without their branches."""
    n, h, sides = cfg[C_PLAYERS], cfg[C_HAND], cfg[C_SIDES]
    jack_any, last_xeri = cfg[C_JACK_ANY] == 1, cfg[C_LASTX] == 1
    in_hands = 0
    for s in range(n):
        in_hands += hand_len[s]
    step = 0
    while True:
        hl = hand_len[uint64(turn)]
        cards_left = in_hands - 1 + tl - tpos
        if smart:
            i = choose(policies[turn], cfg, values, hands[turn], hl, pile, pl, seen, gone, hand_len, turn,
                       tl - tpos, state)
        else:
            i = _below(state, hl)
        card, new_pl, flag = play_card(sides, jack_any, last_xeri, values, hands, hand_len, turn, i, pile, pl,
                                       cards_left, res, smart)
        in_hands -= 1
        if smart:
            seen[RANK[card]] += 1
            gone[card] = 1
        if flag != F_NONE:
            last = turn
            if record:
                side = turn % sides
                for k in range(pl + 1):
                    owner[pile[k]] = side
        pl = new_pl
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
    if record and last >= 0:
        for k in range(pl):
            owner[pile[k]] = last % sides
    finish(cfg, values, pile, pl, last, res)
    if record:
        for j in range(step, moves.shape[0]):
            moves[j] = -1
            flags[j] = -1


@njit(cache=True, inline="always")
def _random_play(n: int, h: int, sides: int, jack_any: bool, last_xeri: bool, values: np.ndarray,
                 state: np.ndarray, hands: np.ndarray, hand_len: np.ndarray, pile: np.ndarray, pl: int,
                 talon: np.ndarray, tpos: int, tl: int, dealer: int, res: np.ndarray) -> tuple[int, int]:
    """``_play`` from a fresh deal when every seat plays at random and nothing is kept; (pile length, last capturer).

    The same draws, cards and tallies as ``_play`` (``tests/fast/test_fast.py``
    compares them), written for speed: the stream in a local (a register),
    the seats in turn as a loop (each deal gives every hand k cards, and
    k turns round the table empty them, so a seat's hand length is known),
    the cards left counted down. Called with constant ``n``, ``h`` and
    ``sides``, its loops unroll. The hands end empty; ``finish`` follows.
    """
    x = state[0]
    last = -1
    first = dealer + 1 if dealer + 1 < n else 0
    k = hand_len[first]
    left = n * k + tl - tpos  # cards still to be played: a xeri needs one unless last_xeri
    while k > 0:
        for t in range(k):
            hl = uint64(k - t)
            seat = first
            for _ in range(n):
                us = uint64(seat)
                x = _step(x)
                i = uint64(_draw(x, hl))
                card = hands[us, i]
                hands[us, i] = hands[us, hl - uint64(1)]
                left -= 1
                rank = RANK[card]
                pile[uint64(pl)] = card
                if pl > 0:
                    top = RANK[pile[uint64(pl - 1)]]
                    if rank == top or rank == JACK:
                        side = seat - sides if seat >= sides else seat
                        val = 0
                        for q in range(pl + 1):
                            val += values[pile[uint64(q)]]
                        res[side, R_POINTS] += val
                        res[side, R_CARDS] += pl + 1
                        if pl == 1 and (rank == top or jack_any) and (last_xeri or left > 0):
                            if rank == JACK and top == JACK:
                                res[side, R_JXERIS] += 1
                            else:
                                res[side, R_XERIS] += 1
                        last = seat
                        pl = 0
                    else:
                        pl += 1
                else:
                    pl = 1
                seat += 1
                if seat == n:
                    seat = 0
        if tpos == tl:
            break
        tpos, _ = _deal_hands(hands, hand_len, talon, tpos, tl, n, h, dealer)
        k = hand_len[first]
    for s in range(n):
        hand_len[s] = 0
    state[0] = x
    return pl, last


@njit(cache=True)
def _start(cfg: np.ndarray, policies: np.ndarray, pile: np.ndarray, pl: int, seen: np.ndarray, gone: np.ndarray,
           res: np.ndarray, owner: np.ndarray, record: bool) -> None:
    """Clear a fresh round's tallies, owners and seen cards (the pile's cards are face up)."""
    for s in range(cfg[C_SIDES]):
        for k in range(5):
            res[s, k] = 0
    if record:
        for c in range(52):
            owner[c] = -1
    for s in range(cfg[C_PLAYERS]):
        if policies[s] != P_RANDOM:
            for r in range(13):
                seen[r] = 0
            for c in range(52):
                gone[c] = 0
            for c in range(pl):
                seen[RANK[pile[c]]] += 1
                gone[pile[c]] = 1
            break


@njit(cache=True, inline="always")
def _random_rounds(cfg: np.ndarray, values: np.ndarray, seed: int, first_dealer: int, results: np.ndarray,
                   chunks: int, n: int, h: int, sides: int) -> None:
    """``random_batch``'s loop over the rounds, with the rules' numbers passed in (constants in its 2-player copy)."""
    total = results.shape[0]
    per = (total + chunks - 1) // chunks
    base = _mix(uint64(seed))
    jack_any, last_xeri = cfg[C_JACK_ANY] == 1, cfg[C_LASTX] == 1
    for ch in prange(chunks):
        state = np.empty(1, dtype=np.uint64)
        deck = np.empty(52, dtype=np.uint8)
        hands = np.empty((n, 16), dtype=np.uint8)
        hand_len = np.empty(n, dtype=np.int64)
        pile = np.empty(53, dtype=np.uint8)
        res = np.empty((4, 5), dtype=np.int64)
        dealer = (first_dealer + ch * per) % n
        for r in range(ch * per, min(total, (ch + 1) * per)):
            state[0] = stream_start(base, r)
            pl, t0 = deal_round(cfg, dealer, state, deck, hands, hand_len, pile)
            for s in range(sides):
                for k in range(5):
                    res[s, k] = 0
            pl, last = _random_play(n, h, sides, jack_any, last_xeri, values, state, hands, hand_len, pile, pl,
                                    deck, t0, 52, dealer, res)
            finish(cfg, values, pile, pl, last, res)
            for s in range(sides):
                for k in range(5):
                    results[r, s, k] = res[s, k]
            dealer = dealer + 1 if dealer + 1 < n else 0  # (first_dealer + r) % n without a division


@njit(cache=True, parallel=True)
def random_batch(cfg: np.ndarray, values: np.ndarray, seed: int, first_dealer: int, results: np.ndarray,
                 chunks: int) -> None:
    """``simulate_batch`` for random play with nothing recorded (the same rounds), the batch most callers run.

    A kernel of its own, so that the first such call compiles only this
    loop, and with a copy for 2 players and hands of 6 (every 2-player
    preset) whose numbers are constants when it compiles.
    """
    n, h, sides = cfg[C_PLAYERS], cfg[C_HAND], cfg[C_SIDES]
    if n == 2 and h == 6 and sides == 2:
        _random_rounds(cfg, values, seed, first_dealer, results, chunks, 2, 6, 2)
    else:
        _random_rounds(cfg, values, seed, first_dealer, results, chunks, n, h, sides)


@njit(cache=True, parallel=True)
def simulate_batch(cfg: np.ndarray, values: np.ndarray, policies: np.ndarray, seed: int, first_dealer: int,
                   results: np.ndarray, record: bool, owners: np.ndarray, moves: np.ndarray, flags: np.ndarray,
                   deals: np.ndarray, chunks: int) -> None:
    """Deal and play ``results.shape[0]`` rounds; round i has dealer first_dealer + i.

    With ``record`` the deal (52 cards: hands in seat order, pile, talon), each
    card's owner, the moves and their flags are kept per round. Random play
    with nothing recorded is ``random_batch``'s.
    """
    total = results.shape[0]
    n, h = cfg[C_PLAYERS], cfg[C_HAND]
    per = (total + chunks - 1) // chunks
    base = _mix(uint64(seed))
    if not record and not _any_smart(policies, n):
        raise ValueError("random play with nothing recorded is random_batch's")
    for ch in prange(chunks):
        state = np.empty(1, dtype=np.uint64)
        # Cards as uint8: indexing with an unsigned card skips numba's negative-index wraparound.
        deck = np.empty(52, dtype=np.uint8)
        hands = np.empty((n, 16), dtype=np.uint8)
        hand_len = np.empty(n, dtype=np.int64)
        pile = np.empty(53, dtype=np.uint8)
        owner = np.empty(52, dtype=np.int64)
        seen = np.empty(13, dtype=np.int64)
        gone = np.empty(52, dtype=np.uint8)
        res = np.empty((4, 5), dtype=np.int64)
        dummy = np.empty(52, dtype=np.int64)
        dealer = (first_dealer + ch * per) % n
        for r in range(ch * per, min(total, (ch + 1) * per)):
            state[0] = stream_start(base, r)
            pl, t0 = deal_round(cfg, dealer, state, deck, hands, hand_len, pile)
            _start(cfg, policies, pile, pl, seen, gone, res, owner, record)
            turn = dealer + 1 if dealer + 1 < n else 0
            if record:
                pos = 0
                for s in range(n):
                    for c in range(h):
                        deals[r, pos] = hands[s, c]
                        pos += 1
                for c in range(pl):
                    deals[r, pos] = pile[c]
                    pos += 1
                for c in range(t0, 52):
                    deals[r, pos] = deck[c]
                    pos += 1
                play_out(cfg, values, policies, dealer, state, hands, hand_len, pile, pl, deck, t0, 52, turn, -1,
                         seen, gone, res, owner, moves[r], flags[r], True)
                for c in range(52):
                    owners[r, c] = owner[c]
            else:
                _play(cfg, values, policies, dealer, state, hands, hand_len, pile, pl, deck, t0, 52, turn, -1,
                      seen, gone, res, owner, dummy, dummy, False, True)
            for s in range(cfg[C_SIDES]):
                for k in range(5):
                    results[r, s, k] = res[s, k]
            dealer = dealer + 1 if dealer + 1 < n else 0  # (first_dealer + r) % n without a division


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
        hands = np.empty((n, 16), dtype=np.uint8)  # unsigned cards: no wraparound checks (simulate_batch)
        hand_len = np.empty(n, dtype=np.int64)
        pile = np.empty(53, dtype=np.uint8)
        talon = np.empty(52, dtype=np.uint8)
        owner = np.empty(52, dtype=np.int64)
        seen = np.empty(13, dtype=np.int64)
        gone = np.empty(52, dtype=np.uint8)
        res = np.empty((4, 5), dtype=np.int64)
        for r in range(ch * per, min(total, (ch + 1) * per)):
            state[0] = stream_start(base, r)
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
            _start(cfg, policies, pile, p, seen, gone, res, owner, True)
            play_out(cfg, values, policies, dealers[r], state, hands, hand_len, pile, p, talon, 0, tl,
                     (dealers[r] + 1) % n, -1, seen, gone, res, owner, moves[r], flags[r], True)
            for c in range(52):
                owners[r, c] = owner[c]
            for s in range(cfg[C_SIDES]):
                for k in range(5):
                    results[r, s, k] = res[s, k]


@njit(cache=True)
def finish_round(cfg: np.ndarray, values: np.ndarray, policies: np.ndarray, hands: np.ndarray, hand_len: np.ndarray,
                 pile: np.ndarray, pl: int, talon: np.ndarray, tpos: int, tl: int, turn: int, dealer: int,
                 last: int, seen: np.ndarray, res: np.ndarray, seed: int, moves: np.ndarray,
                 record: bool) -> None:
    """Play a round from the middle to its end (a search rollout) on the random stream of ``seed``.

    ``res[side]`` holds the cards and points taken so far (``R_CARDS``,
    ``R_POINTS``; xeri points may be folded into the points) and is updated in
    place; ``res[side, R_TOTAL]`` ends as the side's total. With ``record``,
    ``moves`` gets the cards played (-1 after the last).
    """
    state = np.empty(1, np.uint64)
    state[0] = stream_start(_mix(uint64(seed)), 0)  # the stream of round 0 of a batch with this seed
    gone = np.zeros(52, np.uint8)  # no rollout policy counts cards one by one
    owner = np.empty(52, np.int64)
    flags = np.empty(moves.shape[0], np.int64)
    play_out(cfg, values, policies, dealer, state, hands, hand_len, pile, pl, talon, tpos, tl, turn, last,
             seen, gone, res, owner, moves, flags, record)

