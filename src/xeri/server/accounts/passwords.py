"""Passwords: argon2id hashes (argon2-cffi), checked off the event loop, and the same work for an unknown name.

Signing in with a name no account has still verifies a password, against a dummy hash made at start with the same
parameters, so the answer takes as long as for a real name with a wrong password (argon2's own comparison is in
constant time). docs/security.md lists the promise and its test.
"""

from __future__ import annotations

import asyncio
import secrets

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from ..wire.protocol import PASSWORD_LENGTH
from ..wire.refusals import ProtocolError

#: argon2id's parameters: RFC 9106's second recommended option (64 MiB, 3 passes, 4 lanes)
TIME_COST, MEMORY_KIB, LANES = 3, 64 * 1024, 4


class Passwords:
    """Hash and verify passwords with argon2id; ``memory_kib`` and ``time_cost`` lower only for tests."""

    def __init__(self, time_cost: int = TIME_COST, memory_kib: int = MEMORY_KIB, lanes: int = LANES) -> None:
        self.hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=lanes, type=Type.ID)
        #: what an unknown name's password is checked against (no password matches it)
        self.dummy = self.hasher.hash(secrets.token_urlsafe(24))

    @staticmethod
    def check_new(password: str, name: str) -> str:
        """A new password, or ``bad_password``: 10..256 characters, not the name, not one character repeated."""
        lo, hi = PASSWORD_LENGTH
        if not lo <= len(password) <= hi:
            raise ProtocolError("bad_password", f"a password has {lo} to {hi} characters")
        if password.casefold() == name.casefold() or len(set(password)) < 4:
            raise ProtocolError("bad_password", "choose a password that is not the name and not so repetitive")
        return password

    async def hash(self, password: str) -> str:
        return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` is the one ``stored`` hashes; None (no such account) costs the same and fails."""
        return await asyncio.to_thread(self._verify, stored, password)

    def _verify(self, stored: str | None, password: str) -> bool:
        try:
            ok = self.hasher.verify(stored or self.dummy, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False
        return ok and stored is not None
