"""Exact play of a round's last cards once every card's place is known (minimax with a transposition table).

After the talon is empty, the cards still to be played are the hands. When
the seat can place every unseen card (two players: they are all in the other
hand), the rest of the round is a game of perfect information, small enough
to solve exactly: at most a dozen plies. The search maximises the root side's
final margin (its points minus the mean of the other sides'), the other sides
minimise it, which is exact for two sides (2 players, or 4 in partnerships).
The "most cards" bonus makes the value depend on the cards taken so far, so
they are part of the table's key; points already scored are not (they add).

Cards of one rank and one point value in one hand are interchangeable, so only
one of them is searched. ``solve_root`` gives the value of every root card.

With an outcome table (``play_for(table)``, two sides: ``match_value.outcome_table``) the search values
each end of the round by the chance that its result wins the match instead of its margin; that value
depends on the points already scored, so they join the table's key.
"""

from __future__ import annotations

from collections.abc import Sequence

from .expert import p_holds
from .ismcts import policy_card
from .sim import JACK, SimState

Hands = tuple[tuple[int, ...], ...]
#: the arguments of ``Solver._value`` after a move: hands, turn, top rank, pile size, pile points, last
#: capturer, cards taken per side, cards left in the hands
After = tuple[Hands, int, int, int, int, int, tuple[int, ...], int]


def _first() -> float:
    """The playout policy's random source pinned to 0: its scan starts at the hand's first card."""
    return 0.0


