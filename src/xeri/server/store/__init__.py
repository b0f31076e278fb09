"""The server's database (SQLAlchemy's async engine on SQLite or PostgreSQL): ``Store`` and its typed rows.

``Store`` is one object with one part per concern, each in its own module: the
connection and transactions (``database``), a game's writes and reads
(``games``), the history's queries (``history``) and the cluster's leases
(``leases``), the accounts and sessions (``accounts``); the schema and rows are in ``schema``, the group commit in
``writer``, SQLite's lock in ``sqlite``, URL handling in ``urls``.
"""

from __future__ import annotations

from .accounts import Accounts
from .failures import DatabaseInUse, DatabaseURLError, StaleMove, StoreConflict, StoreError, StoreUnavailable
from .finished import History
from .games import Games
from .leases import Leases
from .ratings import Ratings
from .sqlite import OwnerLock
from .tables import (
    AccountRow,
    Finish,
    LeaderRow,
    LoadedTable,
    MatchRow,
    MoveRow,
    PlayerStats,
    RatingPoint,
    RatingRow,
    ResultRow,
    SeatRow,
    SessionRow,
    Start,
    TableRow,
    dumps,
)
from .urls import display_url, normalize_url, sqlite_path


class Store(Games, History, Leases, Accounts, Ratings):
    """Async access to the database; ``open()`` before use, ``close()`` after."""


__all__ = [
    "AccountRow", "DatabaseInUse", "DatabaseURLError", "Finish", "LeaderRow", "LoadedTable", "MatchRow", "MoveRow",
    "OwnerLock", "PlayerStats", "RatingPoint", "RatingRow", "ResultRow", "SeatRow", "SessionRow", "StaleMove", "Start",
    "Store", "StoreConflict", "StoreError", "StoreUnavailable", "TableRow", "display_url", "dumps", "normalize_url",
    "sqlite_path",
]
