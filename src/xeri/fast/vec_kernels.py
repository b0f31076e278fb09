"""Numba kernels of the vectorised env: N games as arrays, stepped together in one call.

Each game's state is a row of the arrays in ``VecState`` order (see
``xeri.fast.vecenv``). A step plays the learner's card in every game, lets the
kernel opponents move until the learner (or a self-play seat) is to play,
resets finished games, and writes each game's observation (the layout of
``xeri.integrations.encoding``, from the learner's seat) and legal mask.
The greedy and expert policies here score cards exactly as ``xeri.bots``'
``GreedyBot`` and ``ExpertBot`` do (``tests/test_fast_vec.py`` checks it) and,
like them, read only the seat's hand, the pile and the cards seen face up.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, uint64

from .kernels import (
    C_HAND,
    C_JACK_ANY,
    C_JXERI,
    C_LASTX,
    C_MOST,
    C_PLAYERS,
    C_SIDES,
    C_XERI,
    JACK,
    RANK,
    _below,
    _deal_hands,
    _mix,
    deal_round,
)

# seat policy codes of the vectorised env
V_RANDOM, V_GREEDY, V_EXPERT, V_SELF, V_LEARNER = range(5)
#: the expert's value of a Jack kept in hand (``ExpertBot(jack_keep=5.0)``)
JACK_KEEP = 5.0
_TIE = 1e-9
# per-game integer state columns (``ints``) and per-side columns (``side``)
I_PL, I_TL, I_TPOS, I_LAST, I_TURN, I_IN_HANDS, I_DEALER, I_OVER, I_WAIT = range(9)
S_CARDS, S_POINTS, S_XERIS, S_JXERIS = range(4)


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
                  scores: np.ndarray) -> None:
    """Score each card of the seat's hand as its bot does (higher is better); ``scores[:hl]`` is filled."""
    n = cfg[C_PLAYERS]
    top = RANK[pile[pl - 1]] if pl > 0 else -1
    pile_value = 0
    for i in range(pl):
        pile_value += values[pile[i]]
    in_hands = 0
    for s in range(n):
        in_hands += hand_len[s]
    if policy == V_GREEDY:
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
    keep = 0.0 if my_left == 0 else JACK_KEEP + (1.5 if talon_left == 0 else 0.0)
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
                gain += 0.5 * xeri_pts * min(chance, 1.0)
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
            jack_take = after + card_w * (size + 1) - JACK_KEEP
            if lone and cfg[C_JACK_ANY] == 1:
                jack_take += xeri_pts
            loss += (1 - p_match) * p_jack * max(jack_take, 0.0)
        else:
            loss += keep
        loss += 0.05 * values[card]
        scores[i] = -loss


@njit(cache=True)
def choose(policy: int, cfg: np.ndarray, values: np.ndarray, hand: np.ndarray, hl: int, pile: np.ndarray, pl: int,
           gone: np.ndarray, hand_len: np.ndarray, seat: int, talon_left: int, rng: np.ndarray) -> Any:
    """The position in the hand of the card the policy plays: the best score, ties uniformly at random."""
    if policy == V_RANDOM:
        return _below(rng, hl)
    if hl == 1:
        return 0
    scores = np.empty(16, np.float64)
    policy_scores(policy, cfg, values, hand, hl, pile, pl, gone, hand_len, seat, talon_left, scores)
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
def reset_game(cfg: np.ndarray, g: int, rng: np.ndarray, deck: np.ndarray, hands: np.ndarray, hand_len: np.ndarray,
               pile: np.ndarray, talon: np.ndarray, gone: np.ndarray, ints: np.ndarray, side: np.ndarray,
               deals: np.ndarray) -> None:
    """Deal game ``g`` afresh with its dealer ``ints[g, I_DEALER]``; its deal is kept in ``deals[g]``."""
    n, h = cfg[C_PLAYERS], cfg[C_HAND]
    dealer = ints[g, I_DEALER]
    p, t = deal_round(cfg, dealer, rng[g : g + 1], deck[g], hands[g], hand_len[g], pile[g], talon[g])
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
        for k in range(4):
            side[g, s, k] = 0
    ints[g, I_PL] = p
    ints[g, I_TL] = t
    ints[g, I_TPOS] = 0
    ints[g, I_LAST] = -1
    ints[g, I_TURN] = (dealer + 1) % n
    ints[g, I_IN_HANDS] = n * h
    ints[g, I_OVER] = 0



