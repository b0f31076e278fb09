"""One-way seeds: what a bot is seeded with opens nothing of the deal.

Every seed handed to a bot (or to anything else that must not learn the deal) is
derived from a secret with HMAC-SHA256 under its own domain tag. Knowing a
derived seed gives no way back to the secret (the match seed), so no round seed
and no deal can be recomputed from it; two domains never share a seed. Stdlib
only: the core, the terminal, the arena, the server and the environments all
derive the same way (docs/fairness.md).
"""

from __future__ import annotations

import hashlib
import hmac

SCHEME = "hmac-sha256(secret, xeri-seed-v1/{domain}/{parts})"
SEED_BITS = 63


def _key(secret: int | str | bytes) -> bytes:
    if isinstance(secret, bytes):
        return secret
    if isinstance(secret, bool) or not isinstance(secret, int | str):
        raise TypeError(f"a seed secret is an int, str or bytes, not {type(secret).__name__}")
    return f"{type(secret).__name__}:{secret}".encode()


def derive(secret: int | str | bytes, domain: str, *parts: int | str) -> int:
    """A 63-bit seed for ``domain`` and ``parts``, one-way from ``secret``."""
    if not domain or "/" in domain:
        raise ValueError(f"a seed domain is a non-empty name without '/', not {domain!r}")
    message = "/".join(["xeri-seed-v1", domain, *(str(p) for p in parts)]).encode()
    digest = hmac.new(_key(secret), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def bot_seed(secret: int | str | bytes, seat: int, *, domain: str, generation: int = 0) -> int:
    """The seed of the bot in ``seat``; ``generation`` gives a fresh stream (a resumed match, a new round)."""
    return derive(secret, f"bot-{domain}", seat, generation)
