"""The batch simulator against the reference engine: same deals, same moves, same captures and scores."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Sequence

import pytest

from xeri.engine import Round, shuffle_and_deal
from xeri.events import Captured, Xeri
from xeri.fast import FastRounds, FastRulesError, play_deals, simulate
from xeri.rules import Ruleset, find_ruleset

ROUNDS = 1500


def _replay(rs: Ruleset, fr: FastRounds, r: int) -> None:
    """Replay round r's moves through the engine and compare every capture, xeri and score."""
    rnd = Round(rs, int(fr.dealers[r]), fr.deal(r))  # check=True: the deal must be a valid deal
    flags = []
    for card in fr.moves_of(r):
        events = rnd.play(card)
        flag = 1 if any(type(e) is Captured and not e.leftover for e in events) else 0
        for e in events:
            if type(e) is Xeri:
                flag = 3 if e.jack else 2
        flags.append(flag)
    assert rnd.is_over, f"round {r}: the engine's round is not over after the fast moves"
    assert flags == fr.flags[r][: len(flags)].tolist(), f"round {r}: captures differ"
    assert rnd.scores is not None
    for side, score in enumerate(rnd.scores):
        got = {c for c in range(52) if fr.owners[r, c] == side}
        assert {c.index for c in rnd.captured(side)} == got, f"round {r} side {side}: captured cards differ"
        assert (score.total, score.cards, score.xeris, score.jack_xeris) == (
            fr.totals[r, side], fr.cards[r, side], fr.xeris[r, side], fr.jack_xeris[r, side]
        ), f"round {r} side {side}: scores differ"


CASES = [(name, n) for name in ("classic", "cardgames") for n in (2, 4)]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_engine_deals_play_the_same(name: str, players: int) -> None:
    rs = find_ruleset(name, players=players)
    rng = random.Random(players * 7 + len(name))
    dealers = [i % players for i in range(ROUNDS)]
    deals = [shuffle_and_deal(rs, d, rng) for d in dealers]
    policies: Sequence[str] = ("random", "greedy", "expert", "random")[:players]
    fr = play_deals(deals, dealers, rs, policies, seed=11)
    for r in range(ROUNDS):
        _replay(rs, fr, r)


@pytest.mark.parametrize(("name", "players"), [*CASES, ("berman", 2), ("classic", 3)])
def test_fast_deals_are_valid_and_play_the_same(name: str, players: int) -> None:
    rs = find_ruleset(name, players=players)
    fr = simulate(ROUNDS, rs, policies=("expert", "random", "greedy", "expert")[:players], seed=5, record=True)
    for r in range(ROUNDS):
        _replay(rs, fr, r)


def test_no_xeri_with_the_last_card_variant() -> None:
    rs = find_ruleset("classic", last_card_xeri=False)
    fr = simulate(ROUNDS, rs, policies="greedy", seed=2, record=True)
    for r in range(ROUNDS):
        _replay(rs, fr, r)


def test_jack_under_slips_jacks() -> None:
    fr = simulate(4000, "cardgames", seed=9, record=True)
    tops = fr.deals[:, 2 * 6 + 3]
    assert not any(int(t) % 13 == 9 for t in tops)  # never a Jack on top (a pile of only Jacks is impossible)
    bottoms = fr.deals[:, 2 * 6]
    assert any(int(b) % 13 == 9 for b in bottoms)  # ... they went under


def test_same_seed_same_rounds_and_conservation() -> None:
    a = simulate(5000, "classic", players=4, seed=42)
    b = simulate(5000, "classic", players=4, seed=42)
    c = simulate(5000, "classic", players=4, seed=43)
    assert (a.totals == b.totals).all() and not (a.totals == c.totals).all()
    assert (a.cards.sum(axis=1) <= 52).all()
    # All 22 card points are taken unless nobody captured all round; 'most cards' is 3 unless tied.
    assert ((a.points.sum(axis=1) == 22) | (a.cards.sum(axis=1) < 52)).all()
    most = 3 * (a.cards[:, 0] != a.cards[:, 1])
    assert (a.totals.sum(axis=1) == a.points.sum(axis=1) + most + 10 * a.xeris.sum(axis=1)
            + 20 * a.jack_xeris.sum(axis=1)).all()


