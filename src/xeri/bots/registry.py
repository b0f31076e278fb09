"""Bot names, specs (``name:key=value,...``) and the difficulty levels offered to players."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import Any

from ..errors import XeriError
from .base import Bot
from .cautious import CautiousBot
from .expert import ExpertBot
from .greedy import GreedyBot
from .ismcts import IsmctsBot, PlayoutBot
from .master import MasterBot
from .master_config import MasterConfig
from .oracle import OracleCheater, PeekingMaster
from .pimc import PimcBot
from .pimc_greedy import PimcGreedyBot
from .random_bot import RandomBot


class BotSpecError(XeriError):
    """An unknown bot name or a bad bot parameter."""


BotFactory = Callable[..., Bot]


def _learned(seed: int | None = None, **params: Any) -> Bot:
    """The shipped policy network (``xeri.bots.learned``), imported on demand: it needs numpy."""
    from .learned import LearnedBot

    return LearnedBot(seed=seed, **params)


def _distilled(seed: int | None = None, **params: Any) -> Bot:
    """The distilled master (``xeri.bots.learned.DistilledBot``), imported on demand: it needs numpy."""
    from .learned import DistilledBot

    return DistilledBot(seed=seed, **params)


def _master(seed: int | None = None, **params: Any) -> Bot:
    """The master of a spec's parameters, by their short keys (``master:early=expert,rworlds=256``)."""
    return MasterBot(MasterConfig.from_spec(params), seed=seed)


def _peek_master(game: Any, seed: int | None = None, **params: Any) -> Bot:
    """The peeking master bound to ``game``, with the master's spec parameters."""
    return PeekingMaster(game, MasterConfig.from_spec(params), seed=seed)


#: name -> factory(seed=..., **params)
BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "learned": _learned,
    "playout": PlayoutBot,
    "expert": ExpertBot,
    "ismcts": IsmctsBot,
    "pimc": PimcBot,
    "master": _master,
    "pimc-greedy": PimcGreedyBot,
    "cautious": CautiousBot,
    "distilled": _distilled,
}

#: The master's opponent pool (issue 43): bots of styles other than the expert's, each as the arena plays it
#: (reproducible budgets). The master's margin over each should be at least its margin over the expert minus that
#: bot's own margin over the expert (``benchmarks/bots_pool.py``, docs/reference/bots-measurements.md).
POOL: tuple[str, ...] = ("pimc-greedy", "ismcts:iterations=500", "learned", "cautious")

#: Bots whose budget may carry a wall-clock cap (``seconds=``; the learned bot passes it to its fallback masters).
SEARCH_BOTS = frozenset({"ismcts", "pimc", "master", "learned", "pimc-greedy", "distilled"})

#: Bots that read hidden cards: never in ``BOTS`` or ``LEVELS``; only ``make_cheater`` builds them.
CHEATERS: dict[str, Callable[..., Bot]] = {
    "oracle-cheater": OracleCheater,
    "peek-master": _peek_master,
}

#: level offered to players -> bot spec, weakest first; each beats the one below it
#: (measured margins in ``LEVEL_MARGINS`` and docs/bots.md). The specs are the
#: reproducible mode: budgets in iterations only, so a seed gives the same moves on
#: any machine (the arena, the tests, ``xeri review``). ``make_bot(..., interactive=True)``
#: adds a wall-clock cap for play and hints.
LEVELS: dict[str, str] = {
    "easy": "random",
    "medium": "greedy",
    "hard": "expert",
    "strong": "learned",
    "master": "master",
}

#: Each level's measured margin over the level below it, in points a round, with its 95% interval
#: (2-player classic, 1,000 duplicate deals: ``benchmarks/bots_strength.py`` for medium and hard, seed 2026;
#: ``xeri arena learned expert --deals 1000 --seed 0 --json`` for strong, ``learned_vs_expert.classic.2p.json``;
#: ``benchmarks/bots_master.py pairs master_vs_learned.classic.2p`` for master, seed 2026,
#: ``master_vs_learned.classic.2p.json`` (without numba: ``--master master:early=expert --tag .counting``,
#: ``master_vs_learned.classic.2p.counting.json``);
#: docs/bots.md, ``tests/project/test_doc_figures.py``).
LEVEL_MARGINS: dict[str, str] = {
    "medium": "+20.0 [+19.2, +20.8] over easy",
    "hard": "+15.8 [+14.9, +16.7] over medium",
    "strong": "+1.2 [+0.5, +1.9] over hard (2 players; at 3 or 4, or on face-down cards, the bot measured between hard "
              "and master there: the lines below)",
    "master": "+4.3 [+3.6, +4.9] over strong (with the fast extra: numba; without it +3.0)",
}


#: The ladder at the other tables (issue 28): table -> level -> its margin over the level below there, in points a
#: round with its 95% interval (``benchmarks/bots_variants.py PAIR.TABLE``, seed 2026: ``greedy_vs_random``,
#: ``expert_vs_greedy``, ``strong_vs_expert``, ``master_vs_strong``; the runs' sizes are in
#: docs/reference/bots-measurements.md, "Levels everywhere"; ``tests/project/test_doc_figures.py`` checks each
#: against its JSON). 3 players: one seat against two.
LEVEL_MARGINS_AT: dict[str, dict[str, str]] = {
    # medium and hard over 1,000 deals; strong over 300 (4-player Pişti: 1,000); master over 500 (3 players: 300,
    # 4 players: 150)
    "Pişti, 2 players": {"medium": "+9.3 [+8.7, +9.9]", "hard": "+5.3 [+4.6, +5.9]", "strong": "+1.3 [+0.3, +2.4]",
                         "master": "+1.3 [+0.5, +2.1]"},
    "Pişti, 4 players": {"medium": "+10.2 [+9.7, +10.8]", "hard": "+5.9 [+5.3, +6.4]", "strong": "+1.5 [+1.1, +2.0]",
                         "master": "+1.5 [+0.8, +2.1]"},
    "3 players": {"medium": "+7.2 [+6.9, +7.5]", "hard": "+5.2 [+4.9, +5.6]", "strong": "+1.7 [+1.2, +2.3]",
                  "master": "+0.6 [+0.1, +1.2]"},
    "4 players": {"medium": "+20.6 [+19.8, +21.4]", "hard": "+15.4 [+14.6, +16.2]", "strong": "+2.5 [+1.4, +3.7]",
                  "master": "+4.8 [+3.4, +6.3]"},
}
#: each table of ``LEVEL_MARGINS_AT`` -> the ``bots_variants`` table name of its runs
LEVEL_TABLES: dict[str, str] = {"Pişti, 2 players": "pisti.2p", "Pişti, 4 players": "pisti.4p",
                                "3 players": "classic.3p", "4 players": "classic.4p"}


