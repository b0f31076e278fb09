"""One adoption per orphaned table in a process (server.cluster), without PostgreSQL or Redis: stand-ins."""

from __future__ import annotations

import asyncio
from typing import Any

from xeri.server.cluster import Cluster


class Broker:
    node = "me"
    relay: Any = None

    def listen(self, channel: str, callback: Any) -> None:
        pass

    def on_resubscribed(self, callback: Any) -> None:
        pass

    async def send(self, channel: str, envelope: Any) -> int:
        return 0


class Store:
    async def take_lease(self, table_id: str, owner: str, seconds: float) -> bool:
        return True  # the lease is free (its owner died), or this process's already


class Rebuilt:
    version = 7


class Lobby:
    """Rebuilding a table takes a while (the database, the replay): long enough for a second adopter to come."""

    def __init__(self) -> None:
        self.tables: dict[str, Any] = {}
        self.loads = 0
        self.release = asyncio.Event()

    async def load_owned(self, table_id: str) -> Any:
        self.loads += 1
        await self.release.wait()
        table = Rebuilt()
        self.tables[table_id] = table
        return table


def test_the_lease_loop_and_an_arriving_client_share_one_adoption() -> None:
    async def scenario() -> tuple[int, list[Any]]:
        lobby = Lobby()
        cluster = Cluster(Store(), Broker())  # type: ignore[arg-type]
        cluster.host = lobby  # type: ignore[assignment]
        first = asyncio.create_task(cluster.adopt("t1"))  # the lease loop found the orphan
        second = asyncio.create_task(cluster.adopt("t1"))  # a player reconnecting to it, at the same time
        await asyncio.sleep(0)  # let both start (no timing: the load is held until released)
        await asyncio.sleep(0)
        lobby.release.set()
        tables = list(await asyncio.gather(first, second))
        for task in list(cluster._tasks):
            task.cancel()
        return lobby.loads, tables

    loads, tables = asyncio.run(scenario())
    assert loads == 1, "the table was rebuilt twice: two copies would both run its bots"
    assert tables[0] is tables[1] is not None


class DownBroker(Broker):
    """Redis killed: every publish is refused, as redis-py's connection is."""

    def __init__(self) -> None:
        self.sent = 0
        self.down = True

    async def send(self, channel: str, envelope: Any) -> int:
        if self.down:
            raise ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 6379)")
        self.sent += 1
        return 1


class Orphans(Store):
    async def orphans(self) -> list[str]:
        return ["t1"]


class Adopted(Rebuilt):
    id = "t1"
    status = "playing"
    owned = True
    clients = 0


class Loaded(Lobby):
    async def load_owned(self, table_id: str) -> Any:
        table = Adopted()
        self.tables[table_id] = table
        return table


def test_redis_away_while_adopting_logs_one_line_not_a_traceback_and_retries(caplog: Any) -> None:
    async def scenario() -> DownBroker:
        broker = DownBroker()
        cluster = Cluster(Orphans(), broker, lease=0.03)  # type: ignore[arg-type]
        cluster.host = Loaded()  # type: ignore[assignment]
        await cluster._look_after()
        broker.down = False  # Redis is back: the announcement is retried
        for _ in range(200):
            if broker.sent:
                break
            await asyncio.sleep(0.01)  # polling the retry task, whose period is the (tiny) lease's
        for task in list(cluster._tasks):
            task.cancel()
        return broker

    with caplog.at_level("INFO", logger="xeri.server"):
        broker = asyncio.run(scenario())
    assert not [r for r in caplog.records if r.exc_info], "a refused Redis connection is logged as a traceback"
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 1 and "adoption of table t1" in warnings[0], warnings
    assert broker.sent == 1, "the adoption's announcement was not retried once Redis came back"
