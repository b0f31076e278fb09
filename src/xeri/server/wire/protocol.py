"""What clients send, as schema models: each HTTP request body and each socket message, and their JSON Schema.

A body or message is first parsed under server.wire.inputs' limits (depth, digits, finite numbers, text the
database can hold), then converted to its model by msgspec, strictly (no coercion: ``true`` is no seat).
A socket frame is decoded straight into its message, once (``read_frame``), when one scan of its text finds
nothing that could break those limits; any other frame, and any refused one, takes the careful way, which says why.
Each field names its ``Refuse``: whatever is wrong with the field, the client gets that code and message,
the ones these checks gave when they were written by hand; with several wrong, the first in the model's
order. What needs the table or its ruleset (a seat of the table, a bot level, a name's length) is checked
where the request is served.

``python scripts/protocol_schema.py --write`` writes the JSON Schema of them all, with what the server
sends (server.wire.messages), into docs/protocol.schema.json, where a test keeps it equal to the models.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Self, get_args, get_origin

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from ...bots import LEVELS
from ...rules import OPTIONS
from .inputs import parse_json
from .messages import Phrase
from .refusals import ProtocolError

_INDEX = re.compile(r"at `\$\[(\d+)\]")


@dataclass(frozen=True)
class Refuse:
    """A field's refusal. ``item``, for a list field, refuses one entry and may name its ``{index}``;
    ``message`` refuses the rest, and may name the refused ``{value!r}``."""

    code: str
    message: str
    item: str | None = None

    def error(self, value: Any, index: int | None = None) -> ProtocolError:
        text = self.message if index is None or self.item is None else self.item
        return ProtocolError(self.code, text.format(value=value, index=index))


def _refuse_of(field: msgspec.structs.FieldInfo, model: type[Struct]) -> Refuse:
    found = [m for m in getattr(field.type, "__metadata__", ()) if isinstance(m, Refuse)]
    if get_origin(field.type) is not Annotated or not found:
        raise TypeError(f"{model.__name__}.{field.name} names no Refuse")
    return found[0]


class Body(Struct, frozen=True, kw_only=True):
    """A client's JSON object; fields it does not know are ignored unless the model forbids them."""

    #: the refusal of a value that is not a JSON object
    not_object: ClassVar[Refuse] = Refuse("bad_request", "the body must be a JSON object")

    @classmethod
    def read(cls, value: Any) -> Self:
        """The model of ``value``, or the ``ProtocolError`` of its first wrong field."""
        try:
            return msgspec.convert(value, cls, strict=True)
        except msgspec.ValidationError:
            raise cls.refusal(value) from None

    @classmethod
    def refusal(cls, value: Any) -> ProtocolError:
        """Why ``value`` is refused: not an object, unknown fields (where forbidden), else the first wrong field.

        msgspec stops at the first wrong key in the client's order; this looks at the fields in the model's.
        """
        if not isinstance(value, dict):
            return cls.not_object.error(value)
        fields = msgspec.structs.fields(cls)
        if cls.__struct_config__.forbid_unknown_fields:
            unknown = sorted(set(value) - {f.encode_name for f in fields})
            if unknown:
                return ProtocolError("bad_request", f"unknown field(s): {', '.join(unknown)}")
        for f in fields:
            if f.encode_name not in value:
                if f.required:
                    return _refuse_of(f, cls).error(None)
                continue
            try:
                msgspec.convert(value[f.encode_name], f.type, strict=True)
            except msgspec.ValidationError as exc:
                found = _INDEX.search(str(exc))
                return _refuse_of(f, cls).error(value[f.encode_name], int(found.group(1)) if found else None)
        return cls.not_object.error(value)  # not reached: a value each field takes makes a model


# --- HTTP request bodies ----------------------------------------------------------

#: the bounds of a turn timer and of the wait before a bot takes over an away seat, in seconds
TURN_TIMER = (1.0, 600.0)
TAKEOVER_AFTER = (0.0, 3600.0)
DEFAULT_TAKEOVER_AFTER = 30.0
_RULESET = Refuse("bad_ruleset", "ruleset must be a preset name and options an object")
_CHOICES = ", ".join(map(str, OPTIONS["players"].choices or ()))
_LEVELS = ", ".join(LEVELS)
_TITLE = Refuse("bad_request", "private must be true or false and title a string of at most 100")


