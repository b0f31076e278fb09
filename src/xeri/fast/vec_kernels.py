"""Numba kernels of the vectorised env: N games as arrays, stepped together in one call.

Each game's state is a row of the arrays in ``VecState`` order (see
``xeri.fast.vecenv``). A step plays the learner's card in every game, lets the
kernel opponents move until the learner (or a self-play seat) is to play,
resets finished games, and writes each game's observation (the layout of
``xeri.bots.encoding``, from the learner's seat) and legal mask.
Cards are played by the batch simulator's step (``kernels.play_card``'s,
written on the games' rows: no row views, whose reference counts were most of
a step's time) and finish (``kernels.finish``); the opponents are its policies
(``xeri.fast.policies``: ``GreedyBot`` and ``ExpertBot``'s scores, checked by
``tests/fast/test_fast_vec.py``), which read only what their seat may know.
Large batches step their games on numba's threads (``vec_step_parallel``).

The entry kernels are compiled without numba's reference counting
(``_nrt=False``: they allocate nothing, and every array they touch is the
caller's): with it, each array handed to an inlined helper cost two atomic
operations per game and step, 40% of a step's time (``perf``). The helpers
they call that allocate (the expert's scores) keep theirs (``_scored``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange, uint64

from .kernels import _deal_hands, deal_round, finish
from .layout import (
    C_HAND,
    C_JACK_ANY,
    C_JXERI,
    C_LASTX,
    C_PLAYERS,
    C_SIDES,
    C_XERI,
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
from .policies import P_EXPERT, P_GREEDY, P_RANDOM, best_scored

# seat policy codes of the vectorised env: the kernel policies, a self-play seat and the learner
V_RANDOM, V_GREEDY, V_EXPERT = P_RANDOM, P_GREEDY, P_EXPERT
V_SELF, V_LEARNER = 8, 9
# per-game integer state columns (``ints``); per-side tallies (``side``) are ``xeri.fast.layout``'s R_* columns
I_PL, I_TL, I_TPOS, I_LAST, I_TURN, I_IN_HANDS, I_DEALER, I_OVER, I_WAIT = range(9)
#: the per-side columns of the observation, in the encoding's order (points include xeri points)
SIDE_COLUMNS = 4


@njit(cache=True, _nrt=True)
def _scored(policy: int, cfg: np.ndarray, values: np.ndarray, hand: np.ndarray, hl: int, pile: np.ndarray, pl: int,
            gone: np.ndarray, hand_len: np.ndarray, seat: int, talon_left: int, rng: np.ndarray) -> int:
    """``policies.best_scored`` with numba's reference counting set here: it allocates, and a function compiled
    for the ``_nrt=False`` kernels would otherwise inherit their setting (and fail on a fresh cache)."""
    return best_scored(policy, cfg, values, hand, hl, pile, pl, gone, hand_len, seat,  # type: ignore[no-any-return]
                       talon_left, rng)


@njit(cache=True, inline="always")
def choose(policy: int, cfg: np.ndarray, values: np.ndarray, hand: np.ndarray, hl: int, pile: np.ndarray, pl: int,
           gone: np.ndarray, hand_len: np.ndarray, seat: int, talon_left: int, rng: np.ndarray) -> int:
    """The position in the hand of the card a kernel opponent plays (``xeri.fast.policies``)."""
    if policy == V_RANDOM:
        return _below(rng, hl)  # type: ignore[no-any-return]
    return _scored(policy, cfg, values, hand, hl, pile, pl, gone, hand_len, seat, talon_left, rng)


@njit(cache=True)
def reset_game(cfg: np.ndarray, g: int, rng: np.ndarray, deck: np.ndarray, hands: np.ndarray, hand_len: np.ndarray,
               pile: np.ndarray, talon: np.ndarray, gone: np.ndarray, ints: np.ndarray, side: np.ndarray,
               deals: np.ndarray) -> None:
    """Deal game ``g`` afresh with its dealer ``ints[g, I_DEALER]``; its deal is kept in ``deals[g]``."""
    n, h = cfg[C_PLAYERS], cfg[C_HAND]
    dealer = ints[g, I_DEALER]
    p, t0 = deal_round(cfg, dealer, rng[g : g + 1], deck[g], hands[g], hand_len[g], pile[g])
    t = 52 - t0
    for c in range(t):
        talon[g, c] = deck[g, t0 + c]
    pos = 0
    for s in range(n):
        for c in range(h):
            deals[g, pos] = hands[g, s, c]
            pos += 1
    for c in range(p):
        deals[g, pos] = pile[g, c]
        pos += 1
    for c in range(t):
        deals[g, pos] = talon[g, c]
        pos += 1
    for c in range(52):
        gone[g, c] = 0
    for c in range(p):
        gone[g, pile[g, c]] = 1
    for s in range(side.shape[1]):
        for k in range(side.shape[2]):
            side[g, s, k] = 0
    ints[g, I_PL] = p
    ints[g, I_TL] = t
    ints[g, I_TPOS] = 0
    ints[g, I_LAST] = -1
    ints[g, I_TURN] = (dealer + 1) % n
    ints[g, I_IN_HANDS] = n * h
    ints[g, I_OVER] = 0



@njit(cache=True, inline="always")
def play(cfg: np.ndarray, values: np.ndarray, g: int, pos: int, hands: np.ndarray, hand_len: np.ndarray,
         pile: np.ndarray, talon: np.ndarray, gone: np.ndarray, ints: np.ndarray, side: np.ndarray) -> None:
    """The seat to move in game ``g`` plays the card at ``pos`` in its hand; deal or finish.

    ``kernels.play_card``'s step (the last card takes the gap), written on
    the games' rows: a row view per call costs two atomic reference counts,
    which were most of a step's time. ``tests/fast/test_fast_vec.py`` plays it
    against the Gym env.
    """
    n, h, sides = cfg[C_PLAYERS], cfg[C_HAND], cfg[C_SIDES]
    t = ints[g, I_TURN]
    in_hands = ints[g, I_IN_HANDS] - 1
    tpos, tl = ints[g, I_TPOS], ints[g, I_TL]
    pl = ints[g, I_PL]
    hl = hand_len[g, t]
    card = hands[g, t, pos]
    hands[g, t, pos] = hands[g, t, hl - 1]
    hand_len[g, t] = hl - 1
    pile[g, pl] = card
    gone[g, card] = 1
    rank = RANK[card]
    pl += 1
    if pl > 1:
        top = RANK[pile[g, pl - 2]]
        if rank == top or rank == JACK:
            s = t - sides if t >= sides else t  # seats 0..n-1, n = sides or 2 * sides
            val = 0
            for k in range(pl):
                val += values[pile[g, k]]
            side[g, s, R_POINTS] += val
            side[g, s, R_CARDS] += pl
            if pl == 2 and (rank == top or cfg[C_JACK_ANY] == 1) and (cfg[C_LASTX] == 1 or in_hands + tl - tpos > 0):
                if rank == JACK and top == JACK:
                    side[g, s, R_JXERIS] += 1
                else:
                    side[g, s, R_XERIS] += 1
            ints[g, I_LAST] = t
            pl = 0
    ints[g, I_PL] = pl
    ints[g, I_IN_HANDS] = in_hands
    t += 1
    if t == n:
        t = 0
    ints[g, I_TURN] = t
    if in_hands == 0:
        if tpos == tl:
            finish(cfg, values, pile[g], pl, ints[g, I_LAST], side[g])
            ints[g, I_PL] = 0
            ints[g, I_OVER] = 1
        else:
            tpos, in_hands = _deal_hands(hands[g], hand_len[g], talon[g], tpos, tl, n, h, ints[g, I_DEALER])
            ints[g, I_TPOS] = tpos
            ints[g, I_IN_HANDS] = in_hands


@njit(cache=True, inline="always")
def reward_of(cfg: np.ndarray, side: np.ndarray, g: int, seat: int) -> float:
    """The seat's side total (``kernels.finish``'s, 'most cards' included) minus the mean of the sides' totals."""
    sides = cfg[C_SIDES]
    total = 0.0
    for s in range(sides):
        total += side[g, s, R_TOTAL]
    return float(side[g, seat % sides, R_TOTAL] - total / sides)


