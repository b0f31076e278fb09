"""Table talk over the table socket (server.table.talk, docs/security.md#table-talk): a preset reaches every
connection, each refusal names why and goes to the sender alone, the rate holds, and nothing of it is stored.

A refusal's "nothing else heard" is shown without waiting: the sender says something allowed next, and that is the
first ``said`` the others get (one connection's frames are served in order).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.server import Player, ThreadServer, create, db_url, join


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("talk")


@pytest.fixture(scope="module")
def server(db: Path) -> Iterator[ThreadServer]:
    srv = ThreadServer(db_url(db)).start()
    yield srv
    srv.stop()


def two_players(server: ThreadServer, private: bool = False) -> tuple[str, Player, Player, Player]:
    """A started table of two people, and a spectator: (id, seat 0, seat 1, spectator)."""
    made = create(server.base, name="Ana", private=private, takeover_after=None)
    tid = made["table_id"]
    ben = join(server.base, tid, "Ben")
    return (tid, Player(server.ws_base, tid, made["token"]), Player(server.ws_base, tid, ben["token"]),
            Player(server.ws_base, tid))


def said(p: Player) -> dict[str, Any]:
    return p.until(lambda m: m["type"] == "said")


def refused(p: Player, code: str, **say: Any) -> dict[str, Any]:
    p.send(type="say", ref="talk", **say)
    error = p.error()
    assert error["code"] == code and error["ref"] == "talk" and error["message"], error
    return error


def version_of(server: ThreadServer, tid: str) -> int:
    return int(httpx.get(f"{server.base}/api/tables/{tid}").json()["version"])


def stored_moves(db: Path, tid: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db / "server.sqlite3") as conn:
        return conn.execute("SELECT * FROM xeri_moves WHERE table_id = ? ORDER BY idx", (tid,)).fetchall()


def test_a_preset_reaches_the_other_seat_and_the_spectator(server: ThreadServer) -> None:
    _, ana, ben, watcher = two_players(server)
    ana.send(type="say", phrase="good_luck")
    for p in (ana, ben, watcher):
        assert said(p) == {"type": "said", "seat": 0, "phrase": "good_luck"}
    ben.send(type="say", phrase="heart")
    assert said(ana) == {"type": "said", "seat": 1, "phrase": "heart"}


def test_each_wrong_say_is_refused_and_heard_by_nobody(server: ThreadServer) -> None:
    _, ana, ben, watcher = two_players(server, private=True)
    refused(ana, "bad_phrase", phrase="insult")
    refused(ana, "bad_phrase", phrase=3)
    refused(ana, "bad_say", phrase="hello", text="hi")
    refused(ana, "bad_say")
    refused(ana, "bad_text", text="x" * 141)
    refused(ana, "bad_text", text="   \n\t ")
    refused(ana, "bad_text", text="ring\x07the bell")
    refused(ana, "bad_text", text="reads \u202ebackwards")
    refused(ana, "bad_text", text=["hi"])
    # A spectator watches without talking.
    assert refused(watcher, "spectator", phrase="hello")["message"] == "spectators watch without talking"
    # Nothing refused took a turn of the rate: three in a row still go, and the first is the first anyone hears.
    for phrase in ("hello", "thanks", "wow"):
        ana.send(type="say", phrase=phrase)
    for p in (ben, watcher):
        assert [said(p)["phrase"] for _ in range(3)] == ["hello", "thanks", "wow"]


def test_free_text_only_at_a_private_table(server: ThreadServer) -> None:
    _, ana, ben, _ = two_players(server)
    refused(ana, "talk_private_only", text="hi there")
    _, ana, ben, watcher = two_players(server, private=True)
    ana.send(type="say", text="  hi\n   there <b>Ben</b>  ")
    for p in (ben, watcher):
        assert said(p) == {"type": "said", "seat": 0, "text": "hi there <b>Ben</b>"}  # the page shows it as text
    ana.send(type="say", text="ε" * 140)
    assert said(ben)["text"] == "ε" * 140


def test_the_fourth_quick_say_is_refused_to_the_sender_alone(server: ThreadServer) -> None:
    _, ana, ben, _ = two_players(server)
    for phrase in ("hello", "oops", "sorry"):
        ana.send(type="say", phrase=phrase)
    assert "slow down" in refused(ana, "talk_rate", phrase="clap")["message"]
    ben.send(type="say", phrase="laugh")  # each seat has its own rate
    assert [said(ben)["phrase"] for _ in range(4)] == ["hello", "oops", "sorry", "laugh"]


def test_talk_changes_nothing_stored(server: ThreadServer, db: Path) -> None:
    tid, ana, ben, _ = two_players(server, private=True)
    mover = ana if ana.wait_view(lambda v: v["turn"] is not None)["turn"] == 0 else ben
    assert mover.view is not None
    mover.send(type="move", card=mover.view["legal_moves"][0], version=mover.version)
    mover.at_version(mover.version + 1)
    version, moves = version_of(server, tid), stored_moves(db, tid)
    assert len(moves) == 1
    ana.send(type="say", phrase="nice_one")
    ana.send(type="say", text="what a card")
    assert said(ben)["phrase"] == "nice_one" and said(ben)["text"] == "what a card"
    assert version_of(server, tid) == version and stored_moves(db, tid) == moves
    ben.send(type="sync")
    sync = ben.until(lambda m: m["type"] == "sync")
    assert sync["version"] == version and "what a card" not in str(sync) and "nice_one" not in str(sync)


def test_talk_after_the_match_is_not_in_its_record(server: ThreadServer) -> None:
    made = create(server.base, name="Ana", seats=[None, {"bot": "easy"}], options={"rounds": 1}, takeover_after=None)
    tid = made["table_id"]
    ana = Player(server.ws_base, tid, made["token"])
    while not (view := ana.wait_view(lambda v: v["turn"] == 0 or v["match_over"]))["match_over"]:
        ana.send(type="move", card=view["legal_moves"][0], version=ana.version)
        ana.at_version(ana.version + 1)
    before = httpx.get(f"{server.base}/api/matches/{tid}/record").json()
    ana.send(type="say", phrase="well_played")
    assert said(ana) == {"type": "said", "seat": 0, "phrase": "well_played"}
    after = httpx.get(f"{server.base}/api/matches/{tid}/record").json()
    assert after == before and "well_played" not in str(after)
