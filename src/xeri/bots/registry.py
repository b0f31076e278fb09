"""Bot names, specs (``name:key=value,...``) and the difficulty levels offered to players."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import XeriError
from .base import Bot
from .expert import ExpertBot
from .greedy import GreedyBot
from .ismcts import IsmctsBot, PlayoutBot
from .oracle import OracleCheater
from .pimc import PimcBot
from .random_bot import RandomBot


class BotSpecError(XeriError):
    """An unknown bot name or a bad bot parameter."""


BotFactory = Callable[..., Bot]

#: name -> factory(seed=..., **params)
BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "playout": PlayoutBot,
    "expert": ExpertBot,
    "ismcts": IsmctsBot,
    "pimc": PimcBot,
}

#: Bots that read hidden cards: never in ``BOTS`` or ``LEVELS``; only ``make_cheater`` builds them.
CHEATERS: dict[str, Callable[..., Bot]] = {
    "oracle-cheater": OracleCheater,
}

#: level offered to players -> bot spec, weakest first; each beats the one below it
#: (docs/bots.md). The iteration budget keeps play reproducible from the seed; the
#: ``seconds`` cap bounds the wait on a busy machine. More playouts did not play
#: measurably better (3,000 vs 500: -0.29 [-1.83, +1.25] points a round).
LEVELS: dict[str, str] = {
    "easy": "random",
    "medium": "greedy",
    "hard": "expert",
    "master": "pimc:iterations=500,seconds=0.95",
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
    if name in CHEATERS or name == "oracle":
        raise BotSpecError(
            f"{name!r} reads hidden cards: it is for the arena only (xeri arena oracle-cheater ...), never a player"
        )
    if name not in BOTS:
        raise BotSpecError(f"unknown bot {name!r}; bots are: {', '.join(BOTS)}; levels are: {', '.join(LEVELS)}")
    try:
        return BOTS[name](seed=seed, **params)
    except (TypeError, ValueError) as exc:
        raise BotSpecError(f"bad parameters for bot {name!r}: {exc}") from None


def is_cheater(spec: str) -> bool:
    """Whether the spec names a bot that reads hidden cards (the arena builds those with ``make_cheater``)."""
    return parse_spec(spec)[0] in CHEATERS


def make_cheater(spec: str, game: Any, seed: int | None = None) -> Bot:
    """A cheating bot bound to ``game`` (a ``Round`` or ``Match``), whose hidden cards it reads."""
    name, params = parse_spec(spec)
    if name not in CHEATERS:
        raise BotSpecError(f"unknown cheating bot {name!r}; they are: {', '.join(CHEATERS)}")
    try:
        return CHEATERS[name](game, seed=seed, **params)
    except (TypeError, ValueError) as exc:
        raise BotSpecError(f"bad parameters for bot {name!r}: {exc}") from None
