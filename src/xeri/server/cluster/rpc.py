"""What the processes of a cluster say to each other, typed, and the asking side of a request to a table's owner.

Every message is a msgspec Struct, tagged (``kind``), and travels as the body
of a plain ``Envelope`` on Redis: requests, replies and handovers on a
process's inbox (``xeri-rpc:{node}``), adoptions and stops on ``xeri-ctl``.
A request carries one typed ``Call`` (tagged ``op``); its reply carries the
result as raw JSON, which the asker decodes into the type it expects. A
message that does not decode is logged and dropped (a foreign publisher on the
channel): the asker times out and retries.

Every table action travels in one call, ``Forward``: the command as it is
(server.table.commands) and who asked, answered with the owner's ``Outcome``.
The cluster names no action: a new one needs nothing here. A seat's text in an
answer (its sync, its hint) is carried as the JSON it is (``Envelope.carried``),
never escaped again on the way.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any, TypeVar

import msgspec
from msgspec import Raw, Struct

from ..broker.envelope import Envelope, EnvelopeError
from ..broker.pubsub import RedisBroker
from ..table.commands import Command, Origin, Outcome
from ..wire import messages
from ..wire.refusals import ProtocolError

log = logging.getLogger("xeri.server")

T = TypeVar("T")

#: seconds a forwarded request waits for the owner's reply
RPC_TIMEOUT = 5.0
#: the channel every process hears: who adopted which table, who stopped
CONTROL = "xeri-ctl"


def inbox(node: str) -> str:
    """The channel of one process's requests, replies and handovers."""
    return f"xeri-rpc:{node}"


def retry_later(detail: str) -> ProtocolError:
    """The refusal while a table changes owner: nothing changed, and the same request will work soon."""
    return ProtocolError("unavailable", f"{detail}; nothing changed, try again in a few seconds", retry=True)


class NotOwner(Exception):
    """The process asked does not own the table (any more), or is gone."""


# --- the calls a process forwards to a table's owner ---------------------------------------


class Call(Struct, frozen=True, tag_field="op"):
    """One request to the process that owns a table (``Cluster.apply`` serves it there)."""


class Describe(Call, frozen=True, tag="describe"):
    """What a replica needs to serve the table's routes: its TABLE object, seat token hashes, fairness report."""


class Forward(Call, frozen=True, tag="command"):
    """Any table action, as it is, from ``origin``: the owner's ``Table.handle`` serves it (an ``Answer``)."""

    command: Command
    origin: Origin


class AttachCall(Call, frozen=True, tag="attach"):
    """A replica connection: counted at the owner (its seat's, its summary's), answered with its sync."""

    seat: int | None
    summary: bool = False


class DetachCall(Call, frozen=True, tag="detach"):
    seat: int | None
    summary: bool = False


AnyCall = Describe | Forward | AttachCall | DetachCall


# --- what the owner answers -------------------------------------------------------------


class Described(Struct, frozen=True):
    info: messages.Table
    #: each seat's token hash (None: free or left), so a replica checks a token without asking
    hashes: list[str | None]
    fairness: messages.Fairness
    #: each seat's account (None: a guest's, a bot's, free), so a replica checks a token's account too
    accounts: list[str | None] = []


_NULL = Raw(b"null")


class Answer(Struct, frozen=True, kw_only=True):
    """A forwarded command's ``Outcome`` on its way back, with the table's description when its seats changed
    (the asker's copy of the tokens and accounts is stale then)."""

    #: the envelope for the asking connection (``Envelope.carried``: its text inside as is), or null
    reply: Raw = _NULL
    seat: int | None = None
    token: str | None = None
    described: Described | None = None

    @classmethod
    def of(cls, outcome: Outcome, described: Described | None) -> Answer:
        reply = _NULL if outcome.reply is None else outcome.reply.carried()
        return cls(reply=reply, seat=outcome.seat, token=outcome.token, described=described)

    def outcome(self) -> Outcome:
        reply = None if bytes(self.reply) == b"null" else read_sync(self.reply)
        return Outcome(reply=reply, seat=self.seat, token=self.token, reseated=self.described is not None)


class Refusal(Struct, frozen=True):
    """The owner's ``ProtocolError`` (or ``not_owner``), raised again at the asker."""

    code: str
    message: str
    extra: dict[str, Any] = {}


