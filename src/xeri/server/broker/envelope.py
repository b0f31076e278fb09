"""The broker envelope: a message on its way from a table to the connections that show it.

A table publishes, per seat, the JSON text that seat's clients receive, wrapped
in an ``Envelope`` that says what it is: a ``sync`` at version *v* (everything
the seat may know), the ``update`` to version *v*, or a ``plain`` message
(a table change, an error, a reply) delivered as is. A connection keeps the
last version it has and drops an update it already holds (a broker between
processes may deliver one after the sync that included it).

Between processes (the Redis relay, the requests to a table's owner) an
envelope travels as a ``Frame``: the sending process's id and the envelope,
encoded here and nowhere else (msgspec, JSON: ``["node",["update",7,"{...}"]]``).
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

Kind = Literal["plain", "sync", "update"]


class EnvelopeError(ValueError):
    """A frame that is not a well-formed envelope (a foreign publisher on the channel, or a bug)."""


class Envelope(msgspec.Struct, frozen=True, array_like=True):
    """One text for a connection, with what it is: ``plain``, a ``sync`` at ``version``, or the ``update`` to it."""

    kind: Kind
    version: int | None
    #: the JSON text the client receives, as is
    body: str

    def __post_init__(self) -> None:
        if (self.kind == "plain") != (self.version is None):
            raise EnvelopeError(f"a {self.kind} envelope {'has no' if self.kind == 'plain' else 'needs a'} version")

    @classmethod
    def plain(cls, body: str) -> Envelope:
        return cls("plain", None, body)

    @classmethod
    def sync(cls, version: int, message: Any) -> Envelope:
        return cls("sync", version, to_text(message))

    @classmethod
    def update(cls, version: int, message: Any) -> Envelope:
        return cls("update", version, to_text(message))

    @classmethod
    def message(cls, message: Any) -> Envelope:
        return cls("plain", None, to_text(message))

    def encode(self) -> str:
        """This envelope alone as text (a sync returned by a table's owner to another process)."""
        return _ENCODER.encode(self).decode()

    @staticmethod
    def decode(text: str | bytes) -> Envelope:
        try:
            return _ENVELOPE.decode(text)
        except (msgspec.DecodeError, EnvelopeError) as exc:
            raise EnvelopeError(f"not an envelope: {exc}") from None


class Frame(msgspec.Struct, frozen=True, array_like=True):
    """An envelope on the relay between processes, with the id of the process that sent it."""

    node: str
    envelope: Envelope

    def encode(self) -> str:
        return _ENCODER.encode(self).decode()

    def encode_bytes(self) -> bytes:
        """The same text as ``encode``, as the bytes a socket sends (the relay writes them as they are)."""
        return _ENCODER.encode(self)

    @staticmethod
    def decode(text: str | bytes) -> Frame:
        try:
            return _FRAME.decode(text)
        except (msgspec.DecodeError, EnvelopeError) as exc:
            raise EnvelopeError(f"not a relay frame: {exc}") from None


def to_text(message: Any) -> str:
    """A protocol message (server.wire.messages, or plain JSON values) as the client receives it (compact JSON, UTF-8
    kept).

    msgspec writes the same text as ``json.dumps(message, ensure_ascii=False, separators=(",", ":"))``
    (tests/server/cluster/test_server_envelope.py compares them) in a fifth of the time: every move builds one per seat.
    """
    return _ENCODER.encode(message).decode()


_ENCODER = msgspec.json.Encoder()
_ENVELOPE = msgspec.json.Decoder(Envelope)
_FRAME = msgspec.json.Decoder(Frame)
