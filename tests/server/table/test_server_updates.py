"""Each seat's update is built once and encoded once (server.table.views ``update_message``: the core's dicts, not
converted into the schema's Structs on the way): every update of whole matches still fits the schema's models, and
decoded into them and encoded again it is the same text."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import msgspec
import pytest

from support.server import db_url
from xeri.server.broker.envelope import Envelope, to_text
from xeri.server.broker.pubsub import InProcessBroker, channel
from xeri.server.lobby.lobby import Lobby
from xeri.server.store import Store
from xeri.server.wire import messages


@pytest.mark.parametrize("players", [2, 4])
def test_every_update_of_a_match_fits_the_schema_as_it_is(players: int) -> None:
    async def scenario(tmp: Path) -> list[Envelope]:
        store = Store(db_url(tmp))
        await store.open()
        broker = InProcessBroker()
        lobby = Lobby(store, broker, bot_delay=0.0)
        await lobby.start()
        got: list[Envelope] = []
        try:
            table, _, _ = await lobby.create({"options": {"players": players, "rounds": 2},
                                              "seats": [{"bot": "easy"}] * players})
            for seat in (None, *range(players)):  # before the bots' first move, which waits for the event loop
                broker.subscribe(channel(table.id, seat), got.append)
            for _ in range(3000):
                if table.status == "finished":
                    break
                await asyncio.sleep(0.01)  # the bots play on the event loop: let them
            assert table.status == "finished"
        finally:
            lobby.stop()
            await store.close()
        return got

    with tempfile.TemporaryDirectory() as tmp:
        got = asyncio.run(scenario(Path(tmp)))
    updates = [e.body for e in got if e.kind == "update"]
    assert len(updates) > 20 * (players + 1)
    for text in updates:
        decoded = msgspec.json.decode(text, type=messages.ServerMessage)
        assert isinstance(decoded, messages.UpdateMessage)
        assert to_text(decoded) == text
    assert any('"round_end"' in text for text in updates) and any('"history"' in text for text in updates)
