"""The match-aware master (issue 28): a round's result mapped through the match state to the chance of winning.

The chances are checked against a brute-force recursion over the match's own rules (``xeri.match.decide``) on
small distributions, on hand-made match states, and through the rollout kernel and the exact endgame (a table
that is the margin gives back the margin). The twin test of ``test_bots_master.py`` covers the option at stake.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import sys

import pytest

from xeri import find_ruleset
from xeri.bots import make_bot
from xeri.bots.determinize import Determinizer
from xeri.bots.endgame import Solver
from xeri.bots.match_value import (
    _target_chances,
    _tiebreak_chance,
    at_stake,
    outcome_table,
    round_points,
    rounds_chance,
    target_chances,
)
from xeri.bots.sim import SimState, from_round
from xeri.engine import Round, SeatView
from xeri.match import Match, decide
from xeri.rules import Ruleset

#: a small distribution of a round's points (a, b, chance), symmetric in the sides, with level rounds and zeros
TOY = ((0, 60, 0.1), (25, 50, 0.2), (40, 40, 0.2), (50, 25, 0.2), (60, 0, 0.1), (15, 15, 0.2))


def brute_chance(ruleset: Ruleset, dist: tuple[tuple[int, int, float], ...], scores: tuple[int, int],
                 target: int, tiebreak: bool, depth: int = 12) -> float:
    """Side 0's chance of winning, by the match's own rule (``decide``) applied round after round. Every round adds
    points, so a race ends; a raised threshold or a level tiebreak starts another, and the recursion stops after
    ``depth`` of those (an error below 0.4**12)."""
    @functools.cache
    def go(s0: int, s1: int, tgt: int, tb: bool, left: int) -> float:
        if left == 0:
            return 0.5
        total = 0.0
        for a, b, p in dist:
            d = decide(ruleset, (s0 + a, s1 + b), (0, 0), 1, tgt, tb)
            if d.winner is not None:
                total += p * (1.0 if d.winner == 0 else 0.0)
            else:
                assert d.target is not None
                again = d.tiebreak or d.target != tgt
                total += p * go(s0 + a, s1 + b, d.target, d.tiebreak, left - 1 if again else left)
        return total

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(20_000)
    try:
        return go(scores[0], scores[1], target, tiebreak, depth)
    finally:
        sys.setrecursionlimit(limit)


@pytest.mark.parametrize("tie_rule", ["raise", "another_hand", "higher"])
def test_the_race_to_the_target_follows_the_match_rules(tie_rule: str) -> None:
    ruleset = find_ruleset("classic", match_end="target", target=101, tie_rule=tie_rule)
    g = _target_chances(TOY, 101, tie_rule)
    for s0, s1 in [(0, 0), (75, 60), (60, 75), (95, 95), (50, 90), (90, 10), (35, 65)]:
        want = brute_chance(ruleset, TOY, (s0, s1), 101, False)
        assert g[101 - s0, 101 - s1] == pytest.approx(want, abs=1e-4), (s0, s1)
    assert g[50, 50] == pytest.approx(0.5)


def test_rounds_matches_count_rounds_won() -> None:
    assert rounds_chance(3, 0, 3, 5, 0.45, 0.1) == pytest.approx(1.0)  # three of five: won already
    assert rounds_chance(0, 3, 3, 5, 0.45, 0.1) == pytest.approx(0.0)
    assert rounds_chance(0, 0, 0, 5, 0.45, 0.1) == pytest.approx(0.5)
    assert rounds_chance(2, 2, 4, 5, 0.45, 0.1) == pytest.approx(0.5)
    assert rounds_chance(2, 1, 3, 5, 0.45, 0.1) > 0.5 > rounds_chance(1, 2, 3, 5, 0.45, 0.1)
    assert rounds_chance(2, 2, 5, 5, 0.3, 0.4) == pytest.approx(0.5)  # level after the last: play on


def match_view(ruleset: Ruleset, seat: int, scores: tuple[int, int], wins: tuple[int, int] = (0, 0),
               number: int = 2, target: int | None = None) -> SeatView:
    """A view of a match in progress with the given match state."""
    match = Match(ruleset, seed=3)
    turn = match.turn
    assert turn is not None
    view = match.view(turn)
    return dataclasses.replace(view, seat=seat, match_scores=scores, round_wins=wins, round_number=number,
                               target=ruleset.target if target is None and ruleset.match_end == "target" else target)


def test_outcome_tables_of_hand_made_match_states() -> None:
    raise_51 = find_ruleset("classic", match_end="target", target=51, tie_rule="raise")
    t = outcome_table(match_view(raise_51, 0, (45, 40)))
    assert t is not None
    assert t[6][10] == 1.0  # 51 against 50: won
    assert t[5][11] == 0.0  # 50 against 51: lost
    assert t[5][10] == pytest.approx(0.5)  # 50 all: level, one point short each
    # Both over 51: the threshold rises to 151, both 96 short after 55 all.
    assert t[10][15] == pytest.approx(target_chances(raise_51, 100)[96, 96])
    assert 0.4 < t[10][15] < 0.6
    # Side 1's table is side 0's seen from the other side.
    mirror = outcome_table(match_view(raise_51, 1, (40, 45)))
    assert mirror is not None and mirror[6][10] == 1.0 and mirror[5][11] == 0.0
    for name, ahead in [("another_hand", 0.5), ("higher", 1.0)]:
        rules = find_ruleset("classic", match_end="target", target=51, tie_rule=name)
        t = outcome_table(match_view(rules, 0, (45, 40)))
        assert t is not None
        assert t[15][15] >= ahead  # 60 against 55: both over; ahead after one more round, or won at once
        assert t[15][15] > t[10][15]
    # A tiebreak in progress (another hand after both reached 51): the higher total after this round wins.
    tb = find_ruleset("classic", match_end="target", target=51, tie_rule="another_hand")
    t = outcome_table(match_view(tb, 0, (55, 60)))
    assert t is not None
    assert (t[6][0], t[5][0], t[4][0]) == (1.0, pytest.approx(_tiebreak_chance(round_points(tb))), 0.0)


def test_outcome_tables_rise_with_own_points_and_fall_with_theirs() -> None:
    for rules, scores in [(find_ruleset("classic", match_end="target", target=101), (60, 75)),
                          (find_ruleset("pisti", players=4), (120, 100)),
                          (find_ruleset("cardgames"), (30, 44))]:
        t = outcome_table(match_view(rules, 1, scores))
        assert t is not None
        for x in range(0, 120, 7):
            for y in range(0, 120, 7):
                assert t[x + 1][y] >= t[x][y] - 1e-12
                assert t[x][y + 1] <= t[x][y] + 1e-12


def test_rounds_match_values_the_round_won() -> None:
    rules = find_ruleset("classic")  # most of 5 rounds won
    t = outcome_table(match_view(rules, 0, (80, 70), wins=(2, 0), number=3))
    assert t is not None
    assert t[20][10] == 1.0  # the third round won of five
    assert t[10][20] == pytest.approx(rounds_chance(2, 1, 3, 5, *_win_tie(rules)))
    assert t[10][10] == pytest.approx(rounds_chance(2, 0, 3, 5, *_win_tie(rules)))
    assert t[30][29] == t[90][0]  # by how much does not count


def _win_tie(rules: Ruleset) -> tuple[float, float]:
    dist = round_points(rules)
    return sum(p for a, b, p in dist if a > b), sum(p for a, b, p in dist if a == b)


def test_what_is_at_stake() -> None:
    to_101 = find_ruleset("classic", match_end="target", target=101)
    assert not at_stake(match_view(to_101, 0, (0, 0), number=1))
    assert not at_stake(match_view(to_101, 0, (20, 25)))
    assert at_stake(match_view(to_101, 0, (60, 25)))  # 41 short: one round can do it
    assert at_stake(match_view(find_ruleset("classic"), 0, (0, 0), number=1))  # every round counts
    lone = Round.new(to_101, 0, 1)
    turn = lone.turn
    assert turn is not None
    assert not at_stake(lone.view(turn)) and outcome_table(lone.view(turn)) is None  # no match: points
    three = find_ruleset("berman", players=3, match_end="target", target=51)
    m = Match(three, seed=1)
    assert m.turn is not None
    assert outcome_table(m.view(m.turn)) is None  # three sides: points


def test_the_kernel_maps_each_round_end_through_the_table() -> None:
    """A table that is the margin (x - y) gives back ``card_values``' margins to the round's end."""
    from xeri.fast.rollout_values import card_values

    rules = find_ruleset("cardgames", players=4)
    rng = random.Random(2)
    for seed in range(3):
        rnd = Round.new(rules, seed % 4, seed)
        for _ in range(rng.randrange(4, 20)):
            rnd.play(rng.choice(rnd.legal_moves))
        seat = rnd.turn
        assert seat is not None
        det = Determinizer(rnd.view(seat), rnd.log_for(seat))
        worlds = [det.sample(rng) for _ in range(6)]
        legal = [c.index for c in rnd.view(seat).legal_moves]
        gone = [c.index for c in rnd.view(seat).gone]
        side = seat % 2
        plain = card_values(worlds, legal, side, 7, gone, "expert", 0)
        table = [[float(x - y) for y in range(200)] for x in range(200)]
        mapped = card_values(worlds, legal, side, 7, gone, "expert", 0, outcome=table)
        assert mapped == plain
        step = [[1.0 if x > y else 0.0 for y in range(200)] for x in range(200)]
        won = card_values(worlds, legal, side, 7, gone, "expert", 0, outcome=step)
        assert all(v == (1.0 if m > 0 else 0.0) for row, mrow in zip(won, plain, strict=True)
                   for v, m in zip(row, mrow, strict=True))


def chance_brute(st: SimState, root: int, table: list[list[float]]) -> float:
    """Plain minimax of ``table[root's total][other's total]`` over every card (no table, no pruning)."""
    if st.turn < 0:
        cap = len(table) - 1
        return table[min(st.pts[root], cap)][min(st.pts[1 - root], cap)]
    values = []
    for c in list(st.hands[st.turn]):
        child = st.copy()
        child.play(c)
        values.append(chance_brute(child, root, table))
    return max(values) if st.turn % 2 == root else min(values)


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("pisti", 2), ("cardgames", 4)])
def test_the_endgame_plays_for_the_match(preset: str, players: int) -> None:
    from support.bot_play import last_cards

    for seed in range(4):
        rnd = last_cards(preset, players, 8, seed)
        st = from_round(rnd)
        root = st.turn % 2
        margin = [[(x - y + 200) / 400 for y in range(120)] for x in range(120)]  # a chance: in [0, 1]
        solver = Solver(st)
        plain = solver.solve_root(st, root)
        solver.play_for(margin)
        assert solver.solve_root(st, root) == pytest.approx({c: (v + 200) / 400 for c, v in plain.items()})
        # A target: reaching 20 points in this round wins, the other side reaching it first does not matter here.
        reach = [[1.0 if x >= 20 else 0.5 if y < 20 else 0.0 for y in range(120)] for x in range(120)]
        solver.play_for(reach)
        got = solver.solve_root(st, root)
        for c, v in got.items():
            child = st.copy()
            child.play(c)
            assert v == pytest.approx(chance_brute(child, root, reach)), (seed, c)


def test_the_master_plays_for_the_match_only_in_a_match() -> None:
    """In a lone round the master's choice is its points' choice; in a match at stake it reads the table."""
    rules = find_ruleset("classic", match_end="target", target=51)
    bot = make_bot("master:rworlds=64", 1)
    rnd = Round.new(rules, 0, 4)
    turn = rnd.turn
    assert turn is not None
    assert bot.outcome(rnd.view(turn)) is None  # type: ignore[attr-defined]
    scores = (45, 40) if turn % 2 == 0 else (40, 45)  # the seat to play is 6 short
    view = dataclasses.replace(rnd.view(turn), match_scores=scores, round_wins=(1, 1), round_number=3, target=51)
    table = bot.outcome(view)  # type: ignore[attr-defined]
    assert table is not None and table[6][0] == 1.0
    assert make_bot("master:match=0", 1).outcome(view) is None  # type: ignore[attr-defined]
    card = bot.choose(view, rnd.log_for(turn))
    assert card in view.legal_moves
