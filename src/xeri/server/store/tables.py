"""The database's tables, and the typed rows the rest of the server sees instead of SQLAlchemy's.

64-bit seeds are kept as decimal text (a signed BIGINT cannot hold them). The
cluster's tables (``xeri_leases``, ``xeri_nodes``) are here too: every process
creates the same schema, whether it runs alone or in a cluster.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Boolean, Column, Float, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

tables_t = Table(
    "xeri_tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("title", String(100), nullable=False, default=""),
    Column("status", String(16), nullable=False, index=True),
    Column("ruleset", Text, nullable=False),
    Column("turn_timer", Float),
    Column("takeover_after", Float),
    Column("takeover_level", String(64), nullable=False),
    Column("private", Boolean, nullable=False, default=False),
    # 64-bit unsigned seeds do not fit a signed BIGINT: kept as decimal text.
    Column("match_seed", String(24), nullable=False),
    Column("salt_key", String(64), nullable=False),
    Column("first_dealer", Integer, nullable=False, default=0),
    Column("names", Text),
    Column("created_at", Float, nullable=False),
    Column("started_at", Float),
    Column("finished_at", Float, index=True),
    Column("result", Text),
    Column("record", Text),
)

seats_t = Table(
    "xeri_seats", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("human", Boolean, nullable=False),
    Column("bot_level", String(64)),
    Column("name", String(64)),
    Column("token_hash", String(64)),
    Column("left", Boolean, nullable=False, default=False),
)

moves_t = Table(
    "xeri_moves", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("card", String(2), nullable=False),
    Column("auto", String(16)),
    Column("at", Float, nullable=False),
)

results_t = Table(
    "xeri_results", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(64), nullable=False, index=True),
    Column("human", Boolean, nullable=False),
    Column("side", Integer, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("points", Integer, nullable=False),
    Column("xeris", Integer, nullable=False),
    Column("jack_xeris", Integer, nullable=False),
    Column("finished_at", Float, nullable=False),
)


# Several processes on one PostgreSQL (docs/scaling.md): who owns which table, and which processes are up.
leases_t = Table(
    "xeri_leases", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("owner", String(40), nullable=False),
    #: seconds since the epoch, by the database's clock (every process compares against the same clock)
    Column("until", Float, nullable=False),
)

nodes_t = Table(
    "xeri_nodes", metadata,
    Column("id", String(40), primary_key=True),
    Column("until", Float, nullable=False),
)

# The operator's two tables (server.ops.operator_store, schema revision 0002): barred addresses, and the operator's
# actions and requests (the audit trail).
bars_t = Table(
    "xeri_bars", metadata,
    # an address or a network, as ipaddress writes it: 203.0.113.7/32, 2001:db8::/48
    Column("network", String(64), primary_key=True),
    #: seconds since the epoch by the database's clock; NULL: until unbarred
    Column("until", Float),
    Column("reason", Text),
    Column("actor", String(100), nullable=False),
    Column("created_at", Float, nullable=False),
)
actions_t = Table(
    "xeri_actions", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False),
    #: close, bar, unbar
    Column("action", String(16), nullable=False),
    #: a table id, or an address or network
    Column("target", String(64), nullable=False),
    #: JSON: the reason, the bar's end
    Column("detail", Text),
    #: who asked (user@host)
    Column("actor", String(100), nullable=False),
    #: when it was carried out and by which process (NULL while a server has yet to do it)
    Column("done_at", Float, index=True),
    Column("done_by", String(40)),
)


# Accounts (server.accounts.service, schema revision 0003_accounts): optional, a guest plays without one. A session is
# kept by the hash of its cookie's value only; which account holds a seat is a table of its own, so that the seat and
# result tables stay as they were (a revision adds tables, it changes none).
accounts_t = Table(
    "xeri_accounts", metadata,
    Column("id", String(32), primary_key=True),
    #: the name as shown (NFKC, spaces folded)
    Column("name", String(64), nullable=False),
    #: the name's key: NFKC, casefolded, each confusable character replaced by its representative (unique)
    Column("name_key", String(128), nullable=False),
    #: argon2id (PHC string); NULL once the account is deleted
    Column("password_hash", String(255)),
    Column("created_at", Float, nullable=False),
    #: deleted: its name anonymised everywhere, its sessions gone, its matches kept
    Column("deleted", Boolean, nullable=False, default=False),
    #: left out of the leaderboards by the player's own choice
    Column("hidden", Boolean, nullable=False, default=False),
    #: the name's second key (server.accounts.names ``look_key``), unique among live accounts (revision
    #: 0005_look_keys); NULL once deleted, and for a look-alike made before the revision (docs/accounts.md)
    Column("look_key", String(128)),
    Index("ux_xeri_accounts_name_key", "name_key", unique=True),
    Index("ux_xeri_accounts_look_key", "look_key", unique=True),
)
sessions_t = Table(
    "xeri_sessions", metadata,
    #: SHA-256 of the cookie's value (the database alone signs nobody in)
    Column("id", String(64), primary_key=True),
    Column("account_id", String(32), nullable=False, index=True),
    #: the token a POST with the cookie sends in X-CSRF-Token
    Column("csrf", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("seen_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False, index=True),
)
seat_accounts_t = Table(
    "xeri_seat_accounts", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", String(32), nullable=False, index=True),
    #: when the seat was taken signed in, or claimed into the account
    Column("bound_at", Float, nullable=False),
    #: a guest's finished match claimed later (its token still opens it); else taken signed in (the token answers
    #: to the account's session only)
    Column("claimed", Boolean, nullable=False, default=False),
)


# --- typed rows -----------------------------------------------------------------


@dataclass
class TableRow:
    """One table as stored; ``ruleset``, ``names``, ``result`` and ``record`` are JSON text."""

    id: str
    status: str
    ruleset: str
    takeover_level: str
    match_seed: str
    salt_key: str
    created_at: float
    title: str = ""
    turn_timer: float | None = None
    takeover_after: float | None = None
    private: bool = False
    first_dealer: int = 0
    names: str | None = None
    started_at: float | None = None
    finished_at: float | None = None
    result: str | None = None
    record: str | None = None


@dataclass
class SeatRow:
    """One seat as stored: a bot (``bot_level``) or a person's (``name`` once joined)."""

    table_id: str
    seat: int
    human: bool
    bot_level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    left: bool = False
    #: the account holding the seat (xeri_seat_accounts), None for a guest's or a bot's
    account_id: str | None = None


