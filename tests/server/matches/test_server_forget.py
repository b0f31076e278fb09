"""A finished match whose names changed (an account deleted) leaves every cache (server.matches.forget, issue 42,
finding 11): a copy being built when the word comes, from the names read before, goes to whoever asked and is not
kept, so the next request builds it again from the database."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

from support.server import db_url
from xeri.server.broker.pubsub import InProcessBroker, RedisBroker
from xeri.server.cluster.node import Cluster
from xeri.server.lobby.lobby import Lobby
from xeri.server.matches.forget import Forgetter
from xeri.server.matches.replays import ReplayCache
from xeri.server.matches.reviews import ReviewCache
from xeri.server.store import Store


def test_a_finished_table_loading_while_it_is_forgotten_is_not_kept() -> None:
    """A Forget from another process may come while this one reads the table: the copy read before is not kept."""

    async def scenario(tmp: Path) -> None:
        store = Store(db_url(tmp))
        await store.open()
        lobby = Lobby(store, InProcessBroker(), bot_delay=0.0)
        await lobby.start()
        try:
            table, _, _ = await lobby.create({"options": {"rounds": 1}, "seats": [{"bot": "easy"}] * 2})
            for _ in range(3000):
                if table.status == "finished":
                    break
                await asyncio.sleep(0.01)  # the bots play on the event loop: let them
            assert table.status == "finished"
            lobby.forget([table.id])
            assert table.id not in lobby.tables and table.id not in lobby.finished
            read = store.load_table

            async def read_then_renamed(table_id: str) -> Any:
                loaded = await read(table_id)
                lobby.forget([table_id])  # the deletion renamed it after this read
                return loaded

            store.load_table = read_then_renamed  # type: ignore[method-assign]
            first = await lobby.get(table.id)
            assert first is not None and first.status == "finished"  # served to whoever asked ...
            assert table.id not in lobby.finished  # ... and not kept
            store.load_table = read  # type: ignore[method-assign]
            again = await lobby.get(table.id)
            assert again is not None and again is not first and lobby.finished.get(table.id) is again
        finally:
            lobby.stop()
            await store.close()

    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(scenario(Path(tmp)))


def test_every_copy_is_dropped_when_redis_comes_back(tmp_path: Path) -> None:
    """Redis keeps no message for a subscription that was down: a deletion's ``Forget`` sent meanwhile never arrives.
    So when the subscription comes back, every finished match built here is dropped (and built again on demand)."""

    async def scenario() -> None:
        broker = RedisBroker("redis://127.0.0.1:1/0")  # never started: the test plays Redis's return itself
        cluster = Cluster(Store(db_url(tmp_path)), broker)

        async def build(*_: Any) -> bytes:
            return b"a replay with the old name"

        async def record() -> str:
            return "{}"

        replays, reviews = ReplayCache(build), ReviewCache()
        Forgetter([replays, reviews], cluster)
        await replays.get("m1", record)
        assert replays.size > 0 and replays.built == 1
        cluster.on_forget[0](["other"])  # a Forget for another match keeps this one
        assert replays.size > 0
        for resubscribed in broker._resubscribed:  # what the broker runs when Redis is back
            resubscribed()
        assert replays.size == 0
        await replays.get("m1", record)
        assert replays.built == 2

    asyncio.run(scenario())
