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
Each seat may play its own policy (``seat_policies``: the master's opponent model), and
``play_weights`` weighs each world by how likely it makes the deal's plays so far
(``WorldValues.weighted``: the master's inference from the others' plays).
The kernel releases the GIL: a server's bot thread leaves its event loop free.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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
    _below,
    _mix,
    stream_start,
)
from .policies import FACE_DOWN, NAMES, P_EXPERT, P_EXPERT_PISTI, P_GREEDY, choose, policy_scores
from .rollout import _config


@njit(cache=True, nogil=True)
def margins(cfg: np.ndarray, values: np.ndarray, policies: np.ndarray, hands: np.ndarray, hand_len: np.ndarray,
            piles: np.ndarray, pl0: int, talons: np.ndarray, tl: int, turn0: int, dealer: int, last0: int,
            seen: np.ndarray, gone: np.ndarray, res0: np.ndarray, cards: np.ndarray, side: int, seed: int,
            deals: int, card_w: float, out: np.ndarray, wp: np.ndarray) -> None:
    """``out[w, k]``: the margin of ``side`` when the seat ``turn0`` plays ``cards[k]`` in world ``w``.

    World ``w`` is ``hands[w]``/``hand_len[w]``, ``piles[w, :pl0]``, the undealt
    talon ``talons[w, :tl]`` and the tallies so far ``res0[w]`` (``R_CARDS``,
    ``R_POINTS`` with xeri points folded in); ``seen`` (per rank) and ``gone``
    (per card) count the cards shown face up. After the card, ``policies[s]``
    plays seat ``s``, on the stream of (``seed``, ``w``) for every card, to the
    round's end (``deals`` 0: the margin is the side's total minus the mean of
    the others') or to the end of the ``deals``-th deal from now (the points so
    far, plus ``card_w`` a card taken, minus the others' mean). A ``wp`` of more
    than one row (two sides, ``deals`` 0) maps the round's end instead: the value
    is ``wp[side's total, other's total]`` (each capped at the table's last
    index), the chance that the round's result wins the match
    (``xeri.bots.match_value.outcome_table``).
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
    cap = wp.shape[0] - 1
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
                        if cap > 0:
                            mine, theirs = res[side, R_TOTAL], res[1 - side, R_TOTAL]
                            worth[side] = wp[min(mine, cap), min(theirs, cap)]
                            worth[1 - side] = 0.0
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
                policy: str | Sequence[str] = "expert", deals: int = 0, card_w: float = 0.15,
                outcome: Sequence[Sequence[float]] | None = None) -> list[list[float]]:
    """Per world, each card's round margin for ``side``: the card, then ``policy`` (``xeri.fast.policies.NAMES``;
    one name for every seat, or one a seat: ``seat_policies``) to the round's end (or to the end of the
    ``deals``-th deal from now, each card taken worth ``card_w``: ``margins``); ``gone`` lists the cards shown
    face up so far (the view's, not a world's). ``outcome`` (two sides, ``deals`` 0): each world's value is
    ``outcome[side's total][other's total]`` at the round's end instead of the margin (``margins``' ``wp``).

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
    margins(cfg, values, seat_policies(policy, n), hands, hand_len, piles, pl, talons, tl, first.turn,
            first.dealer, first.last, np.array(first.seen, np.int64), gone_arr, res0, np.array(cards, np.int64),
            side, seed, deals, card_w, out, outcome_array(outcome, sides, deals))
    return out.tolist()


def outcome_array(outcome: Sequence[Sequence[float]] | None, sides: int, deals: int) -> np.ndarray:
    """``margins``' ``wp``: the table as an array, or a 1x1 array (margins, not chances) when there is none."""
    if outcome is None:
        return np.zeros((1, 1), np.float64)
    if sides != 2 or deals != 0:
        raise ValueError("an outcome table maps a round's end of two sides: deals must be 0")
    return np.ascontiguousarray(np.array(outcome, np.float64))


def seat_policies(policy: str | Sequence[str], players: int) -> np.ndarray:
    """The kernel's policy code of each seat: one name for all, or one name per seat (the master's opponent model)."""
    names = [policy] * players if isinstance(policy, str) else list(policy)
    if len(names) != players or any(p not in NAMES for p in names):
        raise ValueError(f"policies must be one of {sorted(NAMES)}, or one of them for each of {players} seats")
    return np.array([NAMES[p] for p in names], np.int64)