@njit(cache=True, inline="always")
def _wrap(x: int, n: int) -> int:
    """``x % n`` for ``-n <= x < 2 * n``, without a division."""
    if x >= n:
        return x - n
    return x + n if x < 0 else x


@njit(cache=True)
def encode(cfg: np.ndarray, g: int, me: int, hands: np.ndarray, hand_len: np.ndarray, pile: np.ndarray,
           gone: np.ndarray, ints: np.ndarray, side: np.ndarray, out: np.ndarray, row: int) -> None:
    """Seat ``me``'s observation of game ``g`` into ``out[row]`` (``xeri.bots.encoding``, no recall)."""
    n, sides = cfg[C_PLAYERS], cfg[C_SIDES]
    for k in range(157):
        out[row, k] = 0.0
    for i in range(hand_len[g, me]):
        out[row, hands[g, me, i]] = 1.0
    p = ints[g, I_PL]
    for i in range(p):
        out[row, 52 + pile[g, i]] = 1.0
    if p > 0:
        out[row, 104 + pile[g, p - 1]] = 1.0
    for c in range(52):
        out[row, 157 + c] = gone[g, c]
    at = 209
    for k in range(n):
        out[row, at + k] = hand_len[g, _wrap(me + k, n)]
    at += n
    out[row, at] = ints[g, I_TL] - ints[g, I_TPOS]
    at += 1
    my_side = _wrap(me, sides) if me < 2 * sides else me % sides
    xp, jxp = cfg[C_XERI], cfg[C_JXERI]
    for k in range(sides):
        s = _wrap(my_side + k, sides)
        xeris, jxeris = side[g, s, R_XERIS], side[g, s, R_JXERIS]
        out[row, at + k] = side[g, s, R_CARDS]
        out[row, at + sides + k] = side[g, s, R_POINTS] + xp * xeris + jxp * jxeris  # points, xeris included
        out[row, at + 2 * sides + k] = xeris
        out[row, at + 3 * sides + k] = jxeris
    at += SIDE_COLUMNS * sides
    for k in range(at, out.shape[1]):
        out[row, k] = 0.0
    last = ints[g, I_LAST]
    out[row, at + (n if last < 0 else _wrap(last - me, n))] = 1.0
    at += n + 1
    out[row, at + _wrap(ints[g, I_DEALER] - me, n)] = 1.0
    at += n
    out[row, at + (n if ints[g, I_OVER] else _wrap(ints[g, I_TURN] - me, n))] = 1.0


