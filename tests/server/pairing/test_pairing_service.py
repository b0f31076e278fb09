"""The pairing service without a server (server.pairing.service): one table per pairing, and a table the lobby
refuses, for a moment or for good."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from xeri.server.pairing.service import DROP_AFTER, PairingService
from xeri.server.table.commands import Join, Origin, Outcome
from xeri.server.wire.refusals import ProtocolError


class Table:
    def __init__(self, tid: str) -> None:
        self.id = tid
        self.joined: list[Join] = []

    async def handle(self, command: Join, origin: Origin) -> Outcome:
        self.joined.append(command)
        return Outcome(seat=command.seat, token=f"{self.id}-{command.seat}")


class Lobby:
    """Tables in memory, each lobby's ids its own (``name``: two processes' lobbies)."""

    def __init__(self, name: str = "") -> None:
        self.name = name
        self.bodies: list[dict[str, Any]] = []
        self.refuse: ProtocolError | None = None

    async def create(self, body: Any, address: str | None = None,
                     account: tuple[str, str] | None = None) -> tuple[Any, int | None, str | None]:
        if self.refuse is not None:
            raise self.refuse
        self.bodies.append(body)
        t = Table(f"{self.name}t{len(self.bodies)}")
        return t, 0, f"{t.id}-0"


def service() -> tuple[PairingService, Lobby, list[float]]:
    clock = [0.0]
    lobby = Lobby()
    return PairingService(lobby, clock=lambda: clock[0]), lobby, clock


def test_four_seekers_one_table_every_seat_a_person() -> None:
    async def go() -> None:
        svc, lobby, _ = service()
        ids = [await svc.seek("pisti-4", False, f"p{i}", f"P{i}") for i in range(4)]
        got = [await svc.poll(i) for i in ids]
        assert len(lobby.bodies) == 1 and svc.pairings == 1
        assert lobby.bodies[0]["players"] == 4 and lobby.bodies[0]["ruleset"] == "pisti"
        assert lobby.bodies[0].get("seats") is None  # every seat human
        assert sorted(g["seat"] for g in got) == [0, 1, 2, 3] and len({g["token"] for g in got}) == 4

    asyncio.run(go())


def test_an_outage_keeps_the_seekers_waiting_and_a_refusal_tells_them() -> None:
    async def go() -> None:
        svc, lobby, clock = service()
        lobby.refuse = ProtocolError("unavailable", "the database is away")
        a = await svc.seek("xeri-2", False, "a", "A")
        b = await svc.seek("xeri-2", False, "b", "B")
        assert (await svc.poll(b))["status"] == "waiting" and len(svc.pools) == 2
        lobby.refuse = ProtocolError("not_ratable", "no")
        clock[0] += 1
        with pytest.raises(ProtocolError, match="no"):
            await svc.poll(a)
        with pytest.raises(ProtocolError):
            await svc.poll(b)
        assert len(svc.pools) == 0 and svc.pairings == 0

    asyncio.run(go())


def test_a_silent_seeker_is_dropped_not_seated() -> None:
    async def go() -> None:
        svc, lobby, clock = service()
        await svc.seek("xeri-2", False, "a", "A")
        clock[0] += DROP_AFTER + 1
        b = await svc.seek("xeri-2", False, "b", "B")
        assert (await svc.poll(b))["players"] == 1 and lobby.bodies == []

    asyncio.run(go())
