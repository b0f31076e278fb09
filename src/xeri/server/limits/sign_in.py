"""Sign-in and sign-up rates, per address and per name, with the ``limits`` library (as server.limits.shared counts
requests): in this process's memory when it serves alone, in Redis across a cluster, so that spreading guesses
over the processes gains nothing. If Redis is away, the process counts alone (as server.limits.shared does).

Each count, and its window, is a ``xeri serve`` option (``--signin-limit`` and its kin: ``parse_rate``).
A name is counted by its key (server.accounts.names), so "Ada" and "ADA" share one count, and a name that has no
account is counted exactly as one that has (the refusal says nothing of which names exist).

The per-name count must not lock the owner out (issue 42): a browser that proves it signed in to that account before
(its device cookie, server.accounts.devices) is counted per device instead, with the same allowance, so guesses
from elsewhere, however many, never stop it. OWASP's "device cookies" design: an attacker is slowed per address and
per name, the owner's own browser only by its own count.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from limits import RateLimitItem, parse
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string

from .caps import LimitExceeded, Limits
from .shared import window

log = logging.getLogger("xeri.server")


class AccountLimits:
    """The three counts; ``shared`` is a cluster's Redis storage of the limits library (server.limits.shared), or
    None."""

    def __init__(self, limits: Limits, shared: Any = None) -> None:
        self.per_address: RateLimitItem = window(limits.signins_per_address, limits.signin_address_window)
        self.per_name: RateLimitItem = window(limits.signins_per_name, limits.signin_name_window)
        self.signups: RateLimitItem = window(limits.signups_per_address, limits.signup_window)
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

    @staticmethod
    def _refused(what: str, item: RateLimitItem) -> LimitExceeded:
        return LimitExceeded("rate_limited", f"too many {what}: try again in {_later(item.get_expiry())}")

    async def signin_address(self, address: str) -> None:
        """Count a password check from ``address``, or refuse it (``rate_limited``) if the address is over its share."""
        if not await self._hit(self.per_address, "signin-address", address):
            raise self._refused("sign-in attempts from this address", self.per_address)

    async def signin_name(self, name_key: str, device: str | None = None) -> None:
        """Count a password check for the name, or for ``device`` (a proven device cookie's id: the owner's browser)
        instead, or refuse it (``rate_limited``) when that count is over its share."""
        if device is not None:
            if not await self._hit(self.per_name, "signin-device", _digest(device)):
                raise self._refused("sign-in attempts from this browser", self.per_name)
            return
        if not await self._hit(self.per_name, "signin-name", _digest(name_key)):
            raise self._refused("sign-in attempts for this name", self.per_name)

    async def signin(self, address: str, name_key: str, device: str | None = None) -> None:
        """Count a sign-in attempt (a password check), or refuse it: per address, then per name or proven device."""
        await self.signin_address(address)
        await self.signin_name(name_key, device)

    async def signup(self, address: str) -> None:
        if not await self._hit(self.signups, "signup-address", address):
            raise self._refused("new accounts from this address", self.signups)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]  # a key may hold any character


def _later(seconds: float) -> str:
    return f"{max(1, round(seconds / 60))} minutes" if seconds >= 90 else f"{max(1, round(seconds))} seconds"


def parse_rate(text: str) -> tuple[int, float]:
    """A rate in the ``limits`` library's notation (``5/minute``, ``30 per 10 minutes``, ``100/day``) as (hits,
    seconds of its window): ``xeri serve``'s ``--signin-limit`` and its kin. ValueError, in one line, otherwise."""
    try:
        item = parse(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a rate: write it as 5/minute or 30 per 10 minutes") from None
    if item.amount < 1:
        raise ValueError(f"{text!r} lets nobody in: the count must be at least 1")
    return int(item.amount), float(item.get_expiry())
