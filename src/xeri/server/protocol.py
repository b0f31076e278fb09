"""What clients send, as schema models: each HTTP request body and each socket message, and their JSON Schema.

A body or message is first parsed under server.inputs' limits (depth, digits, finite numbers, text the
database can hold), then validated by its model (pydantic, strict: no coercion, a ``true`` is no seat).
Each field names its ``Refuse``: whatever is wrong with the field, the client gets that code and message,
the ones these checks gave when they were written by hand. What needs the table or its ruleset (a seat
of the table, a bot level, a name's length) is checked where the request is served.

``python -m xeri.server.protocol --schema`` prints the JSON Schema of them all; ``--write`` puts it into
docs/protocol.md, where a test keeps it equal to the models.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic.json_schema import GenerateJsonSchema
from pydantic_core import ErrorDetails

from ..bots import LEVELS
from ..rules import OPTIONS
from .errors import ProtocolError


@dataclass(frozen=True)
class Refuse:
    """A field's refusal: ``message`` may name the refused ``{value!r}``; ``item``, the refusal of one entry of a
    list field, may name its ``{index}`` too."""

    code: str
    message: str
    item: str | None = None

    def error(self, detail: ErrorDetails) -> ProtocolError:
        index = next((part for part in detail["loc"][1:] if isinstance(part, int)), None)
        text = self.message if index is None or self.item is None else self.item
        return ProtocolError(self.code, text.format(value=detail.get("input"), index=index))


class Body(BaseModel):
    """A client's JSON object; fields it does not know are ignored unless the model forbids them."""

    model_config = ConfigDict(strict=True, frozen=True, extra="ignore")
    #: the refusal of a value that is not a JSON object
    not_object: ClassVar[Refuse] = Refuse("bad_request", "the body must be a JSON object")

    @classmethod
    def read(cls, value: Any) -> Self:
        """The model of ``value``, or the ``ProtocolError`` of its first wrong field (in the model's order)."""
        try:
            return cls.model_validate(value)
        except ValidationError as exc:
            raise cls.refusal(exc.errors()) from None

    @classmethod
    def refusal(cls, errors: list[ErrorDetails]) -> ProtocolError:
        if any(not e["loc"] for e in errors):
            return ProtocolError(cls.not_object.code, cls.not_object.message)
        unknown = sorted(str(e["loc"][0]) for e in errors if e["type"] == "extra_forbidden" and len(e["loc"]) == 1)
        if unknown:
            return ProtocolError("bad_request", f"unknown field(s): {', '.join(unknown)}")
        order = list(cls.model_fields)
        first = min(errors, key=lambda e: order.index(str(e["loc"][0])))
        return _refuse_of(cls, str(first["loc"][0])).error(first)


def _refuse_of(model: type[BaseModel], name: str) -> Refuse:
    found = [m for m in model.model_fields[name].metadata if isinstance(m, Refuse)]
    if not found:
        raise TypeError(f"{model.__name__}.{name} names no Refuse")
    return found[0]


# --- HTTP request bodies ----------------------------------------------------------

#: the bounds of a turn timer and of the wait before a bot takes over an away seat, in seconds
TURN_TIMER = (1.0, 600.0)
TAKEOVER_AFTER = (0.0, 3600.0)
DEFAULT_TAKEOVER_AFTER = 30.0
_RULESET = Refuse("bad_ruleset", "ruleset must be a preset name and options an object")
_CHOICES = ", ".join(map(str, OPTIONS["players"].choices or ()))
_LEVELS = ", ".join(LEVELS)


class SeatEntry(BaseModel):
    """A seat of a new table: ``{}`` or ``{"bot": null}`` is a human seat, ``{"bot": LEVEL}`` a server bot."""

    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")
    bot: Annotated[str | None, Field(description=f"a bot level: {_LEVELS}")] = None


