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
        (["random", "greedy", "--players", "3"], "invalid choice"),
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
