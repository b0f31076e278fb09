"""The broker envelope: a message on its way from a table to the connections that show it.

A table publishes, per seat, the JSON that seat's clients receive (UTF-8 bytes, as the
encoder wrote them), wrapped in an ``Envelope`` that says what it is: a ``sync`` at version *v* (everything
the seat may know), the ``update`` to version *v*, or a ``plain`` message
(a table change, an error, a reply) delivered as is. A connection keeps the
last version it has and drops an update it already holds (a broker between
processes may deliver one after the sync that included it).

Between processes (the Redis relay, the requests to a table's owner) an
envelope travels as a ``Frame``: the sending process's id and the envelope,
encoded here and nowhere else (msgspec, JSON: ``["node",["update",7,{...}]]``).
The seat's JSON goes in as the bytes it already is, not as a string: it is
written once, when the table builds it, and no hop escapes, decodes or encodes
it again (a reply that carries a sync inside a request's reply inside a frame
would escape it three times). Only the connection that sends it turns it into
the text a WebSocket frame takes. A body that is not a JSON object or array (a
test's plain word) travels as a JSON string.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec
from msgspec import Raw

Kind = Literal["plain", "sync", "update"]


class EnvelopeError(ValueError):
    """A frame that is not a well-formed envelope (a foreign publisher on the channel, or a bug)."""


class Envelope(msgspec.Struct, frozen=True, array_like=True):
    """One message for a connection, with what it is: ``plain``, a ``sync`` at ``version``, or the ``update`` to it."""

    kind: Kind
    version: int | None
    #: the JSON the client receives, as the UTF-8 bytes the table's encoder wrote
    body: bytes

    def __post_init__(self) -> None:
        if (self.kind == "plain") != (self.version is None):
            raise EnvelopeError(f"a {self.kind} envelope {'has no' if self.kind == 'plain' else 'needs a'} version")

    @classmethod
    def plain(cls, body: bytes) -> Envelope:
        return cls("plain", None, body)

    @classmethod
    def sync(cls, version: int, message: Any) -> Envelope:
        return cls("sync", version, to_json(message))

    @classmethod
    def update(cls, version: int, message: Any) -> Envelope:
        return cls("update", version, to_json(message))

    @classmethod
    def message(cls, message: Any) -> Envelope:
        return cls("plain", None, to_json(message))

    def encode(self) -> str:
        """This envelope alone as text (a sync returned by a table's owner to another process)."""
        return _ENCODER.encode(self.carried()).decode()

    def carried(self) -> Raw:
        """This envelope as the raw JSON between processes, its body inside as is (never escaped again)."""
        return Raw(_ENCODER.encode(_Carried(self.kind, self.version, _raw_body(self.body))))

    @staticmethod
    def decode(text: str | bytes | Raw) -> Envelope:
        try:
            return _CARRIED.decode(text).envelope()
        except (msgspec.DecodeError, EnvelopeError) as exc:
            raise EnvelopeError(f"not an envelope: {exc}") from None


class _Carried(msgspec.Struct, frozen=True, array_like=True):
    """An envelope between processes: its body is the seat's JSON itself (``Raw``), not a string holding it."""

    kind: Kind
    version: int | None
    body: Raw

    def envelope(self) -> Envelope:
        raw = bytes(self.body)  # the frame's own bytes of the body: copied out, never decoded
        # a JSON string is a body that was not JSON (``_raw_body``); anything else is the body's own bytes
        return Envelope(self.kind, self.version, _STRING.decode(raw).encode() if raw[:1] == b'"' else raw)


def _raw_body(body: bytes) -> Raw:
    """A body as the raw JSON a frame holds: a JSON object or array as it is, any other text as a JSON string.

    Every body a table or a process sends is a JSON object; this does not parse it again to make sure (the frame
    of a malformed one fails to decode at the other end, and is dropped there as a foreign one would be).
    """
    if body[:1] in (b"{", b"["):
        return Raw(body)
    return Raw(_ENCODER.encode(body.decode()))


class Frame(msgspec.Struct, frozen=True, array_like=True):
    """An envelope on the relay between processes, with the id of the process that sent it."""

    node: str
    envelope: Envelope

    def encode(self) -> str:
        return self.encode_bytes().decode()

    def encode_bytes(self) -> bytes:
        """The same text as ``encode``, as the bytes a socket sends (the relay writes them as they are)."""
        return _ENCODER.encode(_CarriedFrame(self.node, self.envelope.carried()))

    @staticmethod
    def decode(text: str | bytes) -> Frame:
        try:
            frame = _FRAME.decode(text)
            return Frame(frame.node, frame.envelope.envelope())
        except (msgspec.DecodeError, EnvelopeError) as exc:
            raise EnvelopeError(f"not a relay frame: {exc}") from None


class _CarriedFrame(msgspec.Struct, frozen=True, array_like=True):
    node: str
    envelope: Raw


class _ReadFrame(msgspec.Struct, frozen=True, array_like=True):
    node: str
    envelope: _Carried


def to_json(message: Any) -> bytes:
    """A protocol message (server.wire.messages, or plain JSON values) as the client receives it: compact JSON, as
    UTF-8 bytes (non-ASCII letters kept, not escaped).

    msgspec writes the same text as ``json.dumps(message, ensure_ascii=False, separators=(",", ":"))``
    (tests/server/broker/test_server_envelope.py compares them) in a fifth of the time: every move builds one per seat.
    """
    return _ENCODER.encode(message)


_ENCODER = msgspec.json.Encoder()
_CARRIED = msgspec.json.Decoder(_Carried)
_FRAME = msgspec.json.Decoder(_ReadFrame)
_STRING = msgspec.json.Decoder(str)
