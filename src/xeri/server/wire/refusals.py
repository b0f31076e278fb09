"""The protocol's refusals: one typed error with the code a client reads (docs/protocol.md)."""

from __future__ import annotations

from typing import Any


class ProtocolError(Exception):
    """A request that is refused; ``code`` is the protocol's error code, and nothing changed."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra


def private_match() -> ProtocolError:
    """A finished private match asked for without one of its seats' tokens (HTTP 403, socket close 4403)."""
    return ProtocolError("private_match", "this match is private: only its players see it once it is over, "
                         "with their seat token")
