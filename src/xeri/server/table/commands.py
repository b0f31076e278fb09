"""Every table action as one value: a ``Command``, which ``Table.handle`` serves under the table's one lock.

A client's socket messages (server.wire.protocol's ``ClientMessage``: each game action, a sync, a ready, a
rematch, table talk) are commands as they are decoded, once; the seat changes the HTTP routes ask for (a join, a
leave, a claim at sign-in) are commands made here. All are tagged by ``type``, so a table owned by another
process gets any of them as data in one request (server.cluster.rpc ``Forward``), with its ``Origin``, and
answers with an ``Outcome``: the cluster knows no action by name. A new action is a new command, its case in
``Table.handle`` (and its rules), and the page's message.
"""

from __future__ import annotations

from typing import get_args

from msgspec import Struct

from ..broker.envelope import Envelope
from ..wire.protocol import ClientMessage


class Join(Struct, frozen=True, kw_only=True, tag_field="type", tag="join"):
    """Take a free seat (``seat``, or the first free one) under ``name``, bound to ``account`` when signed in."""

    name: str
    seat: int | None = None
    account: str | None = None


class Leave(Struct, frozen=True, kw_only=True, tag_field="type", tag="leave"):
    """Give up the seat ``token`` holds, or with no token the seat ``account`` plays here (its signed-in session)."""

    token: str = ""
    account: str | None = None


class Bind(Struct, frozen=True, kw_only=True, tag_field="type", tag="bind"):
    """Make the guest seat ``token`` holds ``account``'s (a claim at sign-in, server.accounts.service)."""

    token: str
    account: str


#: every table action: what a client sends (a new one there is a new command here too), and the seat changes
Command = ClientMessage | Join | Leave | Bind
COMMANDS: tuple[type[Command], ...] = get_args(Command)


class Origin(Struct, frozen=True, kw_only=True):
    """Who asks: a connection's ``seat`` (None: a spectator, or an HTTP route), the client's ``address`` (a
    rematch's new table counts against it), or a bot playing for the seat (``auto``: why, server.table.autoplay)."""

    seat: int | None = None
    address: str | None = None
    auto: str | None = None


class Outcome(Struct, frozen=True, kw_only=True):
    """What a command answers, besides what the table publishes to every connection.

    ``reply``: the envelope for the asking connection alone (its sync, its hint); ``seat`` and ``token``: the
    seat a join took (and its secret token), a leave gave up or a claim bound; ``reseated``: the seats' tokens or
    accounts changed, so a copy of them elsewhere (a replica's, server.cluster.remote) is stale.
    """

    reply: Envelope | None = None
    seat: int | None = None
    token: str | None = None
    reseated: bool = False

    def seated(self) -> tuple[int, str]:
        """A join's seat and its token (a join that did not raise took both)."""
        assert self.seat is not None and self.token is not None
        return self.seat, self.token


NOTHING = Outcome()