@njit(cache=True, nogil=True)
def deal_worlds(pool: np.ndarray, fixed: np.ndarray, fixed_len: np.ndarray, need: np.ndarray, pile0: np.ndarray,
                pl: int, face_down: np.ndarray, hidden_taken: np.ndarray, values: np.ndarray, talon_tail: np.ndarray,
                lacks: np.ndarray, seat: int, tries: int, seed: int, hands: np.ndarray, hand_len: np.ndarray,
                piles: np.ndarray, talons: np.ndarray, res0: np.ndarray) -> None:
    """Deal ``hands.shape[0]`` worlds of one seat's view, as ``Determinizer.sample`` and ``sample_consistent`` do.

    The unseen ``pool`` is shuffled into the other hands (after their ``fixed`` cards), the face-down pile
    places, the face-down cards captured per side (their values added to ``res0``'s points) and the talon
    (then ``talon_tail``, the exposed bottom card). A world where a seat holds a rank it showed it lacks
    (``lacks[seat, rank]``) is dealt again, ``tries`` draws at most (the last one kept). ``res0`` comes in with
    the view's tallies in every world.
    """
    n = need.shape[0]
    m = pool.shape[0]
    state = np.empty(1, np.uint64)
    state[0] = stream_start(_mix(uint64(seed)), 0)
    deck = pool.copy()
    check = False
    for s in range(n):
        if s != seat:
            for r in range(13):
                if lacks[s, r]:
                    check = True
    for w in range(hands.shape[0]):
        for t in range(tries):
            for i in range(m - 1, 0, -1):
                j = _below(state, i + 1)
                deck[i], deck[j] = deck[j], deck[i]
            if not check or t == tries - 1:
                break
            pos = 0
            ok = True
            for s in range(n):
                for j in range(fixed_len[s]):
                    if s != seat and lacks[s, RANK[fixed[s, j]]]:
                        ok = False
                for j in range(need[s]):
                    if s != seat and lacks[s, RANK[deck[pos + j]]]:
                        ok = False
                pos += need[s]
            if ok:
                break
        pos = 0
        for s in range(n):
            k = fixed_len[s]
            hands[w, s, :k] = fixed[s, :k]
            for j in range(need[s]):
                hands[w, s, k + j] = deck[pos + j]
            hand_len[w, s] = k + need[s]
            pos += need[s]
        piles[w, :pl] = pile0[:pl]
        for i in range(face_down.shape[0]):
            piles[w, face_down[i]] = deck[pos]
            pos += 1
        for side in range(hidden_taken.shape[0]):
            for _j in range(hidden_taken[side]):
                res0[w, side, R_POINTS] += values[deck[pos]]
                pos += 1
        t = 0
        while pos < m:
            talons[w, t] = deck[pos]
            pos += 1
            t += 1
        for j in range(talon_tail.shape[0]):
            talons[w, t + j] = talon_tail[j]


