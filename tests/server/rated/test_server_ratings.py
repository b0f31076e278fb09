"""Rated tables (server.rated.policy, server.store.ratings, docs/ratings.md): who may make and join one, the ratings'
update at a match's end (once, across a restart and a second try), per format, the leaderboards' rules and
hiding, and what the profile and leaderboard answers carry (nothing private).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.cluster import PG_URL, fresh_database, poll
from support.server import AccountClient, ThreadServer, db_url, play_to_the_end
from xeri.fairness import verify_match
from xeri.ratings import Rating, initial, rate
from xeri.record import Forfeit
from xeri.server.rated.policy import LeaderboardRules, leave_penalty
from xeri.server.store import Store

PASSWORD = "a good long password"
ONE_ROUND = {"options": {"rounds": 1}}
#: low thresholds, so that a few one-round matches reach a leaderboard (on servers that allow any rated match end,
#: ``rated_targets=None``: a default server plays rated matches to 51 or 101, test_a_default_server_rates_...)
RULES = LeaderboardRules(min_games=2, max_deviation=480.0)
needs_pg = pytest.mark.skipif(not PG_URL, reason="needs XERI_TEST_PG_URL (scripts/test.sh starts PostgreSQL)")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    srv = ThreadServer(db_url(tmp_path), leaderboard=RULES, rated_targets=None).start()
    try:
        yield srv
    finally:
        srv.stop()


def signed_up(server: ThreadServer, name: str) -> AccountClient:
    client = AccountClient(server.base)
    client.sign_up(name, PASSWORD)
    return client


def rated_vs(client: AccountClient, level: str, players: int = 2, **body: Any) -> dict[str, Any]:
    """A rated one-round table against the computer at ``level``, the client at seat 0 (with 4 players the
    computer partners them too)."""
    r = client.post("/api/tables", {"rated": True, "players": players, "name": "x", "seat": 0,
                                    "seats": [None, *[{"bot": level}] * (players - 1)], **ONE_ROUND, **body})
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def play(server: ThreadServer, client: AccountClient, made: dict[str, Any]) -> int:
    """Play the client's seat to the match's end; the winning side."""
    player = client.player(server.ws_base, made["table_id"], made["token"])
    try:
        play_to_the_end(player, player.sync["seat"])
    finally:
        player.close()
    info = poll("the match finished", lambda: (i := client.get(f"/api/tables/{made['table_id']}").json())
                ["status"] == "finished" and i)
    return int(info["winner"])


def profile(server: ThreadServer, name: str) -> dict[str, Any]:
    r = httpx.get(f"{server.base}/api/profiles/{name}", timeout=10)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def rating_of(server: ThreadServer, name: str, fmt: str = "classic-2p") -> dict[str, Any] | None:
    return next((r for r in profile(server, name)["ratings"] if r["format"] == fmt), None)


def shown(r: Rating) -> tuple[int, int]:
    return r.display, r.deviation


# --- making and joining a rated table --------------------------------------------------------


def test_a_default_server_rates_matches_to_51_or_101_only(tmp_path: Path) -> None:
    """Issue 41: one round against the computer moved a rating by 200; a rated match is now played to a standard
    end. The refusal names the ends and changes nothing; to 51 and to 101 are rated."""
    srv = ThreadServer(db_url(tmp_path)).start()
    try:
        ada = signed_up(srv, "Ada")
        assert httpx.get(f"{srv.base}/api/meta").json()["rated_targets"] == [51, 101]
        vs = {"rated": True, "name": "x", "seat": 0, "seats": [None, {"bot": "easy"}]}
        for end in ({}, ONE_ROUND, {"options": {"match_end": "rounds", "rounds": 5}}, {"target": 151},
                    {"players": 4, "seats": [None, *[{"bot": "easy"}] * 3], "target": 251}):
            r = ada.post("/api/tables", {**vs, **end})
            assert (r.status_code, r.json()["error"]["code"]) == (400, "rated_match_end"), (end, r.text)
            assert "51 or 101" in r.json()["error"]["message"]
        assert httpx.get(f"{srv.base}/api/tables?status=all").json()["tables"] == []
        for target in (51, 101):
            made = ada.post("/api/tables", {**vs, "target": target})
            assert made.status_code == 201, made.text
            assert made.json()["table"]["rated"] == "classic-2p"
        casual = ada.post("/api/tables", {**vs, **ONE_ROUND, "rated": False})
        assert casual.status_code == 201 and casual.json()["table"]["rated"] is None
    finally:
        srv.stop()


def test_rated_needs_a_signed_in_creator_and_a_ratable_format(server: ThreadServer) -> None:
    ada = signed_up(server, "Ada")
    before = httpx.get(f"{server.base}/api/tables").json()
    cases: list[tuple[AccountClient | None, dict[str, Any], int, str]] = [
        (None, {"rated": True, "seats": [None, {"bot": "easy"}]}, 401, "rated_needs_account"),
        (ada, {"rated": True, "ruleset": "pisti", "seats": [None, {"bot": "easy"}]}, 400, "not_ratable"),
        (ada, {"rated": True, "players": 3, "seats": [None, {"bot": "easy"}, {"bot": "easy"}]}, 400, "not_ratable"),
        (ada, {"rated": True, "options": {"xeri_points": 20}, "seats": [None, None]}, 400, "not_ratable"),
        (ada, {"rated": True, "seats": [None, None], "private": True}, 400, "rated_private"),
        (ada, {"rated": True, "seats": [None, {"bot": "easy"}], "takeover_after": None}, 400, "rated_takeover"),
        (ada, {"rated": "yes"}, 400, "bad_request"),
    ]
    for who, body, status, code in cases:
        r = (who.post("/api/tables", {**body, "name": "x"}) if who is not None
             else httpx.post(f"{server.base}/api/tables", json={**body, "name": "x"}))
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), (body, r.text)
        assert r.json()["error"]["message"]
    assert httpx.get(f"{server.base}/api/tables").json() == before  # nothing was made
    assert ada.get("/api/account/tables").json()["tables"] == []


def test_the_table_s_views_say_rated_or_casual(server: ThreadServer) -> None:
    ada = signed_up(server, "Ada")
    rated = ada.post("/api/tables", {"rated": True, "name": "x", "seats": [None, None]}).json()
    casual = ada.post("/api/tables", {"name": "x", "seats": [None, None]}).json()
    assert rated["table"]["rated"] == "classic-2p" and casual["table"]["rated"] is None
    four = ada.post("/api/tables", {"rated": True, "players": 4, "name": "x", "seats": [None] * 4}).json()
    assert four["table"]["rated"] == "classic-4p"
    listed = {t["id"]: t["rated"] for t in httpx.get(f"{server.base}/api/tables").json()["tables"]}
    assert listed[rated["table_id"]] == "classic-2p" and listed[casual["table_id"]] is None
    assert httpx.get(f"{server.base}/api/tables/{four['table_id']}").json()["rated"] == "classic-4p"


def test_a_rated_game_against_the_computer_offers_no_takebacks_and_a_casual_one_does(server: ThreadServer) -> None:
    ada = signed_up(server, "Ada")
    rated = ada.post("/api/tables", {"rated": True, "name": "x", "seats": [None, {"bot": "easy"}]}).json()
    casual = ada.post("/api/tables", {"name": "x", "seats": [None, {"bot": "easy"}]}).json()
    assert rated["table"]["takebacks"] is False and casual["table"]["takebacks"] is True
    for made, allowed in ((rated, False), (casual, True)):
        assert httpx.get(f"{server.base}/api/tables/{made['table_id']}").json()["takebacks"] is allowed


def test_a_guest_cannot_join_a_rated_table_and_an_account_takes_one_seat(server: ThreadServer) -> None:
    ada, bob = signed_up(server, "Ada"), signed_up(server, "Bob")
    made = ada.post("/api/tables", {"rated": True, "name": "x", "seats": [None, None]}).json()
    tid = made["table_id"]
    r = httpx.post(f"{server.base}/api/tables/{tid}/join", json={"name": "Guest"})
    assert (r.status_code, r.json()["error"]["code"]) == (401, "rated_needs_account")
    r = ada.post(f"/api/tables/{tid}/join", {"name": "Ada"})
    assert (r.status_code, r.json()["error"]["code"]) == (409, "seat_taken")
    assert httpx.get(f"{server.base}/api/tables/{tid}").json()["free_seats"] == [1]  # nothing changed
    assert bob.post(f"/api/tables/{tid}/join", {"name": "Bob"}).status_code == 200


def test_there_are_no_hints_at_a_rated_table(server: ThreadServer) -> None:
    ada = signed_up(server, "Ada")
    made = rated_vs(ada, "easy")
    player = ada.player(server.ws_base, made["table_id"], made["token"])
    try:
        player.wait_view(lambda v: v["turn"] == 0, timeout=20)
        player.send(type="hint", ref="h1")
        assert player.error()["code"] == "rated_no_hints"
    finally:
        player.close()


# --- the update at the match's end -----------------------------------------------------------


def test_a_rated_match_moves_the_rating_as_the_model_says_and_casual_ones_do_not(server: ThreadServer) -> None:
    ada = signed_up(server, "Ada")
    casual = ada.post("/api/tables", {"name": "x", "seats": [None, {"bot": "easy"}], **ONE_ROUND}).json()
    play(server, ada, casual)
    assert profile(server, "Ada")["ratings"] == []
    expected = initial()
    for n, level in enumerate(["hard", "easy"], 1):
        winner = play(server, ada, rated_vs(ada, level))
        [[expected], _] = rate("classic-2p", [[expected], [level]], winner=winner)
        got = rating_of(server, "Ada")
        assert got is not None and (got["rating"], got["deviation"]) == shown(expected)
        assert got["games"] == n
    chart = profile(server, "Ada")["rating_history"]
    assert [p["format"] for p in chart] == ["classic-2p"] * 2 and chart[-1]["rating"] == expected.display


def test_a_rated_match_left_after_its_start_is_forfeited_by_who_left(server: ThreadServer) -> None:
    """Issue 41's abandon rule, as issue 42 made it: Bob leaves a rated match after its start; he forfeits at once
    (the computer never plays a rated seat), his side loses and Ada's wins, and both accounts' ratings move."""
    ada, bob = signed_up(server, "Ada"), signed_up(server, "Bob")
    made = ada.post("/api/tables", {"rated": True, "name": "x", "seat": 0, "seats": [None, None], **ONE_ROUND}).json()
    joined = bob.post(f"/api/tables/{made['table_id']}/join", {"name": "Bob"}).json()
    assert bob.post(f"/api/tables/{made['table_id']}/leave", {"token": joined["token"]}).status_code == 200
    info = finished(ada, made["table_id"])
    assert info["end"] == "forfeit" and info["winner"] == 0
    # The record ends the match by Bob's forfeit: xeri verify checks its rounds and commitments and verifies it.
    record = ada.get(f"/api/matches/{made['table_id']}/record").json()
    seen = ada.get(f"/api/tables/{made['table_id']}/fairness").json()["match_commitment"]
    verdict = verify_match(record, seen)
    assert verdict.ok and verdict.forfeit == Forfeit(seat=1, side=1, reason="left", winner=0), verdict.checks
    [[ada_after], [bob_after]] = rate("classic-2p", [[initial()], [initial()]], winner=0)
    for name, expected in (("Ada", ada_after), ("Bob", bob_after)):
        got = rating_of(server, name)
        assert got is not None and (got["rating"], got["deviation"]) == shown(expected), name
        assert got["games"] == 1


def test_who_leaves_rated_matches_again_and_again_waits_longer_to_be_paired(server: ThreadServer) -> None:
    """Issue 41: the first rated match left early is forgiven; each one more adds 30 s before a rated pairing (up to
    5 minutes). A casual seek waits for nobody."""
    assert [leave_penalty(n) for n in (0, 1, 2, 3, 11, 50)] == [0, 0, 30, 60, 300, 300]
    ada, bob = signed_up(server, "Ada"), signed_up(server, "Bob")
    for _ in range(3):
        made = ada.post("/api/tables", {"rated": True, "name": "x", "seat": 0, "seats": [None, None], **ONE_ROUND})
        joined = bob.post(f"/api/tables/{made.json()['table_id']}/join", {"name": "Bob"}).json()
        assert bob.post(f"/api/tables/{made.json()['table_id']}/leave", {"token": joined["token"]}).status_code == 200
    pools = server.app.state.pairing.pools
    rated = bob.post("/api/pairing", {"format": "xeri-2", "rated": True}).json()
    assert pools.get(rated["seek_id"]).penalty == 60.0
    casual = ada.post("/api/pairing", {"format": "xeri-2"}).json()
    assert pools.get(casual["seek_id"]).penalty == 0.0


def test_4p_partnerships_are_rated_on_their_own(server: ThreadServer) -> None:
    ada = signed_up(server, "Ada")
    winner = play(server, ada, rated_vs(ada, "medium", players=4))
    [[me, _partner], _] = rate("classic-4p", [[initial(), "medium"], ["medium", "medium"]], winner=winner)
    got = rating_of(server, "Ada", "classic-4p")
    assert got is not None and (got["rating"], got["deviation"]) == shown(me)
    assert rating_of(server, "Ada", "classic-2p") is None


def test_a_match_is_rated_once_across_a_second_try_and_a_restart(tmp_path: Path) -> None:
    url = db_url(tmp_path)
    srv = ThreadServer(url, leaderboard=RULES, rated_targets=None).start()
    try:
        ada = signed_up(srv, "Ada")
        made = rated_vs(ada, "easy")
        play(srv, ada, made)
        first = rating_of(srv, "Ada")

        async def again() -> bool:
            store = Store(url)
            store.exclusive = False
            await store.open()
            try:
                return await store.rate_match(made["table_id"])
            finally:
                await store.close()

        assert asyncio.run(again()) is False
        assert rating_of(srv, "Ada") == first
    finally:
        srv.stop()
    srv = ThreadServer(url, leaderboard=RULES, rated_targets=None).start()
    try:
        assert rating_of(srv, "Ada") == first and first is not None and first["games"] == 1
        assert len(profile(srv, "Ada")["rating_history"]) == 1
    finally:
        srv.stop()


def test_a_crash_between_the_end_and_the_ratings_is_rated_at_the_next_start(tmp_path: Path) -> None:
    url = db_url(tmp_path)
    srv = ThreadServer(url, leaderboard=RULES, rated_targets=None).start()
    try:
        ada = signed_up(srv, "Ada")
        winner = play(srv, ada, rated_vs(ada, "hard"))
        done = rating_of(srv, "Ada")
    finally:
        srv.stop()
    # As if the process died after the match's end was stored and before the ratings' transaction committed.
    with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
        conn.execute("DELETE FROM xeri_ratings")
        conn.execute("DELETE FROM xeri_rating_history")
        conn.execute("UPDATE xeri_rated_tables SET rated_at = NULL")
    srv = ThreadServer(url, leaderboard=RULES, rated_targets=None).start()
    try:
        [[expected], _] = rate("classic-2p", [[initial()], ["hard"]], winner=winner)
        got = rating_of(srv, "Ada")
        assert got == done and got is not None and (got["rating"], got["deviation"]) == shown(expected)
    finally:
        srv.stop()


@needs_pg
def test_on_postgresql_two_processes_trying_at_once_rate_a_match_once() -> None:
    from sqlalchemy import text  # the test resets the ratings in the database directly

    with fresh_database("xeri_ratings") as url:
        srv = ThreadServer(url, leaderboard=RULES, rated_targets=None).start()
        try:
            ada = signed_up(srv, "Ada")
            made = rated_vs(ada, "easy")
            play(srv, ada, made)
            first = rating_of(srv, "Ada")

            async def both() -> list[bool]:
                stores = [Store(url), Store(url)]
                for s in stores:
                    await s.open()
                try:
                    assert stores[0].engine is not None
                    async with stores[0].engine.begin() as conn:  # as if the server had died before rating it
                        await conn.execute(text("DELETE FROM xeri_ratings"))
                        await conn.execute(text("DELETE FROM xeri_rating_history"))
                        await conn.execute(text("UPDATE xeri_rated_tables SET rated_at = NULL"))
                    return list(await asyncio.gather(*(s.rate_match(made["table_id"]) for s in stores)))
                finally:
                    for s in stores:
                        await s.close()

            assert sorted(asyncio.run(both())) == [False, True]
            assert rating_of(srv, "Ada") == first and len(profile(srv, "Ada")["rating_history"]) == 1
        finally:
            srv.stop()


# --- the leaderboard, and what the answers carry -------------------------------------------------


def test_the_leaderboard_lists_enough_games_and_a_low_deviation_and_hides_who_asks(server: ThreadServer) -> None:
    ada, bob, cem = signed_up(server, "Ada"), signed_up(server, "Bob"), signed_up(server, "Cem")
    for client, matches in ((ada, 2), (bob, 2), (cem, 1)):
        for _ in range(matches):
            play(server, client, rated_vs(client, "easy"))
    board = httpx.get(f"{server.base}/api/leaderboards/classic-2p").json()
    assert (board["min_games"], board["max_deviation"], board["formats"]) == (2, 480, ["classic-2p", "classic-4p"])
    names = [p["name"] for p in board["players"]]
    assert sorted(names) == ["Ada", "Bob"]  # Cem has one rated match
    ratings = [p["rating"] for p in board["players"]]
    assert ratings == sorted(ratings, reverse=True) and [p["rank"] for p in board["players"]] == [1, 2]
    assert httpx.get(f"{server.base}/api/leaderboards/classic-4p").json()["players"] == []
    assert ada.post("/api/account/settings", {"hidden": True}).status_code == 200
    board = httpx.get(f"{server.base}/api/leaderboards/classic-2p").json()
    assert [p["name"] for p in board["players"]] == ["Bob"]
    assert rating_of(server, "Ada") is not None  # hidden from the leaderboard, not from her profile
    r = httpx.get(f"{server.base}/api/leaderboards/pisti-2p")
    assert (r.status_code, r.json()["error"]["code"]) == (404, "no_such_format")


def test_the_leaderboard_and_profile_carry_nothing_private(tmp_path: Path, server: ThreadServer) -> None:
    ada, bob = signed_up(server, "Ada"), signed_up(server, "Bob")
    tables = []
    for _ in range(2):
        made = rated_vs(ada, "easy")
        tables.append(made)
        play(server, ada, made)
    private = bob.post("/api/tables", {"name": "x", "private": True, "seats": [None, {"bot": "easy"}],
                                       **ONE_ROUND}).json()
    play(server, bob, private)
    with sqlite3.connect(db_url(tmp_path).removeprefix("sqlite:///")) as conn:
        ids = [r[0] for r in conn.execute("SELECT id FROM xeri_accounts")]
        secrets = [r[0] for r in conn.execute("SELECT csrf FROM xeri_sessions")]
    texts = [httpx.get(f"{server.base}/api/leaderboards/classic-2p").text,
             httpx.get(f"{server.base}/api/profiles/Ada").text, httpx.get(f"{server.base}/api/profiles/Bob").text]
    for text in texts:
        for secret in [*ids, *secrets, *(t["token"] for t in tables), private["token"], private["table_id"]]:
            assert secret not in text
    board = json.loads(texts[0])
    assert set(board["players"][0]) == {"rank", "name", "rating", "deviation", "games", "wins"}
    point = json.loads(texts[1])["rating_history"][0]
    assert set(point) == {"format", "at", "rating", "deviation", "won"}


# --- issue 42, finding 1: the computer never earns an account's rating ------------------------------------------


def finished(client: AccountClient, table_id: str) -> dict[str, Any]:
    return poll("the match finished", lambda: (i := client.get(f"/api/tables/{table_id}").json())  # type: ignore
                ["status"] == "finished" and i)


def test_a_rated_seat_is_never_played_by_the_computer_it_forfeits_and_the_forfeit_is_kept(tmp_path: Path) -> None:
    """Issue 42, finding 1: ``takeover_level: "master"`` with ``takeover_after: 0`` let the master play a rated seat
    whose account never connected, and rated its wins. Now that seat forfeits at its first turn: a rated loss, no
    card of it played by the computer, counted as a leave by the pairing's penalty, and the end ("forfeit") is kept
    in the table, the history and the replay, across a restart."""
    url = db_url(tmp_path)
    srv = ThreadServer(url, leaderboard=RULES, rated_targets=None).start()
    try:
        ada = signed_up(srv, "Ada")
        made = rated_vs(ada, "easy", takeover_level="master", takeover_after=0)
        info = finished(ada, made["table_id"])
        assert info["end"] == "forfeit" and info["winner"] == 1
        got = rating_of(srv, "Ada")
        assert got is not None and got["games"] == 1 and got["wins"] == 0
        [[expected], _] = rate("classic-2p", [[initial()], ["easy"]], winner=1)
        assert (got["rating"], got["deviation"]) == shown(expected)
    finally:
        srv.stop()
    with sqlite3.connect(tmp_path / "server.sqlite3") as db:
        autos = db.execute("SELECT seat, auto FROM xeri_moves WHERE table_id = ?", (made["table_id"],)).fetchall()
    assert all(seat != 0 for seat, _auto in autos), autos  # the computer played none of Ada's cards
    srv = ThreadServer(url, leaderboard=RULES, rated_targets=None).start()
    try:
        info = finished(ada := AccountClient(srv.base), made["table_id"])
        assert info["end"] == "forfeit" and info["winner"] == 1 and info["seats"][0]["bot"] is None
        [listed] = [m for m in ada.get("/api/matches").json()["matches"] if m["id"] == made["table_id"]]
        assert listed["end"] == "forfeit" and listed["winner"] == 1
        replay = ada.get(f"/api/matches/{made['table_id']}/replay").json()
        assert replay["end"] == "forfeit"
        record = ada.get(f"/api/matches/{made['table_id']}/record").json()  # the forfeit at Ada's first turn
        verdict = verify_match(record)
        assert verdict.ok and verdict.forfeit == Forfeit(seat=0, side=0, reason="away", winner=1), verdict.checks
        assert rating_of(srv, "Ada") == got  # rated once, not again at the restart
    finally:
        srv.stop()


def test_a_connected_rated_player_who_runs_out_of_time_forfeits_with_the_team(server: ThreadServer) -> None:
    """Issue 42, finding 1: a connected player who never moved, with ``turn_timer: 1``, had the master make 24 of
    their moves, rated. Now their turn's end is their forfeit: their side (the team, with 4 players) loses at once,
    and it counts as a leave for the pairing's penalty (one rule: server.rated.policy.forfeits)."""
    ada = signed_up(server, "Ada")
    made = rated_vs(ada, "easy", players=4, takeover_level="master", turn_timer=1)
    player = ada.player(server.ws_base, made["table_id"], made["token"])
    try:
        info = finished(ada, made["table_id"])
    finally:
        player.close()
    assert info["end"] == "forfeit" and info["winner"] == 1
    got = rating_of(server, "Ada", "classic-4p")
    assert got is not None and got["games"] == 1 and got["wins"] == 0
    # A second forfeit (the first is forgiven) makes Ada wait 30 s before a rated pairing: the leave penalty's rule.
    finished(ada, rated_vs(ada, "easy", takeover_after=0)["table_id"])
    seek = ada.post("/api/pairing", {"format": "xeri-2", "rated": True}).json()
    assert server.app.state.pairing.pools.get(seek["seek_id"]).penalty == leave_penalty(2) == 30.0
