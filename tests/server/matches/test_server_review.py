"""The server's reviews: built off the event loop move by move, with progress, cached; GET /api/matches/ID/review."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from support.bot_play import bot, play_match
from support.server import Player, ThreadServer, create, db_url, play_out
from xeri import record, review
from xeri.server.matches.reviews import ReviewBusy, ReviewCache, ReviewFailed
from xeri.server.workers import PoolBusy, Workers

ITERATIONS = 20
DEADLINE = 30.0


def a_record(seed: int = 12) -> dict[str, Any]:
    return record.to_record(play_match([bot("random", seed), bot("expert", seed)], seed=seed))


def text_of(data: dict[str, Any]) -> Any:
    async def text() -> str:
        return json.dumps(data)
    return text


class Gate:
    """A runner whose move jobs wait for permits, so a test sees a review half built."""

    def __init__(self) -> None:
        self.permits: asyncio.Semaphore = asyncio.Semaphore(0)
        self.finished = asyncio.Condition()
        self.moves = 0
        self.plans = 0

    async def run(self, fn: Any, *args: Any) -> Any:
        if fn is review.run_task:
            await self.permits.acquire()
            out = await asyncio.to_thread(fn, *args)
            async with self.finished:
                self.moves += 1
                self.finished.notify_all()
            return out
        self.plans += 1
        return await asyncio.to_thread(fn, *args)

    async def until_moves(self, n: int) -> None:
        async with self.finished:
            await asyncio.wait_for(self.finished.wait_for(lambda: self.moves >= n), DEADLINE)


def test_progress_then_the_cached_review() -> None:
    data = a_record()
    expected = review.review_record(data, 0, iterations=ITERATIONS).to_dict()

    async def scenario() -> None:
        gate = Gate()
        cache = ReviewCache(gate.run, iterations=ITERATIONS)
        first = await cache.request("m1", 0, text_of(data))
        assert first == {"state": "running", "done": 0, "total": 24}
        again = await cache.request("m1", 0, text_of(data))  # a second request joins the same build
        assert again["state"] == "running" and gate.plans == 1
        for _ in range(3):
            gate.permits.release()
        await gate.until_moves(3)
        assert (await cache.request("m1", 0, text_of(data)))["done"] == 3
        for _ in range(21):
            gate.permits.release()
        await asyncio.wait_for(cache.wait("m1", 0), DEADLINE)
        done = await cache.request("m1", 0, text_of(data))
        assert done == {"state": "done", "done": 24, "total": 24, "review": expected}
        assert gate.moves == 24 and gate.plans == 1 and cache.built == 1  # cached: nothing ran again

    asyncio.run(scenario())


@pytest.mark.allow_traceback("RuntimeError: a bug")  # the failed build it provokes, logged as one
def test_bounded_builds_bad_input_and_a_failed_build() -> None:
    data = a_record()

    async def scenario() -> None:
        gate = Gate()
        cache = ReviewCache(gate.run, iterations=ITERATIONS, max_running=2)
        await cache.request("a", 0, text_of(data))
        await cache.request("a", 1, text_of(data))
        with pytest.raises(ReviewBusy):
            await cache.request("b", 0, text_of(data))
        cache.close()
        with pytest.raises(review.ReviewError, match="seat must be"):
            await cache.request("b", 5, text_of(data))
        assert (await cache.request("b", 0, text_of(data)))["state"] == "running"  # the bad request left no slot
        cache.close()

        async def broken(fn: Any, *args: Any) -> Any:
            if fn is review.run_task:
                raise RuntimeError("a bug")
            return await asyncio.to_thread(fn, *args)

        cache = ReviewCache(broken, iterations=ITERATIONS)
        await cache.request("c", 0, text_of(data))
        await asyncio.wait_for(cache.wait("c", 0), DEADLINE)
        with pytest.raises(ReviewFailed, match="ask again"):
            await cache.request("c", 0, text_of(data))
        assert (await cache.request("c", 0, text_of(data)))["state"] == "running"  # asked again: a new build
        cache.close()

    asyncio.run(scenario())


def test_a_full_worker_pool_delays_the_review_without_failing_it() -> None:
    data = a_record()
    expected = review.review_record(data, 1, iterations=ITERATIONS).to_dict()

    async def scenario() -> None:
        pool = Workers(workers=0, queue=0)  # one slot, run in a thread
        release = threading.Event()
        blocker = pool.submit(release.wait, DEADLINE)  # a bot move holds the only slot
        cache = ReviewCache(pool.run, iterations=ITERATIONS)
        with pytest.raises(ReviewBusy):
            await cache.request("p", 1, text_of(data))  # planning needs a slot too: refused, nothing started
        assert pool.refused == 1
        release.set()
        await blocker
        assert (await cache.request("p", 1, text_of(data)))["state"] == "running"
        await asyncio.wait_for(cache.wait("p", 1), DEADLINE)
        assert (await cache.request("p", 1, text_of(data)))["review"] == expected
        pool.close()

        refusals = 2

        async def full_at_first(fn: Any, *args: Any) -> Any:
            nonlocal refusals
            if fn is review.run_task and refusals:
                refusals -= 1
                raise PoolBusy("the pool is full")  # as Workers.run says while bot moves hold every slot
            return await asyncio.to_thread(fn, *args)

        cache = ReviewCache(full_at_first, iterations=ITERATIONS)
        await cache.request("q", 1, text_of(data))
        await asyncio.wait_for(cache.wait("q", 1), DEADLINE)
        assert refusals == 0 and (await cache.request("q", 1, text_of(data)))["review"] == expected

    asyncio.run(scenario())


# --- over HTTP -----------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    srv = ThreadServer(db_url(tmp_path_factory.mktemp("review"))).start()
    srv.app.state.ctx.reviews = ReviewCache(srv.app.state.ctx.workers.run, iterations=ITERATIONS)  # the server's pool
    yield srv
    srv.stop()


def test_the_review_endpoint(server: ThreadServer) -> None:
    made = create(server.base, name="Eleni", seats=[None, {"bot": "easy"}], options={"rounds": 1})
    p = Player(server.ws_base, made["table_id"], made["token"])
    play_out([p], random.Random(5))
    url = f"{server.base}/api/matches/{made['table_id']}"
    data = httpx.get(f"{url}/record").json()
    expected = review.review_record(data, 0, iterations=ITERATIONS).to_dict()
    deadline = time.monotonic() + DEADLINE
    seen = []
    while True:
        r = httpx.get(f"{url}/review?seat=0", timeout=10)
        assert r.status_code in (200, 202), r.text
        seen.append(r.json())
        if r.status_code == 200:
            break
        assert seen[-1]["state"] == "running" and 0 <= seen[-1]["done"] <= seen[-1]["total"]
        assert time.monotonic() < deadline, "the review did not finish"
        threading.Event().wait(0.05)  # poll interval, as the browser polls
    assert seen[0]["state"] == "running" and seen[0]["total"] == len(expected["rounds"][0]["moves"])
    assert seen[-1]["review"] == expected
    again = httpx.get(f"{url}/review?seat=0")
    assert again.status_code == 200 and again.json()["review"] == expected  # cached


@pytest.mark.parametrize(("path", "status", "needle"), [
    ("review?seat=x", 400, "seat must be a seat number"),
    ("review?seat=5", 400, "seat must be 0..1"),
])
def test_bad_review_requests(server: ThreadServer, path: str, status: int, needle: str) -> None:
    made = create(server.base, name="Nikos", seats=[None, {"bot": "easy"}], options={"rounds": 1})
    play_out([Player(server.ws_base, made["table_id"], made["token"])], random.Random(6))
    r = httpx.get(f"{server.base}/api/matches/{made['table_id']}/{path}")
    assert r.status_code == status and needle in r.json()["error"]["message"]


def test_review_of_no_match_or_an_unfinished_one(server: ThreadServer) -> None:
    assert httpx.get(f"{server.base}/api/matches/nosuchmatch/review").status_code == 404
    made = create(server.base, name="Kostas", seats=[None, {"bot": "easy"}])
    r = httpx.get(f"{server.base}/api/matches/{made['table_id']}/review?seat=0")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"
