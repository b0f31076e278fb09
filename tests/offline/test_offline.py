"""The offline engine (xeri.offline), in CPython: the server's messages and record for the same seeded match.

The browser's offline worker runs this same code under Pyodide (tests/web/test_web_offline.py plays it there); here
each match is played through a real server and through an ``OfflineTable`` given the server table's seed, salt
key and id, the person's seat playing the same cards, and every message and the record must be the same.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.server import Player, ThreadServer, create, db_url
from xeri.offline import pack, worker
from xeri.offline.table import OFFLINE_LEVELS, OfflineError, OfflineTable, offline_levels

#: the matches compared: (ruleset, options, bot levels of seats 1..n-1)
CONFIGS = {
    "classic": ("classic", {"rounds": 2}, ["easy"]),
    "cardgames": ("cardgames", {"match_end": "rounds", "rounds": 1}, ["medium"]),
    "berman": ("berman", {"match_end": "rounds", "rounds": 1}, ["hard"]),
    "pisti": ("pisti", {"match_end": "rounds", "rounds": 1}, ["hard"]),
    "4 players": ("classic", {"players": 4, "rounds": 1}, ["easy", "medium", "hard"]),
}
#: what a TABLE may differ in between the two: the server's seats come and go, its clock is its own
TABLE_KEYS = ("id", "title", "status", "ruleset", "players", "free_seats", "turn_timer", "version", "scores",
              "winner", "rematch")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    srv = ThreadServer(db_url(tmp_path_factory.mktemp("offline-server"))).start()
    yield srv
    srv.stop()


def same_table(ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    for key in TABLE_KEYS:
        assert ours[key] == theirs[key], key
    assert [{k: s[k] for k in ("seat", "side", "name", "bot", "human")} for s in ours["seats"]] == \
        [{k: s[k] for k in ("seat", "side", "name", "bot", "human")} for s in theirs["seats"]]


def comparable(msg: dict[str, Any]) -> dict[str, Any]:
    """A message less what depends on the clock (a pause's seconds left) and the TABLE (compared apart)."""
    out = {k: v for k, v in msg.items() if k != "table"}
    if out.get("pause"):
        out["pause"] = {"waiting": out["pause"]["waiting"]}
    return out


def play_both(server: ThreadServer, name: str, takebacks: int = 0) -> tuple[Player, OfflineTable, str]:
    """One match through the server (a WebSocket client in seat 0) and offline, seat 0 playing its first legal card
    and taking back up to ``takebacks`` times where it may; every message compared on the way. Returns the server's
    client, the offline table and the match id."""
    ruleset, options, levels = CONFIGS[name]
    made = create(server.base, name="Ada", ruleset=ruleset, options=options,
                  seats=[None, *({"bot": lv} for lv in levels)])
    table_id, token = made["table_id"], made["token"]
    served = server.lobby.tables[table_id]
    offline = OfflineTable.create({"ruleset": ruleset, "options": options, "name": "Ada",
                                   "seats": [None, *({"bot": lv} for lv in levels)]},
                                  table_id=table_id, match_seed=served.state.match_seed,
                                  salt_key=served.state.commitments.salt_key, bot_delay=0)
    # ?summary=1, as the page connects: the next round waits for this seat's "ready", as offline.
    p = Player(server.ws_base, table_id, f"{token}&summary=1")
    while offline.version < p.version:  # the server's bots may have moved before this client connected
        offline.bot_move()
    mine = offline.sync()
    same_table(mine["table"], p.sync["table"])
    assert comparable(mine) == comparable(p.sync)
    taken = 0
    for _ in range(400):
        view = p.view
        assert view is not None
        if view["match_over"]:
            break
        if view["turn"] == 0 and taken < takebacks and offline.can_take_back():
            version = p.version
            p.send(type="takeback", version=version)
            [ours] = offline.handle({"type": "takeback", "version": version})
            theirs = p.until(lambda m: m["type"] == "sync")
            same_table(ours["table"], theirs["table"])
            assert ours["takeback"] == theirs["takeback"] and ours["table"]["takebacks"] is True
            assert comparable(ours) == comparable(theirs), f"the takeback at version {version}"
            taken += 1
            continue
        if view["turn"] == 0:
            card = view["legal_moves"][0]
            version = p.version
            p.send(type="move", card=card, version=version)
            ours = offline.handle({"type": "move", "card": card, "version": version})
        else:
            ours = offline.bot_move()
            assert ours, "the offline table did not move for its bot"
        theirs = p.until(lambda m: m["type"] == "update")
        assert comparable(ours[0]) == comparable(theirs), f"version {theirs['version']}"
        if theirs.get("pause"):
            # A round is over: the summary is closed on both, and both tell the table.
            p.send(type="ready")
            table = p.until(lambda m: m["type"] == "table")
            [mine_table] = offline.ready()
            same_table(mine_table["table"], table["table"])
            assert offline.bot_wait() in (None, 0)
    assert offline.match.is_over and p.view is not None and p.view["match_over"]
    assert taken == takebacks
    return p, offline, table_id


@pytest.mark.parametrize("name", list(CONFIGS))
def test_a_seeded_match_gives_the_servers_messages_and_record_byte_for_byte(server: ThreadServer, name: str,
                                                                               tmp_path: Path) -> None:
    p, offline, table_id = play_both(server, name)
    p.close()
    served = httpx.get(f"{server.base}/api/matches/{table_id}/record", timeout=10)
    assert served.status_code == 200
    assert offline.record_text().encode() == served.content
    # The record verifies (xeri verify, the command line), and the saved table replays to the same match.
    path = tmp_path / "record.json"
    path.write_bytes(served.content)
    done = subprocess.run([sys.executable, "-m", "xeri", "verify", str(path)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    again = OfflineTable.from_state(json.loads(json.dumps(offline.state())))
    assert again.record_text() == offline.record_text()


def test_takebacks_offline_are_the_servers(server: ThreadServer, tmp_path: Path) -> None:
    """A takeback offline answers as the server does (its sync, message for message), and the records with their
    takebacks are the same bytes; the saved table replays them."""
    p, offline, table_id = play_both(server, "classic", takebacks=3)
    p.close()
    served = httpx.get(f"{server.base}/api/matches/{table_id}/record", timeout=10)
    assert offline.record_text().encode() == served.content
    assert json.loads(served.content)["version"] == 2
    again = OfflineTable.from_state(json.loads(json.dumps(offline.state())))
    assert again.record_text() == offline.record_text() and again.version == offline.version
    table = OfflineTable.create({"ruleset": "classic", "name": "Bo", "seats": [None, {"bot": "easy"}]}, bot_delay=0)
    while table.match.turn != table.me:
        table.bot_move()
    [refused] = table.handle({"type": "takeback", "version": table.version})
    assert refused["code"] == "nothing_to_take_back"
    [bad] = table.handle({"type": "takeback", "version": "1"})
    assert bad["code"] == "bad_message"


def test_a_saved_table_resumes_where_it_was() -> None:
    table = OfflineTable.create({"ruleset": "classic", "name": "Bo", "seats": [None, {"bot": "hard"}],
                                 "options": {"rounds": 1}}, bot_delay=0)
    for _ in range(9):
        if table.match.turn == table.me:
            table.handle({"type": "move", "card": table.match.legal_moves[-1].code, "version": table.version})
        else:
            table.bot_move()
    saved = json.loads(json.dumps(table.state()))
    assert saved["record"]["format"] == "xeri-record" and saved["record"]["result"]["over"] is False
    again = OfflineTable.from_state(saved, bot_delay=0)
    assert again.version == table.version == 9
    assert again.sync() == table.sync() | {"table": again.sync()["table"]}
    assert again.sync()["table"]["created_at"] == table.sync()["table"]["created_at"]


def test_bad_input_is_refused_with_the_protocols_errors_and_changes_nothing() -> None:
    table = OfflineTable.create({"ruleset": "classic", "name": "Bo", "seats": [None, {"bot": "easy"}]}, bot_delay=0)
    while table.match.turn != table.me:
        table.bot_move()
    before = table.sync()
    hand = {c.code for c in table.match.view(table.me).hand}
    wrong = next(c for c in ("2C", "3D", "4H", "5S", "6C") if c not in hand)
    cases = [
        ({"type": "move", "card": "XX", "version": table.version}, "bad_card"),
        ({"type": "move", "card": wrong, "version": table.version}, "illegal_move"),
        ({"type": "move", "card": sorted(hand)[0], "version": table.version + 5}, "stale"),
        ({"type": "move", "card": sorted(hand)[0]}, "bad_message"),
        ({"type": "move", "card": sorted(hand)[0], "version": True}, "bad_message"),
        ({"type": "fly"}, "unknown_type"),
        ([1, 2], "bad_message"),
        ({"type": "rematch"}, "not_finished"),
    ]
    for message, code in cases:
        [answer] = table.handle(message)
        assert answer["type"] == "error" and answer["code"] == code, (message, answer)
    assert table.sync() == before | {"table": table.sync()["table"]}
    # The worker's text interface says the same, and a broken save is an error, not a traceback.
    assert json.loads(worker.handle("nope", "{}"))["code"] == "no_such_table"
    assert json.loads(worker.open_saved("{}"))["code"] == "bad_state"
    assert json.loads(worker.open_saved("not json"))["code"] == "bad_state"
    assert json.loads(worker.new_table('{"ruleset": "nope"}'))["code"] == "bad_ruleset"
    assert json.loads(worker.new_table('{"seats": [null, null]}'))["code"] == "bad_seats"
    assert json.loads(worker.new_table('{"seats": [null, {"bot": "oracle"}]}'))["code"] == "bad_level"
    with pytest.raises(OfflineError):
        table.record()


def test_the_offline_levels_and_the_hint() -> None:
    # Strong is the learned bot, offered only where NumPy is (this CPython has it; the pack's Pyodide has not).
    assert offline_levels() == ["easy", "medium", "hard", "strong", "master"]
    assert OFFLINE_LEVELS["master"] == "master:early=expert"
    table = OfflineTable.create({"ruleset": "classic", "name": "Bo", "seats": [None, {"bot": "master"}]},
                                bot_delay=0)
    while table.match.turn != table.me:
        table.bot_move()
    [hint] = table.handle({"type": "hint", "ref": 7})
    assert hint["type"] == "hint" and hint["ref"] == 7 and hint["card"] in hint["params"].values()
    assert hint["code"] in ("xeri", "match", "jack_sweep", "empty_pile", "least_given")


def test_the_worker_replays_reviews_and_verifies_offline(server: ThreadServer) -> None:
    p, offline, table_id = play_both(server, "berman")
    p.close()
    text = offline.record_text()
    served = httpx.get(f"{server.base}/api/matches/{table_id}/replay", timeout=10).json()
    assert json.loads(worker.replay(text)) == served
    progress = json.loads(worker.review(table_id, text, 0, moves=3))
    assert progress == {"state": "running", "done": 3, "total": progress["total"]}
    while progress["state"] == "running":
        progress = json.loads(worker.review(table_id, text, 0, moves=50))
    assert progress["review"]["evaluator"] == "master:early=expert,match=0"  # a review weighs points
    assert progress["review"]["moves_reviewed"] == progress["total"]
    first = offline.commitments.history(offline.match)[0]
    body = {"ruleset": offline.ruleset.to_dict(), "dealer": first["dealer"], "seed": first["seed"],
            "salt": first["salt"], "commitment": first["commitment"]}
    ours = json.loads(worker.verify(json.dumps(body)))
    theirs = httpx.post(f"{server.base}/api/verify", json=body, timeout=10).json()
    assert ours == theirs and ours["ok"] is True
    assert json.loads(worker.verify(json.dumps({**body, "salt": "00"})))["ok"] is False


def test_the_wheel_holds_the_core_and_the_bots_only(tmp_path: Path) -> None:
    data = pack.build_wheel()
    path = tmp_path / pack.wheel_name()
    path.write_bytes(data)
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
    modules = {n for n in names if n.endswith(".py")}
    assert {"xeri/engine.py", "xeri/views.py", "xeri/bots/master.py", "xeri/offline/worker.py",
            "xeri/review.py"} <= modules
    assert not [n for n in names if n.startswith(("xeri/server/", "xeri/fast/", "xeri/tui/", "xeri/web/",
                                                 "xeri/integrations/", "xeri/arena/", "xeri/commands/"))]
    assert any(n.endswith(".dist-info/METADATA") for n in names)
    # Every module it holds imports only the standard library and the modules it holds: run it alone.
    code = ("import sys; sys.path[:0] = [sys.argv[1]]; sys.modules['numpy'] = None\n"
            "import json, xeri.offline.worker as w\n"
            "got = json.loads(w.new_table('{\"seats\": [null, {\"bot\": \"master\"}]}', '{\"bot_delay\": 0}'))\n"
            "print(json.loads(w.about())['levels'], got['id'][:8])")
    done = subprocess.run([sys.executable, "-S", "-c", code, str(path)], capture_output=True, text=True, timeout=60,
                          env={"PYTHONPATH": ""})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["['easy',", "'medium',", "'hard',", "'master']", "offline-"]


PYODIDE = Path(os.environ.get("XERI_TEST_PYODIDE")
               or Path(__file__).resolve().parents[2] / ".cache" / "pyodide-314.0.8" / "node_modules" / "pyodide")


def test_the_server_serves_the_pack_and_the_service_worker(tmp_path: Path) -> None:
    assert (PYODIDE / "pyodide.asm.wasm").is_file(), f"scripts/test.sh installs Pyodide at {PYODIDE}"
    srv = ThreadServer(db_url(tmp_path), offline_pack=PYODIDE).start()
    try:
        meta = httpx.get(srv.base + "/api/meta").json()["offline"]
        manifest = httpx.get(srv.base + "/offline/pack.json").json()
        assert meta == {"levels": ["easy", "medium", "hard", "master"], "bytes": manifest["bytes"],
                        "version": manifest["version"]}
        assert manifest["numpy"] is False and manifest["pyodide"] == pack.PYODIDE_VERSION
        # Every file of the manifest, at its size; big ones gzipped, the wasm typed so it compiles as it streams.
        for f in manifest["files"]:
            r = httpx.get(f"{srv.base}/offline/{f['path']}", headers={"Accept-Encoding": "gzip"}, timeout=60)
            assert r.status_code == 200 and len(r.content) == f["bytes"], f
            assert r.headers["content-encoding"] == "gzip" and r.headers["cache-control"] == "no-cache"
            again = httpx.get(f"{srv.base}/offline/{f['path']}", headers={"If-None-Match": r.headers["etag"]})
            assert again.status_code == 304
        wasm = httpx.head(srv.base + "/offline/pyodide/pyodide.asm.wasm")
        assert httpx.get(srv.base + "/offline/pyodide/pyodide.asm.wasm").headers["content-type"] == "application/wasm"
        assert wasm.status_code in (200, 405)
        assert httpx.get(srv.base + "/offline/pyodide/package.json").status_code == 404
        assert httpx.get(srv.base + "/offline/../pyproject.toml").status_code == 404
        # The worker alone may compile WebAssembly; the page's own policy does not allow it.
        worker = httpx.get(srv.base + "/offline/worker.js")
        assert "'wasm-unsafe-eval'" in worker.headers["content-security-policy"]
        assert "wasm-unsafe-eval" not in httpx.get(srv.base + "/").headers["content-security-policy"]
        # The service worker names its version and every file of the page, and not itself nor the pack's worker.
        sw = httpx.get(srv.base + "/sw.js").text
        assert 'const VERSION = "dev";' not in sw and '"/static/js/app.js"' in sw and '"/"' in sw
        assert "/static/js/sw.js" not in sw and "offline/worker.js" not in sw
    finally:
        srv.stop()
    # Without a pack: nothing is offered, and the pack's paths say why.
    bare = ThreadServer(db_url(tmp_path / "bare")).start()
    try:
        assert httpx.get(bare.base + "/api/meta").json()["offline"] is None
        for path in ("/offline/pack.json", "/offline/worker.js", "/offline/pyodide/pyodide.mjs"):
            r = httpx.get(bare.base + path)
            assert r.status_code == 404 and r.json()["error"]["code"] == "no_offline_pack", path
        assert httpx.get(bare.base + "/sw.js").status_code == 200
    finally:
        bare.stop()


def test_a_bad_offline_pack_folder_is_one_line_and_no_server(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    from support.server import free_port
    from xeri.cli import main

    args = ["serve", "--port", str(free_port()), "--db", str(tmp_path / "x.db"), "--offline-pack", str(tmp_path)]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and "npm install pyodide@" in err