#: a move row's ``auto`` that makes it a takeback's row (docs/play.md#takebacks): its seat took back its last card
#: (``card``) and the cards played after it; the row is stored like a move, at the version it was made
TAKEBACK = "takeback"


@dataclass
class MoveRow:
    """Move ``idx`` (0-based, the table's version before it) of a table, or a takeback (``auto`` is ``TAKEBACK``).
    """

    table_id: str
    idx: int
    seat: int
    card: str
    auto: str | None
    at: float


@dataclass
class ResultRow:
    """One seat's result in a finished match (the players' statistics)."""

    table_id: str
    seat: int
    name: str
    human: bool
    side: int
    won: bool
    points: int
    xeris: int
    jack_xeris: int
    finished_at: float


@dataclass
class Finish:
    """The end of a match: written with its last move, in one transaction."""

    finished_at: float
    result: str
    record: str
    results: list[ResultRow] = field(default_factory=list)


@dataclass
class Start:
    """The start of a match: written with the seat that filled the table, in one transaction."""

    started_at: float
    names: str


@dataclass
class MatchRow:
    """A finished match as the history list needs it."""

    id: str
    title: str
    ruleset: str
    names: str | None
    result: str | None
    finished_at: float | None


@dataclass
class PlayerStats:
    """One person's totals over finished matches."""

    name: str
    games: int
    wins: int
    points: int
    xeris: int
    jack_xeris: int

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass
class AccountRow:
    """One account as stored."""

    id: str
    name: str
    name_key: str
    password_hash: str | None
    created_at: float
    deleted: bool = False
    hidden: bool = False
    look_key: str | None = None


@dataclass
class SessionRow:
    """One session as stored (``id`` is the hash of the cookie's value)."""

    id: str
    account_id: str
    csrf: str
    created_at: float
    seen_at: float
    expires_at: float


@dataclass
class LoadedTable:
    """A table's row, its seats in order and its moves in order."""

    table: TableRow
    seats: list[SeatRow]
    moves: list[MoveRow]
    #: the format the table is rated in (xeri_rated_tables), None for a casual one
    rated: str | None = None

def row_of(value: Any) -> dict[str, Any]:
    """A row's columns (its fields are plain values: no deep copy as ``dataclasses.asdict`` makes, per move)."""
    return dict(vars(value))


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# Ratings (server.store.ratings, schema revision 0004_ratings; docs/ratings.md). A rated table is a row of its own
# (the tables' table stays as it was), which also marks, with ``rated_at``, that its match has moved the ratings:
# the update and that mark are one transaction, so a restart or another process never rates a match twice.
rated_tables_t = Table(
    "xeri_rated_tables", metadata,
    Column("table_id", String(32), primary_key=True),
    #: classic-2p or classic-4p (xeri.ratings.FORMATS)
    Column("format", String(16), nullable=False),
    #: when the finished match moved the ratings; NULL until then (xeri_rated_tables_pending finds those)
    Column("rated_at", Float, index=True),
)
ratings_t = Table(
    "xeri_ratings", metadata,
    Column("account_id", String(32), primary_key=True),
    Column("format", String(16), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
)
rating_history_t = Table(
    "xeri_rating_history", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("account_id", String(32), primary_key=True),
    Column("format", String(16), nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_xeri_rating_history_account", "account_id", "format", "at"),
)


@dataclass(frozen=True)
class RatingRow:
    """An account's rating in one format, with its counts."""

    format: str
    mu: float
    sigma: float
    games: int
    wins: int


@dataclass(frozen=True)
class RatingPoint:
    """An account's rating after one rated match (the profile's chart)."""

    format: str
    at: float
    mu: float
    sigma: float
    won: bool


@dataclass(frozen=True)
class LeaderRow:
    """One line of a format's leaderboard: the shown name only, never the account's id."""

    name: str
    mu: float
    sigma: float
    games: int
    wins: int
