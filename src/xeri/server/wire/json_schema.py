"""The protocol's one definition, both ways: the JSON Schema of what clients send (server.wire.protocol) and of what
the server sends (server.wire.messages), from their models.

``python scripts/protocol_schema.py --write`` writes it to docs/protocol.schema.json, and the TypeScript
declarations made from it (json-schema-to-typescript) to src/xeri/web/js/protocol.d.ts, which the page's modules
import and ``tsc`` checks them against; tests/server/wire/test_server_protocol.py fails when either drifts from
the models.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from . import messages
from .protocol import REQUESTS, ClientMessage

#: the models' names that the server sends: it never adds a field to them (so the declarations allow none)
_SENT = {name for name, value in vars(messages).items()
         if isinstance(value, type) and issubclass(value, msgspec.Struct)}


def schema() -> dict[str, Any]:
    """The JSON Schema (2020-12) of each request body, each socket message both ways, and each HTTP answer."""
    models: list[Any] = [*REQUESTS.values(), ClientMessage, messages.ServerMessage, messages.GameEvent,
                         *messages.ANSWERS.values()]
    out, defs = msgspec.json.schema_components(models, ref_template="#/$defs/{name}")
    bodies, (client, server, events), answers = out[:len(REQUESTS)], out[len(REQUESTS):-len(messages.ANSWERS)], \
        out[-len(messages.ANSWERS):]
    for name, definition in defs.items():
        if name in _SENT and "properties" in definition:
            definition.setdefault("additionalProperties", False)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Protocol",
        "description": "xeri serve's HTTP and WebSocket protocol (docs/protocol.md), both ways. Written by "
                       "python scripts/protocol_schema.py --write from xeri.server.wire: protocol and messages.",
        "type": "object",
        "properties": {
            "requests": {"description": "each HTTP request body a client sends, by route", "type": "object",
                         "properties": dict(zip(REQUESTS, bodies, strict=True)), "additionalProperties": False},
            "ClientMessage": {"title": "ClientMessage", **client},
            "ServerMessage": {"title": "ServerMessage", **server},
            "GameEvent": {"title": "GameEvent", **events},
            "answers": {"description": "each HTTP answer the server sends, by route", "type": "object",
                        "properties": dict(zip(messages.ANSWERS, answers, strict=True)), "additionalProperties": False},
        },
        "additionalProperties": False,
        "$defs": dict(sorted(defs.items())),
    }


def schema_text() -> str:
    """The schema as JSON, one line per field: objects are spread over lines down to the fields only."""
    return _layout(schema(), 0) + "\n"


def _layout(value: Any, depth: int) -> str:
    if not isinstance(value, dict) or not value or depth == 4:
        return json.dumps(value, ensure_ascii=False)
    pad = "  " * (depth + 1)
    items = [f"{pad}{json.dumps(k)}: {_layout(v, depth + 1)}" for k, v in value.items()]
    return "{\n" + ",\n".join(items) + "\n" + "  " * depth + "}"
