"""The arena command: duplicate deals, seeds that fix results whatever the jobs, JSON, ladders, errors."""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from xeri import find_ruleset
from xeri.arena import ArenaError, run_deals, run_ladder, summarize
from xeri.arena.play import DealTask, play_deal
from xeri.bots import registry
from xeri.cards import Card
from xeri.cli import main
from xeri.engine import SeatView
from xeri.events import Event


class FirstCardBot:
    """Plays its first card: no randomness, so a mirrored deal gives the mirrored result."""

    name = "first"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def choose(self, view: SeatView, history: Sequence[Event]) -> Card:
        return view.legal_moves[0]


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["arena", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_has_the_promised_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "greedy", "random", "--deals", "30", "--seed", "4", "--jobs", "1", "--json")
    assert code == 0
    data = json.loads(out)
    assert {"a", "b", "deals", "rounds", "margin", "win_rate"} <= set(data)
    assert (data["a"], data["b"], data["deals"], data["rounds"]) == ("greedy", "random", 30, 60)
    for key in ("margin", "win_rate"):
        assert set(data[key]) == {"mean", "ci95"}
        lo, hi = data[key]["ci95"]
        assert lo <= data[key]["mean"] <= hi
    assert data["margin"]["ci95"][0] > 0  # greedy beats random plainly


def test_table_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "expert", "greedy", "--deals", "5", "--jobs", "1", "--players", "4")
    assert code == 0
    assert "margin" in out and "rounds won" in out and "xeris" in out and "cards captured" in out
    assert err == ""  # no progress bar when stderr is not a terminal


def test_results_do_not_depend_on_jobs() -> None:
    ruleset = find_ruleset("classic")
    one = run_deals("ismcts:iterations=20", "expert", ruleset, 6, seed=9, jobs=1)
    two = run_deals("ismcts:iterations=20", "expert", ruleset, 6, seed=9, jobs=2)
    assert one == two
    assert one != run_deals("ismcts:iterations=20", "expert", ruleset, 6, seed=10, jobs=1)


@pytest.mark.parametrize("players", [2, 4])
def test_each_deal_is_played_twice_with_sides_swapped(monkeypatch: pytest.MonkeyPatch, players: int) -> None:
    monkeypatch.setitem(registry.BOTS, "first", FirstCardBot)
    ruleset = find_ruleset("pisti", players=players)
    results = run_deals("first", "first", ruleset, 20, seed=2, jobs=1)
    for d in results:
        g1, g2 = d.games
        assert (g1.points_a, g1.points_b, g1.cards_a) == (g2.points_b, g2.points_a, g2.cards_b)
    s = summarize(results)
    assert s.margin.mean == 0 and s.margin.lo == s.margin.hi == 0


def test_ray_backend_is_pluggable(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[int, str | None]] = []

    def ray_map(fn: Callable[[Any], Any], items: list[Any], address: str | None) -> list[Any]:
        calls.append((len(items), address))
        return [fn(item) for item in items]

    fake = types.ModuleType("xeri.arena.ray_backend")
    fake.ray_map = ray_map  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "xeri.arena.ray_backend", fake)
    if "xeri.integrations" not in sys.modules:
        monkeypatch.setitem(sys.modules, "xeri.integrations", types.ModuleType("xeri.integrations"))
    ruleset = find_ruleset("classic")
    via_ray = run_deals("greedy", "random", ruleset, 5, seed=1, backend="ray", address="ray://head:10001")
    local = run_deals("greedy", "random", ruleset, 5, seed=1)
    assert calls == [(5, "ray://head:10001")]
    assert via_ray == local


def test_cheating_oracle_only_through_the_arena() -> None:
    result = play_deal(DealTask("oracle-cheater:iterations=30", "greedy", find_ruleset("classic").to_dict(), 0, 3))
    assert len(result.games) == 2


def test_the_peeking_master_plays_from_the_arena_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "peek-master:iterations=40,rworlds=40", "greedy", "--ruleset", "pisti",
                           "--deals", "2", "--seed", "3", "--jobs", "1", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["a"].startswith("peek-master") and data["deals"] == 2
    # A cheater is for the arena: a game against a player refuses it, in one line and before anything is made.
    assert main(["play", "--level", "peek-master", "--fast"]) == 2
    err = capsys.readouterr().err
    assert "reads hidden cards: it is for the arena only" in err and len(err.strip().splitlines()) == 1