@njit(cache=True)
def play(cfg: np.ndarray, values: np.ndarray, g: int, pos: int, hands: np.ndarray, hand_len: np.ndarray,
         pile: np.ndarray, talon: np.ndarray, gone: np.ndarray, ints: np.ndarray, side: np.ndarray) -> None:
    """The seat to move in game ``g`` plays the card at ``pos`` in its hand, as ``xeri.engine.Round.play`` does."""
    n, sides, h = cfg[C_PLAYERS], cfg[C_SIDES], cfg[C_HAND]
    t = ints[g, I_TURN]
    hl = hand_len[g, t]
    card = hands[g, t, pos]
    hands[g, t, pos] = hands[g, t, hl - 1]
    hand_len[g, t] = hl - 1
    ints[g, I_IN_HANDS] -= 1
    rank = RANK[card]
    gone[g, card] = 1
    p = ints[g, I_PL]
    if p > 0 and (rank == RANK[pile[g, p - 1]] or rank == JACK):
        top = RANK[pile[g, p - 1]]
        sd = t % sides
        val = values[card]
        for k in range(p):
            val += values[pile[g, k]]
        side[g, sd, S_CARDS] += p + 1
        side[g, sd, S_POINTS] += val
        ints[g, I_LAST] = t
        if p == 1 and (rank == top or cfg[C_JACK_ANY] == 1) and (
                cfg[C_LASTX] == 1 or ints[g, I_IN_HANDS] > 0 or ints[g, I_TPOS] < ints[g, I_TL]):
            if rank == JACK and top == JACK:
                side[g, sd, S_JXERIS] += 1
                side[g, sd, S_POINTS] += cfg[C_JXERI]
            else:
                side[g, sd, S_XERIS] += 1
                side[g, sd, S_POINTS] += cfg[C_XERI]
        ints[g, I_PL] = 0
    else:
        pile[g, p] = card
        ints[g, I_PL] = p + 1
    t += 1
    if t == n:
        t = 0
    ints[g, I_TURN] = t
    if ints[g, I_IN_HANDS] == 0:
        if ints[g, I_TPOS] == ints[g, I_TL]:
            p = ints[g, I_PL]
            last = ints[g, I_LAST]
            if p > 0 and last >= 0:
                sd = last % sides
                side[g, sd, S_CARDS] += p
                for k in range(p):
                    side[g, sd, S_POINTS] += values[pile[g, k]]
            ints[g, I_PL] = 0
            ints[g, I_OVER] = 1
        else:
            tpos, in_hands = _deal_hands(hands[g], hand_len[g], talon[g], ints[g, I_TPOS], ints[g, I_TL], n, h,
                                         ints[g, I_DEALER])
            ints[g, I_TPOS] = tpos
            ints[g, I_IN_HANDS] = in_hands


@njit(cache=True)
def reward_of(cfg: np.ndarray, side: np.ndarray, g: int, seat: int) -> float:
    """The seat's side total minus the mean of the sides' totals, 'most cards' included."""
    sides = cfg[C_SIDES]
    best = 0
    for s in range(sides):
        if side[g, s, S_CARDS] > side[g, best, S_CARDS]:
            best = s
    ties = 0
    for s in range(sides):
        if side[g, s, S_CARDS] == side[g, best, S_CARDS]:
            ties += 1
    total = 0.0
    mine = 0.0
    for s in range(sides):
        v = float(side[g, s, S_POINTS] + (cfg[C_MOST] if (s == best and ties == 1) else 0))
        total += v
        if s == seat % sides:
            mine = v
    return mine - total / sides


@njit(cache=True)
def encode(cfg: np.ndarray, g: int, me: int, hands: np.ndarray, hand_len: np.ndarray, pile: np.ndarray,
           gone: np.ndarray, ints: np.ndarray, side: np.ndarray, out: np.ndarray) -> None:
    """Seat ``me``'s observation of game ``g`` into ``out`` (``xeri.integrations.encoding``, no recall)."""
    n, sides = cfg[C_PLAYERS], cfg[C_SIDES]
    for k in range(out.shape[0]):
        out[k] = 0.0
    for i in range(hand_len[g, me]):
        out[hands[g, me, i]] = 1.0
    p = ints[g, I_PL]
    for i in range(p):
        out[52 + pile[g, i]] = 1.0
    if p > 0:
        out[104 + pile[g, p - 1]] = 1.0
    for c in range(52):
        if gone[g, c]:
            out[157 + c] = 1.0
    at = 209
    for k in range(n):
        out[at + k] = hand_len[g, (me + k) % n]
    at += n
    out[at] = ints[g, I_TL] - ints[g, I_TPOS]
    at += 1
    my_side = me % sides
    for col in range(4):
        for k in range(sides):
            out[at + k] = side[g, (my_side + k) % sides, col]
        at += sides
    last = ints[g, I_LAST]
    out[at + (n if last < 0 else (last - me) % n)] = 1.0
    at += n + 1
    out[at + (ints[g, I_DEALER] - me) % n] = 1.0
    at += n
    out[at + (n if ints[g, I_OVER] else (ints[g, I_TURN] - me) % n)] = 1.0


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
            encode(cfg, g, me, hands, hand_len, pile, gone, ints, side, final_obs[g])
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
        pos = choose(policy, cfg, values, hands[g, t], hl, pile[g], ints[g, I_PL], gone[g], hand_len[g], t,
                     ints[g, I_TL] - ints[g, I_TPOS], rng[g : g + 1])
        play(cfg, values, g, pos, hands, hand_len, pile, talon, gone, ints, side)


