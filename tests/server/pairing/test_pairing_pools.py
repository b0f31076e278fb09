"""The pure pools of "Play online" (server.pairing.pools): order, windows, teams, one seek per player."""

from __future__ import annotations

import math
import random

import pytest

from xeri.server.pairing.pools import (
    FORMATS,
    WINDOW_OPEN_AFTER,
    WINDOW_START,
    Pools,
    Seeker,
    SeekRefused,
    overlap,
    teams,
)


def seeker(i: int, fmt: str = "xeri-2", rated: bool = False, rating: float | None = None, at: float = 0.0,
           who: str | None = None, penalty: float = 0.0) -> Seeker:
    return Seeker(id=f"s{i}", who=who or f"p{i}", name=f"P{i}", format=fmt, rated=rated, joined_at=at,
                  rating=rating, penalty=penalty)


def test_casual_pairs_in_arrival_order() -> None:
    pools = Pools()
    for i in range(5):
        pools.add(seeker(i, at=float(i)))
    found = pools.pair(10.0)
    assert [[s.id for s in p.seekers] for p in found] == [["s0", "s1"], ["s2", "s3"]]
    assert [s.id for s in pools] == ["s4"]


def test_pools_are_apart_by_format_and_rated() -> None:
    pools = Pools()
    pools.add(seeker(0, "xeri-2"))
    pools.add(seeker(1, "pisti-2"))
    pools.add(seeker(2, "xeri-2", rated=True, rating=1500))
    assert pools.pair(100.0) == []
    assert pools.waiting("xeri-2", False) == 1 and pools.waiting("xeri-2", True) == 1


def test_rated_window_widens_with_the_wait() -> None:
    a, b = seeker(0, rated=True, rating=1500), seeker(1, rated=True, rating=1800)
    assert a.window(0.0) == WINDOW_START
    assert not overlap(a, b, 0.0)  # 300 apart, windows 100 + 100
    assert overlap(a, b, 2.0)  # 150 + 150
    assert a.window(WINDOW_OPEN_AFTER) == math.inf
    pools = Pools()
    pools.add(a)
    pools.add(b)
    assert pools.pair(1.0) == []
    assert [s.id for s in pools.pair(2.0)[0].seekers] == ["s0", "s1"]


def test_rated_prefers_the_closest_rating() -> None:
    pools = Pools()
    pools.add(seeker(0, rated=True, rating=1500))
    pools.add(seeker(1, rated=True, rating=1580))
    pools.add(seeker(2, rated=True, rating=1510))
    assert [s.id for s in pools.pair(0.0)[0].seekers] == ["s0", "s2"]


def test_a_penalty_delays_pairing() -> None:
    pools = Pools()
    pools.add(seeker(0, penalty=20.0))
    pools.add(seeker(1))
    assert pools.pair(19.0) == []
    assert len(pools.pair(20.0)) == 1


def test_four_players_are_balanced_teams() -> None:
    pools = Pools()
    for i, r in enumerate((1500, 1900, 1700, 1300)):
        pools.add(seeker(i, "xeri-4", rated=True, rating=r))
    (p,) = pools.pair(WINDOW_OPEN_AFTER)
    ratings = [s.rating for s in p.seekers]
    assert ratings == [1900, 1700, 1300, 1500]  # 1900 + 1300 (seats 0, 2) against 1700 + 1500 (seats 1, 3)
    assert teams(list(p.seekers[:3])) == p.seekers[:3]


def test_one_seek_per_player() -> None:
    pools = Pools()
    pools.add(seeker(0, who="ada"))
    old = pools.add(seeker(1, "pisti-2", who="ada"))
    assert old is not None and old.id == "s0"
    assert [s.id for s in pools] == ["s1"]
    pools.add(seeker(2, "pisti-2", who="bo"))
    (p,) = pools.pair(0.0)
    assert len({s.who for s in p.seekers}) == 2


def test_cancel() -> None:
    pools = Pools()
    pools.add(seeker(0))
    assert pools.remove("s0") is not None and pools.remove("s0") is None
    pools.add(seeker(1))
    assert pools.pair(0.0) == [] and len(pools) == 1


@pytest.mark.parametrize("bad", [seeker(0, "chess"), seeker(0, "pisti-2", rated=True, rating=1500),
                                 seeker(0, rated=True)])
def test_refused_seeks_change_nothing(bad: Seeker) -> None:
    pools = Pools()
    with pytest.raises(SeekRefused):
        pools.add(bad)
    assert len(pools) == 0


def test_restore_keeps_arrival_order() -> None:
    pools = Pools()
    for i in range(3):
        pools.add(seeker(i, at=float(i)))
    (p,) = pools.pair(5.0)
    pools.restore(p.seekers)
    assert [s.id for s in pools] == ["s2", "s0", "s1"]  # by id map; the pool order is by arrival
    assert [s.id for s in pools.pair(5.0)[0].seekers] == ["s0", "s1"]


def _run(seed: int) -> list[tuple[str, ...]]:
    rng = random.Random(seed)
    pools = Pools()
    out: list[tuple[str, ...]] = []
    seen: set[str] = set()
    for t in range(200):
        fmt = rng.choice(list(FORMATS))
        rated = FORMATS[fmt].ratable and rng.random() < 0.5
        who = f"p{rng.randrange(60)}"
        pools.add(Seeker(id=f"s{t}", who=who, name=who, format=fmt, rated=rated, joined_at=float(t),
                         rating=rng.gauss(1500, 200) if rated else None))
        if rng.random() < 0.1:
            pools.remove(f"s{rng.randrange(t + 1)}")
        for p in pools.pair(float(t)):
            ids = tuple(s.id for s in p.seekers)
            assert len({s.who for s in p.seekers}) == len(ids) == FORMATS[p.format].players
            assert not seen & set(ids)
            seen |= set(ids)
            out.append(ids)
    return out


def test_random_runs_are_deterministic_and_never_seat_one_twice() -> None:
    assert _run(1) == _run(1)
    assert _run(1) != _run(2)
