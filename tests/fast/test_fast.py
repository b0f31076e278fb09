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


RANDOM_CASES = [(name, n, {}) for name in ("classic", "cardgames") for n in (2, 3, 4)] + [
    ("berman", 2, {}), ("classic", 2, {"last_card_xeri": False}), ("classic", 4, {"last_card_xeri": False})]


@pytest.mark.parametrize(("name", "players", "changes"), RANDOM_CASES)
def test_random_play_unrecorded_plays_the_recorded_rounds(name: str, players: int, changes: dict[str, bool]) -> None:
    """All-random play with nothing kept runs a loop of its own (``kernels.random_batch``, with a 2-player copy
    of constant numbers): the same seed gives it the rounds that ``record=True`` keeps (replayed through the engine)."""
    rs = find_ruleset(name, players=players, **changes)
    fast = simulate(3000, rs, seed=21, first_dealer=1)
    kept = simulate(3000, rs, seed=21, first_dealer=1, record=True)
    for field in ("dealers", "totals", "cards", "points", "xeris", "jack_xeris"):
        assert (getattr(fast, field) == getattr(kept, field)).all(), field
    assert kept.xeris.sum() > 0 and (players == 3 or kept.jack_xeris.sum() > 0)
    for r in range(200):
        _replay(rs, kept, r)


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


def test_same_seed_same_rounds_whatever_the_number_of_threads() -> None:
    """Every round draws on its own stream (seed, round number), so the threads' split of the batch changes nothing."""
    import numba

    before = numba.get_num_threads()
    runs, unrecorded = [], []
    try:
        for threads in (1, numba.config.NUMBA_NUM_THREADS):
            numba.set_num_threads(threads)
            for policies in ("random", ("playout", "expert", "greedy")):
                runs.append(simulate(3000, "classic", players=3, policies=policies, seed=77, record=True))
            unrecorded.extend(simulate(3000, "classic", players=n, seed=78) for n in (2, 3))  # random_batch
    finally:
        numba.set_num_threads(before)
    for one, many in ((runs[0], runs[2]), (runs[1], runs[3])):
        for name in ("totals", "cards", "xeris", "deals", "moves", "flags", "owners"):
            assert (getattr(one, name) == getattr(many, name)).all(), name
    for one, many in ((unrecorded[0], unrecorded[2]), (unrecorded[1], unrecorded[3])):
        assert (one.totals == many.totals).all() and (one.cards == many.cards).all()


def test_policies_are_ordered() -> None:
    """Greedy beats random and the expert beats greedy, on average over many rounds."""
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


class KernelStream:
    """A Python ``rnd()`` on the kernels' xorshift64* stream: ``int(rnd() * n)`` draws as ``_below(state, n)``."""

    def __init__(self, seed: int) -> None:
        self.x = self.mix(self.mix(seed) ^ self.mix(0)) or 0x9E3779B97F4A7C15  # where ``finish_round`` starts

    @staticmethod
    def mix(x: int) -> int:
        """splitmix64's finaliser, in Python integers."""
        m = 2**64 - 1
        x = (x + 0x9E3779B97F4A7C15) & m
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & m
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & m
        return x ^ (x >> 31)

    def __call__(self) -> float:
        m = 2**64 - 1
        x = self.x
        x ^= x >> 12
        x ^= (x << 25) & m
        x ^= x >> 27
        self.x = x
        return (((x * 0x2545F4914F6CDD1D) & m) >> 32) / 2**32


ROLLOUT_CASES = [("classic", 2, 0), ("classic", 2, 17), ("cardgames", 4, 9), ("classic", 3, 20), ("berman", 2, 30)]


@pytest.mark.parametrize(("name", "players", "moves"), ROLLOUT_CASES)
@pytest.mark.parametrize("smart", [True, False])
def test_compiled_rollout_plays_policy_move(name: str, players: int, moves: int, smart: bool) -> None:
    """rollout=compiled is the Python rollout: from the same state and random stream, the same cards and scores."""
    import numpy as np

    from xeri.bots.ismcts import playout as python_playout
    from xeri.bots.ismcts import policy_move
    from xeri.bots.sim import from_round
    from xeri.fast.rollout import finish

    rs = find_ruleset(name, players=players)
    rng = random.Random(moves * 31 + players)
    for r in range(60):
        rnd = Round.new(rs, r % players, rng.getrandbits(64))
        for _ in range(moves):
            rnd.play(rng.choice(rnd.legal_moves))
        seed = rng.getrandbits(62)
        st = from_round(rnd)
        want, played, stream = st.copy(), [], KernelStream(seed)
        while want.turn >= 0:
            played.append(policy_move(want, stream, smart))
            want.play(played[-1])
        inline = st.copy()
        python_playout(inline, KernelStream(seed), smart)
        got = np.empty(52, np.int64)
        finish(st, seed, smart, moves=got)
        assert got[: len(played)].tolist() == played and (got[len(played) :] == -1).all(), f"{name} round {r}"
        assert st.turn == -1 and (st.pts, st.cnt, st.xeris) == (want.pts, want.cnt, want.xeris), f"round {r}"
        assert inline.pts == st.pts and inline.cnt == st.cnt, f"{name} round {r}: ismcts.playout differs"


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