class Solver:
    """Solves perfect-information positions of one ruleset; the table is kept across calls of a round."""

    __slots__ = ("card_w", "jack_xeri_any", "jack_xeri_points", "last_card_xeri", "leader_side", "leaf_p", "maxn",
                 "most", "nodes", "outcome", "players", "policy_seen", "sides", "table", "values", "vectors",
                 "xeri_points")

    def __init__(self, st: SimState) -> None:
        r = st.rules
        self.players = r.players
        self.sides = r.sides
        self.values = r.values
        self.xeri_points = r.xeri_points
        self.jack_xeri_points = r.jack_xeri_points
        self.jack_xeri_any = r.jack_xeri_any
        self.last_card_xeri = r.last_card_xeri
        self.most = r.most_cards_points
        self.table: dict[tuple[object, ...], tuple[float, float]] = {}
        self.nodes = 0
        #: the worth of a captured card towards the "most cards" bonus, at a deal's horizon
        self.card_w = 0.1 + r.most_cards_points / 60
        #: at a deal's horizon (``solve_root(..., horizon=True)``): per top rank, the chance that the next deal's
        #: leader takes the pile first; ``None``: the hands are the last cards, the search is exact
        self.leaf_p: list[float] | None = None
        self.leader_side = 0
        #: when set (``policy_opponents``): the other sides do not minimise, they play ``_policy``
        self.policy_seen: list[int] | None = None
        #: when set (``play_for``): ``outcome[root's total][other's total]`` is what the search maximises
        self.outcome: list[list[float]] | None = None
        #: with 3 sides (``each_for_itself``): every side maximises its own margin (max^n), not the root's foe
        self.maxn = False
        self.vectors: dict[tuple[object, ...], tuple[float, ...]] = {}

    def each_for_itself(self, on: bool = True) -> None:
        """With 3 sides, let each side play for its own margin (max^n: Luckhardt & Irani 1986) instead of both
        others playing against the root's ("paranoid" minimax, the default: exact with two sides only)."""
        self.maxn = on and self.sides > 2
        self.vectors.clear()

    def play_for(self, outcome: list[list[float]] | None) -> None:
        """Value each end of the round by ``outcome[root side's total][other side's total]`` (two sides; totals
        capped at the table's last index), the chance of winning the match (in [0, 1]); None: by the margin."""
        if outcome is not None and self.sides != 2:
            raise ValueError("an outcome table is for two sides")
        self.outcome = outcome
        self.table.clear()

    def policy_opponents(self, seen: list[int]) -> None:
        """Let the other sides play a fixed policy that reads only their own hand and the public counts ``seen``.

        In a sampled world a minimising opponent would know our hand: it would never give us a capture or a
        xeri, and the search would learn to expect none. A real opponent cannot see our cards.
        """
        self.policy_seen = list(seen)
        self.table.clear()

    def solve_root(self, st: SimState, root_side: int, horizon: bool = False) -> dict[int, float]:
        """Each legal card of the seat to move -> the root side's exact final margin (points so far included).

        ``st`` must have an empty talon (``st.tpos == len(st.talon)``) unless ``horizon``: then the search stops
        when the hands are empty and scores that position by ``_horizon`` (this world's talon decides who
        probably takes the pile left on the table). ``st`` is not changed.
        """
        if st.tpos != len(st.talon):
            if not horizon:
                raise ValueError("the exact endgame needs an empty talon")
            self._set_horizon(st)
        elif self.leaf_p is not None:
            self.leaf_p = None
            self.table.clear()
        hands = tuple(tuple(h) for h in st.hands)
        top = st.pile[-1] % 13 if st.pile else -1
        if self.outcome is not None and not horizon:
            return self._solve_chances(st, hands, top, root_side)
        if self.maxn and not horizon and self.policy_seen is None:
            return self._solve_maxn(st, hands, top, root_side)
        base = self._margin(st.pts, root_side)
        out: dict[int, float] = {}
        seen_kind: dict[tuple[int, int], float] = {}
        t = st.turn
        for c in hands[t]:
            kind = (c % 13, self.values[c])
            if kind in seen_kind:
                out[c] = seen_kind[kind]
                continue
            gain, args = self._move(hands, t, c, top, len(st.pile), st.pile_val, st.last, tuple(st.cnt))
            v = base + self._gain(gain, root_side) + self._value(root_side, *args)
            seen_kind[kind] = v
            out[c] = v
        return out

    def _solve_chances(self, st: SimState, hands: Hands, top: int, root: int) -> dict[int, float]:
        """``solve_root`` with an outcome table: each root card's chance of winning the match."""
        out: dict[int, float] = {}
        seen_kind: dict[tuple[int, int], float] = {}
        t = st.turn
        pts = tuple(st.pts)
        for c in hands[t]:
            kind = (c % 13, self.values[c])
            if kind in seen_kind:
                out[c] = seen_kind[kind]
                continue
            gain, args = self._move(hands, t, c, top, len(st.pile), st.pile_val, st.last, tuple(st.cnt))
            v = self._chance(root, *args, self._add(pts, gain))
            seen_kind[kind] = v
            out[c] = v
        return out

    def _solve_maxn(self, st: SimState, hands: Hands, top: int, root: int) -> dict[int, float]:
        """``solve_root`` under max^n: each root card's final margin when every side then plays for its own."""
        base = self._margin(st.pts, root)
        out: dict[int, float] = {}
        t = st.turn
        for c in hands[t]:
            gain, args = self._move(hands, t, c, top, len(st.pile), st.pile_val, st.last, tuple(st.cnt))
            rest = self._vector(*args)
            got = [x + (gain[1] if s == gain[0] else 0) for s, x in enumerate(rest)]
            out[c] = base + self._margin(got, root)
        return out

    def _vector(
        self, hands: Hands, t: int, top: int, plen: int, pval: int, last: int, cnt: tuple[int, ...], left: int,
    ) -> tuple[float, ...]:
        """Each side's points from here to the round's end when every side plays for its own margin (max^n)."""
        if not left:
            pts = [0.0] * self.sides
            cnt_l = list(cnt)
            if plen and last >= 0:
                pts[last % self.sides] += pval
                cnt_l[last % self.sides] += plen
            if self.most:
                most = max(cnt_l)
                if cnt_l.count(most) == 1:
                    pts[cnt_l.index(most)] += self.most
            return tuple(pts)
        key = (hands, t, top, plen, pval, last % self.sides if last >= 0 else -1, cnt)
        got = self.vectors.get(key)
        if got is not None:
            return got
        self.nodes += 1
        me = t % self.sides
        best: tuple[float, ...] | None = None
        best_v = -1e9
        tried: set[tuple[int, int]] = set()
        for c in sorted(hands[t]):
            kind = (c % 13, self.values[c])
            if kind in tried:
                continue
            tried.add(kind)
            gain, args = self._move(hands, t, c, top, plen, pval, last, cnt)
            rest = self._vector(*args)
            vec = tuple(x + (gain[1] if s == gain[0] else 0) for s, x in enumerate(rest))
            v = self._margin(vec, me)
            if v > best_v + 1e-9:
                best, best_v = vec, v
        assert best is not None
        self.vectors[key] = best
        return best

    @staticmethod
    def _add(pts: tuple[int, ...], gain: tuple[int, int]) -> tuple[int, ...]:
        side, got = gain
        if not got:
            return pts
        new = list(pts)
        new[side] += got
        return tuple(new)

    def _chance(
        self, root: int, hands: Hands, t: int, top: int, plen: int, pval: int, last: int, cnt: tuple[int, ...],
        left: int, pts: tuple[int, ...], alpha: float = -1.0, beta: float = 2.0,
    ) -> float:
        """The root side's chance of winning the match from here (``outcome`` at the round's end), alpha-beta as
        ``_value``; ``pts`` are the round's points so far per side (they decide the outcome, so they are keyed)."""
        outcome = self.outcome
        assert outcome is not None
        if not left:
            final = list(pts)
            cnt_l = list(cnt)
            if plen and last >= 0:
                final[last % 2] += pval
                cnt_l[last % 2] += plen
            if self.most and cnt_l[0] != cnt_l[1]:
                final[0 if cnt_l[0] > cnt_l[1] else 1] += self.most
            cap = len(outcome) - 1
            return outcome[min(final[root], cap)][min(final[1 - root], cap)]
        key = (root, hands, t, top, plen, pval, last % 2 if last >= 0 else -1, cnt, pts)
        lo, hi = self.table.get(key, (-1.0, 2.0))
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        a0, b0 = alpha, beta
        alpha = max(alpha, lo)
        beta = min(beta, hi)
        self.nodes += 1
        maximise = t % 2 == root
        moves = self._ordered(hands[t], top, plen, pval)
        best = -1.0 if maximise else 2.0
        for c in moves:
            gain, args = self._move(hands, t, c, top, plen, pval, last, cnt)
            v = self._chance(root, *args, self._add(pts, gain), alpha, beta)
            if maximise:
                if v > best:
                    best = v
                    if best > alpha:
                        alpha = best
            elif v < best:
                best = v
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        self._store(key, best, a0, b0, lo, hi)
        return best

    def _ordered(self, hand: tuple[int, ...], top: int, plen: int, pval: int) -> list[int]:
        """One card of each (rank, value) kind: captures first, the richest first, then the cheapest discards.

        Good moves first make the alpha-beta cuts come early.
        """
        values = self.values
        moves: list[tuple[int, int]] = []
        tried: set[tuple[int, int]] = set()
        for c in hand:
            kind = (c % 13, values[c])
            if kind in tried:
                continue
            tried.add(kind)
            r = c % 13
            if plen and (r == top or r == JACK):
                order = 1000 + pval + values[c]
            else:
                order = -values[c] - (50 if r == JACK else 0)
            moves.append((order, c))
        moves.sort(reverse=True)
        return [c for _, c in moves]

    def _store(self, key: tuple[object, ...], best: float, a0: float, b0: float, lo: float, hi: float) -> None:
        """Keep what the search proved of ``key``'s value: an upper bound, a lower bound, or the value itself."""
        if best <= a0:
            self.table[key] = (lo, best)
        elif best >= b0:
            self.table[key] = (best, hi)
        else:
            self.table[key] = (best, best)

    def _set_horizon(self, st: SimState) -> None:
        """The next deal's leader and, per top rank, its chance of holding a card that takes the pile."""
        talon = st.talon[st.tpos :]
        n = self.players
        k = min(st.rules.hand_size, len(talon) // n)
        by_rank = [0] * 13
        for c in talon:
            by_rank[c % 13] += 1
        total = len(talon)
        self.leaf_p = [p_holds(total, by_rank[r] + (by_rank[JACK] if r != JACK else 0), k) for r in range(13)]
        self.leader_side = ((st.dealer + 1) % n) % self.sides
        self.table.clear()  # the horizon's values depend on this world's talon

    def _horizon(self, root: int, top: int, plen: int, pval: int, cnt: tuple[int, ...]) -> float:
        """A guess at the root margin still to come once a deal's hands are empty (points so far excluded).

        Cards taken count towards the "most cards" bonus at ``card_w`` each; the pile left goes to the next
        deal's leader if it holds its rank or a Jack (chance ``p``), else probably to the next seat.
        """
        assert self.leaf_p is not None
        if self.sides == 2:
            v = self.card_w * (cnt[root] - cnt[1 - root])
        else:
            v = self.card_w * (cnt[root] - (sum(cnt) - cnt[root]) / (self.sides - 1))
        if plen:
            p = self.leaf_p[top]
            worth = pval + self.card_w * (plen + 1) + (self.xeri_points if plen == 1 else 0)
            share = worth * (p - (1 - p) * p)
            v += share if self.leader_side == root else -share / (self.sides - 1)
        return v

    def _policy(self, hand: tuple[int, ...], top: int, plen: int, pval: int) -> int:
        """The opponents' card: ``ismcts.policy_move``'s rule, without its random tie-break (the hand's order)."""
        seen = self.policy_seen
        assert seen is not None
        return policy_card(hand, top if plen else -1, pval, seen, self.values, _first)

    def _margin(self, pts: Sequence[float], root: int) -> float:
        if self.sides == 2:
            return float(pts[root] - pts[1 - root])
        total = sum(pts)
        return pts[root] - (total - pts[root]) / (self.sides - 1)

    def _gain(self, gain: tuple[int, int], root: int) -> float:
        """The root margin of a move's immediate points ``gain`` (side, points)."""
        side, pts = gain
        if not pts:
            return 0.0
        return float(pts) if side == root else -pts / (self.sides - 1)

    def _move(
        self, hands: Hands, t: int, c: int, top: int, plen: int, pval: int, last: int, cnt: tuple[int, ...],
    ) -> tuple[tuple[int, int], After]:
        """Play ``c`` for seat ``t``: ((side, points scored), the arguments of ``_value`` after it)."""
        hand = list(hands[t])
        hand.remove(c)
        new_hands = (*hands[:t], tuple(hand), *hands[t + 1 :])
        left = sum(len(h) for h in new_hands)
        r = c % 13
        side = t % self.sides
        nxt = (t + 1) % self.players
        if plen and (r == top or r == JACK):
            pts = pval + self.values[c]
            more = self.last_card_xeri or left or self.leaf_p is not None  # a xeri needs cards still to come
            if plen == 1 and (r == top or self.jack_xeri_any) and more:
                pts += self.jack_xeri_points if (r == JACK and top == JACK) else self.xeri_points
            new_cnt = list(cnt)
            new_cnt[side] += plen + 1
            return (side, pts), (new_hands, nxt, -1, 0, 0, t, tuple(new_cnt), left)
        return (side, 0), (new_hands, nxt, r, plen + 1, pval + self.values[c], last, cnt, left)

    def _value(
        self, root: int, hands: Hands, t: int, top: int, plen: int, pval: int, last: int, cnt: tuple[int, ...],
        left: int, alpha: float = -1e9, beta: float = 1e9,
    ) -> float:
        """The root side's margin from here to the end of the round (points already scored excluded).

        Alpha-beta: a result <= ``alpha`` or >= ``beta`` is only a bound; the table keeps (lower, upper) bounds.
        """
        if not left:
            if self.leaf_p is not None:
                return self._horizon(root, top, plen, pval, cnt)
            pts: list[int] = [0] * self.sides
            cnt_l = list(cnt)
            if plen and last >= 0:
                pts[last % self.sides] += pval
                cnt_l[last % self.sides] += plen
            if self.most:
                most = max(cnt_l)
                if cnt_l.count(most) == 1:
                    pts[cnt_l.index(most)] += self.most
            return self._margin(pts, root)
        key = (root, hands, t, top, plen, pval, last % self.sides if last >= 0 else -1, cnt)
        lo, hi = self.table.get(key, (-1e9, 1e9))
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        a0, b0 = alpha, beta
        alpha = max(alpha, lo)
        beta = min(beta, hi)
        self.nodes += 1
        maximise = t % self.sides == root
        if not maximise and self.policy_seen is not None:
            c = self._policy(hands[t], top, plen, pval)
            gain, args = self._move(hands, t, c, top, plen, pval, last, cnt)
            g = self._gain(gain, root)
            v = g + self._value(root, *args, alpha - g, beta - g)
            self._store(key, v, a0, b0, lo, hi)
            return v
        moves = self._ordered(hands[t], top, plen, pval)
        best = -1e9 if maximise else 1e9
        for c in moves:
            gain, args = self._move(hands, t, c, top, plen, pval, last, cnt)
            g = self._gain(gain, root)
            v = g + self._value(root, *args, alpha - g, beta - g)
            if maximise:
                if v > best:
                    best = v
                    if best > alpha:
                        alpha = best
            elif v < best:
                best = v
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        self._store(key, best, a0, b0, lo, hi)
        return best
