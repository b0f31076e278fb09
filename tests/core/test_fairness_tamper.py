"""Altered records that ``xeri verify`` once accepted, and record text that could rewrite a terminal (issue 26).

A record cut short (its last round dropped, or cut inside round 2 with that
round's seed nulled, the result rewritten to what the engine gives) is
unfinished, never verified; under scheme ``xeri-v2`` the match commitment binds
the seat names, the ruleset and every option, so a swapped name, a renamed
winner or another ruleset name fails. Old (``xeri-v1``) records are still
checked, and the output says what their commitment binds. Every command that
prints a record's text escapes its control characters.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.records import copy_record as _copy
from support.records import cut_record as _cut
from support.records import served_record
from xeri import fairness
from xeri.cli import main
from xeri.record import from_record

V1 = "sha256(xeri-v1:{seed}:{salt})"  # the scheme of records made before issue 26
SCHEMES = [V1, "xeri-v2", "xeri-v3"]


def _verify(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: Any, *extra: str) -> tuple[int, str]:
    file = tmp_path / "match.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    code = main(["verify", str(file), *extra])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("cut", ["last round dropped", "cut in round 2"])
def test_a_cut_record_is_unfinished_never_verified(scheme: str, cut: str, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    data = served_record(scheme=scheme)
    seen = data["fairness"]["match"]["commitment"]  # type: ignore[index]
    short = _cut(data, 1) if cut == "last round dropped" else _cut(data, 1, 5)
    verdict = fairness.verify_match(short, seen)
    assert not verdict.ok and not verdict.finished
    assert "unfinished" in verdict.checks[-1].detail and not verdict.checks[-1].ok
    code, out = _verify(tmp_path, capsys, short, "--commitment", seen)
    assert code == 1 and "NOT verified: the record is unfinished" in out
    assert not [line for line in out.splitlines() if line.startswith("verified")], out
    assert "not revealed yet" not in out  # the match seed is in the file: it is checked, not "not revealed"
    assert "FAIL match: unfinished" in out


@pytest.mark.parametrize("scheme", ["xeri-v2", "xeri-v3"])
@pytest.mark.parametrize("change", ["swap seat names", "rename the winner", "ruleset name pisti",
                                    "another option"])
def test_the_v2_commitment_binds_names_and_ruleset(change: str, scheme: str, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    data: dict[str, Any] = served_record(scheme=scheme)
    seen = data["fairness"]["match"]["commitment"]
    assert fairness.verify_match(data, seen).ok
    bad = _copy(data)
    if change == "swap seat names":
        a, b = bad["seats"]
        a["name"], b["name"] = b["name"], a["name"]
    elif change == "rename the winner":
        bad["seats"][bad["result"]["winner"]]["name"] = "Mallory"
    elif change == "ruleset name pisti":
        bad["ruleset"]["name"] = "pisti"
    else:
        bad["ruleset"]["tie_rule"] = "higher"  # no tie in this match: the play is the same, the rules are not
    from_record(bad)  # still a consistent record: only the commitment tells
    verdict = fairness.verify_match(bad)
    assert not verdict.ok and verdict.finished
    assert "is not what was committed to" in verdict.checks[-1].detail
    code, out = _verify(tmp_path, capsys, bad, "--commitment", seen)
    assert code == 1 and out.rstrip().endswith("NOT verified"), out


def test_an_old_v1_record_is_checked_and_says_what_it_binds(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    data: dict[str, Any] = served_record(scheme=V1)
    seen = data["fairness"]["match"]["commitment"]
    code, out = _verify(tmp_path, capsys, data, "--commitment", seen)
    assert code == 0 and out.splitlines()[0].startswith(f"scheme {V1}: the match commitment binds the match seed only")
    assert "seat names, ruleset and options are not bound" in out
    # A v2 record relabelled v1 (to escape the binding) fails: its commitment is not the seed's alone.
    v2: dict[str, Any] = served_record()
    v2["fairness"]["scheme"] = V1
    assert not fairness.verify_match(v2).ok
    code, out = _verify(tmp_path, capsys, served_record(), "--commitment",
                        served_record()["fairness"]["match"]["commitment"])  # type: ignore[index]
    assert code == 1  # another match's commitment
    for scheme in ("xeri-v2", "xeri-v3"):
        honest: dict[str, Any] = served_record(scheme=scheme)
        code, out = _verify(tmp_path, capsys, honest, "--commitment", honest["fairness"]["match"]["commitment"])
        assert code == 0 and out.splitlines()[0].startswith(f"scheme {scheme}: the match commitment binds the "
                                                            "match seed, the ruleset and every option")


def test_a_v3_record_with_a_name_withheld_still_verifies_and_says_so(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 42, finding 10: a deleted account's name is withheld (its seat's salt replaced by the name's hash), and
    the record still verifies against the commitment seen at the table, saying which name is withheld; a changed
    name of another seat, or a changed hash, still fails."""
    data: dict[str, Any] = served_record(scheme=fairness.SCHEME_V3)
    seen = data["fairness"]["match"]["commitment"]
    cut = _copy(data)
    whole = cut["fairness"]["match"]
    whole["seats"][0] = fairness.withheld(whole["seats"][0], cut["seats"][0]["name"])
    cut["seats"][0]["name"] = "deleted player 1234abcd"
    assert "salt" not in whole["seats"][0]  # the salt stays back: no name can be tried against the hash
    verdict = fairness.verify_match(cut, seen)
    assert verdict.ok and verdict.withheld == (0,)
    code, out = _verify(tmp_path, capsys, cut, "--commitment", seen)
    assert code == 0 and "seat 0: name withheld" in out and "verified:" in out, out
    for change in ("the other seat's name", "the withheld hash", "salt for the withheld seat"):
        bad = _copy(cut)
        if change == "the other seat's name":
            bad["seats"][1]["name"] = "Mallory"
        elif change == "the withheld hash":
            bad["fairness"]["match"]["seats"][0]["hash"] = "0" * 64
        else:
            bad["fairness"]["match"]["seats"][0] = {"salt": "00"}
        assert not fairness.verify_match(bad, seen).ok, change
        code, out = _verify(tmp_path, capsys, bad, "--commitment", seen)
        assert code == 1 and out.rstrip().endswith("NOT verified"), (change, out)
    # A v3 record must name every seat's salt or hash.
    short = _copy(data)
    del short["fairness"]["match"]["seats"]
    assert not fairness.verify_match(short).ok


