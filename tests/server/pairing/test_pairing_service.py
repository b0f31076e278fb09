"""The pairing service without a server (server.pairing.service): one table per pairing, and a table the lobby
refuses, for a moment or for good."""

from __future__ import annotations

import asyncio

import pytest

from support.pairing import Lobby
from xeri.server.pairing.service import DROP_AFTER, PairingService
from xeri.server.wire.refusals import ProtocolError


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
