"""Takebacks over the table socket (docs/play.md#takebacks): the happy path, every refusal, the bots' plan, the record.

A takeback is allowed only at a casual table of one person and bots, to the person in the seat, for their last card
of the hand being played and the computer's cards after it. Each refusal names why and changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from support.server import Player, ThreadServer, create, db_url, join
from xeri import fairness, record


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    srv = ThreadServer(db_url(tmp_path_factory.mktemp("takeback"))).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def slow(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """Bots that think for a minute: a takeback lands while the computer is still to move."""
    srv = ThreadServer(db_url(tmp_path_factory.mktemp("slow")), bot_delay=60.0).start()
    yield srv
    srv.stop()


def against_the_computer(server: ThreadServer, bots: int = 1, **body: Any) -> tuple[str, Player]:
    made = create(server.base, name="Ana", seats=[None, *([{"bot": "easy"}] * bots)], takeover_after=None, **body)
    return made["table_id"], Player(server.ws_base, made["table_id"], made["token"])


def my_turn(p: Player) -> dict[str, Any]:
    return p.wait_view(lambda v: v["turn"] == 0 and not v["match_over"])


def latest(p: Player) -> dict[str, Any]:
    return next(m for m in reversed(p.messages) if m["type"] in ("sync", "update"))


def version_of(server: ThreadServer, tid: str) -> int:
    return int(httpx.get(f"{server.base}/api/tables/{tid}").json()["version"])


def refused(p: Player, server: ThreadServer, tid: str, code: str, version: int | None = None) -> dict[str, Any]:
    """Ask for a takeback that must be refused with ``code``: the table's version does not move."""
    before = version_of(server, tid)
    p.send(type="takeback", version=p.version if version is None else version, ref="tb")
    error = p.error()
    assert error["code"] == code and error["ref"] == "tb" and error["message"], error
    assert version_of(server, tid) == before
    return error


def test_take_back_my_card_and_the_computers_reply(server: ThreadServer) -> None:
    tid, p = against_the_computer(server, options={"rounds": 1})
    assert p.sync["table"]["takebacks"] is True and p.sync["takeback"] is False
    spectator = Player(server.ws_base, tid)
    view = my_turn(p)
    hand, pile = list(view["hand"]), list(view["pile"])
    card = hand[0]
    start = p.version
    p.send(type="move", card=card, version=start)
    p.at_version(start + 2)  # my card and the bot's reply
    assert latest(p)["takeback"] is True and card not in p.view["hand"]  # type: ignore[index]
    p.send(type="takeback", version=p.version)
    sync = p.until(lambda m: m["type"] == "sync")
    assert sync["version"] == start + 3  # the takeback is one more version, stored like a move
    assert sync["view"]["hand"] == hand and sync["view"]["pile"] == pile and sync["view"]["turn"] == 0
    assert sync["takeback"] is False  # my first card of the hand: nothing more to take back
    # Every connection hears of it, each with its own seat's view: the spectator sees no hand.
    seen = spectator.until(lambda m: m["type"] == "sync" and m["version"] == start + 3)
    assert seen["view"]["hand"] == [] and seen["takeback"] is False and seen["view"]["pile"] == pile
    # The game goes on from the same deal; the record keeps the move, the reply and the takeback.
    rng = random.Random(1)
    while not p.wait_view(lambda v: v["turn"] == 0 or v["match_over"])["match_over"]:
        p.send(type="move", card=rng.choice(p.view["legal_moves"]), version=p.version)  # type: ignore[index]
        p.at_version(p.version + 1)
    data = httpx.get(f"{server.base}/api/matches/{tid}/record").json()
    assert data["version"] == record.TAKEBACK_VERSION
    entries = data["rounds"][0]["moves"]
    taken = next(e for e in entries if isinstance(e, dict))
    assert taken["seat"] == 0 and taken["takeback"][0] == card and len(taken["takeback"]) == 2
    verdict = fairness.verify_match(data)
    assert verdict.ok, [c.detail for c in verdict.checks]
    assert httpx.post(f"{server.base}/api/verify", json={"record": data}).json()["ok"] is True
    replay = httpx.get(f"{server.base}/api/matches/{tid}/replay", timeout=30).json()  # built on demand
    back = [s for s in replay["steps"] if s.get("takeback")]
    assert [s["takeback"] for s in back] == [taken["takeback"]] and back[0]["seat"] == 0
    assert set(back[0]["state"]["hands"][0]) == set(hand)  # the replay's step shows the card back in my hand
    p.close()
    spectator.close()


