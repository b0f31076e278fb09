"""Playing duplicate deals between two bots, on local processes or a Ray cluster.

Deal ``i`` is shuffled from a seed drawn from the arena seed, and played
twice: once with bot A on side 0 (seat 0, or seats 0 and 2), once with the
sides swapped. With 3 players it is played three times, bot A at each seat in
turn and bot B at the other two. Bot seeds come from the deal seed too, one-way (``xeri.seeds``:
a fair bot's seed opens nothing of the deal), so each deal's result
is fixed by the arena seed alone, whichever worker plays it: results are the
same whatever ``jobs`` or backend.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..bots import Bot, is_cheater, make_bot, make_cheater
from ..bots.registry import partnered
from ..cards import Card
from ..engine import Round, SeatView
from ..errors import XeriError
from ..events import Event
from ..match import Match
from ..rules import Ruleset
from ..seeds import bot_seed

T = TypeVar("T")
R = TypeVar("R")

BACKENDS = ("local", "ray")
#: the domain tag of arena bots' seeds (xeri.seeds)
SEED_DOMAIN = "arena"


class ArenaError(XeriError):
    """Bad arena input: a bot spec, a count, a backend."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """One round of a duplicate deal, from bot A's and bot B's side. Timings do not count in equality.

    With 3 players bot B holds two sides: its figures are their mean (the margin is A's points minus it).
    """

    points_a: int
    points_b: float
    xeris_a: int
    xeris_b: float
    cards_a: int
    cards_b: float
    seconds_a: float = field(compare=False)
    moves_a: int = 0
    seconds_b: float = field(default=0.0, compare=False)
    moves_b: int = 0

    @property
    def margin(self) -> float:
        return self.points_a - self.points_b


@dataclass(frozen=True, slots=True)
class DealResult:
    """A deal played once per side, sides swapped: ``games[k]`` has A on side ``k`` (two games, three with 3
    players)."""

    index: int
    games: tuple[GameResult, ...]


@dataclass(frozen=True, slots=True)
class DealTask:
    """Everything a worker needs to play one duplicate deal, or match (``arena.matches``): plain values, it crosses
    processes."""

    a: str
    b: str
    ruleset: dict[str, Any]
    index: int
    seed: int


def deal_seeds(seed: int, deals: int) -> list[int]:
    """The per-deal seeds: a pure function of the arena seed."""
    rng = random.Random(seed)
    return [rng.getrandbits(64) for _ in range(deals)]


def arena_bot_seed(deal_seed: int, seat: int, a_side: int) -> int:
    """A bot's seed in one game of a duplicate deal: one-way from the deal seed, so it opens nothing of the deal."""
    return bot_seed(deal_seed, seat, domain=SEED_DOMAIN, generation=a_side)


def seat_spec(spec: str, ruleset: Ruleset) -> str:
    """A seat's spec: with 4 players its partner plays the same spec, and a master is told so (``partnered``)."""
    return partnered(spec, spec) if ruleset.players == 4 and not is_cheater(spec) else spec


def _bot(spec: str, seed: int, game: Round | Match) -> Bot:
    return make_cheater(spec, game, seed) if is_cheater(spec) else make_bot(spec, seed)


def seat_bots(a: str, b: str, ruleset: Ruleset, seed: int, a_side: int,
              game: Round | Match) -> tuple[list[Bot], list[bool]]:
    """Each seat's bot in one game of a duplicate pair (a deal or a match), A's on ``a_side`` and B's elsewhere,
    seeded one-way from the game's seed; and which seats are A's."""
    is_a = [ruleset.side_of(seat) == a_side for seat in range(ruleset.players)]
    bots = [_bot(seat_spec(a if mine else b, ruleset), arena_bot_seed(seed, seat, a_side), game)
            for seat, mine in enumerate(is_a)]
    return bots, is_a


@dataclass(slots=True)
class PairClock:
    """The thinking time and the moves of bot A (index 0) and bot B (index 1) in one game."""

    spent: list[float] = field(default_factory=lambda: [0.0, 0.0])
    moves: list[int] = field(default_factory=lambda: [0, 0])

    def choose(self, bot: Bot, is_a: bool, view: SeatView, history: Sequence[Event]) -> Card:
        """The bot's card, its time counted for its side."""
        start = time.perf_counter()
        card = bot.choose(view, history)
        k = 0 if is_a else 1
        self.spent[k] += time.perf_counter() - start
        self.moves[k] += 1
        return card


def play_game(a: str, b: str, ruleset: Ruleset, dealer: int, deal_seed: int, a_side: int) -> GameResult:
    """Play one round from ``deal_seed`` with bot A on ``a_side``; bots see only their seat's view."""
    rnd = Round.new(ruleset, dealer, deal_seed)
    bots, is_a = seat_bots(a, b, ruleset, deal_seed, a_side, rnd)
    clock = PairClock()
    while not rnd.is_over:
        turn = rnd.turn
        assert turn is not None
        rnd.play(clock.choose(bots[turn], is_a[turn], rnd.view(turn), rnd.log_for(turn)), turn)
    scores = rnd.scores
    assert scores is not None
    sa = scores[a_side]
    others = [scores[s] for s in range(ruleset.sides) if s != a_side]
    return GameResult(
        sa.total, _mean([s.total for s in others]), sa.xeris + sa.jack_xeris,
        _mean([s.xeris + s.jack_xeris for s in others]), sa.cards, _mean([s.cards for s in others]),
        clock.spent[0], clock.moves[0], clock.spent[1], clock.moves[1],
    )


def _mean(values: Sequence[int]) -> float | int:
    """Bot B's figure: one side's (an int, as before), or the mean of its sides' with 3 players."""
    return values[0] if len(values) == 1 else sum(values) / len(values)


def play_deal(task: DealTask) -> DealResult:
    """The games of one duplicate deal, A on each side in turn (the unit of work sent to workers)."""
    ruleset = Ruleset.from_dict(task.ruleset)
    dealer = task.index % ruleset.players
    games = tuple(play_game(task.a, task.b, ruleset, dealer, task.seed, side) for side in range(ruleset.sides))
    return DealResult(task.index, games)


def check_setup(a: str, b: str, ruleset: Ruleset) -> None:
    """Fail early, in this process, on a bad spec."""
    probe = Round.new(ruleset, 0, 0)
    for spec in (a, b):
        _bot(spec, 0, probe)


def check_run(a: str, b: str, ruleset: Ruleset, count: tuple[str, int], jobs: int, backend: str) -> None:
    """Fail early, in this process, on bad arena input: ``count`` (its option and value: ``("deals", 100)``),
    the jobs, the backend, a bot spec."""
    option, n = count
    if n < 1:
        raise ArenaError(f"--{option} must be at least 1")
    if jobs < 1:
        raise ArenaError("--jobs must be at least 1")
    if backend not in BACKENDS:
        raise ArenaError(f"unknown backend {backend!r}; backends are: {', '.join(BACKENDS)}")
    check_setup(a, b, ruleset)


def run_deals(
    a: str,
    b: str,
    ruleset: Ruleset,
    deals: int,
    seed: int,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[DealResult]:
    """Play ``deals`` duplicate deals; ``progress(k)`` is called as k more deals finish. In deal order."""
    check_run(a, b, ruleset, ("deals", deals), jobs, backend)
    tasks = [DealTask(a, b, ruleset.to_dict(), i, s) for i, s in enumerate(deal_seeds(seed, deals))]
    return map_tasks(tasks, jobs, backend, address, progress)


def map_tasks(
    tasks: Sequence[DealTask],
    jobs: int,
    backend: str,
    address: str | None,
    progress: Callable[[int], None] | None,
) -> list[DealResult]:
    """Run ``play_deal`` over the tasks on the chosen backend, keeping their order."""
    return map_work(play_deal, tasks, jobs, backend, address, progress)


def map_work(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    jobs: int,
    backend: str,
    address: str | None,
    progress: Callable[[int], None] | None,
) -> list[R]:
    """Run ``fn`` (a picklable top-level function) over the tasks on the chosen backend, keeping their order."""
    tick = progress or (lambda k: None)
    if backend == "ray":
        from .ray_backend import ray_map

        results: list[R] = list(ray_map(fn, list(tasks), address))
        tick(len(results))
        return results
    if jobs == 1 or len(tasks) == 1:
        out = []
        for task in tasks:
            out.append(fn(task))
            tick(1)
        return out
    chunk = max(1, min(8, len(tasks) // (jobs * 16)))
    out = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for result in pool.map(fn, tasks, chunksize=chunk):
            out.append(result)
            tick(1)
    return out
