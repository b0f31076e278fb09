"""The match commitment every seat is shown before the first deal checks the finished record (issue 11 §5)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import httpx
import pytest

from support.server import Player, ThreadServer, create, db_url, join, play_out
from xeri import fairness


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    srv = ThreadServer(db_url(tmp_path_factory.mktemp("fair"))).start()
    yield srv
    srv.stop()


def test_each_seat_keeps_the_match_commitment_and_verifies_the_record_with_it(server: ThreadServer) -> None:
    made = create(server.base, name="Ana", seats=[None, None], options={"rounds": 2})
    tid = made["table_id"]
    second = join(server.base, tid, "Ben", 1)
    players = [Player(server.ws_base, tid, made["token"]), Player(server.ws_base, tid, second["token"])]
    spectator = Player(server.ws_base, tid)
    shown = {p.sync["seat"]: p.sync["fairness"]["match_commitment"] for p in (*players, spectator)}
    seen = shown[0]
    assert set(shown) == {0, 1, None} and set(shown.values()) == {seen} and len(seen) == 64
    assert all(e["kind"] != "reveal" for p in players for e in p.sync["events"])  # before any round is over
    assert httpx.get(f"{server.base}/api/tables/{tid}/fairness").json()["match_commitment"] == seen
    play_out(players, random.Random(11))
    for p in (*players, spectator):
        p.close()
    rec = httpx.get(f"{server.base}/api/matches/{tid}/record").json()
    assert rec["fairness"]["match"]["commitment"] == seen
    checks = fairness.verify_record(rec, seen)
    assert all(c.ok for c in checks) and "the one you saw" in checks[-1].detail
    api = f"{server.base}/api/verify"
    assert httpx.post(api, json={"record": rec, "match_commitment": seen.upper()}).json()["ok"] is True
    other = fairness.commitment(12345, "ab")
    answer = httpx.post(api, json={"record": rec, "match_commitment": other}).json()
    assert answer["ok"] is False and "not the one you saw" in answer["detail"]
    bad = httpx.post(api, json={"record": rec, "match_commitment": "nope"})
    assert bad.status_code == 400 and "64 hex digits" in bad.text
    # A finished record with a round seed left out fails, and says what is missing.
    stripped = json.loads(json.dumps(rec))
    stripped["rounds"][0]["seed"] = None
    answer = httpx.post(api, json={"record": stripped}).json()
    assert answer["ok"] is False and "round 1: the round is over, but the record lacks its seed" in answer["detail"]
