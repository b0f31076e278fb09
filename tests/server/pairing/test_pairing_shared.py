"""The pools of a cluster, shared through Redis (server.pairing.shared): two processes pairing at the same moment
make exactly one table per pairing, and nobody is seated twice."""

from __future__ import annotations

import asyncio
import os
import uuid
from typing import Any

import pytest

from support.pairing import Lobby
from xeri.server.lobby.pulse import Pulse
from xeri.server.pairing.service import DROP_AFTER, PairingService
from xeri.server.pairing.shared import PULSE_FRESH, SharedPairing
from xeri.server.wire.refusals import ProtocolError

REDIS_URL = os.environ.get("XERI_TEST_REDIS_URL")
pytestmark = pytest.mark.skipif(not REDIS_URL and not os.environ.get("XERI_REQUIRE_SERVICES"),
                                reason="needs XERI_TEST_REDIS_URL (scripts/test.sh starts Redis)")


def processes(n: int, clock: list[float]) -> tuple[list[SharedPairing], list[Lobby]]:
    """``n`` services on one Redis, as ``n`` processes of one cluster are (one database: one key prefix)."""
    assert REDIS_URL
    database = f"test-{uuid.uuid4()}"
    lobbies = [Lobby(f"p{i}-") for i in range(n)]
    return [SharedPairing(REDIS_URL, lobby, database, clock=lambda: clock[0]) for lobby in lobbies], lobbies


def test_two_processes_pair_one_table_per_pairing() -> None:
    async def go() -> None:
        clock = [1000.0]
        (a, b), lobbies = processes(2, clock)
        try:
            ids: list[tuple[SharedPairing, str]] = []
            for i in range(40):  # seekers spread over both processes, as a balancer spreads them
                svc = (a, b)[i % 2]
                fmt = ("xeri-2", "xeri-4", "pisti-2")[i % 3]
                # (a second's penalty: nobody is paired before both processes pair at once, below)
                ids.append((svc, await svc.seek(fmt, False, f"p{i}", f"P{i}", penalty=1.0)))
            assert sum(len(lobby.bodies) for lobby in lobbies) == 0
            clock[0] += 1
            for _ in range(3):  # both pair at the same moment, again and again
                await asyncio.gather(a.run(), b.run())
            states = [await svc.poll(seek_id) for svc, seek_id in ids]
            made = sum(len(lobby.bodies) for lobby in lobbies)
            assert made == a.pairings + b.pairings == 7 + 3 + 6  # 14 xeri-2, 13 xeri-4, 13 pisti-2 seekers
            seats: dict[str, set[int]] = {}
            for st in states:
                if st["status"] == "paired":
                    assert st["seat"] not in seats.setdefault(st["table_id"], set())
                    seats[st["table_id"]].add(st["seat"])
            assert len(seats) == made  # every table made was handed out, each seat once
            assert sum(len(v) for v in seats.values()) == 38 and sum(st["status"] == "waiting" for st in states) == 2
        finally:
            await a.close()
            await b.close()

    asyncio.run(go())


def test_one_seek_per_player_across_processes_cancel_and_drop() -> None:
    async def go() -> None:
        clock = [1000.0]
        (a, b), lobbies = processes(2, clock)
        try:
            first = await a.seek("xeri-2", False, "ada", "Ada")
            second = await b.seek("pisti-2", False, "ada", "Ada")  # replaces the first, on another process
            with pytest.raises(ProtocolError):
                await a.poll(first)
            assert (await a.poll(second))["players"] == 1
            counts = await b.waiting()  # the lobby's counts, the same from every process
            assert counts == await a.waiting() and counts[("pisti-2", False)] == 1 and sum(counts.values()) == 1
            assert await a.cancel(second) and not await b.cancel(second)
            silent = await a.seek("xeri-2", False, "bo", "Bo")
            clock[0] += DROP_AFTER + 1
            c = await b.seek("xeri-2", False, "cy", "Cy")
            st: dict[str, Any] = await b.poll(c)
            assert st["status"] == "waiting" and st["players"] == 1
            with pytest.raises(ProtocolError):
                await a.poll(silent)
            assert lobbies[0].bodies == lobbies[1].bodies == []
        finally:
            await a.close()
            await b.close()

    asyncio.run(go())


def test_the_lobby_s_challenges_and_counts_are_the_same_from_every_process() -> None:
    """Issue 41's lobby in a cluster: each process answers the same open challenges as one process alone does
    (oldest first, a rated one's rating rounded, nothing secret), and the players online and tables in play are
    the sum of every process's counts, a process that stopped giving them forgotten after ``PULSE_FRESH``."""
    async def go() -> None:
        clock = [1000.0]
        (a, b), _ = processes(2, clock)
        alone = PairingService(Lobby("alone-"), clock=lambda: clock[0])
        try:
            seeks: list[tuple[str, bool, str, str, float | None]] = [
                ("pisti-4", False, "guest:ada-key", "Ada", None), ("xeri-2", True, "account:7", "Bo", 1612.6),
                ("xeri-4", False, "guest:cy-key", "Cy", None)]
            for i, (fmt, rated, who, name, rating) in enumerate(seeks):
                await (a, b)[i % 2].seek(fmt, rated, who, name, None, rating)
                await alone.seek(fmt, rated, who, name, None, rating)
                clock[0] += 2
            want = [{"format": "pisti-4", "rated": False, "name": "Ada", "rating": None, "waited": 6.0},
                    {"format": "xeri-2", "rated": True, "name": "Bo", "rating": 1613, "waited": 4.0},
                    {"format": "xeri-4", "rated": False, "name": "Cy", "rating": None, "waited": 2.0}]
            assert await a.challenges() == await b.challenges() == await alone.challenges() == want
            assert await a.challenges(limit=1) == await alone.challenges(limit=1) == want[:1]
            assert await a.pulse(Pulse(seated=2, playing=1)) == Pulse(2, 1)
            assert await b.pulse(Pulse(seated=3, playing=2)) == Pulse(5, 3)
            assert await a.pulse(Pulse(seated=2, playing=1)) == Pulse(5, 3)
            assert await alone.pulse(Pulse(seated=2, playing=1)) == Pulse(2, 1)
            clock[0] += PULSE_FRESH + 1  # a process gone silent: its counts are forgotten
            assert await a.pulse(Pulse(seated=1, playing=0)) == Pulse(1, 0)
        finally:
            await a.close()
            await b.close()

    asyncio.run(go())
