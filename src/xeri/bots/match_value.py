"""What a round's result is worth in the match: the chance that it leads to winning the match.

A round is scored in points, but a match is won on its own terms: the first
side to the target (``match_end=target``, with the ruleset's ``tie_rule``
when both get there together) or the most rounds won (``match_end=rounds``).
``outcome_table(view)`` maps each possible result of the round in progress
(the points each side ends it with) through the match state in the view (the
match scores, the round wins, the target, raised or not) to the chance that
the seat's side wins the match. After this round, the match goes on between
two equal players: their rounds' results are drawn from ``round_points``, the
results of rounds of the playout policy at every seat (simulated once per
ruleset from a fixed seed, so every process gets the same table), and
``target_chances`` solves the race to the target by value iteration.

Two sides only (2 players, or 4 in partnerships): with 3 the chance depends
on three totals, and the master keeps playing for points. The tables need
NumPy (the ``fast``, ``learned`` or ``server`` extra); without it
``outcome_table`` is None and the master plays for points.
"""

from __future__ import annotations

import functools
import random
import threading
from collections.abc import Sequence
from typing import Any

from ..engine import SeatView, shuffle_and_deal
from ..rules import Ruleset
from .ismcts import playout
from .sim import Rules, from_deal

#: rounds simulated for the distribution of a round's points (a third of a second of Python, once per ruleset)
ROUND_SAMPLES = 2000
#: the simulated rounds' seed: the distribution is a function of the ruleset alone
_SEED = 0x5852_4D56
#: a round's points are looked up up to this many (more scores the same as this many)
CAP = 160
#: the race to the target is solved to this precision (the largest change of a chance in one sweep)
_TOL = 1e-9
#: the threshold rises by this much under ``tie_rule=raise`` (``match.decide``)
RAISE = 100
#: a side is within reach of the target when it is no further from it than its points in this share of rounds
REACH = 0.95


@functools.lru_cache(maxsize=8)
def _round_points(key: tuple[Any, ...]) -> tuple[tuple[int, int, float], ...]:
    ruleset = Ruleset.from_dict(dict(key))
    rules = Rules(ruleset)
    rng = random.Random(_SEED)
    counts: dict[tuple[int, int], int] = {}
    for i in range(ROUND_SAMPLES):
        dealer = i % ruleset.players
        st = from_deal(ruleset, dealer, shuffle_and_deal(ruleset, dealer, rng), rules)
        playout(st, rng.random, True)
        a, b = st.pts
        # Both orders: the next rounds are between equal players, and the deal passes on.
        counts[(a, b)] = counts.get((a, b), 0) + 1
        counts[(b, a)] = counts.get((b, a), 0) + 1
    total = 2 * ROUND_SAMPLES
    return tuple(sorted((a, b, n / total) for (a, b), n in counts.items()))


def round_points(ruleset: Ruleset) -> tuple[tuple[int, int, float], ...]:
    """The distribution of a round's points of the two sides, ``(a, b, chance)``, symmetric in the sides.

    It depends on the rules of a round only (not the match end), and is cached per ruleset.
    """
    if ruleset.sides != 2:
        raise ValueError("round_points is for two sides (2 players, or 4 in partnerships)")
    data = ruleset.replace(match_end="rounds", rounds=1, target=151, tie_rule="raise").to_dict()
    data.pop("name")
    return _round_points(tuple(sorted(data.items())))


def _np() -> Any:
    try:
        import numpy
    except ImportError:
        return None
    return numpy


def _tiebreak_chance(dist: Sequence[tuple[int, int, float]]) -> float:
    """The chance of winning a tiebreak from level scores: the next round won outright, repeated while tied."""
    win = sum(p for a, b, p in dist if a > b)
    tie = sum(p for a, b, p in dist if a == b)
    return win / (1.0 - tie) if tie < 1.0 else 0.5


def _tiebreak(diff: int, dist: Sequence[tuple[int, int, float]]) -> float:
    """The chance of winning when one more round decides, ``diff`` points ahead (higher total wins, again if level)."""
    h0 = _tiebreak_chance(dist)
    return sum(p * (1.0 if diff + a - b > 0 else h0 if diff + a - b == 0 else 0.0) for a, b, p in dist)


