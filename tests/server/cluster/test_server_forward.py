"""The cluster forwards any table command as data (server.cluster.rpc ``Forward``): one kind of request, no case per
action; the owner's answer carries the seat's text as the JSON it is. Without Redis: each request and reply goes the
whole way as the bytes of a relay frame, and is read back as an inbox reads it (stand-ins for the broker)."""

from __future__ import annotations

import asyncio
import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar, cast

import pytest

from support.server import db_url
from xeri.server.broker.envelope import Envelope, Frame
from xeri.server.broker.pubsub import InProcessBroker
from xeri.server.cluster import rpc
from xeri.server.cluster.node import Cluster, describe
from xeri.server.cluster.remote import RemoteTable, Replica
from xeri.server.lobby.lobby import Lobby
from xeri.server.store import Store
from xeri.server.table import Table
from xeri.server.table.commands import COMMANDS, Bind, Command, Join, Leave, Origin, Outcome
from xeri.server.wire.protocol import Hint, Move, Ping, Ready, Rematch, Say, Sync, Takeback
from xeri.server.wire.refusals import ProtocolError

T = TypeVar("T")


class Relay:
    """What a cluster's node needs of its broker to be made (nothing here is sent: the test carries the frames)."""

    node = "owner"
    relay: Any = None

    def listen(self, channel: str, callback: Any) -> None:
        pass

    def on_resubscribed(self, callback: Any) -> None:
        pass


def framed(envelope: Envelope) -> tuple[bytes, Any]:
    """``envelope`` as the relay's bytes, and the inbox message read back from them."""
    sent = Frame("node", envelope).encode_bytes()
    return sent, rpc.read_inbox(Frame.decode(sent).envelope)


class Loopback:
    """A replica's forwarder whose requests reach the owner's node, and whose replies come back, as frames."""

    def __init__(self, owner: Any) -> None:
        self.node = Cluster(cast(Any, None), cast(Any, Relay()))  # its store is not asked, its broker not used
        self.owner = owner
        self.frames: list[bytes] = []

    async def call(self, table_id: str, call: rpc.AnyCall, into: type[T]) -> T:
        sent, request = framed(rpc.envelope(rpc.Request(id="r1", sender="replica", table=table_id, call=call)))
        self.frames.append(sent)
        assert isinstance(request, rpc.Request)
        try:
            reply = rpc.Reply(id="r1", ok=rpc.raw(await self.node.apply(self.owner, request.call, "replica")))
        except ProtocolError as exc:
            reply = rpc.Reply(id="r1", error=rpc.Refusal(exc.code, exc.message, exc.extra))
        sent, back = framed(rpc.envelope(reply))
        self.frames.append(sent)
        assert isinstance(back, rpc.Reply)
        if back.error is not None:
            raise ProtocolError(back.error.code, back.error.message, **back.error.extra)
        return rpc.decoded(back.ok, into)

    async def attach_replica(self, replica: Replica) -> None:
        raise AssertionError("not used here")

    async def detach_replica(self, replica: Replica) -> None:
        raise AssertionError("not used here")


class Recorder:
    """An owner's table that records what it is asked, and answers a sync."""

    def __init__(self) -> None:
        self.asked: list[tuple[Command, Origin]] = []

    async def handle(self, command: Command, origin: Origin) -> Outcome:
        self.asked.append((command, origin))
        return Outcome(reply=Envelope.sync(3, {"type": "sync", "said": 'Ξ "quoted" \\ ✓'}))


EVERY_COMMAND: list[Command] = [
    Move(card="TD", version=4, ref="m1"), Takeback(version=9, ref=7), Hint(), Sync(ref="s"), Ping(ref=2),
    Ready(round=3), Rematch(), Say(phrase="heart"), Say(text='Ξ "hi" \\ ✓', ref="t"),
    Join(name="Ann", seat=1, account="acc"), Leave(token="tok"), Leave(account="acc"),
    Bind(token="tok", account="acc"),
]


