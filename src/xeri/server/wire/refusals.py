"""The protocol's refusals: one typed error with the code a client reads (docs/protocol.md)."""

from __future__ import annotations

from ...table_rules import Refused


class ProtocolError(Refused):
    """A request that is refused; ``code`` is the protocol's error code, its ``extra`` fields go with it (the
    table's ``version``), and nothing changed. The table's rules (``xeri.table_rules``) refuse with the same
    error base, which the offline engine's ``OfflineError`` shares."""


def private_match() -> ProtocolError:
    """A finished private match asked for without one of its seats' tokens (HTTP 403, socket close 4403)."""
    return ProtocolError("private_match", "this match is private: only its players see it once it is over, "
                         "with their seat token")
