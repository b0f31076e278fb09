"""ServerConfig: ``xeri serve``'s options read into one frozen value, checked once (server/config.py)."""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import re

import pytest

from xeri.commands.serve import configure
from xeri.server import create_app
from xeri.server.config import OPTIONS, Bots, ConfigError, Listening, Rates, ServerConfig


def options(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    configure(parser)
    return parser.parse_args(list(argv))


def test_the_commands_defaults_are_the_configs() -> None:
    assert ServerConfig.from_args(options()) == ServerConfig()


def test_options_land_in_their_groups() -> None:
    config = ServerConfig.from_args(options("--rate", "5", "--http-rate", "7", "--rated-targets", "any",
                                            "--allow-host", "xeri.example.org", "--host", "0.0.0.0",
                                            "--signin-limit", "5/minute", "--log-format", "json"))
    assert config.rates == Rates(message_rate=5, message_burst=10, http_rate=7, http_burst=28)
    assert config.rated_targets is None and config.edges.allow_hosts == ("xeri.example.org",)
    assert (config.limits.signins_per_address, config.limits.signin_address_window) == (5, 60.0)
    assert not config.listening.is_loopback and Listening(host="localhost").is_loopback
    assert config.logging.format == "json"
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.admin_every = 1.0  # type: ignore[misc]


def test_each_option_is_declared_once_and_sets_a_setting() -> None:
    """An option's default is its setting's (none is written twice); each sets settings ServerConfig has."""
    assert len({o.flag for o in OPTIONS}) == len(OPTIONS)
    parser = argparse.ArgumentParser()
    configure(parser)
    assert all(action.default is None for action in parser._actions if action.dest != "help")
    fields = {f"{outer.name}.{inner.name}" for outer in dataclasses.fields(ServerConfig)
              if dataclasses.is_dataclass(outer.default_factory) for inner in dataclasses.fields(
                  outer.default_factory)} | {f.name for f in dataclasses.fields(ServerConfig)}
    fields |= {f"bots.budget.{f.name}" for f in dataclasses.fields(Bots().budget)}
    assert {path for o in OPTIONS for path in o.sets} <= fields
    given = options("--port", "9001", "--bot-iterations", "7", "--max-replay-mb", "0.5", "--no-auto-migrate",
                    "--trusted-proxy", "10.0.0.0/8", "--trusted-proxy", "::1", "--leaderboard-games", "3")
    config = ServerConfig.from_args(given)
    assert (config.listening.port, config.bots.budget.iterations, config.limits.max_replay_bytes) == (
        9001, 7, 1 << 19)
    assert config.storage.auto_migrate is False and config.edges.trusted_proxies == ("10.0.0.0/8", "::1")
    assert config.leaderboard == dataclasses.replace(ServerConfig().leaderboard, min_games=3)


@pytest.mark.parametrize("argv, says", [
    (["--port", "0"], "--port must be 1..65535"),
    (["--redis", "http://x"], "--redis must be a redis:// URL"),
    (["--rate", "0"], "--rate must be"),
    (["--allow-origin", "example.org"], "--allow-origin must be"),
    (["--trusted-proxy", "proxy"], "--trusted-proxy must be"),
    (["--metrics-port", "8000"], "--metrics-port must be"),
    (["--leaderboard-deviation", "nan"], "--leaderboard-deviation"),
    (["--rated-targets", "51,x"], "--rated-targets must be"),
    (["--signup-limit", "often"], "--signup-limit:"),
    (["--max-rounds", "0"], "bad limit:"),
    (["--bot-seconds", "0"], "bad limit:"),
    (["--bot-delay", "11"], "--bot-delay must be 0..10 seconds"),
])
def test_a_bad_option_is_one_error_naming_it(argv: list[str], says: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(says)):
        ServerConfig.from_args(options(*argv))


def test_a_config_made_in_code_is_checked_too() -> None:
    with pytest.raises(ConfigError, match="--admin-poll"):
        ServerConfig(admin_every=0)
    with pytest.raises(ConfigError, match="--rated-targets"):
        ServerConfig(rated_targets=())
    with pytest.raises(ConfigError, match="--bot-delay"):
        ServerConfig(bots=Bots(delay=-1))
    assert ServerConfig(bots=Bots(delay=60)).bots.delay == 60  # a test's server may think for a minute


def test_create_app_takes_the_config_alone() -> None:
    assert list(inspect.signature(create_app).parameters) == ["config"]