@njit(cache=True)
def _advance(cfg: np.ndarray, values: np.ndarray, policies: np.ndarray, me: int, g: int, rng: np.ndarray,
             deck: np.ndarray, hands: np.ndarray, hand_len: np.ndarray, pile: np.ndarray, talon: np.ndarray,
             gone: np.ndarray, ints: np.ndarray, side: np.ndarray, deals: np.ndarray, rotate: bool,
             rewards: np.ndarray, dones: np.ndarray, final_obs: np.ndarray, auto_reset: bool) -> None:
    """Kernel seats move until the learner or a self-play seat is to play; a finished game is scored and reset."""
    n = cfg[C_PLAYERS]
    ints[g, I_WAIT] = -1
    while True:
        if ints[g, I_OVER]:
            rewards[g] += reward_of(cfg, side, g, me)
            dones[g] = 1
            encode(cfg, g, me, hands, hand_len, pile, gone, ints, side, final_obs, g)
            if not auto_reset:
                return
            if rotate:
                ints[g, I_DEALER] = (ints[g, I_DEALER] + 1) % n
            reset_game(cfg, g, rng, deck, hands, hand_len, pile, talon, gone, ints, side, deals)
        t = ints[g, I_TURN]
        policy = policies[t]
        if policy == V_LEARNER:
            return
        if policy == V_SELF:
            ints[g, I_WAIT] = t
            return
        hl = hand_len[g, t]
        if policy == V_RANDOM:  # choose's draw, on the game's stream without a row view
            x = _step(rng[g])
            rng[g] = x
            pos = _draw(x, hl)
        else:
            pos = choose(policy, cfg, values, hands[g, t], hl, pile[g], ints[g, I_PL], gone[g], hand_len[g], t,
                         ints[g, I_TL] - ints[g, I_TPOS], rng[g : g + 1])
        play(cfg, values, g, pos, hands, hand_len, pile, talon, gone, ints, side)


@njit(cache=True)
def _learner_out(cfg: np.ndarray, g: int, me: int, hands: np.ndarray, hand_len: np.ndarray, pile: np.ndarray,
                 gone: np.ndarray, ints: np.ndarray, side: np.ndarray, obs: np.ndarray, masks: np.ndarray) -> None:
    """The learner's observation and mask, unless the game waits for a self-play seat."""
    if ints[g, I_WAIT] >= 0:
        return
    encode(cfg, g, me, hands, hand_len, pile, gone, ints, side, obs, g)
    for c in range(52):
        masks[g, c] = 0
    if ints[g, I_OVER]:
        for c in range(52):
            masks[g, c] = 1
    else:
        for i in range(hand_len[g, me]):
            masks[g, hands[g, me, i]] = 1


