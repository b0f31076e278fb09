"""Reviews of finished matches for the browser: weighed move by move off the event loop, with progress, cached.

A review weighs every move of one seat with the master's search (``xeri.review``):
seconds of CPU for a whole match. The first request plans it (a replay of the
record, milliseconds) and starts a background build that hands the moves to
``run`` one at a time (``asyncio.to_thread`` by default, or the worker pool's
``run``), so it never holds the event loop and takes at most one worker. Every
request answers at once: the finished review, or how many moves are weighed so
far. A finished match never changes and the evaluation is seeded, so a review
is cached by match and seat; at most ``max_running`` build at once.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from typing import Any

from ...errors import XeriError
from ...review import MoveReview, MoveTask, ReviewPlan, plan_review, run_task

log = logging.getLogger("xeri.server")

Runner = Callable[..., Awaitable[Any]]
#: A job the pool refused while full is tried again after this long, up to BUSY_TRIES times.
BUSY_WAIT, BUSY_TRIES = 0.25, 240


class ReviewBusy(Exception):
    """As many reviews are building as the server allows: try again later."""


class ReviewFailed(Exception):
    """The review could not be built (bad input gives XeriError instead)."""


@dataclass
class _Build:
    done: int = 0
    total: int = 0
    task: asyncio.Task[None] | None = None


class ReviewCache:
    """Reviews by (match id, seat). ``iterations`` overrides the master's playout budget (tests)."""

    def __init__(self, run: Runner | None = None, *, iterations: int | None = None, max_running: int = 2,
                 max_kept: int = 256) -> None:
        self.run: Runner = run or asyncio.to_thread
        self.iterations = iterations
        self.max_running = max_running
        self.max_kept = max_kept
        self.built = 0
        self._done: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self._building: dict[tuple[str, int], _Build] = {}
        self._failed: dict[tuple[str, int], str] = {}  # reported to the next request, which may then retry
        self._stale: set[tuple[str, int]] = set()  # builds under way from a record whose names changed since

    async def request(self, match_id: str, seat: int, record_text: Callable[[], Awaitable[str]]) -> dict[str, Any]:
        """The review's state now: ``{"state": "done", "review": ...}`` or ``{"state": "running", done, total}``.

        The first request starts the build. XeriError on a bad record or seat, ReviewBusy when too many build,
        ReviewFailed when the build broke (a later request starts it again).
        """
        key = (match_id, seat)
        failed = self._failed.pop(key, None)
        if failed is not None:
            raise ReviewFailed(failed)
        review = self._done.get(key)
        if review is not None:
            self._done.move_to_end(key)
            n = review["moves_reviewed"]
            return {"state": "done", "done": n, "total": n, "review": review}
        build = self._building.get(key)
        if build is None:
            if len(self._building) >= self.max_running:
                raise ReviewBusy(f"the server is already building {self.max_running} reviews: try again shortly")
            build = self._building[key] = _Build()
            from ..workers import PoolBusy

            try:
                text = await record_text()
                plan = await self.run(_plan, text, seat, self.iterations)
            except PoolBusy:
                del self._building[key]
                raise ReviewBusy("the server is busy: ask for the review again in a moment") from None
            except BaseException:
                del self._building[key]
                raise
            build.total = len(plan.tasks)
            build.task = asyncio.create_task(self._build(key, build, plan))
        return {"state": "running", "done": build.done, "total": build.total}

    def forget(self, match_ids: Collection[str]) -> None:
        """Drop these matches' reviews (their names changed: an account deleted); builds under way are not kept."""
        wanted = set(match_ids)
        for key in [k for k in self._done if k[0] in wanted]:
            del self._done[key]
        self._stale.update(k for k in self._building if k[0] in wanted)

    def forget_all(self) -> None:
        """Drop every review, and keep none being built (a deletion's word may have been lost)."""
        self.forget({key[0] for key in [*self._done, *self._building]})

    async def wait(self, match_id: str, seat: int) -> None:
        """Until the build of (match id, seat) ends (tests); at once if none runs."""
        build = self._building.get((match_id, seat))
        if build is not None and build.task is not None:
            await asyncio.shield(build.task)

    async def _build(self, key: tuple[str, int], build: _Build, plan: ReviewPlan) -> None:
        try:
            moves = []
            for task in plan.tasks:
                moves.append(await self._run_one(task))
                build.done += 1
            review = plan.assemble(moves).to_dict()
            self.built += 1
            if key in self._stale:
                return  # built from the old names: the next request builds it again
            self._done[key] = review
            while len(self._done) > self.max_kept:
                self._done.popitem(last=False)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bug or a pool that stayed full: logged, and the next request retries
            log.exception("the review of %s seat %s failed", *key)
            self._failed[key] = f"the review could not be built ({type(exc).__name__}): ask again to retry"
        finally:
            self._building.pop(key, None)
            self._stale.discard(key)

    async def _run_one(self, task: MoveTask) -> MoveReview:
        from ..workers import PoolBusy

        for _ in range(BUSY_TRIES):
            try:
                result: MoveReview = await self.run(run_task, task)
                return result
            except PoolBusy:
                await asyncio.sleep(BUSY_WAIT)  # back off while bot moves hold every slot
        raise ReviewFailed("the worker pool stayed full")

    def close(self) -> None:
        """Stop the builds in progress (at shutdown)."""
        for build in self._building.values():
            if build.task is not None:
                build.task.cancel()
        self._building.clear()


def _plan(record_text: str, seat: int, iterations: int | None) -> ReviewPlan:
    """The plan of a record's review (run off the loop: it replays the whole match)."""
    try:
        data = json.loads(record_text)
    except json.JSONDecodeError as exc:
        raise ReviewInputError(f"the stored record is not JSON: {exc.msg}") from None
    return plan_review(data, seat, iterations=iterations)


class ReviewInputError(XeriError):
    """A stored record that cannot be reviewed."""
