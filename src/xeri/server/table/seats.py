"""A table's seats and their tokens: only a token's hash is ever kept, in memory or in the database."""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass

from ..store import SeatRow


def hash_token(token: str) -> str:
    """Only this hash of a seat token is stored, so the database alone gives nobody a seat."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass
class Seat:
    """A seat: a bot, or a person's (free until joined; ``left`` once they gave it up to a bot)."""

    seat: int
    human: bool
    bot_level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    left: bool = False
    #: the account holding the seat (taken signed in, or claimed), None for a guest's or a bot's
    account: str | None = None
    connections: int = 0
    away_since: float = 0.0

    @classmethod
    def from_row(cls, row: SeatRow) -> Seat:
        return cls(row.seat, bool(row.human), row.bot_level, row.name, row.token_hash, bool(row.left),
                   account=row.account_id, away_since=time.monotonic())

    @property
    def taken(self) -> bool:
        return not self.human or self.name is not None

    def display_name(self) -> str:
        return self.name if self.name else f"Bot ({self.bot_level})"

    def holds(self, token: str) -> bool:
        """Whether ``token`` is this seat's (compared in constant time)."""
        return self.token_hash is not None and secrets.compare_digest(self.token_hash, hash_token(token))


def may_use(bound: str | None, account: str | None) -> bool:
    """Whether a request signed in as ``account`` (None: a guest) may use the token of a seat bound to ``bound``:
    a signed-in player's seat answers to that account's session only, never to another account's or to none."""
    return bound is None or (account is not None and secrets.compare_digest(bound, account))