@njit(cache=True)
def _learner_out(cfg: np.ndarray, g: int, me: int, hands: np.ndarray, hand_len: np.ndarray, pile: np.ndarray,
                 gone: np.ndarray, ints: np.ndarray, side: np.ndarray, obs: np.ndarray, masks: np.ndarray) -> None:
    """The learner's observation and mask, unless the game waits for a self-play seat."""
    if ints[g, I_WAIT] >= 0:
        return
    encode(cfg, g, me, hands, hand_len, pile, gone, ints, side, obs[g])
    for c in range(52):
        masks[g, c] = 0
    if ints[g, I_OVER]:
        for c in range(52):
            masks[g, c] = 1
    else:
        for i in range(hand_len[g, me]):
            masks[g, hands[g, me, i]] = 1


@njit(cache=True)
def vec_reset(cfg: np.ndarray, values: np.ndarray, policies: np.ndarray, me: int, seed: int, games: np.ndarray,
              rng: np.ndarray, deck: np.ndarray, hands: np.ndarray, hand_len: np.ndarray, pile: np.ndarray,
              talon: np.ndarray, gone: np.ndarray, ints: np.ndarray, side: np.ndarray, deals: np.ndarray,
              rotate: bool, obs: np.ndarray, masks: np.ndarray, rewards: np.ndarray, dones: np.ndarray,
              final_obs: np.ndarray) -> None:
    """Seed (game g's stream from (seed, g)), deal and advance the games listed in ``games``."""
    base = _mix(uint64(seed))
    for j in range(games.shape[0]):
        g = games[j]
        x = _mix(base ^ _mix(uint64(g)))
        rng[g] = x if x != uint64(0) else uint64(1)
        rewards[g] = 0.0
        dones[g] = 0
        reset_game(cfg, g, rng, deck, hands, hand_len, pile, talon, gone, ints, side, deals)
        _advance(cfg, values, policies, me, g, rng, deck, hands, hand_len, pile, talon, gone, ints, side, deals,
                 rotate, rewards, dones, final_obs, True)
        _learner_out(cfg, g, me, hands, hand_len, pile, gone, ints, side, obs, masks)


@njit(cache=True)
def vec_step(cfg: np.ndarray, values: np.ndarray, policies: np.ndarray, me: int, actions: np.ndarray,
             rng: np.ndarray, deck: np.ndarray, hands: np.ndarray, hand_len: np.ndarray, pile: np.ndarray,
             talon: np.ndarray, gone: np.ndarray, ints: np.ndarray, side: np.ndarray, deals: np.ndarray,
             rotate: bool, obs: np.ndarray, masks: np.ndarray, rewards: np.ndarray, dones: np.ndarray,
             illegal: np.ndarray, final_obs: np.ndarray, illegal_reward: float, auto_reset: bool) -> None:
    """Play the learner's card in every game, move the kernel seats, score and reset finished games."""
    for g in range(actions.shape[0]):
        rewards[g] = 0.0
        dones[g] = 0
        illegal[g] = 0
        a = actions[g]
        pos = -1
        for i in range(hand_len[g, me]):
            if hands[g, me, i] == a:
                pos = i
        if pos < 0 or ints[g, I_OVER] or ints[g, I_TURN] != me:
            # An illegal card ends the episode where it stands, as in the Gym env.
            illegal[g] = 1
            rewards[g] = illegal_reward
            dones[g] = 1
            encode(cfg, g, me, hands, hand_len, pile, gone, ints, side, final_obs[g])
            if not auto_reset:
                ints[g, I_OVER] = 1
                continue
            if rotate:
                ints[g, I_DEALER] = (ints[g, I_DEALER] + 1) % cfg[C_PLAYERS]
            reset_game(cfg, g, rng, deck, hands, hand_len, pile, talon, gone, ints, side, deals)
        else:
            play(cfg, values, g, pos, hands, hand_len, pile, talon, gone, ints, side)
        _advance(cfg, values, policies, me, g, rng, deck, hands, hand_len, pile, talon, gone, ints, side, deals,
                 rotate, rewards, dones, final_obs, auto_reset)
        _learner_out(cfg, g, me, hands, hand_len, pile, gone, ints, side, obs, masks)


@njit(cache=True)
def vec_waiting(cfg: np.ndarray, games: np.ndarray, hands: np.ndarray, hand_len: np.ndarray, pile: np.ndarray,
                gone: np.ndarray, ints: np.ndarray, side: np.ndarray, obs: np.ndarray, masks: np.ndarray) -> None:
    """Observations and masks of the self-play seats the listed games wait for, one row per game."""
    for j in range(games.shape[0]):
        g = games[j]
        seat = ints[g, I_WAIT]
        encode(cfg, g, seat, hands, hand_len, pile, gone, ints, side, obs[j])
        for c in range(52):
            masks[j, c] = 0
        for i in range(hand_len[g, seat]):
            masks[j, hands[g, seat, i]] = 1


@njit(cache=True)
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


@njit(cache=True)
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
