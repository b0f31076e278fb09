"""The token bucket every local rate counts with, and the per-address table of buckets the HTTP edges keep.

One process alone counts in memory here: a WebSocket's messages (socket.connection), an address's HTTP
requests and WebSocket opens (app), and its new connections (http.timeouts). In a cluster the per-address
rates are counted in Redis instead (limits.shared), across every process.
"""

from __future__ import annotations

import time

#: a WebSocket's messages a second on average, and at once
RATE = 20.0
BURST = 40.0
#: client addresses whose buckets are kept at once; the least recently used go first
ADDRESSES = 10_000


class TokenBucket:
    """``rate`` messages a second on average, ``burst`` at once."""

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def take(buckets: dict[str, TokenBucket], host: str, rate: float, burst: float, most: int = ADDRESSES) -> bool:
    """Take one token from ``host``'s bucket (made on first use; past ``most`` addresses the least recently used
    go first, so a flood of addresses holds bounded memory)."""
    bucket = buckets.pop(host, None)
    if bucket is None:
        bucket = TokenBucket(rate, burst)
        if len(buckets) >= most:
            del buckets[next(iter(buckets))]
    buckets[host] = bucket  # re-inserted last: the dict stays in order of last use
    return bucket.take()