class CreateTable(Body):
    """``POST /api/tables``: every field is optional."""

    model_config = ConfigDict(extra="forbid")
    not_object: ClassVar[Refuse] = Refuse("bad_request", "the request body must be a JSON object")

    ruleset: Annotated[str, _RULESET, Field(description="a preset name")] = "classic"
    options: Annotated[dict[str, Any] | None, _RULESET, Field(description="rule options, each checked")] = None
    players: Annotated[int | None, Refuse("bad_ruleset", f"option players must be one of {_CHOICES}, not {{value!r}}"),
                       Field(description="shorthand for options.players")] = None
    target: Annotated[int | None, Refuse("bad_ruleset", f"option target must be {OPTIONS['target'].check_text}, "
                                                        "not {value!r}"),
                      Field(description="shorthand: the match ends at this target score")] = None
    seats: Annotated[list[SeatEntry | None] | None,
                     Refuse("bad_seats", 'seats must be a list with one entry per seat (null or {{"bot": level}})',
                            'seat {index} must be null or {{"bot": level}}'),
                     Field(description="one entry per seat: null (a human seat) or {\"bot\": LEVEL}")] = None
    turn_timer: Annotated[Annotated[float, Field(ge=TURN_TIMER[0], le=TURN_TIMER[1])] | None,
                          Refuse("bad_request", f"turn_timer must be null or a number of seconds "
                                                f"{TURN_TIMER[0]:g}..{TURN_TIMER[1]:g}"),
                          Field(description="seconds per move; null: no timer")] = None
    takeover_after: Annotated[Annotated[float, Field(ge=TAKEOVER_AFTER[0], le=TAKEOVER_AFTER[1])] | None,
                              Refuse("bad_request", f"takeover_after must be null or a number of seconds "
                                                    f"{TAKEOVER_AFTER[0]:g}..{TAKEOVER_AFTER[1]:g}"),
                              Field(description="seconds an away player's seat waits for a bot; null: never")
                              ] = DEFAULT_TAKEOVER_AFTER
    takeover_level: Annotated[str, Refuse("bad_level", f"takeover_level must be a bot level: {_LEVELS}"),
                              Field(description="the bot that plays timed-out or abandoned seats")] = next(iter(LEVELS))
    private: Annotated[bool, Refuse("bad_request", "private must be true or false and title a string of at most 100"),
                       Field(description="not listed; joined by the invite link")] = False
    title: Annotated[str, Field(max_length=100),
                     Refuse("bad_request", "private must be true or false and title a string of at most 100")] = ""
    name: Annotated[str | None, Refuse("bad_name", "the name must be a string"),
                    Field(description="also join a human seat under this name")] = None
    seat: Annotated[int | None, Refuse("bad_seat", "seat must be an integer"),
                    Field(description="with name: which human seat to take")] = None


class JoinTable(Body):
    """``POST /api/tables/{id}/join``."""

    name: Annotated[str, Refuse("bad_name", "the name must be a string")]
    seat: Annotated[int | None, Refuse("bad_seat", "seat must be an integer"),
                    Field(description="the first free human seat when left out")] = None


_TOKEN = Refuse("bad_token", "leaving needs the seat's token")


class LeaveTable(Body):
    """``POST /api/tables/{id}/leave``."""

    not_object: ClassVar[Refuse] = _TOKEN
    token: Annotated[str, Field(min_length=1), _TOKEN, Field(description="the seat's token, from create or join")]


class VerifyRecord(Body):
    """``POST /api/verify`` of a whole downloaded record."""

    record: Annotated[dict[str, Any], Refuse("bad_request", "record must be a match record object"),
                      Field(description="the record, as GET /api/matches/{id}/record returns it")]
    match_commitment: Annotated[Annotated[str, Field(pattern=r"^\s*[0-9a-fA-F]{64}\s*$")] | None,
                                Refuse("bad_request", "match_commitment must be the 64 hex digits shown at the table"),
                                Field(description="the commitment the table showed before the first deal")] = None


_ROUND = Refuse("bad_request", "give ruleset, dealer (a seat), seed (an integer), salt and commitment")


class VerifyRound(Body):
    """``POST /api/verify`` of one revealed round."""

    ruleset: Annotated[str | dict[str, Any], Refuse("bad_request", "ruleset must be a preset name or a ruleset object"),
                       Field(description="a preset name or a ruleset object")] = "classic"
    dealer: Annotated[int, _ROUND, Field(description="the dealer's seat")]
    seed: Annotated[int | Annotated[str, Field(pattern=r"^\s*[0-9]+\s*$")], _ROUND,
                    Field(description="the round's seed: an integer, or its digits as text")]
    salt: Annotated[str, _ROUND]
    commitment: Annotated[str, _ROUND, Field(description="the commitment published before the deal")]
    deal: Annotated[dict[str, Any] | None, Refuse("bad_request", "deal must be a deal object of the record format"),
                    Field(description="the deal played, to check it follows from the seed")] = None
    round: Annotated[int | None, Refuse("bad_request", "round must be a round number")] = None


# --- socket messages ----------------------------------------------------------------


_REF = Refuse("bad_message", "ref must be a short string or an integer")
Ref = Annotated[Annotated[str, Field(max_length=64)] | int | None, _REF,
                Field(description="echoed in the reply (error, hint, pong)")]


class Message(Body):
    """A client's socket message: an object with a ``type``."""

    not_object: ClassVar[Refuse] = Refuse("bad_message", "a message is a JSON object with a 'type'")
    ref: Ref = None


class Move(Message):
    """Play a card; a successful move is answered by the update every client receives."""

    type: Literal["move"]
    card: Annotated[str, Field(max_length=8), Refuse("bad_message", 'a move needs \'card\', a card such as "TD"'),
                    Field(description='a card code such as "TD"')]
    version: Annotated[int, Refuse("bad_message", "a move needs 'version', the table's state version (an integer)"),
                       Field(description="the table's state version the move was chosen at")]