class SeatEntry(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A seat of a new table: {} or {"bot": null} is a human seat, {"bot": LEVEL} a server bot."""

    bot: Annotated[str | None, Meta(description=f"a bot level: {_LEVELS}")] = None


class CreateTable(Body, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """POST /api/tables: every field is optional."""

    not_object: ClassVar[Refuse] = Refuse("bad_request", "the request body must be a JSON object")

    ruleset: Annotated[str, _RULESET, Meta(description="a preset name")] = "classic"
    options: Annotated[dict[str, Any] | None, _RULESET, Meta(description="rule options, each checked")] = None
    players: Annotated[int | UnsetType | None,
                       Refuse("bad_ruleset", f"option players must be one of {_CHOICES}, not {{value!r}}"),
                       Meta(description="shorthand for options.players")] = UNSET
    target: Annotated[int | None, Refuse("bad_ruleset", f"option target must be {OPTIONS['target'].check_text}, "
                                                        "not {value!r}"),
                      Meta(description="shorthand: the match ends at this target score")] = None
    seats: Annotated[list[SeatEntry | None] | None,
                     Refuse("bad_seats", 'seats must be a list with one entry per seat (null or {{"bot": level}})',
                            'seat {index} must be null or {{"bot": level}}'),
                     Meta(description='one entry per seat: null (a human seat) or {"bot": LEVEL}')] = None
    turn_timer: Annotated[Annotated[float, Meta(ge=TURN_TIMER[0], le=TURN_TIMER[1])] | None,
                          Refuse("bad_request", f"turn_timer must be null or a number of seconds "
                                                f"{TURN_TIMER[0]:g}..{TURN_TIMER[1]:g}"),
                          Meta(description="seconds per move; null: no timer")] = None
    takeover_after: Annotated[Annotated[float, Meta(ge=TAKEOVER_AFTER[0], le=TAKEOVER_AFTER[1])] | None,
                              Refuse("bad_request", f"takeover_after must be null or a number of seconds "
                                                    f"{TAKEOVER_AFTER[0]:g}..{TAKEOVER_AFTER[1]:g}"),
                              Meta(description="seconds an away player's seat waits for a bot; null: never")
                              ] = DEFAULT_TAKEOVER_AFTER
    takeover_level: Annotated[str, Refuse("bad_level", f"takeover_level must be a bot level: {_LEVELS}"),
                              Meta(description="the bot that plays timed-out or abandoned seats")] = next(iter(LEVELS))
    private: Annotated[bool, _TITLE, Meta(description="not listed; joined by the invite link")] = False
    rated: Annotated[bool, Refuse("bad_request", "rated must be true or false"),
                     Meta(description="a rated table (signed in; classic, 2 players or 4 in partnerships): its end "
                                      "moves the accounts' ratings (docs/ratings.md)")] = False
    title: Annotated[Annotated[str, Meta(max_length=100)], _TITLE] = ""
    name: Annotated[str | None, Refuse("bad_name", "the name must be a string"),
                    Meta(description="also join a human seat under this name")] = None
    seat: Annotated[int | None, Refuse("bad_seat", "seat must be an integer"),
                    Meta(description="with name: which human seat to take")] = None


class JoinTable(Body, frozen=True, kw_only=True):
    """POST /api/tables/{id}/join."""

    name: Annotated[str, Refuse("bad_name", "the name must be a string")]
    seat: Annotated[int | None, Refuse("bad_seat", "seat must be an integer"),
                    Meta(description="the first free human seat when left out")] = None


_TOKEN = Refuse("bad_token", "leaving needs the seat's token")


class LeaveTable(Body, frozen=True, kw_only=True):
    """POST /api/tables/{id}/leave."""

    not_object: ClassVar[Refuse] = _TOKEN
    token: Annotated[Annotated[str, Meta(min_length=1)], _TOKEN,
                     Meta(description="the seat's token, from create or join")]


class VerifyRecord(Body, frozen=True, kw_only=True):
    """POST /api/verify of a whole downloaded record."""

    record: Annotated[dict[str, Any], Refuse("bad_request", "record must be a match record object"),
                      Meta(description="the record, as GET /api/matches/{id}/record returns it")]
    match_commitment: Annotated[Annotated[str, Meta(pattern=r"^\s*[0-9a-fA-F]{64}\s*$")] | None,
                                Refuse("bad_request", "match_commitment must be the 64 hex digits shown at the table"),
                                Meta(description="the commitment the table showed before the first deal")] = None


_ROUND = Refuse("bad_request", "give ruleset, dealer (a seat), seed (an integer), salt and commitment")


class VerifyRound(Body, frozen=True, kw_only=True):
    """POST /api/verify of one revealed round."""

    ruleset: Annotated[str | dict[str, Any], Refuse("bad_request", "ruleset must be a preset name or a ruleset object"),
                       Meta(description="a preset name or a ruleset object")] = "classic"
    dealer: Annotated[int, _ROUND, Meta(description="the dealer's seat")]
    seed: Annotated[int | Annotated[str, Meta(pattern=r"^\s*[0-9]+\s*$")], _ROUND,
                    Meta(description="the round's seed: an integer, or its digits as text")]
    salt: Annotated[str, _ROUND]
    commitment: Annotated[str, _ROUND, Meta(description="the commitment published before the deal")]
    deal: Annotated[dict[str, Any] | None, Refuse("bad_request", "deal must be a deal object of the record format"),
                    Meta(description="the deal played, to check it follows from the seed")] = None
    round: Annotated[int | None, Refuse("bad_request", "round must be a round number")] = None


# --- socket messages ----------------------------------------------------------------


_REF = Refuse("bad_message", "ref must be a short string or an integer")
Ref = Annotated[Annotated[str, Meta(max_length=64)] | int | None, _REF,
                Meta(description="echoed in the reply (error, hint, pong)")]


class Message(Body, frozen=True, kw_only=True, tag_field="type"):
    """A client's socket message: an object with a type."""

    not_object: ClassVar[Refuse] = Refuse("bad_message", "a message is a JSON object with a 'type'")
    ref: Ref = None


class Move(Message, frozen=True, kw_only=True, tag="move"):
    """Play a card; a successful move is answered by the update every client receives."""

    card: Annotated[Annotated[str, Meta(max_length=8)],
                    Refuse("bad_message", 'a move needs \'card\', a card such as "TD"'),
                    Meta(description='a card code such as "TD"')]
    version: Annotated[int, Refuse("bad_message", "a move needs 'version', the table's state version (an integer)"),
                       Meta(description="the table's state version the move was chosen at")]


class Takeback(Message, frozen=True, kw_only=True, tag="takeback"):
    """Take back this seat's last card and the computer's cards after it (a casual game against the computer
    only, docs/play.md#takebacks); answered by the sync every client receives."""

    version: Annotated[int, Refuse("bad_message", "a takeback needs 'version', the table's state version "
                                                  "(an integer)"),
                       Meta(description="the table's state version the takeback was asked at")]


class Hint(Message, frozen=True, kw_only=True, tag="hint"):
    """Ask for a suggestion."""


class Sync(Message, frozen=True, kw_only=True, tag="sync"):
    """Ask for a fresh sync."""


class Ping(Message, frozen=True, kw_only=True, tag="ping"):
    """Answered by a pong."""


class Ready(Message, frozen=True, kw_only=True, tag="ready"):
    """This seat closed the round summary."""

    round: Annotated[int | None, Refuse("bad_message", "round must be a round number"),
                     Meta(description="the round whose summary was closed (the page says which; not needed)")] = None


class Rematch(Message, frozen=True, kw_only=True, tag="rematch"):
    """Offer (or accept) a rematch, once the match is over."""


#: the longest free text a frame may carry before its whitespace is collapsed (server.table.talk checks the rest)
TALK_RAW = 1000


class Say(Message, frozen=True, kw_only=True, tag="say"):
    """Table talk (server.table.talk): a preset ``phrase`` or, at a private table, free ``text``; exactly one.
    Every connection at the table hears it as a ``said``; nothing of it is stored."""

    phrase: Annotated[Phrase | None, Refuse("bad_phrase", f"phrase must be one of {', '.join(get_args(Phrase))}"),
                      Meta(description="a preset phrase or emote")] = None
    text: Annotated[Annotated[str, Meta(max_length=TALK_RAW)] | None,
                    Refuse("bad_text", "text must be a string of at most 140 characters once its spaces are collapsed"),
                    Meta(description="free text, at a private table only: 1..140 characters once its whitespace "
                                     "is collapsed, no control characters")] = None


ClientMessage = Move | Hint | Sync | Ping | Ready | Rematch | Takeback | Say
MESSAGES: tuple[type[ClientMessage], ...] = get_args(ClientMessage)
_BY_TYPE: dict[str, type[ClientMessage]] = {m.__struct_config__.tag: m for m in MESSAGES}  # type: ignore[misc]
_KINDS = ", ".join(_BY_TYPE)


class _Referenced(Struct, frozen=True):
    """Only the ``ref`` of a message (a Struct: msgspec keeps its compiled checks, unlike a bare union's)."""

    ref: Ref = None


def message_ref(data: Any) -> str | int | None:
    """The ``ref`` of a message, read before the rest so that every refusal can echo it."""
    if not isinstance(data, dict):
        raise Message.not_object.error(data)
    try:
        return msgspec.convert(data, _Referenced, strict=True).ref
    except msgspec.ValidationError:
        raise _REF.error(data.get("ref")) from None


def read_message(data: Any) -> ClientMessage:
    """The message of a parsed socket frame, or the ``ProtocolError`` that refuses it.

    The ``type`` picks the model (what converting to the tagged union ``ClientMessage`` does, but that
    would compile the union's checks anew on every call).
    """
    kind = data.get("type") if isinstance(data, dict) else None
    model = _BY_TYPE.get(kind) if isinstance(kind, str) else None
    if model is None:
        if isinstance(kind, str):
            head, _, last = _KINDS.rpartition(", ")
            raise ProtocolError("unknown_type", f"unknown message type {kind[:40]!r}: use {head} or {last}")
        raise Message.not_object.error(data)
    try:
        message: ClientMessage = msgspec.convert(data, model, strict=True)
    except msgspec.ValidationError:
        raise model.refusal(data) from None
    return message


class RefusedFrame(ProtocolError):
    """A socket frame refused before it became a message, with its ``ref`` when that could be read (the reply
    echoes it)."""

    def __init__(self, refusal: ProtocolError, ref: str | int | None) -> None:
        super().__init__(refusal.code, refusal.message, **refusal.extra)
        self.ref = ref


_FRAME: msgspec.json.Decoder[ClientMessage] = msgspec.json.Decoder(ClientMessage)
#: what only the careful way checks (``read_frame``): an escape, a long digit run, a large exponent, and two
#: brackets opened with none closed between them (a frame nested at all; the scan goes once, left to right)
_CAREFUL = re.compile(r"\\u|[0-9]{41}|[eE][+-]?[0-9]{3}|[\[{][^\[\]{}]*[\[{]")


def read_frame(text: str) -> ClientMessage:
    """The message of a socket frame's text, decoded once; a ``RefusedFrame`` with the code and words the careful
    way (``parse_json``, ``message_ref``, ``read_message``) gives, when it is refused.

    One scan of the text (``_CAREFUL``) finds what msgspec would pass but the careful way refuses: an escape (a NUL
    or a lone surrogate may hide in one), a number of more digits than server.wire.inputs takes, an exponent that
    may overflow to infinity, a bracket opened inside another (nesting, which may go deeper than ``MAX_DEPTH``;
    no message's field holds an object or a list). A frame with none of them is decoded into its message by msgspec
    in one pass (its checks are the model's, as ``read_message``'s are). Any other frame, or one msgspec refuses,
    is read the careful way, which finds the same message or says why not.
    """
    if _CAREFUL.search(text) is None:
        try:
            return _FRAME.decode(text)
        except (msgspec.DecodeError, RecursionError):
            pass
    ref = None
    try:
        data = parse_json(text)
        ref = message_ref(data)
        return read_message(data)
    except ProtocolError as exc:
        raise RefusedFrame(exc, ref) from None


# --- the JSON Schema (server.wire.json_schema, with what the server sends) --------------------------------

# --- accounts (server.accounts.service, docs/accounts.md) ------------------------------------------

#: the bounds of a password, in characters
PASSWORD_LENGTH = (10, 256)
_ACCOUNT_NAME = Refuse("bad_name", "the name must be a string")
_PASSWORD = Refuse("bad_password", f"a password is a string of {PASSWORD_LENGTH[0]} to {PASSWORD_LENGTH[1]} "
                                   "characters")
_ANY_PASSWORD = Refuse("bad_password", "the password must be a string")


class SignUp(Body, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """POST /api/account/signup: a new account, signed in at once."""

    name: Annotated[str, _ACCOUNT_NAME, Meta(description="the name as shown; unique (docs/accounts.md)")]
    password: Annotated[Annotated[str, Meta(min_length=PASSWORD_LENGTH[0], max_length=PASSWORD_LENGTH[1])],
                        _PASSWORD]


class SignIn(Body, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """POST /api/account/signin."""

    name: Annotated[Annotated[str, Meta(max_length=200)], _ACCOUNT_NAME]
    password: Annotated[Annotated[str, Meta(max_length=PASSWORD_LENGTH[1])], _ANY_PASSWORD]


class ChangePassword(Body, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """POST /api/account/password: the other sessions of the account end."""

    password: Annotated[Annotated[str, Meta(max_length=PASSWORD_LENGTH[1])], _ANY_PASSWORD,
                        Meta(description="the current password")]
    new_password: Annotated[Annotated[str, Meta(min_length=PASSWORD_LENGTH[0], max_length=PASSWORD_LENGTH[1])],
                            _PASSWORD]


class DeleteAccount(Body, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """POST /api/account/delete: the matches stay, under an anonymous name."""

    password: Annotated[Annotated[str, Meta(max_length=PASSWORD_LENGTH[1])], _ANY_PASSWORD]


class AccountSettings(Body, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """POST /api/account/settings."""

    hidden: Annotated[bool, Refuse("bad_request", "hidden must be true or false"),
                      Meta(description="left out of the leaderboards")]


class ClaimedSeat(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    table_id: Annotated[str, Meta(max_length=40)]
    token: Annotated[str, Meta(min_length=1, max_length=100)]


#: the most seats one claim may name
CLAIM_SEATS = 200


class ClaimSeats(Body, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """POST /api/account/claim: a guest's seats of this browser, each proven by its token, into the account."""

    seats: Annotated[Annotated[list[ClaimedSeat], Meta(max_length=CLAIM_SEATS)],
                     Refuse("bad_request", f"seats must be a list of at most {CLAIM_SEATS} "
                                           '{{"table_id": ..., "token": ...}}',
                            "seat {index} must be {{\"table_id\": ..., \"token\": ...}}")]


class LeaveMine(Body, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """POST /api/account/leave: give up the account's seat at a table, with its session (no token)."""

    table_id: Annotated[Annotated[str, Meta(min_length=1, max_length=40)],
                        Refuse("bad_request", "table_id must be a table's id"),
                        Meta(description="a table where the account holds a seat (GET /api/account/tables)")]


#: the formats of "Play online" (server.pairing.pools FORMATS)
PAIRING_FORMATS = ("xeri-2", "xeri-4", "pisti-2", "pisti-4")


class Seek(Body, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """POST /api/pairing: wait in a pool to be seated with people ("Play online")."""

    format: Annotated[str, Refuse("bad_format", f"format must be one of {', '.join(PAIRING_FORMATS)}"),
                      Meta(description="xeri-2, xeri-4 (partnerships), pisti-2 or pisti-4")]
    rated: Annotated[bool, Refuse("bad_request", "rated must be true or false"),
                     Meta(description="a rated pool (signed in; xeri-2 and xeri-4 only)")] = False
    name: Annotated[str | None, Refuse("bad_name", "the name must be a string"),
                    Meta(description="a guest's name at the table (signed in: the account's)")] = None
    key: Annotated[Annotated[str, Meta(min_length=8, max_length=64)] | None,
                   Refuse("bad_request", "key must be a string of 8 to 64 characters"),
                   Meta(description="a guest's browser key: one seek per browser")] = None


REQUESTS: dict[str, type[Body]] = {
    "POST /api/tables": CreateTable,
    "POST /api/tables/{id}/join": JoinTable,
    "POST /api/tables/{id}/leave": LeaveTable,
    "POST /api/verify (a record)": VerifyRecord,
    "POST /api/verify (a round)": VerifyRound,
    "POST /api/account/signup": SignUp,
    "POST /api/account/signin": SignIn,
    "POST /api/account/password": ChangePassword,
    "POST /api/account/delete": DeleteAccount,
    "POST /api/account/settings": AccountSettings,
    "POST /api/account/claim": ClaimSeats,
    "POST /api/account/leave": LeaveMine,
    "POST /api/pairing": Seek,
}