def test_a_bad_fairness_field_is_one_line_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for path, value, named in [("rounds.0.round", [], "fairness.rounds[0].round"),
                               ("rounds.1", "x", "fairness.rounds[1]"),
                               ("rounds.0.salt", {"a": 1}, "fairness.rounds[0].salt"),
                               ("rounds", 5, "fairness.rounds"),
                               ("match", [], "fairness.match"),
                               ("match.commitment", 7, "fairness.match.commitment"),
                               ("match.seats", {}, "fairness.match.seats"),
                               ("match.seats.0", {"withheld": True}, "fairness.match.seats[0].hash"),
                               ("scheme", ["v9"], "fairness.scheme")]:
        data: dict[str, Any] = served_record()
        node = data["fairness"]
        *parents, last = path.split(".")
        for part in parents:
            node = node[int(part)] if part.isdigit() else node[part]
        node[int(last) if last.isdigit() else last] = value
        file = tmp_path / "bad.json"
        file.write_text(json.dumps(data), encoding="utf-8")
        assert main(["verify", str(file)]) == 2, path
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and named in err and "internal error" not in err, err


# --- terminal escapes ---------------------------------------------------------------

PAYLOAD = "\x1b[2K\x1b[1A\x1b[32m\x9b2K\u202e\nverified: forged\x1b[8m"
RAW = ("\x1b", "\x9b", "\u202e")


def _string_paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every string in ``value``, one per shape (list indices past the first are skipped)."""
    if isinstance(value, str):
        yield path
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _string_paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:1]):
            yield from _string_paths(v, (*path, i))


def _planted(data: Any, path: tuple[Any, ...]) -> Any:
    out = _copy(data)
    node = out
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = PAYLOAD + node[path[-1]]
    return out


def _clean(text: str) -> None:
    assert not [c for c in RAW if c in text], repr(text[:400])
    assert not [line for line in text.splitlines() if line.startswith("verified: forged")], text


COMMANDS = [["verify"], ["verify", "--commitment", "0" * 64], ["replay"], ["replay", "--json"],
            ["replay", "--position", "3"]]


def test_every_string_field_is_printed_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data: dict[str, Any] = served_record()
    paths = list(_string_paths(data))
    assert ("seats", 0, "name") in paths and ("rounds", 0, "moves", 0) in paths and len(paths) > 15
    file = tmp_path / "m.json"
    for path in paths:
        file.write_text(json.dumps(_planted(data, path)), encoding="utf-8")
        for command in COMMANDS:
            code = main([command[0], str(file), *command[1:]])
            out = capsys.readouterr()
            assert code in (0, 1, 2), (path, command)
            _clean(out.out + out.err)


def test_history_and_review_escape_a_record_s_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data: dict[str, Any] = served_record()
    for seat in data["seats"]:
        seat["name"] = PAYLOAD + seat["name"]
    data["ruleset"]["name"] = PAYLOAD
    folder = tmp_path / "matches"
    folder.mkdir()
    (folder / "m.json").write_text(json.dumps(data), encoding="utf-8")
    assert main(["history", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr()
    assert "m.json" in out.out
    _clean(out.out + out.err)
    data["ruleset"]["name"] = "classic"
    (folder / "m.json").write_text(json.dumps(data), encoding="utf-8")
    for extra in ([], ["--json"]):
        assert main(["review", str(folder / "m.json"), "--seat", "0", "--iterations", "2", *extra]) == 0
        out = capsys.readouterr()
        assert "\\x1b" in out.out or "\\u001b" in out.out  # the name is shown, escaped
        _clean(out.out + out.err)


def test_a_record_that_does_not_replay_is_not_called_unfinished(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    data: dict[str, Any] = served_record()
    data["rounds"][0]["moves"][0] = "ZZ"
    code, out = _verify(tmp_path, capsys, data)
    assert code == 1 and "does not replay" in out and out.rstrip().endswith("NOT verified") and "unfinished" not in out
