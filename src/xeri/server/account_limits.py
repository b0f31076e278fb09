"""Sign-in and sign-up rates, per address and per name, with the ``limits`` library (as server.caps counts
requests): in this process's memory when it serves alone, in Redis across a cluster, so that spreading guesses
over the processes gains nothing. If Redis is away, the process counts alone (as server.caps does).

A name is counted by its key (server.account_names), so "Ada" and "ADA" share one count, and a name that has no
account is counted exactly as one that has (the refusal says nothing of which names exist).
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from limits import RateLimitItem
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string

from .caps import window
from .limits import LimitExceeded, Limits

log = logging.getLogger("xeri.server")


class AccountLimits:
    """The three counts; ``shared`` is a cluster's Redis storage of the limits library (server.caps), or None."""

    def __init__(self, limits: Limits, shared: Any = None) -> None:
        seconds = limits.account_window
        self.per_address: RateLimitItem = window(limits.signins_per_address, seconds)
        self.per_name: RateLimitItem = window(limits.signins_per_name, seconds)
        self.signups: RateLimitItem = window(limits.signups_per_address, seconds)
        self.minutes = max(1, round(seconds / 60))
        self.local = MovingWindowRateLimiter(storage_from_string("async+memory://"))
        self.shared = MovingWindowRateLimiter(shared) if shared is not None else None
        self.down = False

    async def _hit(self, item: RateLimitItem, *keys: str) -> bool:
        if self.shared is not None:
            try:
                allowed = await self.shared.hit(item, "account", *keys)
            except Exception as exc:  # Redis away: this process counts alone
                if not self.down:
                    log.warning("sign-in rates fall back to this process's counts (Redis: %s)",
                                str(exc) or type(exc).__name__)
                self.down = True
            else:
                self.down = False
                return bool(allowed)
        return bool(await self.local.hit(item, "account", *keys))

    def _refused(self, what: str) -> LimitExceeded:
        return LimitExceeded("rate_limited", f"too many {what}: try again in {self.minutes} minutes")

    async def signin(self, address: str, name_key: str) -> None:
        """Count a sign-in attempt, or refuse it (``rate_limited``) if the address or the name is over its share."""
        if not await self._hit(self.per_address, "signin-address", address):
            raise self._refused("sign-in attempts from this address")
        digest = hashlib.sha256(name_key.encode()).hexdigest()[:32]  # the key may hold any character
        if not await self._hit(self.per_name, "signin-name", digest):
            raise self._refused("sign-in attempts for this name")

    async def signup(self, address: str) -> None:
        if not await self._hit(self.signups, "signup-address", address):
            raise self._refused("new accounts from this address")
