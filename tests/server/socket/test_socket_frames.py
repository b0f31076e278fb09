"""An incoming frame's size is checked once, on its UTF-8 bytes, before it is read (server.socket.connection)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from xeri.server.socket.connection import MAX_MESSAGE, Client, frame_size


class Quiet:
    """A table that is never asked: a ping and a refused frame are the connection's own."""

    id = "t"


def answer(client: Client, message: dict[str, Any]) -> dict[str, Any]:
    reply = asyncio.run(client.handle(message))
    assert reply is not None
    return dict(json.loads(reply.body))


def ping(greek: int) -> str:
    """A ping padded with ``greek`` two-byte letters: 31 bytes besides them."""
    return json.dumps({"type": "ping", "ref": 1, "pad": "Ξ" * greek}, ensure_ascii=False, separators=(",", ":"))


def test_the_limit_counts_a_frame_s_bytes_not_its_characters() -> None:
    client = Client(Any, Quiet(), 0)  # type: ignore[arg-type]
    at, over = ping((MAX_MESSAGE - 31) // 2), ping((MAX_MESSAGE - 31) // 2 + 1)
    assert frame_size(at) == len(at.encode()) <= MAX_MESSAGE < frame_size(over) == len(over.encode())
    assert len(over) < MAX_MESSAGE  # its characters alone would pass
    assert answer(client, {"type": "websocket.receive", "text": at}) == {"type": "pong", "ref": 1}
    refused = answer(client, {"type": "websocket.receive", "text": over})
    assert refused["code"] == "too_large" and refused["message"] == f"messages are limited to {MAX_MESSAGE} bytes"
    long = json.dumps({"type": "ping", "pad": "x" * MAX_MESSAGE})
    assert frame_size(long) == len(long) and answer(client, {"type": "websocket.receive", "text": long})[
        "code"] == "too_large"
    binary = answer(client, {"type": "websocket.receive", "bytes": b"{}"})
    assert (binary["code"], binary["message"]) == ("bad_message", "send JSON text frames, not binary ones")
    assert client.rejected == 3 and client.synced == -1  # refused, counted towards the flood close, nothing else
