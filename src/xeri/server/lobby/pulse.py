"""How alive the lobby is, on this process: the people seated at a table with it open, and the tables in play.

The lobby's "N players online · M tables in play" (docs/protocol.md, "Play online"). A process counts the unfinished
tables it holds (in a cluster, those it owns: a connection on another process is counted by the owner too, through
``attach_remote``), so summing every process's counts counts each table and each seat once. A seat is counted once
however many tabs hold it open; spectators and bots are not counted. The seekers waiting are the pools' to add.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol


class SeatLike(Protocol):
    @property
    def human(self) -> bool: ...

    @property
    def left(self) -> bool: ...

    @property
    def connections(self) -> int: ...


class TableLike(Protocol):
    @property
    def status(self) -> str: ...

    @property
    def seats(self) -> Sequence[SeatLike]: ...


@dataclass(frozen=True)
class Pulse:
    """People seated with their table open, and tables in play."""

    seated: int = 0
    playing: int = 0

    def __add__(self, other: Pulse) -> Pulse:
        return Pulse(self.seated + other.seated, self.playing + other.playing)


def pulse(tables: Iterable[TableLike]) -> Pulse:
    """The counts of ``tables`` (a lobby's ``tables``: the unfinished ones this process holds)."""
    seated = playing = 0
    for table in list(tables):
        if table.status not in ("waiting", "playing"):
            continue
        playing += table.status == "playing"
        seated += sum(1 for s in table.seats if s.human and not s.left and s.connections > 0)
    return Pulse(seated, playing)