@njit(cache=True, _nrt=False)
def vec_reset(cfg: np.ndarray, values: np.ndarray, policies: np.ndarray, me: int, seed: int, games: np.ndarray,
              rng: np.ndarray, deck: np.ndarray, hands: np.ndarray, hand_len: np.ndarray, pile: np.ndarray,
              talon: np.ndarray, gone: np.ndarray, ints: np.ndarray, side: np.ndarray, deals: np.ndarray,
              rotate: bool, obs: np.ndarray, masks: np.ndarray, rewards: np.ndarray, dones: np.ndarray,
              final_obs: np.ndarray) -> None:
    """Seed (game g's stream from (seed, g)), deal and advance the games listed in ``games``."""
    base = _mix(uint64(seed))
    for j in range(games.shape[0]):
        g = games[j]
        rng[g] = stream_start(base, g)
        rewards[g] = 0.0
        dones[g] = 0
        reset_game(cfg, g, rng, deck, hands, hand_len, pile, talon, gone, ints, side, deals)
        _advance(cfg, values, policies, me, g, rng, deck, hands, hand_len, pile, talon, gone, ints, side, deals,
                 rotate, rewards, dones, final_obs, True)
        _learner_out(cfg, g, me, hands, hand_len, pile, gone, ints, side, obs, masks)


@njit(cache=True, inline="always")
def _step_game(cfg: np.ndarray, values: np.ndarray, policies: np.ndarray, me: int, g: int, a: int, rng: np.ndarray,
               deck: np.ndarray, hands: np.ndarray, hand_len: np.ndarray, pile: np.ndarray, talon: np.ndarray,
               gone: np.ndarray, ints: np.ndarray, side: np.ndarray, deals: np.ndarray, rotate: bool,
               obs: np.ndarray, masks: np.ndarray, rewards: np.ndarray, dones: np.ndarray, illegal: np.ndarray,
               final_obs: np.ndarray, illegal_reward: float, auto_reset: bool) -> None:
    """Game ``g``'s step: the learner's card ``a``, the kernel seats' moves, a reset if it ended, its output."""
    rewards[g] = 0.0
    dones[g] = 0
    illegal[g] = 0
    pos = -1
    for i in range(hand_len[g, me]):
        if hands[g, me, i] == a:
            pos = i
    if pos < 0 or ints[g, I_OVER] or ints[g, I_TURN] != me:
        # An illegal card ends the episode where it stands, as in the Gym env.
        illegal[g] = 1
        rewards[g] = illegal_reward
        dones[g] = 1
        encode(cfg, g, me, hands, hand_len, pile, gone, ints, side, final_obs, g)
        if not auto_reset:
            ints[g, I_OVER] = 1
            return
        if rotate:
            ints[g, I_DEALER] = (ints[g, I_DEALER] + 1) % cfg[C_PLAYERS]
        reset_game(cfg, g, rng, deck, hands, hand_len, pile, talon, gone, ints, side, deals)
    else:
        play(cfg, values, g, pos, hands, hand_len, pile, talon, gone, ints, side)
    _advance(cfg, values, policies, me, g, rng, deck, hands, hand_len, pile, talon, gone, ints, side, deals,
             rotate, rewards, dones, final_obs, auto_reset)
    _learner_out(cfg, g, me, hands, hand_len, pile, gone, ints, side, obs, masks)


@njit(cache=True, _nrt=False)
def vec_step(cfg: np.ndarray, values: np.ndarray, policies: np.ndarray, me: int, actions: np.ndarray,
             rng: np.ndarray, deck: np.ndarray, hands: np.ndarray, hand_len: np.ndarray, pile: np.ndarray,
             talon: np.ndarray, gone: np.ndarray, ints: np.ndarray, side: np.ndarray, deals: np.ndarray,
             rotate: bool, obs: np.ndarray, masks: np.ndarray, rewards: np.ndarray, dones: np.ndarray,
             illegal: np.ndarray, final_obs: np.ndarray, illegal_reward: float, auto_reset: bool) -> None:
    """Play the learner's card in every game, move the kernel seats, score and reset finished games."""
    for g in range(actions.shape[0]):
        _step_game(cfg, values, policies, me, g, actions[g], rng, deck, hands, hand_len, pile, talon, gone, ints,
                   side, deals, rotate, obs, masks, rewards, dones, illegal, final_obs, illegal_reward, auto_reset)