class Hint(Message):
    """Ask for a suggestion."""

    type: Literal["hint"]


class Sync(Message):
    """Ask for a fresh sync."""

    type: Literal["sync"]


class Ping(Message):
    type: Literal["ping"]


class Ready(Message):
    """This seat closed the round summary."""

    type: Literal["ready"]


class Rematch(Message):
    """Offer (or accept) a rematch, once the match is over."""

    type: Literal["rematch"]


MESSAGES: tuple[type[Message], ...] = (Move, Hint, Sync, Ping, Ready, Rematch)
ClientMessage = Annotated[Move | Hint | Sync | Ping | Ready | Rematch, Field(discriminator="type")]
_CLIENT_MESSAGE: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
_REF_ADAPTER: TypeAdapter[str | int | None] = TypeAdapter(Ref, config=ConfigDict(strict=True))
_BY_TYPE: dict[str, type[Message]] = {m.model_fields["type"].annotation.__args__[0]: m  # type: ignore[union-attr]
                                      for m in MESSAGES}
_KINDS = ", ".join(_BY_TYPE)


def message_ref(data: Any) -> str | int | None:
    """The ``ref`` of a message, read before the rest so that every refusal can echo it."""
    if not isinstance(data, dict):
        raise ProtocolError(Message.not_object.code, Message.not_object.message)
    try:
        return _REF_ADAPTER.validate_python(data.get("ref"))
    except ValidationError:
        raise ProtocolError(_REF.code, _REF.message) from None


def read_message(data: Any) -> Move | Hint | Sync | Ping | Ready | Rematch:
    """The message of a parsed socket frame, or the ``ProtocolError`` that refuses it."""
    try:
        return _CLIENT_MESSAGE.validate_python(data)
    except ValidationError as exc:
        raise _message_refusal(data, exc.errors()) from None


def _message_refusal(data: Any, errors: list[ErrorDetails]) -> ProtocolError:
    kind = data.get("type") if isinstance(data, dict) else None
    model = _BY_TYPE.get(kind) if isinstance(kind, str) else None
    if model is not None:  # a known type: its first wrong field (the loc starts with the type's tag)
        return model.refusal([{**e, "loc": e["loc"][1:]} for e in errors])
    if isinstance(kind, str):
        head, _, last = _KINDS.rpartition(", ")
        return ProtocolError("unknown_type", f"unknown message type {kind[:40]!r}: use {head} or {last}")
    return ProtocolError(Message.not_object.code, Message.not_object.message)


# --- the JSON Schema ----------------------------------------------------------------

REQUESTS: dict[str, type[Body]] = {
    "POST /api/tables": CreateTable,
    "POST /api/tables/{id}/join": JoinTable,
    "POST /api/tables/{id}/leave": LeaveTable,
    "POST /api/verify (a record)": VerifyRecord,
    "POST /api/verify (a round)": VerifyRound,
}


class _Schema(GenerateJsonSchema):
    """Pydantic's JSON Schema, without a title per field (the field's name says it)."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


def schema() -> dict[str, Any]:
    """The JSON Schema of each request body and of the socket messages a client sends."""
    return {
        "requests": {route: model.model_json_schema(schema_generator=_Schema) for route, model in REQUESTS.items()},
        "socket": _CLIENT_MESSAGE.json_schema(schema_generator=_Schema),
    }


def schema_text() -> str:
    return json.dumps(schema(), indent=2, ensure_ascii=False)


DOC = Path(__file__).resolve().parents[3] / "docs" / "protocol.md"
BEGIN, END = "<!-- protocol-schema: begin (python -m xeri.server.protocol --write) -->", "<!-- protocol-schema: end -->"
_BLOCK = re.compile(re.escape(BEGIN) + r"\n```json\n(.*?)\n```\n" + re.escape(END), re.S)


def documented(text: str) -> str | None:
    """The schema block of docs/protocol.md's ``text`` (None: it has no block)."""
    found = _BLOCK.search(text)
    return found.group(1) if found else None


def with_schema(text: str) -> str:
    """``text`` with its schema block replaced by the models' schema now."""
    block = f"{BEGIN}\n```json\n{schema_text()}\n```\n{END}"
    if documented(text) is None:
        raise ValueError(f"no schema block between {BEGIN!r} and {END!r}")
    return _BLOCK.sub(lambda _: block, text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m xeri.server.protocol", description=__doc__.splitlines()[0])
    parser.add_argument("--schema", action="store_true", help="print the protocol's JSON Schema")
    parser.add_argument("--write", action="store_true", help=f"write it into {DOC.name}")
    args = parser.parse_args(argv)
    if args.write:
        DOC.write_text(with_schema(DOC.read_text(encoding="utf-8")), encoding="utf-8")
    if args.schema or not args.write:
        print(schema_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