@njit(cache=True, nogil=True)
def play_weights(cfg: np.ndarray, values: np.ndarray, policies: np.ndarray, hands: np.ndarray, hand_len: np.ndarray,
                 dseat: np.ndarray, dcard: np.ndarray, dpile: np.ndarray, dpl: np.ndarray, dgone: np.ndarray,
                 dhl: np.ndarray, dtalon: np.ndarray, dsince: np.ndarray, dsince_len: np.ndarray, eps: np.ndarray,
                 out: np.ndarray) -> None:
    """``out[w]``: how likely world ``w`` makes the deal's plays so far, each seat playing ``policies[seat]``.

    Play ``d`` was seat ``dseat[d]`` playing ``dcard[d]`` onto ``dpile[d, :dpl[d]]``, having seen ``dgone[d]``,
    with the hand sizes ``dhl[d]`` and ``dtalon[d]`` cards in the talon; its hand then was its hand in the world
    plus ``dsince[d, :dsince_len[d]]`` (what it has played since, that card included); a pile entry of
    ``FACE_DOWN`` is a face-down card, valued as the seat saw it (``policy_scores``' ``hidden``). Each play's
    likelihood is ``(1 - eps[seat]) / |best|`` when the card is among the policy's best (``policy_scores``' argmax, ties
    included) and ``eps[seat] / hand`` on top for any card; a random seat's plays weigh 1.
    """
    hand = np.empty(16, np.int64)
    scores = np.empty(16, np.float64)
    logs = np.zeros(hands.shape[0], np.float64)
    for w in range(hands.shape[0]):
        for d in range(dseat.shape[0]):
            s = dseat[d]
            if policies[s] != P_EXPERT and policies[s] != P_GREEDY and policies[s] != P_EXPERT_PISTI:
                continue
            hl = 0
            for j in range(hand_len[w, s]):
                hand[hl] = hands[w, s, j]
                hl += 1
            for j in range(dsince_len[d]):
                hand[hl] = dsince[d, j]
                hl += 1
            if hl < 2:
                continue
            down = 0
            for j in range(dpl[d]):
                if dpile[d, j] >= FACE_DOWN:
                    down += 1
            hidden = 0.0
            if down:  # face-down pile cards, each worth the mean of the cards the seat could not see then
                total = 0
                count = 0
                for c in range(52):
                    if dgone[d, c] == 0:
                        total += values[c]
                        count += 1
                for j in range(hl):
                    total -= values[hand[j]]
                    count -= 1
                hidden = down * total / count if count > 0 else 0.0
            policy_scores(policies[s], cfg, values, hand, hl, dpile[d], dpl[d], dgone[d], dhl[d], s, dtalon[d],
                          scores, hidden)
            best = scores[0]
            for i in range(1, hl):
                if scores[i] > best:
                    best = scores[i]
            ties = 0
            hit = False
            for i in range(hl):
                if scores[i] >= best - 1e-9:
                    ties += 1
                    if hand[i] == dcard[d]:
                        hit = True
            p = eps[s] / hl
            if hit:
                p += (1.0 - eps[s]) / ties
            logs[w] += np.log(p)
    for w in range(hands.shape[0]):
        out[w] = np.exp(logs[w])


#: ``WorldValues`` rolls out on the kernel streams of its dealing seed XOR this (the deals use the seed's own)
ROLL_SEED = 0x5EED