@njit(cache=True, parallel=True, _nrt=False)
def vec_step_parallel(cfg: np.ndarray, values: np.ndarray, policies: np.ndarray, me: int, actions: np.ndarray,
                      rng: np.ndarray, deck: np.ndarray, hands: np.ndarray, hand_len: np.ndarray, pile: np.ndarray,
                      talon: np.ndarray, gone: np.ndarray, ints: np.ndarray, side: np.ndarray, deals: np.ndarray,
                      rotate: bool, obs: np.ndarray, masks: np.ndarray, rewards: np.ndarray, dones: np.ndarray,
                      illegal: np.ndarray, final_obs: np.ndarray, illegal_reward: float, auto_reset: bool) -> None:
    """``vec_step`` with the games spread over numba's threads: each game touches only its own rows and
    random stream, so the result is the same whatever the number of threads."""
    for g in prange(actions.shape[0]):
        _step_game(cfg, values, policies, me, g, actions[g], rng, deck, hands, hand_len, pile, talon, gone, ints,
                   side, deals, rotate, obs, masks, rewards, dones, illegal, final_obs, illegal_reward, auto_reset)


@njit(cache=True, _nrt=False)
def vec_waiting(cfg: np.ndarray, games: np.ndarray, hands: np.ndarray, hand_len: np.ndarray, pile: np.ndarray,
                gone: np.ndarray, ints: np.ndarray, side: np.ndarray, obs: np.ndarray, masks: np.ndarray) -> None:
    """Observations and masks of the self-play seats the listed games wait for, one row per game."""
    for j in range(games.shape[0]):
        g = games[j]
        seat = ints[g, I_WAIT]
        encode(cfg, g, seat, hands, hand_len, pile, gone, ints, side, obs, j)
        for c in range(52):
            masks[j, c] = 0
        for i in range(hand_len[g, seat]):
            masks[j, hands[g, seat, i]] = 1


@njit(cache=True, _nrt=False)
def vec_external(cfg: np.ndarray, values: np.ndarray, policies: np.ndarray, me: int, games: np.ndarray,
                 actions: np.ndarray, rng: np.ndarray, deck: np.ndarray, hands: np.ndarray, hand_len: np.ndarray,
                 pile: np.ndarray, talon: np.ndarray, gone: np.ndarray, ints: np.ndarray, side: np.ndarray,
                 deals: np.ndarray, rotate: bool, obs: np.ndarray, masks: np.ndarray, rewards: np.ndarray,
                 dones: np.ndarray, final_obs: np.ndarray, auto_reset: bool) -> None:
    """Play the self-play seats' (legal, checked by the caller) cards in the listed games, then advance them."""
    for j in range(games.shape[0]):
        g = games[j]
        t = ints[g, I_WAIT]
        pos = 0
        for i in range(hand_len[g, t]):
            if hands[g, t, i] == actions[j]:
                pos = i
        play(cfg, values, g, pos, hands, hand_len, pile, talon, gone, ints, side)
        _advance(cfg, values, policies, me, g, rng, deck, hands, hand_len, pile, talon, gone, ints, side, deals,
                 rotate, rewards, dones, final_obs, auto_reset)
        _learner_out(cfg, g, me, hands, hand_len, pile, gone, ints, side, obs, masks)


@njit(cache=True, _nrt=False)
def vec_policy_actions(policy: int, cfg: np.ndarray, values: np.ndarray, me: int, hands: np.ndarray,
                       hand_len: np.ndarray, pile: np.ndarray, gone: np.ndarray, ints: np.ndarray, rng: np.ndarray,
                       out: np.ndarray) -> None:
    """The card a kernel policy would play for the learner in each game (-1 where it is not to play)."""
    for g in range(out.shape[0]):
        if ints[g, I_OVER] or ints[g, I_WAIT] >= 0 or ints[g, I_TURN] != me:
            out[g] = -1
            continue
        pos = choose(policy, cfg, values, hands[g, me], hand_len[g, me], pile[g], ints[g, I_PL], gone[g],
                     hand_len[g], me, ints[g, I_TL] - ints[g, I_TPOS], rng[g : g + 1])
        out[g] = hands[g, me, pos]