def test_every_command_reaches_the_owner_as_it_was_given() -> None:
    """Each command type is forwarded by the one ``Forward`` call and arrives equal, with who asked; nothing in the
    cluster names an action (a new command needs no change there)."""
    assert {type(c) for c in EVERY_COMMAND} == set(COMMANDS)
    owner = Recorder()
    loop = Loopback(owner)
    origin = Origin(seat=1, address="10.0.0.9")

    async def forward_all() -> list[Outcome]:
        return [(await loop.call("t1", rpc.Forward(command=command, origin=origin), rpc.Answer)).outcome()
                for command in EVERY_COMMAND]

    outcomes = asyncio.run(forward_all())
    assert owner.asked == [(command, origin) for command in EVERY_COMMAND]
    assert all(o.reply == Envelope.sync(3, {"type": "sync", "said": 'Ξ "quoted" \\ ✓'}) for o in outcomes)


@pytest.fixture
def store() -> Iterator[Store]:
    with tempfile.TemporaryDirectory() as tmp:
        yield Store(db_url(Path(tmp)))


def test_a_table_played_through_the_forwarder_answers_as_its_owner_does(store: Store) -> None:
    """A real table, asked through the frames: a join refreshes the replica's seats, a sync comes back with the seat's
    text inside the reply as is (never escaped again), a move is played, a refusal comes back with its code."""

    async def scenario() -> None:
        await store.open()
        lobby = Lobby(store, InProcessBroker(), bot_delay=0.0)
        await lobby.start()
        try:
            owner, _, _ = await lobby.create({"seats": [None, None]})
            assert isinstance(owner, Table)
            loop = Loopback(owner)
            remote = RemoteTable(loop, owner.id, describe(owner))
            seat, token = (await remote.handle(Join(name="Ann"), Origin())).seated()
            assert remote.seat_for_token(token) == seat == 0  # the answer brought the seats back
            await remote.handle(Join(name="Bo", seat=1), Origin())
            assert owner.status == "playing"

            sync = (await remote.handle(Sync(), Origin(seat=0))).reply
            here = owner.sync_envelope_now(0)
            assert sync is not None and (sync.kind, sync.version) == (here.kind, here.version)
            # The same sync but for the clock: the seat's timer counts down between the two builds.
            got, want = json.loads(sync.body), json.loads(here.body)
            assert got["timer"] and want["timer"]  # both seats are away: the takeover's timer runs
            assert abs(got["timer"].pop("remaining") - want["timer"].pop("remaining")) < 5
            assert got == want
            assert sync.body in loop.frames[-1]  # the seat's JSON itself, not a string escaping it
            assert json.loads(sync.body)["view"]["hand"]

            match = owner.state.match
            assert match is not None and match.turn is not None
            version, turn = owner.version, match.turn
            await remote.handle(Move(card=match.legal_moves[0].code, version=version), Origin(seat=turn))
            assert owner.version == version + 1
            with pytest.raises(ProtocolError) as refused:
                await remote.handle(Move(card="TD", version=version), Origin(seat=turn))
            assert refused.value.code == "stale"
            assert refused.value.extra.get("version") == version + 1
        finally:
            lobby.stop()
            await store.close()

    asyncio.run(scenario())


def test_a_seat_s_bytes_cross_the_forwarder_as_the_owner_wrote_them() -> None:
    """The owner's body reaches the asking process as the very bytes the owner wrote, in the reply's frame and on the
    relay: never decoded to text and encoded again, nor escaped, nor normalised (its own JSON spelling, spaces and an
    escape beside the letter itself, survives byte for byte)."""
    written = '{"type":"sync", "said":"\\u039e Ξ \\"q\\" ✓"}'.encode()

    class Owner:
        async def handle(self, command: Command, origin: Origin) -> Outcome:
            return Outcome(reply=Envelope("sync", 3, written))

    loop = Loopback(Owner())
    answer = asyncio.run(loop.call("t1", rpc.Forward(command=Sync(), origin=Origin(seat=0)), rpc.Answer))
    reply = answer.outcome().reply
    assert reply is not None and type(reply.body) is bytes and reply.body == written
    assert written in loop.frames[-1]  # inside the reply's frame as it is
    relayed = Frame.decode(Frame("owner", Envelope("update", 4, written)).encode_bytes()).envelope
    assert type(relayed.body) is bytes and relayed.body == written