class WorldValues:
    """One decision's compiled rollouts with the worlds dealt in the kernel too (``deal_worlds``, then ``margins``).

    ``det`` is the seat's ``Determinizer``, ``lacks`` the inference per seat (simulator ranks); ``__call__(seed,
    worlds)`` deals that many worlds from ``seed`` and returns each card's summed margin over them
    (``card_values``'s quantities). Dealing in Python took three quarters of the time of the rollouts
    of 256 worlds; here it is a small part, so a decision affords thousands of worlds.
    """

    def __init__(self, det: Any, lacks: Sequence[frozenset[int]], cards: Sequence[int], side: int,
                 gone: Sequence[int], policy: str | Sequence[str] = "expert", deals: int = 0,
                 card_w: float = 0.15, tries: int = 40, observed: Sequence[Any] = (),
                 eps: float | Sequence[float] = 0.1, outcome: Sequence[Sequence[float]] | None = None) -> None:
        rules = det.rules
        n = rules.players
        probe = new_state(rules, det.dealer, [[] for _ in range(n)], [], [], det.turn)
        self.cfg, self.values = _config(probe)
        self.n, self.sides = n, rules.sides
        self.pool = np.array(det.pool, np.int64)
        self.fixed = np.zeros((n, 16), np.int64)
        self.fixed_len = np.zeros(n, np.int64)
        for s, f in enumerate(det.fixed):
            self.fixed[s, : len(f)] = f
            self.fixed_len[s] = len(f)
        self.need = np.array(det.need, np.int64)
        self.pl = len(det.pile)
        self.pile0 = np.zeros(53, np.int64)
        self.pile0[: self.pl] = det.pile
        self.face_down = np.array(det.face_down_at, np.int64)
        self.hidden_taken = np.array(det.hidden_taken, np.int64)
        self.talon_tail = np.array(det.talon_tail, np.int64)
        self.tl = det.talon_need + len(det.talon_tail)
        self.lacks = np.zeros((n, 13), np.bool_)
        for s, ranks in enumerate(lacks):
            for r in ranks:
                self.lacks[s, r] = True
        self.seat, self.turn, self.dealer, self.last = det.seat, det.turn, det.dealer, det.last
        self.res_start = np.zeros((self.sides, 5), np.int64)
        self.res_start[:, R_CARDS] = det.cnt
        self.res_start[:, R_POINTS] = det.pts
        self.seen = np.array(det.seen, np.int64)
        self.gone = np.zeros(52, np.uint8)
        self.gone[list(gone)] = 1
        self.cards = np.array(cards, np.int64)
        self.side, self.deals, self.card_w, self.tries = side, deals, card_w, tries
        self.policies = seat_policies(policy, n)
        self.wp = outcome_array(outcome, self.sides, deals)
        self._observe(observed, eps)

    def _observe(self, observed: Sequence[Any], eps: float | Sequence[float]) -> None:
        """The deal's plays so far (``opponent_model.current_decisions``) as ``play_weights``' arrays."""
        k = len(observed)
        self.dseat = np.zeros(k, np.int64)
        self.dcard = np.zeros(k, np.int64)
        self.dpile = np.zeros((k, 53), np.int64)
        self.dpl = np.zeros(k, np.int64)
        self.dgone = np.zeros((k, 52), np.uint8)
        self.dhl = np.zeros((k, self.n), np.int64)
        self.dtalon = np.zeros(k, np.int64)
        self.dsince = np.zeros((k, 16), np.int64)
        self.dsince_len = np.zeros(k, np.int64)
        for i, d in enumerate(observed):
            self.dseat[i], self.dcard[i] = d.seat, d.played.index
            self.dpl[i] = len(d.pile)
            self.dpile[i, : len(d.pile)] = [FACE_DOWN if c is None else c.index for c in d.pile]
            self.dgone[i, [c.index for c in d.gone]] = 1
            self.dhl[i] = d.hand_counts
            self.dtalon[i] = d.talon_count
            self.dsince_len[i] = len(d.hand)
            self.dsince[i, : len(d.hand)] = [c.index for c in d.hand]
        self.eps = np.full(self.n, eps, np.float64) if isinstance(eps, float | int) else np.array(eps, np.float64)

    def __call__(self, seed: int, worlds: int) -> list[float]:
        """Each card's margin summed over ``worlds`` worlds dealt from ``seed`` (one kernel stream per world)."""
        return [float(x) for x in self._margins(seed, *self.deal(seed, worlds)).sum(axis=0)]

    def weighted(self, seed: int, worlds: int) -> tuple[list[float], float]:
        """``__call__``'s worlds with each world's margins weighted by how likely it makes the observed plays
        (``weights``), and the sum of the weights: the weighted mean is the first over the second."""
        dealt = self.deal(seed, worlds)
        weights = self.weights(dealt[0], dealt[1])
        return [float(x) for x in weights @ self._margins(seed, *dealt)], float(weights.sum())

    def weights(self, hands: np.ndarray, hand_len: np.ndarray) -> np.ndarray:
        """Each dealt world's likelihood of the observed plays (``play_weights``)."""
        out = np.empty(hands.shape[0], np.float64)
        play_weights(self.cfg, self.values, self.policies, hands, hand_len, self.dseat, self.dcard, self.dpile,
                     self.dpl, self.dgone, self.dhl, self.dtalon, self.dsince, self.dsince_len, self.eps, out)
        return out

    def placements(self, seed: int, worlds: int) -> tuple[list[tuple[list[list[int]], list[int], list[int]]],
                                                          list[float]]:
        """``worlds`` worlds dealt from ``seed`` as plain lists, for the exact endgame: each world's hands, pile and
        points so far per side (the face-down cards already taken counted in), and each world's weight (how
        likely it makes the deal's plays so far, ``weights``)."""
        hands, hand_len, piles, _talons, res0 = self.deal(seed, worlds)
        weights = self.weights(hands, hand_len)
        out = []
        for w in range(worlds):
            out.append(([hands[w, s, : hand_len[w, s]].tolist() for s in range(self.n)], piles[w, : self.pl].tolist(),
                        res0[w, :, R_POINTS].tolist()))
        return out, weights.tolist()

    def weigh(self, hands: Sequence[Sequence[Sequence[int]]]) -> list[float]:
        """The weight (``weights``) of each world given by its hands (one list of cards a seat)."""
        k = len(hands)
        arr = np.zeros((k, self.n, 16), np.int64)
        lens = np.zeros((k, self.n), np.int64)
        for w, world in enumerate(hands):
            for s, hand in enumerate(world):
                arr[w, s, : len(hand)] = hand
                lens[w, s] = len(hand)
        return self.weights(arr, lens).tolist()

    def _margins(self, seed: int, hands: np.ndarray, hand_len: np.ndarray, piles: np.ndarray, talons: np.ndarray,
                 res0: np.ndarray) -> np.ndarray:
        """``margins`` of the worlds dealt from ``seed``, on its rollout streams: a row a world, a column a card."""
        out = np.empty((hands.shape[0], len(self.cards)), np.float64)
        margins(self.cfg, self.values, self.policies, hands, hand_len, piles, self.pl, talons, self.tl, self.turn,
                self.dealer, self.last, self.seen, self.gone, res0, self.cards, self.side, seed ^ ROLL_SEED,
                self.deals, self.card_w, out, self.wp)
        return out

    def deal(self, seed: int, worlds: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The worlds of ``seed``: hands, hand lengths, piles, undealt talons and tallies (``margins``'s input)."""
        n = self.n
        hands = np.zeros((worlds, n, 16), np.int64)
        hand_len = np.zeros((worlds, n), np.int64)
        piles = np.zeros((worlds, 53), np.int64)
        talons = np.zeros((worlds, 52), np.int64)
        res0 = np.empty((worlds, self.sides, 5), np.int64)
        res0[:] = self.res_start
        deal_worlds(self.pool, self.fixed, self.fixed_len, self.need, self.pile0, self.pl, self.face_down,
                    self.hidden_taken, self.values, self.talon_tail, self.lacks, self.seat, self.tries, seed, hands,
                    hand_len, piles, talons, res0)
        return hands, hand_len, piles, talons, res0


def _warm() -> None:
    """Load (or compile) the kernels at import, on a one-card round: a game's first decision should not wait for them
    (``play_weights`` too: the first decision after another seat's play weighs worlds)."""
    rules = Rules(find_ruleset("classic"))
    cfg, values = _config(new_state(rules, 0, [[1], []], [], [], 0))
    out = np.empty((1, 1), np.float64)
    margins(cfg, values, np.full(2, NAMES["expert"], np.int64), np.ones((1, 2, 16), np.int64),
            np.array([[1, 0]], np.int64), np.zeros((1, 53), np.int64), 0, np.zeros((1, 52), np.int64), 0, 0, 1, -1,
            np.zeros(13, np.int64), np.zeros(52, np.uint8), np.zeros((1, 2, 5), np.int64), np.ones(1, np.int64), 0, 1,
            1, 0.15, out, np.zeros((1, 1), np.float64))
    worlds = np.zeros((1, 2, 16), np.int64)
    deal_worlds(np.array([1], np.int64), np.zeros((2, 16), np.int64), np.zeros(2, np.int64), np.array([0, 1], np.int64),
                np.zeros(53, np.int64), 0, np.zeros(0, np.int64), np.zeros(2, np.int64), values, np.zeros(0, np.int64),
                np.zeros((2, 13), np.bool_), 0, 2, 1, worlds, np.zeros((1, 2), np.int64), np.zeros((1, 53), np.int64),
                np.zeros((1, 52), np.int64), np.zeros((1, 2, 5), np.int64))
    play_weights(cfg, values, np.full(2, NAMES["expert"], np.int64), worlds, np.zeros((1, 2), np.int64),
                 np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros((1, 53), np.int64), np.zeros(1, np.int64),
                 np.zeros((1, 52), np.uint8), np.zeros((1, 2), np.int64), np.zeros(1, np.int64),
                 np.zeros((1, 16), np.int64), np.zeros(1, np.int64), np.full(2, 0.1), np.empty(1, np.float64))


_warm()
