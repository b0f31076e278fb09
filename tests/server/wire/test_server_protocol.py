"""The schema models of what clients send (xeri.server.wire.protocol): their refusals; and the protocol's committed
JSON Schema and TypeScript declarations, both ways (xeri.server.wire.json_schema, scripts/protocol_schema.py)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from xeri.server.wire import protocol
from xeri.server.wire.json_schema import schema, schema_text
from xeri.server.wire.protocol import (
    CreateTable,
    JoinTable,
    LeaveTable,
    Move,
    Ping,
    VerifyRecord,
    VerifyRound,
    message_ref,
    read_message,
)
from xeri.server.wire.refusals import ProtocolError

ROOT = Path(__file__).resolve().parents[3]
MODELS = [*protocol.REQUESTS.values(), *protocol.MESSAGES]


def _script() -> Any:
    spec = importlib.util.spec_from_file_location("protocol_schema", ROOT / "scripts" / "protocol_schema.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_schema_is_the_models() -> None:
    committed = (ROOT / "docs" / "protocol.schema.json").read_text(encoding="utf-8")
    assert committed == schema_text(), "the schema changed: run python scripts/protocol_schema.py --write"


def test_the_committed_schema_and_declarations_are_what_the_script_writes() -> None:
    """Both files, the TypeScript declarations too (json2ts, which npm ci installs), as --write would write them."""
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "protocol_schema.py"), "--check"], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_a_stale_declaration_file_fails_the_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = _script()
    stale = tmp_path / "protocol.d.ts"
    stale.write_text(script.DECLARATIONS.read_text(encoding="utf-8").replace("seat: number", "seat: string", 1),
                     encoding="utf-8")
    script.DECLARATIONS = stale
    script.ROOT = tmp_path.parent
    assert script.main(["--check"]) == 1
    assert "protocol.d.ts" in capsys.readouterr().err


def test_a_seed_is_its_digits_in_every_message_that_carries_one() -> None:
    """64-bit seeds travel as strings (a JSON reader's number holds 2**53 exactly): the schema says so for each."""
    defs = schema()["$defs"]
    for name in ("RevealEvent", "Round", "FairnessRound", "Fairness"):
        fields = defs[name]["properties"]
        field = fields.get("seed") or fields["match_seed"]
        kinds = {s.get("type") for s in field.get("anyOf", [field])}
        assert kinds <= {"string", "null"} and "string" in kinds, (name, field)


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_every_field_names_its_refusal(model: type[msgspec.Struct]) -> None:
    for field in msgspec.structs.fields(model):
        assert isinstance(protocol._refuse_of(field, model), protocol.Refuse)


def _refused(read: Any, value: Any) -> tuple[str, str]:
    with pytest.raises(ProtocolError) as info:
        read(value)
    return info.value.code, info.value.message


SEAT = 'seat 1 must be null or {"bot": level}'


@pytest.mark.parametrize(("value", "code", "message"), [
    ([], "bad_request", "the request body must be a JSON object"),
    ({"colour": "red", "b": 1, "name": 5}, "bad_request", "unknown field(s): b, colour"),
    ({"ruleset": 5}, "bad_ruleset", "ruleset must be a preset name and options an object"),
    ({"options": [1]}, "bad_ruleset", "ruleset must be a preset name and options an object"),
    ({"players": "4"}, "bad_ruleset", "option players must be one of 2, 3, 4, not '4'"),
    ({"players": True}, "bad_ruleset", "option players must be one of 2, 3, 4, not True"),
    ({"target": "x"}, "bad_ruleset", "option target must be an integer 1..10000, not 'x'"),
    ({"seats": 3}, "bad_seats", 'seats must be a list with one entry per seat (null or {"bot": level})'),
    ({"seats": [None, 7]}, "bad_seats", SEAT),
    ({"seats": [None, {"bot": "easy", "x": 1}]}, "bad_seats", SEAT),
    ({"turn_timer": 0.5}, "bad_request", "turn_timer must be null or a number of seconds 1..600"),
    ({"turn_timer": True}, "bad_request", "turn_timer must be null or a number of seconds 1..600"),
    ({"takeover_after": 3601}, "bad_request", "takeover_after must be null or a number of seconds 0..3600"),
    ({"takeover_level": 3}, "bad_level", "takeover_level must be a bot level: easy, medium, hard, strong, master"),
    ({"title": "x" * 101}, "bad_request", "private must be true or false and title a string of at most 100"),
    ({"private": "yes"}, "bad_request", "private must be true or false and title a string of at most 100"),
    ({"name": 5}, "bad_name", "the name must be a string"),
    ({"seat": 1.0}, "bad_seat", "seat must be an integer"),
    # several wrong: the first in the model's order, whatever the client's order
    ({"seat": "x", "name": 5, "turn_timer": -1}, "bad_request",
     "turn_timer must be null or a number of seconds 1..600"),
])
def test_create_table_refusals(value: Any, code: str, message: str) -> None:
    assert _refused(CreateTable.read, value) == (code, message)


def test_create_table_reads_what_the_hand_written_checks_took() -> None:
    req = CreateTable.read({"players": 4, "seats": [None, {}, {"bot": None}, {"bot": "Easy"}], "turn_timer": 30,
                            "takeover_after": None, "private": True, "title": "t", "name": "Ann", "seat": 0})
    assert req.players == 4 and req.turn_timer == 30.0 and isinstance(req.turn_timer, float)
    assert req.seats is not None and [s.bot if s else None for s in req.seats] == [None, None, None, "Easy"]
    assert req.takeover_after is None and req.private and (req.name, req.seat) == ("Ann", 0)
    empty = CreateTable.read({})
    assert empty.players is msgspec.UNSET and empty.takeover_after == 30.0 and empty.ruleset == "classic"
    assert CreateTable.read({"players": None}).players is None  # given as null: the ruleset refuses it


@pytest.mark.parametrize(("read", "value", "code", "message"), [
    (JoinTable.read, "x", "bad_request", "the body must be a JSON object"),
    (JoinTable.read, {}, "bad_name", "the name must be a string"),
    (JoinTable.read, {"name": "a", "seat": False}, "bad_seat", "seat must be an integer"),
    (LeaveTable.read, [], "bad_token", "leaving needs the seat's token"),
    (LeaveTable.read, {"token": ""}, "bad_token", "leaving needs the seat's token"),
    (VerifyRecord.read, {"record": []}, "bad_request", "record must be a match record object"),
    (VerifyRecord.read, {"record": {}, "match_commitment": "ab"}, "bad_request",
     "match_commitment must be the 64 hex digits shown at the table"),
    (VerifyRound.read, {"dealer": 0, "seed": "12a", "salt": "s", "commitment": "c"}, "bad_request",
     "give ruleset, dealer (a seat), seed (an integer), salt and commitment"),
    (VerifyRound.read, {"seed": 1, "salt": "s", "commitment": "c"}, "bad_request",
     "give ruleset, dealer (a seat), seed (an integer), salt and commitment"),
    (VerifyRound.read, {"ruleset": 5, "dealer": 0, "seed": 1, "salt": "s", "commitment": "c"}, "bad_request",
     "ruleset must be a preset name or a ruleset object"),
])
def test_other_request_refusals(read: Any, value: Any, code: str, message: str) -> None:
    assert _refused(read, value) == (code, message)


def test_verify_takes_a_seed_as_digits_and_a_commitment_with_spaces() -> None:
    one = VerifyRound.read({"dealer": 1, "seed": " 18446744073709551615 ", "salt": "s", "commitment": "c"})
    assert int(one.seed) == 2**64 - 1 and one.ruleset == "classic" and one.deal is None
    assert VerifyRecord.read({"record": {}, "match_commitment": " " + "aB" * 32}).record == {}


@pytest.mark.parametrize(("value", "code", "message"), [
    ([1, 2], "bad_message", "a message is a JSON object with a 'type'"),
    ({"ref": 1}, "bad_message", "a message is a JSON object with a 'type'"),
    ({"type": 5}, "bad_message", "a message is a JSON object with a 'type'"),
    ({"type": "dance" * 20}, "unknown_type",
     f"unknown message type {('dance' * 20)[:40]!r}: use move, hint, sync, ping, ready, rematch, takeback or say"),
    ({"type": "takeback"}, "bad_message", "a takeback needs 'version', the table's state version (an integer)"),
    ({"type": "takeback", "version": 1.5}, "bad_message",
     "a takeback needs 'version', the table's state version (an integer)"),
    ({"type": "move", "card": "TD"}, "bad_message", "a move needs 'version', the table's state version (an integer)"),
    ({"type": "move", "version": 1, "card": "TDTDTDTDT"}, "bad_message", 'a move needs \'card\', a card such as "TD"'),
    ({"type": "move", "version": True, "card": 7}, "bad_message", 'a move needs \'card\', a card such as "TD"'),
])
def test_socket_message_refusals(value: Any, code: str, message: str) -> None:
    assert _refused(read_message, value) == (code, message)


def test_socket_messages_and_refs() -> None:
    assert read_message({"type": "move", "card": "TD", "version": 3, "ref": "a", "extra": 1}) == Move(
        ref="a", card="TD", version=3)
    assert read_message({"type": "ping"}) == Ping()
    assert message_ref({"type": "ping", "ref": 10**39}) == 10**39
    assert message_ref({"type": "ping"}) is None
    for bad in (True, "r" * 65, [1], 1.5):
        assert _refused(message_ref, {"ref": bad}) == ("bad_message", "ref must be a short string or an integer")
