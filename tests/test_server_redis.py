"""The Redis pub/sub back end, against a real redis-server (scripts/test.sh starts one).

When XERI_TEST_REDIS_URL is set, a Redis that cannot be reached fails these tests.
"""

from __future__ import annotations

import asyncio
import os
import random
import threading
import time
from pathlib import Path

import pytest

from test_server_support import Player, ThreadServer, create, db_url
from xeri.server.pubsub import RedisBroker

REDIS_URL = os.environ.get("XERI_TEST_REDIS_URL")
# scripts/test.sh starts Redis and sets XERI_REQUIRE_SERVICES, so there a missing Redis fails.
needs_redis = pytest.mark.skipif(
    not REDIS_URL and not os.environ.get("XERI_REQUIRE_SERVICES"),
    reason="needs XERI_TEST_REDIS_URL (scripts/test.sh starts Redis)",
)


def wait_for_redis() -> None:
    """Poll until the freshly started redis-server answers PING (or fail after 15 s)."""
    import redis

    assert REDIS_URL
    client = redis.Redis.from_url(REDIS_URL)
    deadline = time.monotonic() + 15
    while True:
        try:
            if client.ping():
                return
        except redis.ConnectionError:
            if time.monotonic() > deadline:
                raise
        threading.Event().wait(0.05)  # poll interval


@needs_redis
def test_two_brokers_see_each_others_messages_in_order() -> None:
    wait_for_redis()
    assert REDIS_URL

    async def scenario() -> list[str]:
        a, b = RedisBroker(REDIS_URL), RedisBroker(REDIS_URL)
        await a.start()
        await b.start()
        got: list[str] = []
        done = asyncio.Event()

        def on_message(text: str) -> None:
            got.append(text)
            if len(got) == 300:
                done.set()

        b.subscribe("xeri:t1:0", on_message)
        b.subscribe("xeri:t1:1", lambda _t: pytest.fail("a message reached another seat's channel"))
        for i in range(300):
            await a.publish("xeri:t1:0", f"{i} message")
        await asyncio.wait_for(done.wait(), timeout=10)
        b.unsubscribe("xeri:t1:0", on_message)
        await a.close()
        await b.close()
        return got

    assert asyncio.run(scenario()) == [f"{i} message" for i in range(300)]


@needs_redis
def test_a_game_played_through_redis(tmp_path: Path) -> None:
    wait_for_redis()
    assert REDIS_URL
    srv = ThreadServer(db_url(tmp_path), broker=RedisBroker(REDIS_URL)).start()
    try:
        made = create(srv.base, name="R", seats=[None, {"bot": "easy"}], options={"rounds": 1})
        p = Player(srv.ws_base, made["table_id"], made["token"])
        watcher = Player(srv.ws_base, made["table_id"])
        rng = random.Random(9)
        while True:
            view = p.wait_view(lambda v: v["turn"] == 0 or v["match_over"])
            if view["match_over"]:
                break
            p.send(type="move", card=rng.choice(view["legal_moves"]), version=p.version)
            p.at_version(p.version + 1)
        watcher.at_version(p.version)
        for client in (p, watcher):
            versions = [m["version"] for m in client.messages if m["type"] == "update"]
            assert versions == list(range(client.sync["version"] + 1, p.version + 1))
            client.close()
    finally:
        srv.stop()