def test_a_takeback_while_the_computer_thinks_cancels_its_move(slow: ThreadServer) -> None:
    # A table where I lead (the first dealer is drawn per table): the bot would take a minute to lead.
    for _ in range(40):
        tid, p = against_the_computer(slow)
        if p.sync["view"]["turn"] == 0:
            break
        p.close()
    view = my_turn(p)
    card, start = view["hand"][-1], p.version
    p.send(type="move", card=card, version=start)
    p.at_version(start + 1)
    assert p.view is not None and p.view["turn"] == 1
    table = slow.lobby.tables[tid]
    assert table.autoplay._driver is not None  # the bot's move is planned
    p.send(type="takeback", version=p.version)
    sync = p.until(lambda m: m["type"] == "sync")
    assert sync["version"] == start + 2 and card in sync["view"]["hand"] and sync["view"]["turn"] == 0
    assert table.autoplay._driver is None  # nothing planned: it is my turn again
    # My next card plans the bot's move afresh, at the new version.
    p.send(type="move", card=card, version=p.version)
    p.at_version(start + 3)
    assert table.autoplay._driver is not None and table.state.next_auto() is not None
    p.close()


def test_every_refusal_names_why_and_changes_nothing(server: ThreadServer) -> None:
    tid, p = against_the_computer(server, options={"rounds": 1})
    view = my_turn(p)
    refused(p, server, tid, "nothing_to_take_back")  # no card of mine yet
    p.send(type="move", card=view["hand"][0], version=p.version)
    p.at_version(p.version + 2)
    refused(p, server, tid, "stale", version=p.version - 1)
    refused(p, server, tid, "stale", version=p.version + 5)
    spectator = Player(server.ws_base, tid)
    spectator.at_version(p.version)
    refused(spectator, server, tid, "spectator")
    # Play the hand out: once new hands are dealt, the cards of the hand before stay played.
    rng = random.Random(2)
    for _ in range(len(my_turn(p)["hand"])):
        v = my_turn(p)
        p.send(type="move", card=rng.choice(v["legal_moves"]), version=p.version)
        p.at_version(p.version + 1)
    assert len(my_turn(p)["hand"]) == 6
    p.at_version(version_of(server, tid))
    refused(p, server, tid, "new_hand")
    # To the end of the match: its last round is over, then nothing is left to take back.
    while not p.wait_view(lambda v: v["turn"] == 0 or v["match_over"])["match_over"]:
        p.send(type="move", card=rng.choice(p.view["legal_moves"]), version=p.version)  # type: ignore[index]
        p.at_version(p.version + 1)
    refused(p, server, tid, "game_over")
    bad = {"type": "takeback", "version": "3"}
    p.send(**bad)
    assert p.error()["code"] == "bad_message"
    p.close()
    spectator.close()


def test_round_over_refuses_the_last_rounds_card(server: ThreadServer) -> None:
    tid, p = against_the_computer(server, options={"rounds": 2})
    rng = random.Random(5)
    while True:
        v = p.wait_view(lambda v: v["turn"] == 0)
        if v["round_number"] == 2:
            break
        p.send(type="move", card=rng.choice(v["legal_moves"]), version=p.version)
        p.at_version(p.version + 1)
    p.at_version(version_of(server, tid))
    refused(p, server, tid, "round_over")
    p.close()


def test_never_with_friends(server: ThreadServer) -> None:
    made = create(server.base, name="Ana", seats=[None, None], takeover_after=None)
    tid = made["table_id"]
    friend = join(server.base, tid, "Bob")
    players = {0: Player(server.ws_base, tid, made["token"]), 1: Player(server.ws_base, tid, friend["token"])}
    assert players[0].sync["table"]["takebacks"] is False and players[0].sync["takeback"] is False
    view = players[0].wait_view(lambda v: True)
    mover = players[view["turn"]]
    mover.at_version(players[0].version)
    mover.send(type="move", card=mover.view["legal_moves"][0], version=mover.version)  # type: ignore[index]
    mover.at_version(mover.version + 1)
    assert latest(mover)["takeback"] is False
    error = refused(mover, server, tid, "no_takebacks")
    assert "against the computer" in error["message"]
    # Three seats, one a bot: still a friend at the table.
    made = create(server.base, name="Ana", players=3, seats=[None, None, {"bot": "easy"}], takeover_after=None)
    waiting = Player(server.ws_base, made["table_id"], made["token"])
    assert waiting.sync["table"]["takebacks"] is False
    refused(waiting, server, made["table_id"], "no_takebacks")
    for q in (*players.values(), waiting):
        q.close()


def test_four_players_take_back_the_three_bots_cards(server: ThreadServer) -> None:
    tid, p = against_the_computer(server, bots=3, ruleset="pisti", players=4, options={"target": 15})
    view = my_turn(p)
    hand, start = list(view["hand"]), p.version
    p.send(type="move", card=hand[1], version=start)
    p.at_version(start + 4)
    p.send(type="takeback", version=p.version)
    sync = p.until(lambda m: m["type"] == "sync")
    assert sync["version"] == start + 5 and sync["view"]["hand"] == hand
    table = server.lobby.tables[tid]
    assert table.state.moves[-1] == (0, hand[1], True) and len(table.state.match.round.moves) == start
    p.close()
