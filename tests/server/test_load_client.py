"""The load benchmark's simulated players (benchmarks/load_server.py): they read the protocol right, time moves
honestly, and the capacity estimate in its JSON follows from the processor time per move."""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import msgspec
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("load_server", ROOT / "benchmarks" / "load_server.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["load_server"] = module  # msgspec resolves the Struct annotations through the module
    spec.loader.exec_module(module)
    return module


L = _load()


def _message(kind: str, version: int, turn: int, seat: int = 0, legal: tuple[str, ...] = ("TD", "3C")) -> bytes:
    """A server message with the fields the client reads and some it skips, as the server sends them."""
    view = {"seat": seat, "players": 2, "turn": turn, "hand": list(legal), "legal_moves": list(legal),
            "pile": ["5H"], "match_over": False, "names": ["a", "b"], "xeris": [[], []]}
    return json.dumps({"type": kind, "version": version, "events": [{"kind": "played", "seat": 1, "card": "5H"}],
                       "view": view, "timer": None, "table": {"id": "t", "seats": []}}).encode()


def test_a_seat_moves_on_its_turn_only_and_times_the_move_to_the_update_that_carries_it() -> None:
    stats = L.Stats()
    stats.recording = True
    seat = L.Seat(random.Random(1), stats, think=0.0)
    assert seat.receive(_message("sync", 4, turn=1)) is None  # the opponent's turn
    turn = seat.receive(_message("update", 5, turn=0))
    assert turn is not None
    delay, version, card = turn
    assert (delay, version) == (0.0, 5) and card in ("TD", "3C")
    sent = msgspec.json.decode(seat.move(version, card))
    assert sent == {"type": "move", "card": card, "version": 5}
    assert seat.receive(_message("update", 5, turn=0)) is None  # a duplicate: the move is still in flight
    assert stats.moves == 0
    assert seat.receive(_message("update", 6, turn=1)) is None  # it carries the move: timed, opponent's turn
    assert stats.moves == 1 and len(stats.latencies) == 1 and stats.latencies[0] >= 0


def test_a_seat_counts_errors_and_closes_and_thinks_before_moving() -> None:
    stats = L.Stats()
    seat = L.Seat(random.Random(2), stats, think=0.5)
    turn = seat.receive(_message("sync", 0, turn=0))
    assert turn is not None and 0.25 <= turn[0] <= 0.75
    seat.thinking = True
    assert seat.receive(_message("sync", 0, turn=0)) is None  # a resync while thinking: still one move
    seat.move(0, turn[2])
    seat.receive(b'{"type": "error", "code": "stale", "message": "x", "version": 0}')
    assert stats.warmup_errors == {"stale": 1} and seat.pending is None
    assert 0.2 <= seat.closed() <= 0.5
    assert stats.warmup_errors == {"stale": 1, "closed": 1}


def test_a_message_that_breaks_the_protocol_stops_the_client_loudly() -> None:
    seat = L.Seat(random.Random(3), L.Stats(), think=0.0)
    with pytest.raises(msgspec.ValidationError):
        seat.receive(b'{"type": "update", "version": 3, "view": {"turn": "zero"}}')
    with pytest.raises(msgspec.DecodeError):
        seat.receive(b'{"type": "update", ')


def test_the_estimate_follows_from_the_processor_time_per_move() -> None:
    def result(processes: int, servers: float) -> dict[str, object]:
        return {"tables": 500, "processes": processes, "think_s": 0.5,
                "cpu_ms_per_move": {"servers": servers, "clients": 0.2, "haproxy": 0.1, "postgres": 0.05,
                                    "redis": 0.03}}

    est = L.estimate([result(1, 0.75), result(3, 1.5)])
    assert est["one_process"] == {"moves_per_s_saturated": 1333, "moves_per_s": 800, "tables": 400}
    assert est["machine"]["moves_per_s"] == 5200 and est["machine"]["tables"] == 2600  # 0.6 * 13 cores / 1.5 ms
    assert est["machine"]["cores"] == {"haproxy": 0.52, "postgres": 0.26, "redis": 0.16}
    assert est["cluster"]["redis_moves_per_s"] == 20000 and est["cluster"]["machines"] == 3.8
    assert est["cluster"]["bottleneck"] == "redis"
    assert L.estimate([{"tables": 5, "think_s": 0.5}]) is None


@pytest.mark.parametrize("client", ["picows", "websockets"])
def test_the_clients_play_a_real_server(client: str, tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "load_server.py"), "--tables", "2",
                          "--seconds", "1.5", "--warmup", "0.5", "--client", client,
                          "--json", str(tmp_path / "run.json")],  # not the quoted benchmarks/results/load_server.json
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["client"] == client and result["moves"] > 0
    assert result["errors"] == {} and result["warmup_errors"] == {}
    record = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    assert record["runs"][0]["moves"] == result["moves"] and record["seed"] == 1 and record["commit"]


def test_processor_time_of_backends_that_come_and_go_is_never_negative() -> None:
    before = {"servers": 1.0, "postgres": {11: 5.0, 12: 3.0}}
    after = {"servers": 2.0, "postgres": {11: 5.5, 13: 0.25}}  # 12 closed in the window, 13 opened in it
    out = L.cpu_per_move(before, after, moves=100)
    assert out["cpu_s"] == {"servers": 1.0, "postgres": 0.75}
    assert out["cpu_ms_per_move"] == {"servers": 10.0, "postgres": 7.5, "total": 17.5}