# --- the messages on the channels ---------------------------------------------------------


class Inbox(Struct, frozen=True, tag_field="kind"):
    """A message on a process's inbox."""


class Request(Inbox, frozen=True, tag="request"):
    id: str
    sender: str
    table: str
    call: AnyCall


class Reply(Inbox, frozen=True, tag="reply"):
    id: str
    ok: Raw = Raw(b"null")
    error: Refusal | None = None


class Handover(Inbox, frozen=True, tag="handover"):
    """``sender`` passed this process the lease of ``table``: rebuild it here."""

    table: str
    sender: str


class Control(Struct, frozen=True, tag_field="kind"):
    """A message every process hears."""


class Adopted(Control, frozen=True, tag="adopted"):
    table: str
    owner: str


class Released(Control, frozen=True, tag="released"):
    """Process ``node`` stopped cleanly: its leases are given up."""

    node: str


class Forget(Control, frozen=True, tag="forget"):
    """Finished matches whose stored names changed (an account deleted): every process drops what it built of
    them (the table, its replay, its reviews), so that none shows the old name."""

    tables: list[str]


_ENCODER = msgspec.json.Encoder()
_INBOX: msgspec.json.Decoder[Request | Reply | Handover] = msgspec.json.Decoder(Request | Reply | Handover)
_CONTROL: msgspec.json.Decoder[Adopted | Released | Forget] = msgspec.json.Decoder(Adopted | Released | Forget)


def envelope(message: Inbox | Control) -> Envelope:
    return Envelope.plain(_ENCODER.encode(message))


def raw(value: Any) -> Raw:
    """A result as the raw JSON of a reply."""
    return Raw(_ENCODER.encode(value))


def read_inbox(received: Envelope) -> Request | Reply | Handover | None:
    try:
        return _INBOX.decode(received.body)
    except msgspec.DecodeError as exc:
        log.warning("dropped a malformed message on this process's inbox: %s", exc)
        return None


def read_control(received: Envelope) -> Adopted | Released | Forget | None:
    try:
        return _CONTROL.decode(received.body)
    except msgspec.DecodeError as exc:
        log.warning("dropped a malformed message on %s: %s", CONTROL, exc)
        return None


def decoded(value: Raw, into: type[T]) -> T:
    """A reply's result as ``into``; a malformed one is the owner's failure (retryable)."""
    try:
        return msgspec.json.decode(value, type=into)
    except msgspec.DecodeError:
        raise retry_later("the table's server answered with a malformed reply") from None


def read_sync(carried: Raw) -> Envelope:
    """An envelope the owner returned (``Envelope.carried``: a sync, a hint); a malformed one is the owner's
    failure."""
    try:
        return Envelope.decode(carried)
    except EnvelopeError:
        raise retry_later("the table's server answered with a malformed sync") from None


class Requests:
    """This process's requests to other processes, each waiting for its reply (or ``timeout`` seconds)."""

    def __init__(self, broker: RedisBroker, timeout: float = RPC_TIMEOUT) -> None:
        self.broker = broker
        self.node = broker.node
        self.timeout = timeout
        self._pending: dict[str, asyncio.Future[Reply]] = {}

    async def ask(self, owner: str, table_id: str, call: AnyCall) -> Raw:
        """The owner's result of ``call``; its refusal raised here, ``NotOwner`` if it does not hold the table."""
        rid = secrets.token_hex(8)
        future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._pending[rid] = future
        try:
            request = envelope(Request(id=rid, sender=self.node, table=table_id, call=call))
            try:
                received = await self.broker.send(inbox(owner), request)
            except Exception:
                raise retry_later("the message relay (Redis) is unavailable") from None
            if received == 0:
                raise NotOwner(owner)
            try:
                reply = await asyncio.wait_for(future, self.timeout)
            except TimeoutError:
                raise retry_later("the table's server did not answer in time") from None
        finally:
            self._pending.pop(rid, None)
        if reply.error is not None:
            if reply.error.code == "not_owner":
                raise NotOwner(owner)
            raise ProtocolError(reply.error.code, reply.error.message, **reply.error.extra)
        return reply.ok

    def answered(self, reply: Reply) -> None:
        """A reply came: hand it to its request (one that timed out meanwhile is gone)."""
        future = self._pending.get(reply.id)
        if future is not None and not future.done():
            future.set_result(reply)
