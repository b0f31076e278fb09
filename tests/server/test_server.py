"""The game server over real HTTP and WebSocket connections: tables, play, bad input, timers and takeovers."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.server import Player, ThreadServer, create, db_url, join, play_out
from xeri import fairness


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    srv = ThreadServer(db_url(tmp_path_factory.mktemp("server"))).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """A server with a low per-connection rate limit (5 a second, bursts of 10)."""
    srv = ThreadServer(db_url(tmp_path_factory.mktemp("limited")), rate=5.0).start()
    yield srv
    srv.stop()


def test_pages_and_meta(server: ThreadServer) -> None:
    r = httpx.get(server.base + "/")
    assert r.status_code == 200 and "<html" in r.text.lower()
    meta = httpx.get(server.base + "/api/meta").json()
    assert {"classic", "pisti"} <= {r["name"] for r in meta["rulesets"]}
    # Each preset's point cards, for How to play: the scoring module's items, as the breakdown names them.
    items = {r["name"]: {i["label"]: (i["points"], i["each"]) for i in r["point_items"]} for r in meta["rulesets"]}
    assert items["pisti"] == {"Jacks": (1, True), "Aces": (1, True), "2♣": (2, False), "10♦": (3, False)}
    assert items["berman"]["2♠"] == (1, False) and "2♠" not in items["classic"]
    assert "easy" in meta["levels"] and "players" in meta["options"]
    assert httpx.get(server.base + "/api/levels").json() == meta["levels"]
    assert httpx.get(server.base + "/t/abc", follow_redirects=False).headers["location"] == "/#/t/abc"
    assert httpx.get(server.base + "/static/no-such-file.js").status_code == 404


def test_match_against_a_bot_then_history(server: ThreadServer) -> None:
    made = create(server.base, name="Eleni", seats=[None, {"bot": "easy"}], options={"rounds": 1})
    assert made["seat"] == 0 and made["table"]["status"] == "playing" and made["invite"].endswith(made["table_id"])
    p = Player(server.ws_base, made["table_id"], made["token"])
    sync = p.sync
    assert sync["seat"] == 0 and len(sync["view"]["hand"]) == 6 and sync["view"]["names"][0] == "Eleni"
    kinds = [e["kind"] for e in sync["events"]]
    assert kinds[:2] == ["round_started", "commitment"] and "dealt" in kinds
    assert sync["fairness"]["match_commitment"]
    play_out([p], random.Random(3))
    assert p.view is not None and p.view["match_over"] and p.view["winner"] is not None
    # Every move arrived once, in order.
    versions = [m["version"] for m in p.messages if m["type"] == "update"]
    assert versions == list(range(sync["version"] + 1, p.version + 1))
    reveals = [e for m in p.messages if m["type"] == "update" for e in m["events"] if e["kind"] == "reveal"]
    # A 64-bit seed travels as its digits (server.wire.messages): exact in any JSON reader.
    assert reveals and all(isinstance(e["seed"], str) and e["seed"].isdigit() for e in reveals)
    tid = made["table_id"]
    rec = httpx.get(f"{server.base}/api/matches/{tid}/record")
    assert rec.status_code == 200 and "attachment" in rec.headers["content-disposition"]
    checks = fairness.verify_record(rec.json())
    assert checks and all(c.ok for c in checks)
    assert httpx.post(server.base + "/api/verify", json={"record": rec.json()}).json()["ok"] is True
    tampered = json.loads(rec.text)
    tampered["fairness"]["rounds"][0]["salt"] = "00" * 32
    assert httpx.post(server.base + "/api/verify", json={"record": tampered}).json()["ok"] is False
    report = httpx.get(f"{server.base}/api/tables/{tid}/fairness").json()
    assert report["match_seed"] is not None and all(r["ok"] for r in report["rounds"])
    first = report["rounds"][0]
    one = {"ruleset": rec.json()["ruleset"], "dealer": first["dealer"], "seed": first["seed"],
           "salt": first["salt"], "commitment": first["commitment"]}
    assert httpx.post(server.base + "/api/verify", json=one).json()["ok"] is True
    listed = httpx.get(server.base + "/api/matches", params={"player": "eleni"}).json()["matches"]
    assert [m["id"] for m in listed] == [tid]
    stats = httpx.get(server.base + "/api/players/Eleni/stats").json()
    assert stats["games"] == 1 and stats["wins"] in (0, 1) and stats["points"] == listed[0]["scores"][0]
    replay = httpx.get(f"{server.base}/api/matches/{tid}/replay").json()
    assert sum(1 for s in replay["steps"] if s["card"]) == p.version
    assert all(None not in h for s in replay["steps"] for h in s["state"]["hands"])
    p.close()


def test_a_strong_bot_seat_plays_the_learned_network(server: ThreadServer) -> None:
    """The strong level at a server seat and as the takeover bot: each card it played is the network's own."""
    from support.bot_play import seat_follows
    from xeri import record

    assert httpx.get(server.base + "/api/levels").json() == ["easy", "medium", "hard", "strong", "master"]
    made = create(server.base, name="Stella", seats=[None, {"bot": "strong"}], options={"rounds": 1},
                  takeover_level="strong")
    info = httpx.get(f"{server.base}/api/tables/{made['table_id']}").json()
    assert info["seats"][1]["bot"] == "strong" and info["takeover_level"] == "strong"
    p = Player(server.ws_base, made["table_id"], made["token"])
    play_out([p], random.Random(7))
    rec = httpx.get(f"{server.base}/api/matches/{made['table_id']}/record").json()
    same, total = seat_follows(record.from_record(rec), 1)
    assert total >= 12 and same == total  # a failing bot would have played stand-in cards
    p.close()


