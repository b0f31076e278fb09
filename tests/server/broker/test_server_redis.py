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

from support.server import Player, ThreadServer, create, db_url
from xeri.server.broker.envelope import Envelope
from xeri.server.broker.pubsub import RedisBroker

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


async def two_brokers() -> tuple[RedisBroker, RedisBroker]:
    """Two processes' brokers on the test Redis, started."""
    assert REDIS_URL
    pair = RedisBroker(REDIS_URL), RedisBroker(REDIS_URL)
    for broker in pair:
        await broker.start()
    return pair


@needs_redis
def test_two_brokers_see_each_others_messages_in_order() -> None:
    wait_for_redis()
    assert REDIS_URL

    async def scenario() -> list[Envelope]:
        a, b = await two_brokers()
        got: list[Envelope] = []
        done = asyncio.Event()

        def on_message(envelope: Envelope) -> None:
            got.append(envelope)
            if len(got) == 300:
                done.set()

        await b.follow("xeri:t1:0", on_message)
        await b.follow("xeri:t1:1", lambda _e: pytest.fail("a message reached another seat's channel"))
        for i in range(300):
            await a.publish("xeri:t1:0", Envelope.update(i, {"n": i}))
        await asyncio.wait_for(done.wait(), timeout=10)
        b.unfollow("xeri:t1:0", on_message)
        await a.close()
        await b.close()
        return got

    assert asyncio.run(scenario()) == [Envelope("update", i, f'{{"n":{i}}}'.encode()) for i in range(300)]


@needs_redis
def test_a_broker_receives_only_the_channels_it_follows_and_relays_only_watched_ones() -> None:
    """Fan-out grows with interest: an unfollowed channel, and one the relay filter leaves out, never arrive."""
    wait_for_redis()
    assert REDIS_URL

    async def scenario() -> tuple[list[bytes], list[bytes]]:
        owner, replica = await two_brokers()
        owner.relay = {"xeri:t2:0", "xeri:t2:end"}.__contains__  # what the cluster says other processes watch
        local: list[bytes] = []
        owner.subscribe("xeri:t2:1", lambda e: local.append(e.body))
        got: list[bytes] = []
        done = asyncio.Event()

        first = asyncio.Event()

        def on_message(envelope: Envelope) -> None:
            got.append(envelope.body)
            if envelope.body == b"end":
                done.set()
            if envelope.body == b"first":
                first.set()

        await replica.follow("xeri:t2:0", on_message)
        await replica.follow("xeri:t2:1", on_message)  # followed, but the owner does not relay it
        await replica.follow("xeri:t2:end", on_message)
        await owner.publish("xeri:t2:1", Envelope.plain(b"seat 1, kept in its process"))
        await owner.publish("xeri:t2:0", Envelope.plain(b"first"))
        await asyncio.wait_for(first.wait(), timeout=10)
        replica.unfollow("xeri:t2:0", on_message)
        assert not replica.following("xeri:t2:0")
        await owner.publish("xeri:t2:end", Envelope.plain(b"end"))
        await asyncio.wait_for(done.wait(), timeout=10)
        # After the unfollow is confirmed by Redis, nothing more arrives on that channel.
        await replica.follow("xeri:t2:probe", on_message)  # a round trip on the subscription connection
        await owner.publish("xeri:t2:0", Envelope.plain(b"after the unfollow"))
        owner.relay = None
        done.clear()
        await owner.publish("xeri:t2:end", Envelope.plain(b"end"))
        await asyncio.wait_for(done.wait(), timeout=10)
        await owner.close()
        await replica.close()
        return local, got

    local, got = asyncio.run(scenario())
    assert local == [b"seat 1, kept in its process"]
    assert got == [b"first", b"end", b"end"]


@needs_redis
def test_a_game_played_through_redis(tmp_path: Path) -> None:
    wait_for_redis()
    assert REDIS_URL
    srv = ThreadServer(db_url(tmp_path), redis=REDIS_URL).start()
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


@needs_redis
def test_two_connections_following_one_channel_share_its_subscription() -> None:
    """The channel stays subscribed until its last follower here goes (two tabs of one seat, or spectators)."""
    wait_for_redis()
    assert REDIS_URL

    async def scenario() -> tuple[list[bytes], list[bytes]]:
        owner, replica = await two_brokers()
        first: list[bytes] = []
        second: list[bytes] = []
        arrived = asyncio.Event()

        def on_first(envelope: Envelope) -> None:
            first.append(envelope.body)

        def on_second(envelope: Envelope) -> None:
            second.append(envelope.body)
            arrived.set()

        await asyncio.gather(replica.follow("xeri:t3:0", on_first), replica.follow("xeri:t3:0", on_second))
        await owner.publish("xeri:t3:0", Envelope.plain(b"both"))
        await asyncio.wait_for(arrived.wait(), timeout=10)
        replica.unfollow("xeri:t3:0", on_first)
        replica.unfollow("xeri:t3:0", on_first)  # twice is once: the other follower keeps the subscription
        assert replica.following("xeri:t3:0")
        arrived.clear()
        await owner.publish("xeri:t3:0", Envelope.plain(b"second only"))
        await asyncio.wait_for(arrived.wait(), timeout=10)
        replica.unfollow("xeri:t3:0", on_second)
        assert not replica.following("xeri:t3:0")
        await owner.close()
        await replica.close()
        return first, second

    first, second = asyncio.run(scenario())
    assert first == [b"both"]
    assert second == [b"both", b"second only"]
