"""Reproducible mode ignores the clock: a machine so busy that every clock reading leaps ahead changes no decision.

Issue 16: the arena, the tests, `xeri review` and the server's bots play the levels' specs, which count
iterations only. A search that stopped on wall time would stop at once under the leaping clock and choose
differently; these bots must not notice. Interactive mode (play, hints) may stop early, and is shown to.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest

from xeri.bots import make_bot
from xeri.bots.registry import LEVELS
from xeri.engine import Round, SeatView
from xeri.events import Event
from xeri.rules import find_ruleset


def _positions() -> list[tuple[SeatView, tuple[Event, ...]]]:
    """Seat-to-move positions early, mid-round and in the last deal (where the master solves exactly)."""
    out = []
    rng = random.Random(16)
    for seed in (1, 2):
        rnd = Round.new(find_ruleset("classic"), 0, seed)
        step = 0
        while not rnd.is_over:
            if step in (1, 20, 41, 44):
                seat = rnd.turn
                assert seat is not None
                out.append((rnd.view(seat), rnd.log_for(seat)))
            rnd.play(rng.choice(rnd.legal_moves))
            step += 1
    return out


class LeapingClock:
    """``perf_counter``/``monotonic`` that leap 10 s at every reading, as on a machine starved of CPU."""

    def __init__(self) -> None:
        self.now = time.perf_counter()
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        self.now += 10.0
        return self.now


@pytest.fixture
def leaping(monkeypatch: pytest.MonkeyPatch) -> Iterator[LeapingClock]:
    clock = LeapingClock()
    with monkeypatch.context() as m:
        m.setattr(time, "perf_counter", clock)
        m.setattr(time, "monotonic", clock)
        yield clock


def _choices(spec: str, positions: list[tuple[SeatView, tuple[Event, ...]]], **kw: bool) -> list[str]:
    return [make_bot(spec, seed=7, **kw).choose(view, log).code for view, log in positions]


@pytest.mark.parametrize("level", ["hard", "master"])
def test_reproducible_levels_choose_the_same_under_a_leaping_clock(level: str) -> None:
    positions = _positions()
    calm = _choices(LEVELS[level], positions)
    clock = LeapingClock()
    with pytest.MonkeyPatch.context() as m:
        m.setattr(time, "perf_counter", clock)
        m.setattr(time, "monotonic", clock)
        busy = _choices(LEVELS[level], positions)
    assert busy == calm


def test_a_wall_clock_bound_search_does_notice_the_leaping_clock(leaping: LeapingClock) -> None:
    """The control: a search with a time cap stops at once under that clock, so the test above can fail."""
    positions = _positions()[:1]
    bot = make_bot("pimc:iterations=400,seconds=0.5", seed=7)
    bot.choose(*positions[0])
    assert leaping.readings > 0
    assert bot.stats.iterations < 400  # type: ignore[attr-defined]
