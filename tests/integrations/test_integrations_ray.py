"""The Ray backend on a local Ray instance, started once for the module."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from xeri.arena import ray_backend, run_deals
from xeri.rules import find_ruleset


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray_backend.connect(num_cpus=2)
    yield
    ray_backend.shutdown()


def test_ray_map_keeps_the_order_of_items(local_ray: None) -> None:
    # Workers import functions by name, so the function is a library one, not one of this test module.
    items = [30_000, 1, 20_000, 2, 10_000, 3, *range(4, 40)]  # slow items first: they finish last
    assert ray_backend.ray_map(math.factorial, items) == [math.factorial(x) for x in items]
    assert ray_backend.ray_map(math.factorial, []) == []


def test_ray_map_reuses_the_instance(local_ray: None) -> None:
    import ray

    before = ray.get_runtime_context().get_node_id()
    ray_backend.ray_map(math.factorial, [1, 2])
    assert ray.get_runtime_context().get_node_id() == before


def test_arena_on_ray_matches_local_processes(local_ray: None) -> None:
    rs = find_ruleset("classic")
    on_ray = run_deals("random", "greedy", rs, deals=6, seed=4, backend="ray")
    local = run_deals("random", "greedy", rs, deals=6, seed=4, jobs=1)
    strip = [[(g.points_a, g.points_b, g.xeris_a, g.cards_b) for g in d.games] for d in local]
    assert [[(g.points_a, g.points_b, g.xeris_a, g.cards_b) for g in d.games] for d in on_ray] == strip


def test_arena_command_with_ray_backend(local_ray: None, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from xeri.cli import main

    assert main(["arena", "random", "greedy", "--deals", "4", "--backend", "ray", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["deals"] == 4


@pytest.mark.parametrize(("address", "text"), [("nonsense", "HOST:PORT"), ("127.0.0.1:1", "nothing answers")])
def test_a_bad_address_fails_fast_with_one_line(address: str, text: str, capsys: pytest.CaptureFixture[str]) -> None:
    from xeri.cli import main

    ray_backend.shutdown()  # a running instance would be reused instead
    assert main(["arena", "random", "greedy", "--deals", "2", "--backend", "ray", "--address", address]) == 2
    err = capsys.readouterr().err.strip()
    assert text in err and "\n" not in err


def test_an_authentication_refusal_says_so_and_names_rays_setting(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A cluster that refuses this client's token: the one-line error says authentication, not 'could not reach'."""
    import ray
    from ray.exceptions import AuthenticationError

    from xeri.cli import main

    ray_backend.shutdown()

    def refuse(*args: object, **kwargs: object) -> None:
        raise AuthenticationError("Token authentication failed: invalid or missing token")

    monkeypatch.setattr(ray_backend, "_check_reachable", lambda address, timeout=5.0: None)
    monkeypatch.setattr(ray, "init", refuse)
    assert main(["arena", "random", "greedy", "--deals", "2", "--backend", "ray", "--address", "127.0.0.1:6379"]) == 2
    err = capsys.readouterr().err.strip()
    assert "authentication failed" in err and "RAY_AUTH_TOKEN" in err and "could not" not in err
    assert "\n" not in err
    monkeypatch.setattr(ray, "init", lambda *a, **k: (_ for _ in ()).throw(ConnectionError("no route\nmore")))
    with pytest.raises(ray_backend.RayBackendError, match=r"could not start or reach .*: no route$"):
        ray_backend.connect("127.0.0.1:6379")
