"""Bot names, specs (``name:key=value,...``) and the difficulty levels offered to players."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import XeriError
from .base import Bot
from .random_bot import RandomBot


class BotSpecError(XeriError):
    """An unknown bot name or a bad bot parameter."""


BotFactory = Callable[..., Bot]

#: name -> factory(seed=..., **params)
BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
}

#: level offered to players -> bot spec
LEVELS: dict[str, str] = {
    "easy": "random",
}


def _parse_value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"ismcts:iterations=2000,seconds=0.5"`` -> ``("ismcts", {...})``."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, Any] = {}
    for part in filter(None, rest.split(",")):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise BotSpecError(f"bad bot parameter {part!r} in {spec!r}: write key=value")
        params[key.strip()] = _parse_value(value.strip())
    return name.strip().lower(), params


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot from a spec or a level name (``"easy"``, ``"greedy"``, ``"ismcts:iterations=500"``)."""
    if spec.strip().lower() in LEVELS:
        spec = LEVELS[spec.strip().lower()]
    name, params = parse_spec(spec)
    if name not in BOTS:
        raise BotSpecError(f"unknown bot {name!r}; bots are: {', '.join(BOTS)}; levels are: {', '.join(LEVELS)}")
    try:
        return BOTS[name](seed=seed, **params)
    except TypeError as exc:
        raise BotSpecError(f"bad parameters for bot {name!r}: {exc}") from None