def test_a_server_without_numpy_does_not_offer_the_strong_level(server: ThreadServer,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from xeri.bots import registry

    monkeypatch.setitem(registry.BOT_NEEDS, "learned", ("xeri_no_such_module", "learned"))  # as if numpy were absent
    assert httpx.get(server.base + "/api/levels").json() == ["easy", "medium", "hard", "master"]
    assert httpx.get(server.base + "/api/meta").json()["levels"] == ["easy", "medium", "hard", "master"]
    before = len(server.lobby.tables)
    for body in ({"seats": [None, {"bot": "strong"}]}, {"takeover_level": "strong"}):
        r = httpx.post(server.base + "/api/tables", json=body)
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_level"
        assert "does not offer the strong level" in r.json()["error"]["message"]
        assert "pip install 'xeri[learned]'" in r.json()["error"]["message"]
    assert len(server.lobby.tables) == before


def test_two_friends_and_a_spectator(server: ThreadServer) -> None:
    made = create(server.base, name="Anna", options={"rounds": 1}, title="friends")
    tid = made["table_id"]
    assert made["table"]["status"] == "waiting" and made["table"]["free_seats"] == [1]
    assert tid in [t["id"] for t in httpx.get(server.base + "/api/tables").json()["tables"]]
    a = Player(server.ws_base, tid, made["token"])
    assert a.sync["view"] is None
    a.send(type="move", card="TD", version=0)
    assert a.error()["code"] == "not_started"
    b_join = join(server.base, tid, "Babis")
    assert b_join["seat"] == 1
    a.until(lambda m: m["type"] == "sync" and m["view"] is not None)
    b = Player(server.ws_base, tid, b_join["token"])
    watcher = Player(server.ws_base, tid)
    assert watcher.sync["seat"] is None and watcher.sync["view"]["hand"] == []
    dealt = [e for e in watcher.sync["events"] if e["kind"] == "dealt"]
    assert dealt and all(h is None for h in dealt[0]["hands"])
    assert tid not in [t["id"] for t in httpx.get(server.base + "/api/tables").json()["tables"]]
    watcher.send(type="move", card="TD", version=0)
    assert watcher.error()["code"] == "spectator"
    play_out([watcher, a, b], random.Random(5))
    assert httpx.get(f"{server.base}/api/tables/{tid}").json()["status"] == "finished"
    for p in (a, b, watcher):
        p.close()


def test_bad_input_changes_nothing(server: ThreadServer) -> None:
    made = create(server.base, name="Nikos", seats=[None, {"bot": "easy"}])
    p = Player(server.ws_base, made["table_id"], made["token"])
    view = p.wait_view(lambda v: v["turn"] == 0)
    version = p.version
    assert view is not None
    mine = set(view["hand"])
    not_mine = next(c for c in ("2C", "3D", "4H", "5S", "6C", "7D", "8H") if c not in mine)
    cases: list[tuple[Any, str]] = [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        (json.dumps({"type": "dance"}), "unknown_type"),
        (json.dumps({"type": 5}), "bad_message"),
        (json.dumps({"type": "move", "card": view["hand"][0]}), "bad_message"),
        (json.dumps({"type": "move", "card": 7, "version": version}), "bad_message"),
        (json.dumps({"type": "move", "card": "ZZ", "version": version}), "bad_card"),
        (json.dumps({"type": "move", "card": not_mine, "version": version}), "illegal_move"),
        (json.dumps({"type": "move", "card": view["hand"][0], "version": version - 1}), "stale"),
        (json.dumps({"type": "move", "card": view["hand"][0], "version": version + 5}), "stale"),
        (json.dumps({"type": "ping", "pad": "x" * 5000}), "too_large"),
        (b"\x00\x01binary", "bad_message"),
    ]
    for raw, code in cases:
        p.send_raw(raw)
        err = p.error()
        assert err["code"] == code, (raw, err)
        assert err["message"]
    p.send(type="ping", ref="still-open")
    assert p.until(lambda m: m["type"] == "pong")["ref"] == "still-open"
    # Nothing changed: the same version, the same hand, and the table says so too.
    p.send(type="sync")
    # A seat always gets its sync (its recovery asks for one), even within a second of the last.
    again = p.until(lambda m: m["type"] == "sync")
    assert again["version"] == version and again["view"]["hand"] == view["hand"]
    # The hint names a card of this seat's own hand.
    p.send(type="hint", ref=1)
    hint = p.until(lambda m: m["type"] == "hint")
    assert hint["card"] in mine and hint["reason"] and hint["ref"] == 1
    p.close()


def test_wrong_token_and_unknown_table(server: ThreadServer) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    made = create(server.base, name="Maria")
    with connect(f"{server.ws_base}/ws/tables/{made['table_id']}?token=not-a-token") as ws:
        assert json.loads(ws.recv(timeout=10))["code"] == "bad_token"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4003
    with connect(f"{server.ws_base}/ws/tables/nope") as ws:
        assert json.loads(ws.recv(timeout=10))["code"] == "no_such_table"
    r = httpx.post(f"{server.base}/api/tables/{made['table_id']}/leave", json={"token": "wrong"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token"
    assert httpx.get(f"{server.base}/api/tables/{made['table_id']}").json()["seats"][0]["name"] == "Maria"


@pytest.mark.parametrize(("body", "code"), [
    ({"ruleset": "nope"}, "bad_ruleset"),
    ({"players": 5}, "bad_ruleset"),
    ({"options": {"hand_sise": 4}}, "bad_ruleset"),
    ({"seats": [None]}, "bad_seats"),
    ({"seats": [None, {"bot": "grandmaster-9000"}]}, "bad_level"),
    ({"turn_timer": -1}, "bad_request"),
    ({"name": ""}, "bad_name"),
    ({"name": "x" * 40}, "bad_name"),
    ({"colour": "red"}, "bad_request"),
    ([], "bad_request"),
])
def test_bad_table_requests(server: ThreadServer, body: Any, code: str) -> None:
    before = len(server.lobby.tables)
    r = httpx.post(server.base + "/api/tables", json=body)
    assert r.status_code == 400 and r.json()["error"]["code"] == code
    assert len(server.lobby.tables) == before


def test_joining_full_and_missing_tables(server: ThreadServer) -> None:
    made = create(server.base, name="A", seats=[None, {"bot": "easy"}])
    r = httpx.post(f"{server.base}/api/tables/{made['table_id']}/join", json={"name": "B"})
    assert r.status_code == 409
    assert httpx.post(f"{server.base}/api/tables/missing/join", json={"name": "B"}).status_code == 404
    assert httpx.get(f"{server.base}/api/matches/{made['table_id']}/record").status_code == 409
    as_json = {"Content-Type": "application/json"}
    r = httpx.post(f"{server.base}/api/tables", content=b"{bad", headers=as_json)
    assert r.json()["error"]["code"] == "bad_json"
    r = httpx.post(f"{server.base}/api/tables", content=b" " * 300_000, headers=as_json)
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"


def test_leaving_before_and_after_the_start(server: ThreadServer) -> None:
    made = create(server.base, name="A", players=3, seats=[None, None, {"bot": "easy"}])
    tid = made["table_id"]
    r = httpx.post(f"{server.base}/api/tables/{tid}/leave", json={"token": made["token"]})
    assert r.status_code == 200 and r.json()["table"]["status"] == "closed"
    made = create(server.base, name="A", seats=[None, None], options={"rounds": 1}, takeover_after=None)
    tid = made["table_id"]
    b = join(server.base, tid, "B")
    pa = Player(server.ws_base, tid, made["token"])
    pb = Player(server.ws_base, tid, b["token"])
    r = httpx.post(f"{server.base}/api/tables/{tid}/leave", json={"token": made["token"]})
    assert r.json()["table"]["seats"][0]["bot"] == "easy"
    # The connection A left open is told and closed, and the token is dead.
    from websockets.exceptions import ConnectionClosed

    with pytest.raises(ConnectionClosed) as closed:
        assert pa.error()["code"] == "left"
        pa.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4001
    assert httpx.post(f"{server.base}/api/tables/{tid}/leave", json={"token": made["token"]}).status_code == 403
    # B plays alone against the bot that took A's seat, to the end.
    play_out([pb], random.Random(2))
    left = [e for m in pb.messages if m["type"] == "update" for e in m["events"] if e["kind"] == "auto_move"]
    assert left and all(e["reason"] == "left" and e["seat"] == 0 for e in left)
    pb.close()


def test_away_player_is_replaced_and_takes_the_seat_back(server: ThreadServer) -> None:
    made = create(server.base, name="A", seats=[None, None], takeover_after=0)
    tid = made["table_id"]
    b = join(server.base, tid, "B")
    pa = Player(server.ws_base, tid, made["token"])
    pb = Player(server.ws_base, tid, b["token"])
    pb.close()
    # With B away, every one of B's turns is played by the takeover bot; A keeps playing.
    rng = random.Random(8)
    while not any(e["kind"] == "auto_move" for m in pa.messages if m["type"] == "update" for e in m["events"]):
        assert pa.view is not None
        if pa.view["turn"] == 0:
            pa.send(type="move", card=rng.choice(pa.view["legal_moves"]), version=pa.version)
        pa.recv()
    info = httpx.get(f"{server.base}/api/tables/{tid}").json()
    assert info["seats"][1]["away"] and info["seats"][1]["bot"] == "easy"
    pb = Player(server.ws_base, tid, b["token"])
    assert pb.sync["seat"] == 1 and pb.sync["table"]["seats"][1]["bot"] is None
    # B is back: B's turn now waits for B.
    while pb.wait_view(lambda v: True)["turn"] != 1:
        pa.at_version(pb.version)
        assert pa.view is not None and pa.view["turn"] == 0
        pa.send(type="move", card=rng.choice(pa.view["legal_moves"]), version=pa.version)
        pb.at_version(pa.version + 1)
    version = pb.version
    pb.send(type="move", card=pb.view["legal_moves"][0], version=version)
    moved = pb.until(lambda m: m["type"] == "update" and m["version"] == version + 1)
    assert not any(e["kind"] == "auto_move" for e in moved["events"])
    pa.close()
    pb.close()


def test_turn_timer_plays_for_a_slow_player(server: ThreadServer) -> None:
    made = create(server.base, name="Slow", seats=[None, {"bot": "easy"}], turn_timer=1)
    p = Player(server.ws_base, made["table_id"], made["token"])
    p.wait_view(lambda v: v["turn"] == 0)
    assert (p.messages[-1].get("timer") or {}).get("reason") == "timer"
    version = p.version
    auto = p.until(lambda m: m["type"] == "update" and m["version"] == version + 1, timeout=15)
    assert auto["events"][0] == {"kind": "auto_move", "seat": 0, "reason": "timer"}
    p.close()


def test_rate_limit_per_connection(limited: ThreadServer) -> None:
    made = create(limited.base, name="Fast")
    p = Player(limited.ws_base, made["table_id"], made["token"])
    for i in range(100):
        p.send(type="ping", ref=i)
    replies: list[dict[str, Any]] = []
    while len(replies) < 100:
        msg = p.recv()
        if msg["type"] in ("pong", "error"):
            replies.append(msg)
    limited_count = sum(1 for m in replies if m["type"] == "error" and m["code"] == "rate_limited")
    pongs = sum(1 for m in replies if m["type"] == "pong")
    assert limited_count > 0 and pongs >= 10 and limited_count + pongs == 100
    p.close()


def test_rate_limit_per_client_address_on_http(tmp_path: Path) -> None:
    srv = ThreadServer(db_url(tmp_path), http_rate=5.0).start()  # 5 a second, bursts of 10
    try:
        with httpx.Client(base_url=srv.base) as client:
            answers = [client.get("/api/meta") for _ in range(40)]
    finally:
        srv.stop()
    codes = [a.status_code for a in answers]
    assert codes[0] == 200 and codes.count(429) > 0 and set(codes) == {200, 429}
    refused = next(a for a in answers if a.status_code == 429).json()
    assert refused["error"]["code"] == "rate_limited" and "requests a second" in refused["error"]["message"]


def test_flooding_closes_the_connection(limited: ThreadServer) -> None:
    from websockets.exceptions import ConnectionClosed

    made = create(limited.base, name="Flood")
    p = Player(limited.ws_base, made["table_id"], made["token"])
    try:
        for _ in range(400):
            p.send_raw("{")
    except ConnectionClosed:
        pass  # the server may close while we are still sending; what it sent before is still buffered
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            p.recv()
    assert any(m.get("code") == "flood" for m in p.messages)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4008


def test_record_of_a_game_in_progress_is_refused(server: ThreadServer, tmp_path: Path) -> None:
    made = create(server.base, name="Kostas", seats=[None, {"bot": "easy"}])
    r = httpx.get(f"{server.base}/api/matches/{made['table_id']}/record")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"
    report = httpx.get(f"{server.base}/api/tables/{made['table_id']}/fairness").json()
    assert report["match_seed"] is None and report["rounds"][0]["seed"] is None


def test_serve_command_rejects_bad_input_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    from xeri.cli import main

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    assert main(["serve", "--port", "70000"]) == 2
    assert main(["serve", "--db", "mysql://nobody/none"]) == 2
    assert main(["serve", "--redis", "http://nowhere"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 4 and "Traceback" not in err and "already in use" in err


def test_huge_frames_close_only_that_connection(server: ThreadServer) -> None:
    from websockets.exceptions import ConnectionClosed

    made = create(server.base, name="Huge")
    p = Player(server.ws_base, made["table_id"], made["token"])
    watcher = Player(server.ws_base, made["table_id"])
    with pytest.raises(ConnectionClosed) as closed:
        p.send_raw("x" * 100_000)
        while True:
            p.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    watcher.send(type="ping", ref="fine")
    assert watcher.until(lambda m: m["type"] == "pong")["ref"] == "fine"
    again = Player(server.ws_base, made["table_id"], made["token"])
    assert again.sync["seat"] == 0
    again.close()
    watcher.close()


def test_a_table_of_bots_plays_itself_for_spectators(server: ThreadServer) -> None:
    made = create(server.base, players=4, seats=[{"bot": "easy"}] * 4, options={"rounds": 1})
    assert "token" not in made and made["table"]["status"] == "playing"
    watcher = Player(server.ws_base, made["table_id"])
    view = watcher.wait_view(lambda v: v["match_over"], timeout=30)
    assert view["hand"] == [] and view["winner"] in (0, 1)
    assert httpx.get(f"{server.base}/api/matches/{made['table_id']}/record").status_code == 200
    stats = httpx.get(f"{server.base}/api/players/Bot (easy)/stats").json()
    assert stats["games"] == 0  # bots have no player stats
    watcher.close()


def test_a_freed_seat_shows_nothing_to_the_player_who_left(server: ThreadServer) -> None:
    from websockets.exceptions import ConnectionClosed

    made = create(server.base, name="A", players=4, seats=[None, None, None, {"bot": "easy"}])
    tid = made["table_id"]
    join(server.base, tid, "C", 1)
    old = Player(server.ws_base, tid, made["token"])
    assert httpx.post(f"{server.base}/api/tables/{tid}/leave", json={"token": made["token"]}).status_code == 200
    with pytest.raises(ConnectionClosed):
        while True:
            old.recv()
    b = join(server.base, tid, "B", 0)
    assert join(server.base, tid, "D", 2)["table"]["status"] == "playing"
    pb = Player(server.ws_base, tid, b["token"])
    # Whatever reached the old connection was sent before B's cards existed.
    assert all(m.get("view") is None for m in old.messages if m["type"] in ("sync", "update"))
    assert len(pb.sync["view"]["hand"]) == 6
    pb.close()