@functools.lru_cache(maxsize=32)
def _target_chances(dist: tuple[tuple[int, int, float], ...], size: int, tie_rule: str) -> Any:
    np = _np()
    assert np is not None
    m = max(max(a, b) for a, b, _ in dist)
    h0 = _tiebreak_chance(dist)
    # ext[m + n0, m + n1]: the chance after a round that leaves the sides n0 and n1 points short (<= 0: reached).
    span = np.arange(-m, size + 1)
    n0 = span[:, None] + 0 * span[None, :]
    n1 = span[None, :] + 0 * span[:, None]
    first = (n0 <= 0) & (n1 > 0)
    both = (n0 <= 0) & (n1 <= 0)
    g = np.full((size + 1, size + 1), 0.5)
    ext = np.zeros((m + size + 1, m + size + 1))
    ext[first] = 1.0
    if tie_rule == "raise":  # the threshold rises until not both have reached it
        k = (np.minimum(-n0, -n1) // RAISE) + 1
        r0, r1 = n0 + RAISE * k, n1 + RAISE * k
        ext[both & (r0 <= 0)] = 1.0
        sub = both & (r0 > 0) & (r1 > 0)
        i0, i1 = np.minimum(r0[sub], size), np.minimum(r1[sub], size)
    elif tie_rule == "another_hand":  # one more round, then the higher total (again while level)
        cache: dict[int, float] = {}
        for i, j in zip(*np.nonzero(both), strict=True):
            diff = int(n1[i, j] - n0[i, j])
            if diff not in cache:
                cache[diff] = _tiebreak(diff, dist)
            ext[i, j] = cache[diff]
    else:  # higher: the higher total wins at once; level, one more round (and again while level)
        ext[both] = np.where(n1 > n0, 1.0, np.where(n1 < n0, 0.0, h0))[both]
    for _ in range(400):
        ext[m + 1 :, m + 1 :] = g[1:, 1:]
        if tie_rule == "raise":
            ext[sub] = g[i0, i1]
        new = np.zeros_like(g)
        for a, b, p in dist:
            new[1:, 1:] += p * ext[m + 1 - a : m + size + 1 - a, m + 1 - b : m + size + 1 - b]
        change = float(np.abs(new[1:, 1:] - g[1:, 1:]).max())
        g = new
        if change < _TOL:
            break
    return g


def target_chances(ruleset: Ruleset, size: int) -> Any:
    """``g[d0, d1]``: the chance that a side ``d0`` points short of the target wins against one ``d1`` short, at
    the start of a round (``d`` from 1 to ``size``; a NumPy array), under the ruleset's tie rule."""
    if size < 1:
        raise ValueError("size must be at least 1")
    size = max(size, RAISE) if ruleset.tie_rule == "raise" else size
    return _target_chances(round_points(ruleset), size, ruleset.tie_rule)


@functools.lru_cache(maxsize=256)
def rounds_chance(wins: int, losses: int, played: int, rounds: int, p_win: float, p_tie: float) -> float:
    """The chance of winning a match of most rounds won out of ``rounds`` from ``wins``:``losses`` after
    ``played`` rounds (each next round won with ``p_win``, tied with ``p_tie``); level after the last, play on."""
    if played >= rounds:
        if wins != losses:
            return 1.0 if wins > losses else 0.0
        return p_win / (1.0 - p_tie) if p_tie < 1.0 else 0.5
    p_loss = 1.0 - p_win - p_tie
    return (p_win * rounds_chance(wins + 1, losses, played + 1, rounds, p_win, p_tie)
            + p_loss * rounds_chance(wins, losses + 1, played + 1, rounds, p_win, p_tie)
            + p_tie * rounds_chance(wins, losses, played + 1, rounds, p_win, p_tie))


def at_stake(view: SeatView) -> bool:
    """Whether the round in progress can change who wins the match (so it is worth playing for the match).

    Always when the match is won on rounds (the round's winner counts, not its margin) or in a tiebreak; with a
    target, once a side is within reach of it this round (``REACH``: it gets that many points in one round of
    twenty). Before that, the chance of winning moves with the round's margin nearly in proportion.
    """
    r = view.ruleset
    if r.sides != 2 or not view.match_scores or view.seat is None:
        return False
    if r.match_end == "rounds":
        return True
    target = view.target if view.target is not None else r.target
    if max(view.match_scores) >= target:
        return True
    reach = _quantile([(a, p) for a, _b, p in round_points(r)], REACH)
    return min(target - s for s in view.match_scores) <= reach


def _quantile(values: Sequence[tuple[int, float]], q: float) -> int:
    acc = 0.0
    for v, p in sorted(values):
        acc += p
        if acc >= q:
            return v
    return max(v for v, _ in values)


def _table_size(ruleset: Ruleset) -> int:
    """The needs ``target_chances`` covers for a ruleset: the target, and under ``raise`` a raised one's."""
    return max(ruleset.target, RAISE) if ruleset.tie_rule == "raise" else ruleset.target


def _prepare(ruleset: Ruleset) -> None:
    """What ``outcome_table`` needs for this ruleset, computed now (a third of a second or so, once a process)."""
    round_points(ruleset)
    if ruleset.match_end == "target":
        target_chances(ruleset, _table_size(ruleset))


_PREPARED: set[Ruleset] = set()
_PREPARING: dict[Ruleset, threading.Thread] = {}
_LOCK = threading.Lock()


def _prepare_once(ruleset: Ruleset) -> None:
    _prepare(ruleset)
    with _LOCK:
        _PREPARED.add(ruleset)


def tables_ready(ruleset: Ruleset, wait: bool = True) -> bool:
    """Whether ``outcome_table`` can answer for this ruleset now. ``wait``: compute what it needs here, at once;
    otherwise (a wall-clock budget) a background thread computes it and the answer is False until it is done."""
    with _LOCK:
        if ruleset in _PREPARED:
            return True
        thread = _PREPARING.get(ruleset)
        if not wait and thread is None:
            thread = threading.Thread(target=_prepare_once, args=(ruleset,), name="xeri-match-tables", daemon=True)
            _PREPARING[ruleset] = thread
            thread.start()
            return False
    if not wait:
        return False
    if thread is not None:
        thread.join()
    _prepare_once(ruleset)
    return True


def outcome_table(view: SeatView, cap: int = CAP, wait: bool = True) -> list[list[float]] | None:
    """``t[x][y]``: the chance that the seat's side wins the match if this round ends with its side on ``x`` points
    and the other side on ``y`` (0 to ``cap``; more counts as ``cap``), from the match state in the view.

    None where there is no match to play for: no match scores in the view (a lone round), 3 sides, or no NumPy;
    and, without ``wait``, while a background thread still computes the ruleset's tables (``tables_ready``).
    """
    r = view.ruleset
    if r.sides != 2 or not view.match_scores or view.seat is None:
        return None
    np = _np()
    if np is None or not tables_ready(r, wait):
        return None
    me = view.seat % 2
    mine, theirs = view.match_scores[me], view.match_scores[1 - me]
    dist = round_points(r)
    x = np.arange(cap + 1)[:, None]
    y = np.arange(cap + 1)[None, :]
    if r.match_end == "rounds":
        played = view.round_number - 1
        w, lose = view.round_wins[me], view.round_wins[1 - me]
        p_win = sum(p for a, b, p in dist if a > b)
        p_tie = sum(p for a, b, p in dist if a == b)

        def after(dw: int, dl: int) -> float:
            return rounds_chance(w + dw, lose + dl, played + 1, r.rounds, p_win, p_tie)

        table = np.where(x > y, after(1, 0), np.where(x < y, after(0, 1), after(0, 0)))
        return [[float(v) for v in row] for row in table]
    target = view.target if view.target is not None else r.target
    if max(mine, theirs) >= target:  # a tiebreak: the higher total after this round wins, again while level
        h0 = _tiebreak_chance(dist)
        diff = mine + x - theirs - y
        table = np.where(diff > 0, 1.0, np.where(diff < 0, 0.0, h0)) * np.ones_like(x + y, dtype=float)
        return [[float(v) for v in row] for row in table]
    d0, d1 = target - mine, target - theirs
    g = target_chances(r, max(d0, d1, _table_size(r)))
    size = g.shape[0] - 1
    n0 = d0 - x + 0 * y
    n1 = d1 - y + 0 * x
    out = np.zeros((cap + 1, cap + 1))
    out[(n0 <= 0) & (n1 > 0)] = 1.0
    go = (n0 > 0) & (n1 > 0)
    out[go] = g[n0[go], n1[go]]
    both = (n0 <= 0) & (n1 <= 0)
    if both.any():
        if r.tie_rule == "raise":
            k = (np.minimum(-n0, -n1) // RAISE) + 1
            r0, r1 = n0 + RAISE * k, n1 + RAISE * k
            out[both & (r0 <= 0)] = 1.0
            out[both & (r1 <= 0)] = 0.0
            sub = both & (r0 > 0) & (r1 > 0)
            out[sub] = g[np.minimum(r0[sub], size), np.minimum(r1[sub], size)]
        elif r.tie_rule == "another_hand":
            cache: dict[int, float] = {}
            for i, j in zip(*np.nonzero(both), strict=True):
                diff = int(n1[i, j] - n0[i, j])
                if diff not in cache:
                    cache[diff] = _tiebreak(diff, dist)
                out[i, j] = cache[diff]
        else:
            h0 = _tiebreak_chance(dist)
            out[both] = np.where(n1 > n0, 1.0, np.where(n1 < n0, 0.0, h0))[both]
    return [[float(v) for v in row] for row in out]
