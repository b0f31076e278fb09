"""xeri.ratings: what a rated match does to a player's rating, and where the computer levels stand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from xeri.bots.registry import LEVELS
from xeri.ratings import (
    FORMATS,
    Rating,
    RatingError,
    format_of,
    initial,
    level_rating,
    predict,
    rate,
)
from xeri.ratings.fit import PairRate, fit
from xeri.rules import find_ruleset

ROOT = Path(__file__).resolve().parents[2]


def test_initial_is_1500_with_a_wide_deviation() -> None:
    r = initial()
    assert (r.display, r.deviation) == (1500, 500)
    assert Rating(1499.6, 80.4).display == 1500 and Rating(1499.6, 80.4).deviation == 80


@pytest.mark.parametrize("fmt", FORMATS)
def test_anchors_are_ordered_weakest_first(fmt: str) -> None:
    mus = [level_rating(fmt, level).mu for level in LEVELS]
    assert mus == sorted(mus) and len(set(mus)) == len(mus)
    assert level_rating(fmt, "medium").mu == 1500  # the pinned level: a newcomer is taken to play like it


def test_a_win_against_master_moves_a_new_player_up_more_than_one_against_easy() -> None:
    [[vs_master], [_master]] = rate("classic-2p", [[initial()], ["master"]], winner=0)
    [[vs_easy], [_easy]] = rate("classic-2p", [[initial()], ["easy"]], winner=0)
    assert vs_master.mu > vs_easy.mu > initial().mu
    # and a loss to easy costs more than a loss to master
    [[lost_easy], _] = rate("classic-2p", [[initial()], ["easy"]], winner=1)
    [[lost_master], _] = rate("classic-2p", [[initial()], ["master"]], winner=1)
    assert lost_easy.mu < lost_master.mu < initial().mu


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("winner", [0, 1])
def test_a_bot_anchor_never_moves(fmt: str, winner: int) -> None:
    k = 1 if fmt == "classic-2p" else 2
    for level in LEVELS:
        after = rate(fmt, [[initial()] * k, [level] * k], winner=winner)
        assert after[1] == [level_rating(fmt, level)] * k
    assert level_rating(fmt, "hard") == level_rating(fmt, "hard")  # the anchors are read, not kept in play


def test_placement_is_fast_against_the_fixed_levels() -> None:
    """A player who beats hard and loses to master, match after match, settles between them."""
    me = initial()
    for i in range(30):
        opponent = "hard" if i % 2 == 0 else "master"
        [[me], _] = rate("classic-2p", [[me], [opponent]], winner=0 if opponent == "hard" else 1)
    hard, master = level_rating("classic-2p", "hard"), level_rating("classic-2p", "master")
    assert hard.mu - 150 < me.mu < master.mu + 150
    assert me.sigma < initial().sigma / 2


def test_4p_partners_share_the_win_by_their_deviation() -> None:
    sure, unsure = Rating(1600, 100), Rating(1600, 400)
    [[a, b], [c, d]] = rate("classic-4p", [[sure, unsure], ["hard", "hard"]], winner=0)
    assert a.mu > sure.mu and b.mu > unsure.mu
    assert b.mu - unsure.mu > a.mu - sure.mu  # the less certain rating moves more
    assert a.sigma < sure.sigma + 5 and b.sigma < unsure.sigma
    assert c == d == level_rating("classic-4p", "hard")
    # a human and a bot partner against two humans: only the humans move, the winners up, the losers down
    [[me, bot], [x, y]] = rate("classic-4p", [[initial(), "strong"], [initial(), initial()]], winner=1)
    assert bot == level_rating("classic-4p", "strong")
    assert me.mu < 1500 < x.mu and x == y


def test_predict_reproduces_the_measured_rates() -> None:
    """The anchors were fitted so that the model's prediction between adjacent levels is the arena's rate."""
    for fmt, players in (("classic-2p", 2), ("classic-4p", 4)):
        data = json.loads((ROOT / f"benchmarks/results/level_ratings.classic.{players}p.json").read_text())
        k = players // 2
        for pair in data["pairs"].values():
            p, _ = predict(fmt, [[pair["higher"]] * k, [pair["lower"]] * k])
            assert p == pytest.approx(pair["match_win_rate"]["mean"], abs=0.002), (fmt, pair["higher"])


def test_the_fit_solves_a_known_ladder() -> None:
    """Rates made from known gaps give those gaps back, and medium stays at 1500."""
    pairs = [PairRate("medium", "easy", 0.9, 0.0, 1000), PairRate("hard", "medium", 0.7, 0.0, 1000),
             PairRate("strong", "hard", 0.5, 0.0, 1000), PairRate("master", "strong", 0.6, 0.0, 1000)]
    got = fit("classic-2p", pairs)
    assert got["medium"] == Rating(1500, 0) and got["strong"].mu == pytest.approx(got["hard"].mu)
    for p in pairs:
        assert predict("classic-2p", [[got[p.higher]], [got[p.lower]]])[0] == pytest.approx(p.rate)
    with pytest.raises(RatingError, match="no measured rate for master-strong"):
        fit("classic-2p", pairs[:3])
    sweep = fit("classic-2p", [*pairs[:3], PairRate("master", "strong", 1.0, 0.0, 10)])
    assert sweep["master"].mu < 1e4  # a clean sweep is held half a match from 1: a finite gap


def test_format_of_rates_classic_2p_and_4p_with_accounts_or_bots_only() -> None:
    assert format_of(find_ruleset("classic"), [True, True]) == "classic-2p"
    assert format_of(find_ruleset("classic", players=4), [True] * 4) == "classic-4p"
    assert format_of(find_ruleset("classic", match_end="target", target=51), [True, True]) == "classic-2p"
    assert format_of(find_ruleset("classic"), [True, False]) is None  # a guest
    assert format_of(find_ruleset("classic", players=3), [True] * 3) is None
    assert format_of(find_ruleset("classic", xeri_points=20), [True, True]) is None  # other card rules
    assert format_of(find_ruleset("pisti"), [True, True]) is None
    assert format_of(find_ruleset("classic"), [True]) is None


@pytest.mark.parametrize(("call", "message"), [
    (lambda: rate("pisti-2p", [[initial()], ["easy"]], 0), "unknown format 'pisti-2p'"),
    (lambda: rate("classic-2p", [[initial()], ["grandmaster"]], 0), "unknown level 'grandmaster'"),
    (lambda: rate("classic-2p", [[initial(), initial()], ["easy"]], 0), "two teams of 1"),
    (lambda: rate("classic-4p", [[initial()], ["easy"]], 0), "two teams of 2"),
    (lambda: rate("classic-2p", [[initial()], ["easy"]], 2), "the winner is team 0 or 1"),
    (lambda: rate("classic-2p", [[initial()], ["easy"]], True), "the winner is team 0 or 1"),
    (lambda: rate("classic-2p", [[1500], ["easy"]], 0), "a Rating or a level name"),
    (lambda: level_rating("classic-2p", "expert"), "unknown level 'expert'"),
    (lambda: Rating(float("nan"), 1), "finite"),
    (lambda: Rating(1500, -1), "sigma of 0 or more"),
])
def test_bad_input_is_a_clear_error(call: object, message: str) -> None:
    with pytest.raises(RatingError, match=message):
        call()  # type: ignore[operator]


def test_the_packaged_anchors_are_the_fit_of_the_result_files() -> None:
    anchors = json.loads((ROOT / "src/xeri/ratings/anchors.json").read_text())
    for fmt, players in (("classic-2p", 2), ("classic-4p", 4)):
        data = json.loads((ROOT / f"benchmarks/results/level_ratings.classic.{players}p.json").read_text())
        for level in LEVELS:
            assert anchors["formats"][fmt][level]["mu"] == pytest.approx(data["fit"]["anchors"][level]["mu"],
                                                                           abs=0.01)
