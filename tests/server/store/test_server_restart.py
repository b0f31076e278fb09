"""Stop the server mid-game (killed, not asked), start it again on the same database: nothing is lost."""

from __future__ import annotations

import random
from pathlib import Path

import httpx

from support.server import Player, create, join, subprocess_server
from xeri import record


def test_games_resume_exactly_after_a_kill(tmp_path: Path) -> None:
    db = str(tmp_path / "restart.sqlite3")
    rng = random.Random(11)
    with subprocess_server(db) as (base, proc):
        ws_base = base.replace("http", "ws")
        # A finished match, a waiting table, and a game between two people stopped mid-round.
        done = create(base, name="Done", seats=[None, {"bot": "easy"}], options={"rounds": 1})
        p = Player(ws_base, done["table_id"], done["token"])
        while not p.wait_view(lambda v: True)["match_over"]:
            view = p.wait_view(lambda v: v["turn"] == 0 or v["match_over"])
            if not view["match_over"]:
                p.send(type="move", card=rng.choice(view["legal_moves"]), version=p.version)
                p.at_version(p.version + 1)
        p.close()
        waiting = create(base, name="Early", players=3)
        game = create(base, name="A", players=3, seats=[None, None, {"bot": "easy"}], takeover_after=None)
        tid = game["table_id"]
        tokens = {0: game["token"], 1: join(base, tid, "B")["token"]}
        players = {s: Player(ws_base, tid, t) for s, t in tokens.items()}
        moves = 0
        while moves < 25 or players[0].view is None or players[0].view["turn"] not in (0, 1):
            view = players[0].wait_view(lambda v: v["turn"] in (0, 1))
            seat = view["turn"]
            q = players[seat]
            q.at_version(players[0].version)
            assert q.view is not None
            q.send(type="move", card=rng.choice(q.view["legal_moves"]), version=q.version)
            players[0].at_version(q.version + 1)
            moves += 1
        before = {s: (q.at_version(players[0].version), q.view, q.version)[1:] for s, q in players.items()}
        for q in players.values():
            q.close()
        proc.kill()  # no clean shutdown
        proc.wait(timeout=10)
    with subprocess_server(db) as (base, _proc):
        ws_base = base.replace("http", "ws")
        for s, token in tokens.items():
            q = Player(ws_base, tid, token)
            assert (q.sync["view"], q.sync["version"]) == before[s], "the game did not resume where it stopped"
            players[s] = q
        info = httpx.get(f"{base}/api/tables/{waiting['table_id']}").json()
        assert info["status"] == "waiting" and info["seats"][0]["name"] == "Early"
        assert httpx.get(f"{base}/api/matches/{done['table_id']}/record").status_code == 200
        # Play the resumed game to the end; its record replays and holds every move.
        while True:
            view = players[0].wait_view(lambda v: v["turn"] in (0, 1) or v["match_over"])
            if view["match_over"]:
                break
            q = players[view["turn"]]
            q.at_version(players[0].version)
            assert q.view is not None
            q.send(type="move", card=rng.choice(q.view["legal_moves"]), version=q.version)
            players[0].at_version(q.version + 1)
        final = httpx.get(f"{base}/api/matches/{tid}/record")
        match = record.loads(final.text)
        assert match.is_over and sum(len(r.moves) for r in match.rounds) == players[0].version
        for q in players.values():
            q.close()


def test_a_takeback_survives_a_kill(tmp_path: Path) -> None:
    """The takeback's row is stored like a move: after a kill the game resumes with the card back in the hand."""
    db = str(tmp_path / "takeback.sqlite3")
    with subprocess_server(db) as (base, proc):
        ws_base = base.replace("http", "ws")
        made = create(base, name="Ana", seats=[None, {"bot": "easy"}], takeover_after=None, options={"rounds": 1})
        tid = made["table_id"]
        p = Player(ws_base, tid, made["token"])
        view = p.wait_view(lambda v: v["turn"] == 0)
        card, start = view["hand"][0], p.version
        p.send(type="move", card=card, version=start)
        p.at_version(start + 2)
        p.send(type="takeback", version=p.version)
        before = p.until(lambda m: m["type"] == "sync")
        assert card in before["view"]["hand"] and before["version"] == start + 3
        p.close()
        proc.kill()
        proc.wait(timeout=10)
    with subprocess_server(db) as (base, _proc):
        q = Player(base.replace("http", "ws"), tid, made["token"])
        assert (q.sync["view"], q.sync["version"]) == (before["view"], before["version"])
        assert q.sync["takeback"] is False and q.sync["table"]["takebacks"] is True
        rng = random.Random(3)
        while not q.wait_view(lambda v: v["turn"] == 0 or v["match_over"])["match_over"]:
            q.send(type="move", card=rng.choice(q.view["legal_moves"]), version=q.version)  # type: ignore[index]
            q.at_version(q.version + 1)
        match = record.loads(httpx.get(f"{base}/api/matches/{tid}/record").text)
        assert [(t.seat, t.cards[0].code) for t in match.takebacks] == [(0, card)]
        q.close()
