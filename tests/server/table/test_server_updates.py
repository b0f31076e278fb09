"""Each seat's message is built once and encoded once (server.table.views: the core's dicts go into the messages as
they are, not converted into the schema's Structs on the way): every update, sync and table message of whole
matches still fits the schema's models, and decoded into them and encoded again it is the same text."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import msgspec
import pytest

from support.server import db_url
from xeri.server.broker.envelope import Envelope, to_json
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
                if table.version >= 10 and not any(e.kind == "sync" for e in got):
                    got.extend(table.sync_envelope_now(seat) for seat in (None, *range(players)))  # mid-match
                await asyncio.sleep(0.01)  # the bots play on the event loop: let them
            assert table.status == "finished"
            got.extend(table.sync_envelope_now(seat) for seat in (None, *range(players)))
        finally:
            lobby.stop()
            await store.close()
        return got

    with tempfile.TemporaryDirectory() as tmp:
        got = asyncio.run(scenario(Path(tmp)))
    updates = [e.body for e in got if e.kind == "update"]
    assert len(updates) > 20 * (players + 1)
    for envelope in got:
        decoded = msgspec.json.decode(envelope.body, type=messages.ServerMessage)
        kind = {"update": messages.UpdateMessage, "sync": messages.SyncMessage}.get(envelope.kind, messages.Message)
        assert isinstance(decoded, kind)
        assert to_json(decoded) == envelope.body
    assert sum(e.kind == "sync" for e in got) == 2 * (players + 1)
    assert any(isinstance(msgspec.json.decode(e.body, type=messages.ServerMessage), messages.TableMessage) for e in got)
    assert any(b'"round_end"' in body for body in updates) and any(b'"history"' in body for body in updates)
