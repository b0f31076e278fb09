"""A lobby and its tables in memory: the pairing service tried without a server."""

from __future__ import annotations

from typing import Any

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