def test_ladder_orders_clear_differences(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = run_ladder(["random", "greedy", "expert"], find_ruleset("classic"), 40, seed=1, jobs=1)
    assert [r.bot for r in result.ranked()] == ["expert", "greedy", "random"]
    assert len(result.pairs) == 3
    code, out, _ = run_cli(capsys, "--ladder", "random", "greedy", "--deals", "10", "--jobs", "1", "--json")
    data = json.loads(out)
    assert code == 0 and [r["bot"] for r in data["ratings"]] == ["greedy", "random"]
    assert all(r["ci95"][0] <= r["elo"] <= r["ci95"][1] for r in data["ratings"])


def test_ladder_picture(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "ladder.svg"
    code, _, _ = run_cli(capsys, "--ladder", "random", "greedy", "--deals", "5", "--jobs", "1", "--plot", str(target))
    assert code == 0 and target.read_text().lstrip().startswith("<?xml")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["nosuch", "random"], "unknown bot"),
        (["random"], "name two bots"),
        (["random", "greedy", "--deals", "0"], "at least 1"),
        (["random", "greedy", "--jobs", "0"], "at least 1"),
        (["random", "greedy", "--players", "5"], "invalid choice"),
        (["random", "greedy", "--matches", "0"], "at least 1"),
        (["random", "greedy", "--matches", "2", "--deals", "3"], "not both"),
        (["--ladder", "random", "greedy", "--matches", "2"], "two bots"),
        (["random", "--matches", "2"], "name two bots"),
        (["random", "greedy", "--matches", "2", "--plot", "x.svg"], "--ladder"),
        (["random", "greedy", "--ruleset", "nope"], "unknown ruleset"),
        (["random", "greedy", "-o", "nonsense=1"], "unknown rule option"),
        (["random", "greedy", "--plot", "x.svg"], "--ladder"),
        (["random", "greedy", "--address", "x"], "--backend ray"),
        (["--ladder", "random", "random"], "only once"),
        (["--ladder", "random", "greedy", "--plot", "x.txt"], ".svg or .png"),
        (["ismcts:iterations=-3", "random"], "bad parameters"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, _, err = run_cli(capsys, *argv, "--jobs", "1") if "--jobs" not in argv else run_cli(capsys, *argv)
    assert code == 2
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_arena_error_is_a_xeri_error() -> None:
    from xeri.errors import XeriError

    assert issubclass(ArenaError, XeriError)


def test_matches_json_has_the_promised_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "greedy", "random", "--matches", "8", "--target", "51", "--seed", "4",
                             "--jobs", "1", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert (data["a"], data["b"], data["matches"], data["games"]) == ("greedy", "random", 8, 16)
    assert data["ruleset"]["match_end"] == "target" and data["ruleset"]["target"] == 51
    for key in ("match_win_rate", "margin_per_match", "rounds_per_match"):
        lo, hi = data[key]["ci95"]
        assert lo <= data[key]["mean"] <= hi
    assert data["match_win_rate"]["mean"] > 0.8  # greedy wins nearly every match against random
    assert data["points_per_match"]["a"] >= 51
    assert data["rounds_per_match"]["mean"] >= 2  # nobody gets 51 in one round here
    code, out, _ = run_cli(capsys, "greedy", "random", "--matches", "2", "--jobs", "1")
    assert code == 0 and "matches won" in out and "5 rounds won" in out


@pytest.mark.parametrize(("preset", "players", "options"), [
    ("classic", 2, {"match_end": "target", "target": 51}), ("classic", 2, {}), ("pisti", 4, {"target": 61}),
    ("cardgames", 2, {"tie_rule": "another_hand"}), ("classic", 2, {"match_end": "target", "tie_rule": "higher"})])
def test_each_match_is_played_from_each_side_on_the_same_deals(
        monkeypatch: pytest.MonkeyPatch, preset: str, players: int, options: dict[str, Any]) -> None:
    """Bots that play their first card play the same match twice: A wins exactly one of the two."""
    from xeri.arena.matches import run_matches, summarize_matches

    monkeypatch.setitem(registry.BOTS, "first", FirstCardBot)
    results = run_matches("first", "first", find_ruleset(preset, players=players, **options), 6, seed=3)
    for r in results:
        g1, g2 = r.games
        assert g1.won != g2.won
        assert (g1.points_a, g1.points_b, g1.rounds) == (g2.points_b, g2.points_a, g2.rounds)
    s = summarize_matches(results)
    assert s.win_rate.mean == 0.5 and s.win_rate.lo == s.win_rate.hi == 0.5
    assert s.margin.mean == 0


def test_match_results_do_not_depend_on_jobs_or_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    from xeri.arena.matches import run_matches

    ruleset = find_ruleset("classic", match_end="target", target=51)
    one = run_matches("expert", "greedy", ruleset, 4, seed=9, jobs=1)
    assert one == run_matches("expert", "greedy", ruleset, 4, seed=9, jobs=2)
    assert one != run_matches("expert", "greedy", ruleset, 4, seed=10, jobs=1)
    calls: list[int] = []

    def ray_map(fn: Callable[[Any], Any], items: list[Any], address: str | None) -> list[Any]:
        calls.append(len(items))
        return [fn(item) for item in items]

    fake = types.ModuleType("xeri.arena.ray_backend")
    fake.ray_map = ray_map  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "xeri.arena.ray_backend", fake)
    assert run_matches("expert", "greedy", ruleset, 4, seed=9, backend="ray") == one
    assert calls == [4]


def test_three_players_put_bot_a_at_each_seat(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """With 3 players a deal is played three times, A at each seat and B at the other two."""
    monkeypatch.setitem(registry.BOTS, "first", FirstCardBot)
    ruleset = find_ruleset("berman", players=3)
    results = run_deals("first", "first", ruleset, 5, seed=2, jobs=1)
    assert all(len(d.games) == 3 for d in results)
    assert summarize(results).margin.mean == pytest.approx(0.0)  # the same cards from every seat
    code, out, _ = run_cli(capsys, "expert", "random", "--players", "3", "--deals", "6", "--jobs", "1", "--json")
    data = json.loads(out)
    assert code == 0 and data["rounds"] == 18 and data["margin"]["mean"] > 0


def test_four_player_masters_know_their_partner_is_a_master() -> None:
    from xeri.arena.play import seat_spec

    four, two = find_ruleset("classic", players=4), find_ruleset("classic")
    assert seat_spec("master", four) == "master:partner=master"
    assert seat_spec("master:rworlds=64", four) == "master:rworlds=64,partner=master"
    assert seat_spec("master:partner=model", four) == "master:partner=model"  # the old master, asked for
    assert seat_spec("master", two) == "master" and seat_spec("expert", four) == "expert"