def test_policies_are_ordered() -> None:
    """Greedy beats random and the expert-like policy beats greedy, on average over many rounds."""
    vs_random = simulate(20_000, "classic", policies=("greedy", "random"), seed=1)
    diff = (vs_random.totals[:, 0] - vs_random.totals[:, 1]).mean()
    assert diff > 5
    vs_greedy = simulate(20_000, "classic", policies=("expert", "greedy"), seed=1, first_dealer=0)
    swapped = simulate(20_000, "classic", policies=("greedy", "expert"), seed=1, first_dealer=0)
    edge = (vs_greedy.totals[:, 0] - vs_greedy.totals[:, 1]).mean() + (
        swapped.totals[:, 1] - swapped.totals[:, 0]).mean()
    assert edge > 0


@pytest.mark.parametrize(
    ("kwargs", "text"),
    [
        ({"ruleset": "pisti"}, "face-down"),
        ({"policies": "smart"}, "unknown fast policy"),
        ({"policies": ("random", "random", "random")}, "3 policies"),
        ({"rounds": 0}, "at least 1"),
    ],
)
def test_bad_input_is_refused(kwargs: dict[str, object], text: str) -> None:
    args: dict[str, object] = {"rounds": 10, **kwargs}
    with pytest.raises(FastRulesError, match=text):
        simulate(**args)  # type: ignore[arg-type]


def test_bench_fast_json() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "xeri", "bench", "fast", "--json", "--seconds", "0.3"],
        capture_output=True, text=True, timeout=120, check=True,
    )
    import json

    data = json.loads(out.stdout)
    assert data["target"] == "fast" and data["rounds_per_s"] > 10_000


@pytest.mark.parametrize(("name", "players", "moves"), [("classic", 2, 0), ("classic", 2, 17), ("cardgames", 4, 9),
                                                         ("classic", 4, 30)])
def test_rollouts_finish_rounds_like_the_batch_simulator(name: str, players: int, moves: int) -> None:
    """``xeri.fast.rollout.playout`` from a search state ends as the batch run of the same policy does."""
    from xeri.bots.sim import from_round
    from xeri.fast.rollout import playout

    rs = find_ruleset(name, players=players)
    rng = random.Random(moves)
    dealers = [i % players for i in range(200)]
    deals = [shuffle_and_deal(rs, d, rng) for d in dealers]
    fr = play_deals(deals, dealers, rs, "expert", seed=1)
    for r in range(200):
        rnd = Round(rs, dealers[r], deals[r])
        for card in fr.moves_of(r)[:moves]:
            rnd.play(card)
        st = from_round(rnd)
        playout(st, rng.random, smart=True)
        assert st.turn == -1
        assert st.pts == fr.totals[r].tolist() and st.cnt == fr.cards[r].tolist(), f"round {r}"


def test_first_compile_prints_one_notice(capsys: pytest.CaptureFixture[str]) -> None:
    """A kernel with neither compiled signatures nor a cache entry gets the notice; a ready one gets nothing."""
    from xeri.fast import kernels
    from xeri.fast.notice import NOTICE, compiling, is_cached

    class Fresh:
        signatures = ()

    simulate(10, "classic", seed=0)
    assert is_cached(kernels.simulate_batch) and not is_cached(Fresh())
    with compiling(kernels.simulate_batch):
        pass
    assert capsys.readouterr().err == ""
    with compiling(Fresh()):
        pass
    assert capsys.readouterr().err.strip() == NOTICE


def test_recorded_rounds_use_the_smallest_types() -> None:
    fr = simulate(20, "classic", seed=1, record=True)
    assert {a.dtype.itemsize for a in (fr.deals, fr.moves, fr.flags, fr.owners)} == {1}
    assert fr.totals.dtype.itemsize == 2 and fr.deals.nbytes + fr.moves.nbytes + fr.flags.nbytes + fr.owners.nbytes \
        == 20 * 208
