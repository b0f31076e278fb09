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
"""

from __future__ import annotations

from .sim import JACK, SimState

Hands = tuple[tuple[int, ...], ...]
#: the arguments of ``Solver._value`` after a move: hands, turn, top rank, pile size, pile points, last
#: capturer, cards taken per side, cards left in the hands
After = tuple[Hands, int, int, int, int, int, tuple[int, ...], int]


class Solver:
    """Solves perfect-information positions of one ruleset; the table is kept across calls of a round."""

    __slots__ = ("jack_xeri_any", "jack_xeri_points", "last_card_xeri", "most", "nodes", "players", "sides",
                 "table", "values", "xeri_points")

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

    def solve_root(self, st: SimState, root_side: int) -> dict[int, float]:
        """Each legal card of the seat to move -> the root side's exact final margin (points so far included).

        ``st`` must have an empty talon (``st.tpos == len(st.talon)``); it is not changed.
        """
        if st.tpos != len(st.talon):
            raise ValueError("the exact endgame needs an empty talon")
        hands = tuple(tuple(h) for h in st.hands)
        top = st.pile[-1] % 13 if st.pile else -1
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

    def _margin(self, pts: list[int] | tuple[int, ...], root: int) -> float:
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
            if plen == 1 and (r == top or self.jack_xeri_any) and (self.last_card_xeri or left):
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
        values = self.values
        # Try captures first, the richest first, then discards of the cheapest cards: good moves cut early.
        moves: list[tuple[int, int]] = []
        tried: set[tuple[int, int]] = set()
        for c in hands[t]:
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
        best = -1e9 if maximise else 1e9
        for _, c in moves:
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
        if best <= a0:
            self.table[key] = (lo, best)
        elif best >= b0:
            self.table[key] = (best, hi)
        else:
            self.table[key] = (best, best)
        return best