def level_table_lines() -> list[str]:
    """One line per table of ``LEVEL_MARGINS_AT``: each level's measured margin over the level below there, and
    where its interval reaches 0, that it is not shown to be above it."""
    def shown(margin: str) -> str:
        low = float(margin.split("[")[1].split(",")[0])
        return margin if low > 0 else f"{margin} (not shown above)"

    return [f"{table}: " + "; ".join(f"{level} {shown(margin)}" for level, margin in levels.items())
            for table, levels in LEVEL_MARGINS_AT.items()]


#: What a bot needs beyond ``pip install xeri``: bot -> (module, the extra that installs it). The learned bot (the
#: strong level) runs its network in NumPy, no torch, no numba; where NumPy is missing, ``xeri rules`` says what to
#: install, a server does not offer the level, and choosing it is a one-line error.
BOT_NEEDS: dict[str, tuple[str, str]] = {
    "learned": ("numpy", "learned"),
    "distilled": ("numpy", "learned"),
}


def _needs(name: str) -> tuple[str, str] | None:
    """What the bot ``name`` lacks here (module, extra), or None; it looks the module up without importing it."""
    need = BOT_NEEDS.get(name)
    if need is None:
        return None
    try:
        found = importlib.util.find_spec(need[0]) is not None
    except (ImportError, ValueError):  # a blocked or half-removed module
        found = False
    return None if found else need


def bot_missing(name: str) -> str | None:
    """Why the bot ``name`` cannot play here (what to install), or None when it can."""
    need = _needs(name)
    if need is None:
        return None
    levels = [level for level, spec in LEVELS.items() if parse_spec(spec)[0] == name]
    who = f"the {name} bot" + (f" (the {levels[0]} level)" if levels else "")
    return f"{who} needs {need[0]}: pip install 'xeri[{need[1]}]'"


def level_available(level: str) -> bool:
    """Whether this installation can play ``level``."""
    return level in LEVELS and _needs(parse_spec(LEVELS[level])[0]) is None


def available_levels() -> list[str]:
    """The levels this installation can play, weakest first: what a server offers."""
    return [level for level in LEVELS if level_available(level)]


def level_lines() -> list[str]:
    """One line per level for help texts: its name, its bot and its measured margin over the level below."""
    lines = []
    for level, spec in LEVELS.items():
        need = _needs(parse_spec(spec)[0])
        lines.append(f"{level:<7} {spec:<8} {LEVEL_MARGINS.get(level, 'the weakest level')}"
                     + (f" (needs {need[0]}: pip install 'xeri[{need[1]}]')" if need else ""))
    return lines


#: The wall-clock cap (seconds) that interactive play and hints add to a search bot's iteration budget.
INTERACTIVE_SECONDS = 0.9


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


def make_bot(spec: str, seed: int | None = None, *, interactive: bool = False) -> Bot:
    """A bot from a spec or a level name (``"easy"``, ``"greedy"``, ``"ismcts:iterations=500"``).

    ``interactive`` (play, hints) caps a search bot's time per move at ``INTERACTIVE_SECONDS`` unless the spec
    sets ``seconds``; without it the budget is the spec's alone (reproducible mode).
    """
    if spec.strip().lower() in LEVELS:
        spec = LEVELS[spec.strip().lower()]
    name, params = parse_spec(spec)
    if name in CHEATERS or name == "oracle":
        raise BotSpecError(
            f"{name!r} reads hidden cards: it is for the arena only (xeri arena oracle-cheater ...), never a player"
        )
    if name not in BOTS:
        raise BotSpecError(f"unknown bot {name!r}; bots are: {', '.join(BOTS)}; levels are: {', '.join(LEVELS)}")
    missing = bot_missing(name)
    if missing:
        raise BotSpecError(missing)
    if interactive and name in SEARCH_BOTS:
        params.setdefault("seconds", INTERACTIVE_SECONDS)
    try:
        return BOTS[name](seed=seed, **params)
    except (TypeError, ValueError) as exc:
        raise BotSpecError(f"bad parameters for bot {name!r}: {exc}") from None


def partnered(spec: str, partner: str | None) -> str:
    """The spec a seat's bot plays when its partner's level or spec is known (4 players; None: a person or no
    partner). A master whose partner is a master too is told so (``partner=master``: its rollouts play the
    partner as itself, not as the style its plays seem to fit); any other spec comes back unchanged, and so does
    one that sets ``partner`` itself."""
    if partner is None:
        return spec
    resolved = LEVELS.get(spec.strip().lower(), spec)
    name, params = parse_spec(resolved)
    if name != "master" or "partner" in params or parse_spec(LEVELS.get(partner.strip().lower(), partner))[0] != name:
        return spec
    return f"{resolved},partner=master" if params else f"{name}:partner=master"


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
